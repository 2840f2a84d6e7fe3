"""A compiled proc as a Python callable.

`Kernel` loads the shared library of a built kernel with ctypes and calls
the proc's host function on arrays from any library (arrays.py), after
checking them against the proc's signature (signature.py): element type,
device, shape (the sizes are derived from the shapes), contiguity and the
`requires` clause, each failure a TypeError or ValueError that names the
parameter. Outputs not passed are allocated with the inputs' library.
"""

from __future__ import annotations

import ctypes
import pathlib
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import arrays
from .errors import CudaError
from .signature import DTYPES, Param, Signature

_C_TYPES = {"size": ctypes.c_int64, "index": ctypes.c_int64,
            "bool": ctypes.c_bool}


class Kernel:
    """A proc compiled to a shared library; call it like a function.

    ``kernel(A, B)`` passes data parameters in order; keywords name any
    parameter (``C=c``, ``M=256``); ``out=`` gives the outputs (one array,
    or a tuple in the order of the proc's outputs). Sizes are derived from
    the arrays' shapes where an extent is the size itself. Outputs not
    given are allocated: with PyTorch when the inputs are torch tensors,
    else with CuPy (NumPy for host memory). The call enqueues the kernel on
    `stream` (a cudaStream_t as an int, or an object with `.cuda_stream`,
    `.ptr` or `__cuda_stream__`), else on PyTorch's current stream for
    torch tensors, CuPy's for CuPy arrays, else the default stream; it
    returns the outputs (one array, or a tuple) without waiting for them.
    """

    def __init__(self, library: pathlib.Path, signature: Signature,
                 cuda_source: Optional[pathlib.Path] = None,
                 cached: bool = False):
        self.signature = signature
        self.name = signature.name
        self.library_path = pathlib.Path(library)
        self.cuda_source = cuda_source
        self.cached = cached
        self._library = ctypes.CDLL(str(self.library_path))
        self._function = getattr(self._library, self.name)
        self._function.restype = ctypes.c_int
        self._function.argtypes = [ctypes.c_void_p] + [
            _C_TYPES.get(p.kind, ctypes.c_void_p) for p in signature.params]
        for helper, restype in (("exogpu_py_error_name", ctypes.c_char_p),
                                ("exogpu_py_error_string", ctypes.c_char_p)):
            getattr(self._library, helper).restype = restype
            getattr(self._library, helper).argtypes = [ctypes.c_int]
        self._library.exogpu_py_stream_wait.argtypes = [ctypes.c_void_p,
                                                        ctypes.c_void_p]

    def __repr__(self) -> str:
        return f"<exogpu.Kernel {self.signature.declaration}>"

    def __call__(self, *args: Any, stream: Any = None, out: Any = None,
                 **kwargs: Any) -> Any:
        signature = self.signature
        where = f"{self.name}()"
        given = self._match_arguments(args, out, kwargs)
        controls = {name: value for name, value in given.items()
                    if not signature.param(name).is_data}
        data = {name: value for name, value in given.items()
                if signature.param(name).is_data}
        library = _array_library(data.values())
        handle = _stream_handle(stream, library, data.values())
        views: Dict[str, arrays.ArrayView] = {}
        for name, obj in data.items():
            views[name] = self._check_array(signature.param(name), obj,
                                            handle)
        device_ids = {v.device_id for v in views.values()
                      if v.device_id is not None and
                      v.device_type in arrays.DEVICE_TYPES}
        if len(device_ids) > 1:
            raise ValueError(f"{where}: the arrays are on different devices "
                             f"({', '.join(map(str, sorted(device_ids)))})")
        for p in signature.data_params:
            if p.name not in data and p.access != "write":
                role = "an input" if p.access == "read" else \
                    "read and written"
                raise TypeError(f"{where}: missing array {p.describe()} "
                                f"({role}: pass it)")
        values = signature.bind({n: v.shape for n, v in views.items()},
                                controls)
        for p in signature.data_params:
            if p.name in data:
                continue
            device_id = next(iter(device_ids), None)
            data[p.name] = _allocate(p, signature.extents(p, values),
                                     library, device_id, where)
            views[p.name] = self._check_array(p, data[p.name], handle)
        call_args: List[Any] = [handle or None]
        for p in signature.params:
            call_args.append(views[p.name].pointer or None if p.is_data
                             else values[p.name])
        if any(not p.host for p in signature.data_params):
            self._launch(call_args, views, device_ids, handle)
        else:
            self._check(self._function(*call_args), "the host function")
        outputs = tuple(data[p.name] for p in signature.outputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def _match_arguments(self, args: Sequence[Any], out: Any,
                         kwargs: Dict[str, Any]) -> Dict[str, Any]:
        """Parameter name -> the object passed for it."""
        signature = self.signature
        where = f"{self.name}()"
        data_params = signature.data_params
        if len(args) > len(data_params):
            listed = ", ".join(p.name for p in data_params)
            raise TypeError(f"{where} takes {len(data_params)} array "
                            f"arguments ({listed}), got {len(args)}")
        given: Dict[str, Any] = {p.name: a for p, a in zip(data_params, args)}
        names = {p.name for p in signature.params}
        for name, value in kwargs.items():
            if name not in names:
                raise TypeError(f"{where} has no parameter {name!r} "
                                f"(parameters: {', '.join(sorted(names))})")
            if name in given:
                raise TypeError(f"{where} got two values for {name!r}")
            given[name] = value
        if out is not None:
            outputs = signature.outputs
            outs = out if isinstance(out, (tuple, list)) else (out,)
            if len(outs) != len(outputs):
                raise TypeError(f"{where}: out= takes {len(outputs)} arrays "
                                f"({', '.join(p.name for p in outputs)}), "
                                f"got {len(outs)}")
            for p, obj in zip(outputs, outs):
                if p.name in given:
                    raise TypeError(f"{where} got two values for {p.name!r}")
                given[p.name] = obj
        return given

    def _check_array(self, p: Param, obj: Any,
                     stream: Optional[int]) -> arrays.ArrayView:
        """The view of `obj` for parameter `p`; raises if it cannot be."""
        where = f"{self.name}()"
        try:
            view = arrays.view(obj, stream)
        except (TypeError, RuntimeError, BufferError, ValueError) as error:
            raise TypeError(f"{where}: {p.name}: cannot read the array: "
                            f"{error}") from error
        if view is None:
            raise TypeError(f"{where}: {p.name} must be an array (DLPack or "
                            "__cuda_array_interface__), got "
                            f"{type(obj).__name__}")
        dtype_name, dlpack, typestrs = DTYPES[p.dtype]
        if not view.has_dtype(dlpack, typestrs):
            raise TypeError(f"{where}: {p.name} must hold {dtype_name} "
                            f"({p.dtype}), got {view.dtype_name()}")
        wanted = arrays.HOST_TYPES if p.host else arrays.DEVICE_TYPES
        if view.device_type not in wanted:
            memory = "host memory" if p.host else "CUDA device memory"
            raise ValueError(f"{where}: {p.name} must be in {memory} "
                             f"(@{p.memory}), got a {view.device_name} array")
        if not view.is_contiguous:
            raise ValueError(f"{where}: {p.name} must be contiguous "
                             f"(row-major, dense); its strides are "
                             f"{view.strides} elements for shape "
                             f"{view.shape}: pass a contiguous copy")
        if p.is_output and view.readonly:
            raise ValueError(f"{where}: {p.name} is written by the kernel but "
                             "the array is read-only")
        return view

    def _launch(self, call_args: List[Any],
                views: Dict[str, arrays.ArrayView], device_ids: set,
                handle: Optional[int]) -> None:
        """Calls the host function on the arrays' device, after the
        producers' streams."""
        library = self._library
        previous = None
        if device_ids:
            current = ctypes.c_int()
            self._check(library.exogpu_py_get_device(ctypes.byref(current)),
                        "cudaGetDevice")
            target = next(iter(device_ids))
            if current.value != target:
                previous = current.value
                self._check(library.exogpu_py_set_device(target),
                            "cudaSetDevice")
        try:
            for producer in {v.producer_stream for v in views.values()
                             if v.producer_stream is not None}:
                if producer != (handle or 0):
                    self._check(library.exogpu_py_stream_wait(
                        handle or None, producer), "cudaStreamWaitEvent")
            self._check(self._function(*call_args), "the host function")
        finally:
            if previous is not None:
                library.exogpu_py_set_device(previous)

    def _check(self, error: int, what: str) -> None:
        if error != 0:
            name = self._library.exogpu_py_error_name(error).decode()
            text = self._library.exogpu_py_error_string(error).decode()
            raise CudaError(error, name, text, f"{self.name}(): {what}")


def _library_of(obj: Any) -> str:
    return type(obj).__module__.split(".")[0]


def _array_library(objects: Sequence[Any]) -> Optional[str]:
    """The library of the arrays: "torch", "cupy" or None."""
    libraries = {_library_of(obj) for obj in objects}
    for name in ("torch", "cupy"):
        if name in libraries:
            return name
    return None


def _stream_handle(stream: Any, library: Optional[str],
                   objects: Sequence[Any]) -> Optional[int]:
    """The cudaStream_t value (an int) to launch on; None: the default."""
    if stream is None:
        if library == "torch":
            torch = sys.modules["torch"]
            devices = [obj.device for obj in objects
                       if _library_of(obj) == "torch" and
                       obj.device.type == "cuda"]
            if devices:
                return torch.cuda.current_stream(devices[0]).cuda_stream
        elif library == "cupy":
            return sys.modules["cupy"].cuda.get_current_stream().ptr
        return None
    if isinstance(stream, int):
        return stream
    if hasattr(stream, "__cuda_stream__"):
        return int(stream.__cuda_stream__()[1])
    for attribute in ("cuda_stream", "ptr"):
        if hasattr(stream, attribute):
            return int(getattr(stream, attribute))
    raise TypeError("stream must be a cudaStream_t (an int) or a stream "
                    f"object (torch.cuda.Stream, cupy Stream), got "
                    f"{type(stream).__name__}")


def _allocate(p: Param, shape: Tuple[int, ...], library: Optional[str],
              device_id: Optional[int], where: str) -> Any:
    """An uninitialized array for output `p`."""
    if p.host:
        import numpy
        return numpy.empty(shape, dtype=numpy_dtype(p.dtype))
    if library == "torch":
        torch = sys.modules["torch"]
        device = torch.device("cuda", device_id) if device_id is not None \
            else torch.device("cuda")
        return torch.empty(shape, dtype=getattr(torch, DTYPES[p.dtype][0]),
                           device=device)
    try:
        import cupy
    except ImportError:
        raise TypeError(
            f"{where}: cannot allocate the output {p.describe()}: pass it "
            f"({p.name}=... or out=), or pass torch tensors or install CuPy"
        ) from None
    if p.dtype == "bf16":
        raise TypeError(f"{where}: CuPy has no bfloat16: pass {p.name}")
    with cupy.cuda.Device(device_id if device_id is not None else
                          cupy.cuda.runtime.getDevice()):
        return cupy.empty(shape, dtype=numpy_dtype(p.dtype))


def numpy_dtype(dtype: str) -> Any:
    """The NumPy dtype of an exogpu element type (bf16: ml_dtypes')."""
    import numpy
    if dtype == "bf16":
        try:
            import ml_dtypes
        except ImportError:
            raise TypeError("NumPy has no bfloat16: install ml_dtypes") \
                from None
        return numpy.dtype(ml_dtypes.bfloat16)
    return numpy.dtype(DTYPES[dtype][0])
