"""The types the frontend writes after each statement.

The dialect's statements end with the types of the buffers and barriers they
name, one per distinct name (an MLIR parser cannot look up the type of an
SSA name; lib/Dialect/ExoGPU/IR/StatementSyntax.h). The frontend keeps the
type of every name it defines and writes it back there, in the dialect's
compact syntax (`f32[?, 128] @CudaGmemLinear`, `window f32[64, 32]
@CudaGmemLinear @Sm90_tensorMap(128, 64, 32)`, `barrier[2] @CudaMbarrier`).
Whether the types fit the statement is the tools' business.
"""

from __future__ import annotations

import dataclasses
from typing import Optional, Tuple

Extent = Optional[int]  # None for a dynamic extent, printed `?`


@dataclasses.dataclass(frozen=True)
class BufferType:
    """A data tensor, a window into one, or a barrier array."""

    kind: str  # "tensor", "window" or "barrier"
    shape: Tuple[Extent, ...]
    precision: str = ""  # data buffers
    memory: str = ""  # data buffers: `CudaGmemLinear`, `Sm90_SmemSwizzled(128)`
    special: str = ""  # special windows: `@Sm90_tensorMap(128, 64, 32)`
    barrier_kind: str = ""  # barriers
    guarded: bool = False  # barriers

    @property
    def is_barrier(self) -> bool:
        return self.kind == "barrier"

    @property
    def rank(self) -> int:
        return len(self.shape)

    def split(self, dim: int, factor: int) -> "BufferType":
        """The window `exogpu.split` makes of a buffer of this type: extent
        `E` of dimension `dim` becomes `[E / factor, factor]` (`E / factor`
        dynamic when `E` is), the special window dropped (SplitOp::inferType).
        """
        extent = self.shape[dim]
        parts = (None if extent is None else extent // factor, factor)
        shape = self.shape[:dim] + parts + self.shape[dim + 1:]
        return dataclasses.replace(self, kind="window", shape=shape,
                                   special="")

    def compact(self) -> str:
        """The type as a statement's type list spells it."""
        dims = "[" + ", ".join("?" if d is None else str(d)
                               for d in self.shape) + "]" if self.shape \
            else ""
        if self.is_barrier:
            text = f"barrier{dims} @{self.barrier_kind}"
            return text + (" guarded" if self.guarded else "")
        text = f"{self.precision}{dims} @{self.memory}"
        if self.kind == "window":
            text = "window " + text + (f" {self.special}" if self.special
                                       else "")
        return text
