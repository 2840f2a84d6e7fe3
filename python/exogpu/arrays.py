"""Arrays from any library, through DLPack or `__cuda_array_interface__`.

`view(obj, stream)` describes an array without copying it: its data
pointer, shape, element strides, element type, device and the stream the
producer wants work ordered after. It reads

* DLPack (``obj.__dlpack__()`` and ``obj.__dlpack_device__()``: PyTorch,
  CuPy, JAX, NumPy), passing the consumer's stream so that the producer
  orders its pending work before it (the DLPack stream protocol), and
* the CUDA Array Interface (``obj.__cuda_array_interface__``, version 2 or
  3: CuPy, Numba, PyTorch), whose optional `stream` the caller waits for.

No array library is imported.
"""

from __future__ import annotations

import ctypes
import dataclasses
from typing import Any, Optional, Tuple

# DLDeviceType values (dlpack.h).
DL_CPU, DL_CUDA, DL_CUDA_HOST, DL_CUDA_MANAGED = 1, 2, 3, 13
_DEVICE_NAMES = {DL_CPU: "CPU", DL_CUDA: "CUDA", DL_CUDA_HOST:
                 "CUDA pinned host", DL_CUDA_MANAGED: "CUDA managed"}
DEVICE_TYPES = frozenset({DL_CUDA, DL_CUDA_MANAGED})
HOST_TYPES = frozenset({DL_CPU, DL_CUDA_HOST, DL_CUDA_MANAGED})
_DTYPE_CODE_NAMES = {0: "int", 1: "uint", 2: "float", 4: "bfloat",
                     5: "complex", 6: "bool"}


class _DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class _DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16)]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", _DLDevice),
                ("ndim", ctypes.c_int32), ("dtype", _DLDataType),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("byte_offset", ctypes.c_uint64)]


class _DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", _DLTensor), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]


@dataclasses.dataclass
class ArrayView:
    """An array seen through DLPack or the CUDA Array Interface."""

    pointer: int
    shape: Tuple[int, ...]
    strides: Optional[Tuple[int, ...]]  # in elements; None: row-major
    dtype: Tuple[int, int, int]  # DLPack (code, bits, lanes), or ()
    typestr: str  # the CUDA Array Interface's, or "" (DLPack)
    device_type: int
    device_id: Optional[int]  # None: not known (CUDA Array Interface)
    readonly: bool
    # The CUDA Array Interface's stream (an int, cudaStream_t value), which
    # the consumer's stream must wait for; None: nothing to wait for.
    producer_stream: Optional[int]
    # What keeps the memory alive while the view is used (the capsule).
    keepalive: Any = None

    @property
    def is_contiguous(self) -> bool:
        """Dense and row-major (strides of extent-1 dimensions ignored)."""
        if self.strides is None or 0 in self.shape:
            return True
        expected = 1
        for extent, stride in zip(reversed(self.shape),
                                  reversed(self.strides)):
            if extent != 1 and stride != expected:
                return False
            expected *= extent
        return True

    @property
    def device_name(self) -> str:
        name = _DEVICE_NAMES.get(self.device_type,
                                 f"device type {self.device_type}")
        if self.device_id is not None and self.device_type != DL_CPU:
            name += f" device {self.device_id}"
        return name

    def dtype_name(self) -> str:
        if self.typestr:
            return self.typestr
        code, bits, lanes = self.dtype
        name = f"{_DTYPE_CODE_NAMES.get(code, f'code {code} ')}{bits}"
        return name if lanes == 1 else f"{name}x{lanes}"

    def has_dtype(self, dlpack: Tuple[int, int],
                  typestrs: Tuple[str, ...]) -> bool:
        """Whether the elements are of the type DLPack calls `dlpack`
        (code, bits) and the CUDA Array Interface one of `typestrs`."""
        if self.typestr:
            return self.typestr in typestrs
        return self.dtype == (*dlpack, 1)


def device_of(obj: Any) -> Optional[Tuple[int, int]]:
    """(DLPack device type, device id) of `obj`, or None if it has no
    `__dlpack_device__`."""
    method = getattr(obj, "__dlpack_device__", None)
    if method is None or not hasattr(obj, "__dlpack__"):
        return None
    device_type, device_id = method()
    return int(device_type), int(device_id)


def view(obj: Any, stream: Optional[int]) -> Optional[ArrayView]:
    """Describes `obj`, or None if it is not an array this package reads.

    `stream` is the cudaStream_t (as an int; 0 is the legacy default
    stream) the consumer will use the array on. A PyTorch tensor that
    requires grad is read through `detach()` (the same memory)."""
    if getattr(obj, "requires_grad", False) and hasattr(obj, "detach"):
        obj = obj.detach()
    device = device_of(obj)
    if device is not None:
        return _from_dlpack(obj, device, stream)
    interface = getattr(obj, "__cuda_array_interface__", None)
    if isinstance(interface, dict):
        return _from_cuda_array_interface(interface, obj)
    return None


def _from_dlpack(obj: Any, device: Tuple[int, int],
                 stream: Optional[int]) -> ArrayView:
    if device[0] in (DL_CUDA, DL_CUDA_MANAGED):
        # DLPack forbids 0 for CUDA: 1 names the legacy default stream.
        capsule = obj.__dlpack__(stream=stream or 1)
    else:
        capsule = obj.__dlpack__()
    address = _capsule_pointer(capsule, b"dltensor")
    tensor = _DLManagedTensor.from_address(address).dl_tensor
    ndim = tensor.ndim
    shape = tuple(tensor.shape[i] for i in range(ndim))
    strides = (tuple(tensor.strides[i] for i in range(ndim))
               if tensor.strides else None)
    dtype = (tensor.dtype.code, tensor.dtype.bits, tensor.dtype.lanes)
    # DLPack 0.x has no read-only flag; JAX arrays are immutable.
    readonly = type(obj).__module__.split(".")[0] in ("jax", "jaxlib")
    return ArrayView(
        pointer=(tensor.data or 0) + tensor.byte_offset, shape=shape,
        strides=strides, dtype=dtype, typestr="",
        device_type=tensor.device.device_type,
        device_id=tensor.device.device_id, readonly=readonly,
        producer_stream=None, keepalive=capsule)


def _from_cuda_array_interface(interface: dict, obj: Any) -> ArrayView:
    shape = tuple(int(s) for s in interface["shape"])
    typestr = str(interface["typestr"])
    if typestr[:1] == "=":
        typestr = "<" + typestr[1:]
    itemsize = int(typestr[2:]) if typestr[2:].isdigit() else 0
    pointer, readonly = interface["data"]
    strides = interface.get("strides")
    if strides is not None:
        if itemsize == 0 or any(s % itemsize for s in strides):
            strides = tuple(-1 for _ in strides)  # not element-aligned
        else:
            strides = tuple(int(s) // itemsize for s in strides)
    if interface.get("mask") is not None:
        raise TypeError("masked arrays (a __cuda_array_interface__ mask) "
                        "are not supported")
    return ArrayView(
        pointer=int(pointer or 0), shape=shape, strides=strides,
        dtype=(), typestr=typestr, device_type=DL_CUDA,
        device_id=None, readonly=bool(readonly),
        producer_stream=interface.get("stream"), keepalive=obj)
