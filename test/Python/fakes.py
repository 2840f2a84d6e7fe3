"""Array stand-ins for the tests: they expose `__cuda_array_interface__` or
DLPack on a CUDA device without any array library or GPU."""

import ctypes

from exogpu import arrays

_TYPESTR_ITEMSIZE = {"<f4": 4, "<f8": 8, "<f2": 2, "|i1": 1, "|u1": 1,
                     "<u2": 2, "<i4": 4}


class CudaArray:
    """An object with a __cuda_array_interface__ (version 3)."""

    def __init__(self, shape, typestr="<f4", strides=None, pointer=0x7000000,
                 readonly=False, stream=None, mask=None):
        itemsize = _TYPESTR_ITEMSIZE[typestr]
        self.__cuda_array_interface__ = {
            "shape": tuple(shape), "typestr": typestr,
            "data": (pointer, readonly), "version": 3,
            "strides": None if strides is None else tuple(
                s * itemsize for s in strides),
            "stream": stream, "mask": mask}


_new_capsule = ctypes.pythonapi.PyCapsule_New
_new_capsule.restype = ctypes.py_object
_new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_NAME = ctypes.c_char_p(b"dltensor")


class DLPackCudaArray:
    """An object exporting a DLPack tensor on CUDA device `device_id`; it
    records the stream each export was asked for."""

    def __init__(self, shape, dtype=(2, 32), device_id=0, pointer=0x8000000,
                 strides=None, device_type=arrays.DL_CUDA):
        self._shape = (ctypes.c_int64 * len(shape))(*shape)
        self._strides = None if strides is None else (
            ctypes.c_int64 * len(strides))(*strides)
        self._managed = arrays._DLManagedTensor()
        tensor = self._managed.dl_tensor
        tensor.data = pointer
        tensor.device = arrays._DLDevice(device_type, device_id)
        tensor.ndim = len(shape)
        tensor.dtype = arrays._DLDataType(dtype[0], dtype[1], 1)
        tensor.shape = self._shape
        tensor.strides = None if strides is None else self._strides
        tensor.byte_offset = 16
        self._device = (device_type, device_id)
        self.streams = []

    def __dlpack_device__(self):
        return self._device

    def __dlpack__(self, stream=None):
        self.streams.append(stream)
        return _new_capsule(ctypes.addressof(self._managed), _NAME.value,
                            None)
