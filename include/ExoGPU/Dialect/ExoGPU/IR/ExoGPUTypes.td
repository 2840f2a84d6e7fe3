//===- ExoGPUTypes.td - exogpu types -----------------------*- tablegen -*-===//
//
// Buffer and barrier types of the GPU IR (seeds/002 Fig. 10, 12-14). A data
// buffer type carries its precision, its shape and its memory type; dynamic
// extents (`?`) are given by the defining op (alloc, proc parameter, window)
// as control expressions over size parameters.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TYPES_TD
#define EXOGPU_TYPES_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.td"

def ExoGPU_BufferTypeInterface : TypeInterface<"BufferTypeInterface"> {
  let cppNamespace = "::mlir::exogpu";
  let description = [{
    A data buffer: a tensor or a window into one. Gives precision, shape and
    memory type.
  }];
  let methods = [
    InterfaceMethod<"The precision of the elements.", "::mlir::Type",
                    "getElementType">,
    InterfaceMethod<"The extents; ShapedType::kDynamic for `?`.",
                    "::llvm::ArrayRef<int64_t>", "getShape">,
    InterfaceMethod<"The data memory type.", "MemoryAttr", "getMemory">,
  ];
  let extraClassDeclaration = [{
    unsigned getRank() { return getShape().size(); }
  }];
}

def ExoGPU_TensorType : ExoGPU_Type<"DataTensor", "tensor",
    [DeclareTypeInterfaceMethods<ExoGPU_BufferTypeInterface>]> {
  let summary = "a data buffer: precision, shape and memory type";
  let description = [{
    The type of a data allocation or a data proc parameter (Fig. 2
    `x : tau_x[c*] @ pi_d`). A rank-0 tensor is a scalar.

    ```mlir
    !exogpu.tensor<f32[?, 128] @CudaGmemLinear>
    !exogpu.tensor<f32 @CudaRmem>
    ```
  }];
  let parameters = (ins "Type":$elementType,
                        ArrayRefParameter<"int64_t">:$shape,
                        "MemoryAttr":$memory);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
  }];
}

def ExoGPU_WindowType : ExoGPU_Type<"Window", "window",
    [DeclareTypeInterfaceMethods<ExoGPU_BufferTypeInterface>]> {
  let summary = "a window into a data buffer, optionally a special window";
  let description = [{
    The type of a window statement's result (Fig. 2 `x = x[w*] @ pi_w`). A
    special window (Fig. 14) carries its `Sm90_tensorMap` parameters.

    ```mlir
    !exogpu.window<f32[64, 32] @CudaGmemLinear>
    !exogpu.window<f32[?, ?] @CudaGmemLinear, Sm90_tensorMap(128, 64, 32)>
    ```
  }];
  let parameters = (ins "Type":$elementType,
                        ArrayRefParameter<"int64_t">:$shape,
                        "MemoryAttr":$memory,
                        OptionalParameter<"SpecialWindowAttr">:$special);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
  }];
}

def ExoGPU_BarrierType : ExoGPU_Type<"Barrier", "barrier"> {
  let summary = "a (possibly arrayed) barrier with its completion mechanism";
  let description = [{
    The type of a barrier allocation (Fig. 2 `z : tau_z[c*] @ pi_z`). Every
    index is a separate barrier. `guarded` marks the explicitly guarded barrier
    type `barrier(z)` of Fig. 10, which only mbarriers may use.

    ```mlir
    !exogpu.barrier<[2, 2] @CudaCommitGroup>
    !exogpu.barrier<[4] @CudaMbarrier guarded>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape,
                        EnumParameter<ExoGPU_BarrierKind>:$kind,
                        "bool":$guarded);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    unsigned getRank() const { return getShape().size(); }
  }];
}

/// Any data buffer.
def ExoGPU_AnyBuffer : Type<
    CPred<"::llvm::isa<::mlir::exogpu::BufferTypeInterface>($_self)">,
    "exogpu tensor or window", "::mlir::exogpu::BufferTypeInterface">;

/// A data buffer or a barrier.
def ExoGPU_AnyBufferOrBarrier : AnyTypeOf<[ExoGPU_AnyBuffer, ExoGPU_BarrierType]>;

/// A control value: `index` for sizes and indices, `i1` for bool parameters.
def ExoGPU_ControlValue : AnyTypeOf<[Index, I1]>;

#endif // EXOGPU_TYPES_TD
