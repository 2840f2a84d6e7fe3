"""`exogpu.torch_op`: a compiled proc as a PyTorch custom operator.

The operator is functional: it takes the proc's inputs (the data parameters
it reads) and the control parameters no input has as an extent, and returns
new tensors for its outputs (a read-and-written parameter is copied first);
inputs that are not contiguous are copied.
Its fake implementation computes the outputs' shapes from the signature, so
it traces under torch.compile. PyTorch is imported only when this is used.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from .kernel import Kernel
from .signature import DTYPES, Param, Signature

_SCHEMA_TYPES = {"size": "SymInt", "index": "int", "bool": "bool"}
# Keeps the torch.library.Library objects (and so the registrations) alive.
_LIBRARIES: Dict[str, Any] = {}


def operator_parameters(signature: Signature) -> Tuple[List[Param],
                                                       List[Param]]:
    """(the operator's arguments in order, its results): the inputs, then
    the control parameters no input has as an extent; the outputs."""
    inputs = [p for p in signature.data_params if p.is_input]
    derived = signature.size_sources(inputs)
    controls = [p for p in signature.control_params if p.name not in derived]
    return inputs + controls, signature.outputs


def schema(signature: Signature) -> str:
    """The operator's schema, e.g. ``(Tensor A, Tensor x) -> Tensor``."""
    arguments, results = operator_parameters(signature)
    text = ", ".join(
        f"Tensor {p.name}" if p.is_data else f"{_SCHEMA_TYPES[p.kind]} "
        f"{p.name}" for p in arguments)
    returns = "Tensor" if len(results) == 1 else \
        "(" + ", ".join("Tensor" for _ in results) + ")"
    return f"({text}) -> {returns}"


def torch_op(kernel: Any, *, name: str = None, namespace: str = "exogpu",
             **compile_args: Any) -> Any:
    """Registers `kernel` as the custom operator `namespace::name` (default
    name: the proc's) and returns it (``torch.ops.namespace.name``).

    `kernel` is a compiled `Kernel`, or what `exogpu.compile` takes (a
    Python proc, a `.mlir` file with `proc=`), compiled first with
    `compile_args` (`check=` is required, as for `compile`).

    It runs on CUDA tensors (on CPU tensors too when every data parameter
    is in host memory), on PyTorch's current stream; autograd is not
    supported."""
    try:
        import torch
    except ImportError:
        raise ImportError("exogpu.torch_op needs PyTorch") from None
    if not isinstance(kernel, Kernel):
        from .compiler import compile
        kernel = compile(kernel, **compile_args)
    elif compile_args:
        raise TypeError("a compiled Kernel takes no compile arguments: "
                        f"{', '.join(sorted(compile_args))}")
    signature = kernel.signature
    name = name or signature.name
    qualified = f"{namespace}::{name}"
    if qualified in _LIBRARIES:
        raise ValueError(f"{qualified} is already registered")
    arguments, results = operator_parameters(signature)
    library = torch.library.Library(namespace, "FRAGMENT")
    library.define(name + schema(signature))

    def bind(args: Tuple[Any, ...]) -> Dict[str, Any]:
        return {p.name: value for p, value in zip(arguments, args)}

    def shapes_and_values(given: Dict[str, Any]) -> Dict[str, Any]:
        shapes = {p.name: tuple(given[p.name].shape)
                  for p in arguments if p.is_data}
        controls = {p.name: given[p.name] for p in arguments
                    if not p.is_data}
        return signature.bind(shapes, controls)

    def device_of(given: Dict[str, Any]) -> Any:
        for p in arguments:
            if p.is_data:
                return given[p.name].device
        return torch.device("cuda")

    def implementation(*args: Any) -> Any:
        given = bind(args)
        values = shapes_and_values(given)
        outputs = {}
        for p in results:
            if p.access == "read_write":
                outputs[p.name] = given[p.name].clone(
                    memory_format=torch.contiguous_format)
            else:
                outputs[p.name] = torch.empty(
                    signature.extents(p, values),
                    dtype=getattr(torch, DTYPES[p.dtype][0]),
                    device=device_of(given))
        # Inputs as the kernel takes them: dense and row-major.
        call = {name: value.contiguous() if isinstance(value, torch.Tensor)
                else value for name, value in given.items()
                if name not in outputs}
        call.update(outputs)
        kernel(**call)
        returned = tuple(outputs[p.name] for p in results)
        return returned[0] if len(returned) == 1 else returned

    def fake(*args: Any) -> Any:
        given = bind(args)
        values = shapes_and_values(given)
        returned = tuple(
            torch.empty(signature.extents(p, values),
                        dtype=getattr(torch, DTYPES[p.dtype][0]),
                        device=device_of(given)) for p in results)
        return returned[0] if len(returned) == 1 else returned

    library.impl(name, implementation, "CUDA")
    if all(p.host for p in signature.data_params):
        library.impl(name, implementation, "CPU")
    torch.library.register_fake(qualified, fake, lib=library)
    _LIBRARIES[qualified] = library
    return getattr(getattr(torch.ops, namespace), name)
