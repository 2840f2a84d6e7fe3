"""Building a translated kernel into a shared library with nvcc.

The library holds the host functions of docs/cuda-translation.md "The host
API" (C linkage) and the helpers of `shim.cu`; the CUDA runtime is linked
statically, so loading it needs only the CUDA driver (and calling a host
function that launches nothing, not even that).
"""

from __future__ import annotations

import ctypes
import functools
import pathlib
import re
import subprocess
from typing import List, Optional, Sequence, Tuple

from . import tools
from .errors import BuildError, ToolNotFoundError

SHIM = pathlib.Path(__file__).with_name("shim.cu")


def normalize_arch(arch: str) -> str:
    """`sm_90a` from "sm_90a", "90a", "9.0a" or "compute_90a"."""
    match = re.fullmatch(r"(?:sm_|compute_)?(\d+)\.?(\d*)([a-z]?)",
                         str(arch).strip())
    if not match:
        raise ValueError(f"unknown GPU architecture {arch!r} (expected e.g. "
                         "'sm_90a' or 'sm_80')")
    return f"sm_{match.group(1)}{match.group(2)}{match.group(3)}"


def arch_flags(arch: str) -> List[str]:
    """nvcc flags for `arch`; arch-specific targets (sm_90a) need
    -gencode."""
    number = arch[len("sm_"):]
    if number.endswith("a"):
        return ["-gencode", f"arch=compute_{number},code={arch}"]
    return [f"-arch={arch}"]


def arch_of_capability(major: int, minor: int) -> str:
    """The target for a compute capability: sm_90a on Hopper (wgmma, TMA
    multicast and setmaxnreg are sm_90a features), sm_XY elsewhere."""
    return f"sm_{major}{minor}" + ("a" if (major, minor) == (9, 0) else "")


def detect_arch() -> Optional[str]:
    """The architecture of the current CUDA device (PyTorch's when PyTorch
    is loaded and sees a GPU, else device 0 through the CUDA driver), or
    None without a GPU."""
    import sys
    torch = sys.modules.get("torch")
    if torch is not None:
        try:
            if torch.cuda.is_available():
                return arch_of_capability(*torch.cuda.get_device_capability())
        except Exception:  # noqa: BLE001 - fall back to the driver
            pass
    try:
        driver = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return None
    device = ctypes.c_int()
    major, minor = ctypes.c_int(), ctypes.c_int()
    if (driver.cuInit(0) != 0 or
            driver.cuDeviceGet(ctypes.byref(device), 0) != 0 or
            driver.cuDeviceGetAttribute(ctypes.byref(major), 75, device) != 0
            or driver.cuDeviceGetAttribute(ctypes.byref(minor), 76,
                                           device) != 0):
        return None
    return arch_of_capability(major.value, minor.value)


def resolve_arch(arch: Optional[str]) -> str:
    if arch is not None:
        return normalize_arch(arch)
    detected = detect_arch()
    if detected is None:
        raise ToolNotFoundError(
            "no CUDA GPU found to compile for: pass arch= (e.g. "
            "arch='sm_90a')")
    return detected


@functools.lru_cache(maxsize=None)
def _gpu_codes(nvcc: str) -> Tuple[str, ...]:
    """The `sm_XY` targets `nvcc --list-gpu-code` lists (none if it cannot
    say)."""
    result = subprocess.run([nvcc, "--list-gpu-code"], capture_output=True,
                            text=True)
    return tuple(result.stdout.split()) if result.returncode == 0 else ()


def check_arch(nvcc: pathlib.Path, arch: str) -> None:
    """Raises ValueError when `nvcc` cannot build for `arch` (sm_90a is
    sm_90 with its architecture-specific features), before any tool runs."""
    codes = _gpu_codes(str(nvcc))
    base = re.sub(r"[af]$", "", arch)
    if codes and base not in codes:
        raise ValueError(f"nvcc ({nvcc}) cannot build for {arch}: it builds "
                         f"for {', '.join(codes)}")


def nvcc_command(nvcc: pathlib.Path, arch: str, sources: Sequence[str],
                 output: str, extra_flags: Sequence[str]) -> List[str]:
    return [str(nvcc), "-std=c++17", "-O3", "-shared", "-Xcompiler", "-fPIC",
            f"-I{tools.runtime_include_dir()}", *arch_flags(arch),
            *extra_flags, *sources, "-o", output]


def build_library(cuda_file: pathlib.Path, output: pathlib.Path, arch: str,
                  extra_flags: Sequence[str] = ()) -> None:
    """Builds `cuda_file` and the shim into the shared library `output`."""
    nvcc = tools.require_nvcc()
    command = nvcc_command(nvcc, arch, [str(cuda_file), str(SHIM)],
                           str(output), extra_flags)
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise BuildError(f"nvcc failed ({' '.join(command)})",
                         result.stdout + result.stderr)
