"""The names of the ExoGPU language as Python objects (`exogpu.lang`).

A proc's body is never executed: the frontend reads it with `ast` and looks
its names up in the function's module (so `from exogpu.lang import *`, an
alias or a module-level constant all work as in Python). These objects are
what the names resolve to. Each knows its spelling in the `exogpu` dialect
(`.mlir_text()`); none of them checks anything, every rule is the tools'
(seeds/002 Fig. 10-16 define the names; docs/python.md "The language").
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Sequence, Tuple


class Keyword:
    """A name with a fixed meaning in proc bodies (`seq`, `Fence`, ...).

    Calling it outside a proc body is an error: procs are read, not run."""

    def __init__(self, name: str, what: str):
        self.name = name
        self.what = what

    def __repr__(self) -> str:
        return self.name

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self.name} is the language's {self.what}: it is "
                        "written in the body of an @proc, which ExoGPU reads "
                        "and never runs")


# Loop modes (Fig. 2) and statements written as calls (Fig. 2).
seq = Keyword("seq", "sequential loop")
cuda_tasks = Keyword("cuda_tasks", "loop over clusters")
cuda_threads = Keyword("cuda_threads", "loop over the threads of a cluster")
Fence = Keyword("Fence", "non-split barrier")
Arrive = Keyword("Arrive", "split barrier arrive")
Await = Keyword("Await", "split barrier await")
# Data functions (Fig. 1 DExpr plus issue 25's softmax functions); `max` is
# Python's builtin.
exp2 = Keyword("exp2", "base-2 exponential of data expressions")
log2 = Keyword("log2", "base-2 logarithm of data expressions")
# A window that views one dimension of a buffer as two (`w = split(x, dim=1,
# by=64)`, exogpu.split).
split = Keyword("split", "dimension split")


class Precision:
    """A data precision (Fig. 10): `f32`, `bf16`, ... `f32[M, K]` in an
    annotation is read by the frontend, never evaluated."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name

    def mlir_text(self) -> str:
        return self.name


f16, bf16, f32, f64 = (Precision(n) for n in ("f16", "bf16", "f32", "f64"))
i8, ui8, ui16, i32 = (Precision(n) for n in ("i8", "ui8", "ui16", "i32"))
PRECISIONS = (f16, bf16, f32, f64, i8, ui8, ui16, i32)


class ControlKind:
    """A control parameter's kind: `size`, `index` (Python's `bool` is the
    boolean kind)."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


size = ControlKind("size")
index = ControlKind("index")


class BarrierType:
    """`barrier`, the type of barrier allocations (Fig. 10)."""

    def __repr__(self) -> str:
        return "barrier"


barrier = BarrierType()


@dataclasses.dataclass(frozen=True)
class Memory:
    """A data memory type of Fig. 12; `Sm90_SmemSwizzled(128)` gives the
    memory with its parameters."""

    name: str
    args: Tuple[int, ...] = ()

    def __call__(self, *args: int) -> "Memory":
        if self.args:
            raise TypeError(f"{self.mlir_text()} already has its parameters")
        if not all(isinstance(a, int) and not isinstance(a, bool)
                   for a in args):
            raise TypeError(f"the parameters of {self.name} are integers")
        return Memory(self.name, tuple(args))

    def __repr__(self) -> str:
        return self.mlir_text()

    def mlir_text(self) -> str:
        if not self.args:
            return self.name
        return f"{self.name}({', '.join(str(a) for a in self.args)})"


MEMORY_NAMES = (
    "DRAM", "CudaBasicDeviceVisible", "CudaBasicSmem",
    "CudaDeviceVisibleAtomicity16B", "CudaDeviceVisibleLinear",
    "CudaGridConstant", "CudaGmemLinear", "CudaSmemAtomicity16B",
    "CudaSmemLinear", "CudaRmem", "Sm80_RmemMatrixA", "Sm80_RmemMatrixB",
    "Sm80_RmemMatrixD", "Sm90_SmemSwizzled", "Sm90_RmemMatrixA",
    "Sm90_RmemMatrixD")
MEMORIES = {name: Memory(name) for name in MEMORY_NAMES}


@dataclasses.dataclass(frozen=True)
class BarrierKind:
    """A barrier completion mechanism of Fig. 13; `CudaMbarrier(guarded=True)`
    is the explicitly guarded barrier type `barrier(z)` of Fig. 10."""

    name: str
    guarded: bool = False

    def __call__(self, *, guarded: bool = False) -> "BarrierKind":
        return BarrierKind(self.name, guarded)

    def __repr__(self) -> str:
        return self.name + ("(guarded=True)" if self.guarded else "")


BARRIER_KIND_NAMES = ("CudaDeviceBarrier", "CudaMbarrier", "CudaCommitGroup",
                      "CudaClusterSync")
BARRIER_KINDS = {name: BarrierKind(name) for name in BARRIER_KIND_NAMES}


@dataclasses.dataclass(frozen=True)
class SpecialWindow:
    """A special window of Fig. 14: `Sm90_tensorMap(swizzle, *box)`."""

    swizzle: int
    box: Tuple[int, ...]

    def mlir_text(self) -> str:
        return "@Sm90_tensorMap(" + ", ".join(
            str(v) for v in (self.swizzle, *self.box)) + ")"


def Sm90_tensorMap(swizzle: int, *box: int) -> SpecialWindow:
    """A CUtensorMap window for TMA: swizzle mode (bytes) and box."""
    values = (swizzle, *box)
    if not all(isinstance(v, int) and not isinstance(v, bool)
               for v in values):
        raise TypeError("Sm90_tensorMap takes integers: the swizzle and the "
                        "box")
    return SpecialWindow(swizzle, tuple(box))


@dataclasses.dataclass(frozen=True)
class CollUnit:
    """A collective unit of Fig. 11; `4 * cuda_warp` scales one, the strided
    units take their parameters: `cuda_threads_strided(2, 4)`."""

    name: str
    scale: int = 1
    args: Tuple[int, ...] = ()

    def __rmul__(self, factor: int) -> "CollUnit":
        if not isinstance(factor, int) or isinstance(factor, bool):
            return NotImplemented
        return CollUnit(self.name, self.scale * factor, self.args)

    __mul__ = __rmul__

    def __call__(self, *args: int) -> "CollUnit":
        for arg in args:
            _check(arg, int, f"the parameters of {self.name}")
        return CollUnit(self.name, self.scale, tuple(args))

    def __repr__(self) -> str:
        return self.mlir_text()

    def mlir_text(self) -> str:
        text = self.name
        if self.args:
            text += "(" + ", ".join(str(a) for a in self.args) + ")"
        return text if self.scale == 1 else f"{self.scale} * {text}"


COLL_UNIT_NAMES = (
    "standalone_thread", "cuda_thread", "cuda_quadpair", "cuda_warp",
    "cuda_warpgroup", "cuda_threads_strided", "cuda_warp_in_cluster",
    "cuda_cta_in_cluster", "cuda_cluster", "cuda_cta_in_cluster_strided",
    "cuda_warp_in_cluster_strided", "cuda_agnostic_sub_cta",
    "cuda_agnostic_intact_cta")
COLL_UNITS = {name: CollUnit(name) for name in COLL_UNIT_NAMES}


class Timeline:
    """A synchronization timeline of Fig. 16 (Fence, Arrive, Await) or a
    qualitative timeline of Fig. 15 (instruction parameters)."""

    def __init__(self, name: str, qualitative: bool):
        self.name = name
        self.qualitative = qualitative

    def __repr__(self) -> str:
        return self.name


SYNC_TIMELINE_NAMES = (
    "empty_sync_tl", "cpu_in_order", "cuda_stream_sync", "cuda_in_order",
    "cuda_temporal", "Sm80_cp_async", "Sm80_generic", "tma_to_smem_async",
    "tma_to_gmem_async", "wgmma_async_smem", "wgmma_fence_1", "wgmma_fence_2",
    "wgmma_async", "cuda_async_proxy", "cuda_async_proxy_wgmma",
    "cuda_generic_and_async")
QUAL_TIMELINE_NAMES = (
    "cpu_in_order_qual", "cpu_cuda_stream_qual", "cuda_in_order_rmem_qual",
    "cuda_in_order_ram_qual", "Sm80_cp_async_qual", "tma_to_smem_async_qual",
    "tma_to_gmem_async_qual", "wgmma_async_rmem_a_qual",
    "wgmma_async_rmem_d_qual", "wgmma_async_smem_qual", "wgmma_zero_qual")
SYNC_TIMELINES = {n: Timeline(n, False) for n in SYNC_TIMELINE_NAMES}
QUAL_TIMELINES = {n: Timeline(n, True) for n in QUAL_TIMELINE_NAMES}


@dataclasses.dataclass(frozen=True)
class CudaWarpConfig:
    """A named group of warps (Fig. 3): `count` warps named `name`, moving
    to `setmaxnreg_dec` / `setmaxnreg_inc` registers when non-zero."""

    name: str
    count: int
    setmaxnreg_dec: int = 0
    setmaxnreg_inc: int = 0

    def mlir_text(self) -> str:
        _check(self.name, str, "a warp group's name")
        for value in (self.count, self.setmaxnreg_dec, self.setmaxnreg_inc):
            _check(value, int, "a warp group's count and registers")
        return (f'"{self.name}" = ({self.count}, {self.setmaxnreg_dec}, '
                f"{self.setmaxnreg_inc})")


@dataclasses.dataclass(frozen=True)
class CudaDeviceFunction:
    """`with CudaDeviceFunction(...)`: a kernel launch (Sec. 3.4)."""

    clusterDim: Optional[int] = None
    blockDim: Optional[int] = None
    warp_config: Optional[Sequence[CudaWarpConfig]] = None

    def mlir_fields(self) -> str:
        fields = []
        if self.clusterDim is not None:
            _check(self.clusterDim, int, "clusterDim")
            fields.append(f"clusterDim = {self.clusterDim}")
        if self.blockDim is not None:
            _check(self.blockDim, int, "blockDim")
            fields.append(f"blockDim = {self.blockDim}")
        if self.warp_config is not None:
            groups = list(self.warp_config)
            if not all(isinstance(g, CudaWarpConfig) for g in groups):
                raise TypeError("warp_config is a list of CudaWarpConfig")
            fields.append("warps = [" + ", ".join(
                g.mlir_text() for g in groups) + "]")
        return ", ".join(fields)


@dataclasses.dataclass(frozen=True)
class CudaWarps:
    """`with CudaWarps(lo, hi, name=...)`: warp specialization (guide,
    "Warp Specialization"); either the range or the name may be left out."""

    lo: Optional[int] = None
    hi: Optional[int] = None
    name: Optional[str] = None

    def mlir_fields(self) -> str:
        text = ""
        if self.name is not None:
            text = f' "{_check(self.name, str, "a warp group name")}"'
        if self.lo is not None or self.hi is not None:
            if self.lo is None or self.hi is None:
                raise TypeError("CudaWarps takes both lo and hi, or neither")
            _check(self.lo, int, "CudaWarps' lo")
            _check(self.hi, int, "CudaWarps' hi")
            text += f"({self.lo}, {self.hi})"
        if not text:
            raise TypeError("CudaWarps takes a warp range (lo, hi), a name, "
                            "or both")
        return text


@dataclasses.dataclass(frozen=True)
class CudaAsync:
    """`with CudaAsync(tl)` (guide, "Async Blocks"). The exogpu dialect
    takes an instruction's timelines from its declaration, so the block adds
    no statement: its body is emitted in place (docs/python.md)."""

    timeline: Timeline


@dataclasses.dataclass(frozen=True)
class Arg:
    """The hardware annotations of an instruction parameter (Fig. 2 `Arg`):
    `A: f32[16, 8] @ CudaSmemLinear @ Arg(out_of_order=True, ...)`."""

    out_of_order: bool = False
    convergent: bool = False
    dist: Sequence[CollUnit] = ()
    init: Optional[Timeline] = None
    ext: Sequence[Timeline] = ()
    atomic: Sequence[Timeline] = ()

    def mlir_text(self) -> str:
        fields = []
        if self.out_of_order:
            fields.append("out_of_order")
        if self.convergent:
            fields.append("convergent")
        if self.dist:
            fields.append("dist = [" + ", ".join(
                _unit(u).mlir_text() for u in self.dist) + "]")
        if self.init is not None:
            fields.append(f"init = {_qual(self.init).name}")
        if self.ext:
            fields.append("ext = [" + ", ".join(
                _qual(t).name for t in self.ext) + "]")
        if self.atomic:
            fields.append("atomic = [" + ", ".join(
                _qual(t).name for t in self.atomic) + "]")
        return ", ".join(fields)


def _check(value, expected: type, what: str):
    """`value`, if it is of the `expected` Python type (bools are not
    integers); else TypeError."""
    if not isinstance(value, expected) or isinstance(value, bool):
        kind = "an integer" if expected is int else "a string"
        raise TypeError(f"{what} must be {kind}, got {value!r}")
    if expected is str and (not value or not all(
            c.isalnum() or c in "_-." for c in value)):
        raise TypeError(f"{what} is a name of letters, digits, '_', '-' "
                        f"or '.', got {value!r}")
    return value


def _unit(value) -> CollUnit:
    if not isinstance(value, CollUnit):
        raise TypeError(f"expected a collective unit, got {value!r}")
    return value


def _qual(value) -> Timeline:
    if not isinstance(value, Timeline) or not value.qualitative:
        raise TypeError(f"expected a qualitative timeline (..._qual), got "
                        f"{value!r}")
    return value


def names() -> dict:
    """Every name of the language, for `from exogpu.lang import *`."""
    table = {
        "seq": seq, "cuda_tasks": cuda_tasks, "cuda_threads": cuda_threads,
        "Fence": Fence, "Arrive": Arrive, "Await": Await, "exp2": exp2,
        "log2": log2, "size": size, "index": index, "barrier": barrier,
        "Sm90_tensorMap": Sm90_tensorMap, "CudaWarpConfig": CudaWarpConfig,
        "CudaDeviceFunction": CudaDeviceFunction, "CudaWarps": CudaWarps,
        "CudaAsync": CudaAsync, "Arg": Arg, "split": split,
    }
    table.update({p.name: p for p in PRECISIONS})
    for group in (MEMORIES, BARRIER_KINDS, COLL_UNITS, SYNC_TIMELINES,
                  QUAL_TIMELINES):
        table.update(group)
    return table
