//===- MemoryOps.td - exogpu alloc, free and window --------*- tablegen -*-===//
//
// Data and barrier allocation, free, the window statement of Fig. 2 and the
// dimension split (a window that views one dimension as two).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_MEMORY_OPS_TD
#define EXOGPU_MEMORY_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ViewLikeInterface.td"

def ExoGPU_AllocOp : ExoGPU_Op<"alloc", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "allocate a data buffer or a barrier array";
  let description = [{
    `x : tau_x[c*] @ pi_d` and `z : tau_z[c*] @ pi_z` (Fig. 2). Extents are
    control expressions; a constant extent becomes static in the result type.
    Register and shared memories are allocated in CUDA scope, global and host
    memories in CPU scope; barriers are allocated in CUDA scope with a
    concrete mechanism (Fig. 13). `guarded` makes the explicitly guarded
    barrier type `barrier(z)` of Fig. 10 (mbarriers only).

    ```mlir
    %acc = exogpu.alloc f32 @CudaRmem
    %buf = exogpu.alloc f32[2, 128, 16] @CudaSmemLinear
    %tmp = exogpu.alloc f32[%M, 16] @CudaGmemLinear
    %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
    %ring = exogpu.alloc barrier[4] @CudaMbarrier guarded
    ```
  }];
  let arguments = (ins AffineMapAttr:$extents, Variadic<Index>:$ctrl,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs ExoGPU_AnyBufferOrBarrier:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoGPU_FreeOp : ExoGPU_Op<"free"> {
  let summary = "end the lifetime of an allocation";
  let description = [{
    `free x` / `free z` (Fig. 2). Frees are inserted by the compiler, one per
    allocation, at the end of the allocating block.

    ```mlir
    exogpu.free %buf : f32[2, 128, 16] @CudaSmemLinear
    ```
  }];
  let arguments = (ins Arg<ExoGPU_AnyBufferOrBarrier, "", [MemFree]>:$buffer);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoGPU_WindowOp : ExoGPU_Op<"window", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a window statement: `x = x[w*] @ pi_w`";
  let description = [{
    Defines an alias to a sub-window of a buffer (Fig. 2). Each coordinate is a
    point `c` (the dimension is dropped), an interval `lo:hi` (half-open) or
    `:` (the whole dimension). An optional special window (Fig. 14)
    `Sm90_tensorMap(swizzle, box...)` builds a CUtensorMap for TMA.

    ```mlir
    %row = exogpu.window %A[%i, :] : f32[?, ?] @CudaGmemLinear
    %tile = exogpu.window %A[%i * 64:%i * 64 + 64, 0:32]
        : f32[?, ?] @CudaGmemLinear
    %tmap = exogpu.window %A[:, :] @Sm90_tensorMap(128, 64, 32)
        : f32[?, ?] @CudaGmemLinear
    ```
  }];
  let arguments = (ins ExoGPU_AnyBuffer:$source, DenseI32ArrayAttr:$coordKinds,
                       AffineMapAttr:$coords, Variadic<Index>:$ctrl,
                       OptionalAttr<ExoGPU_SpecialWindowAttr>:$special,
                       OptionalAttr<StrAttr>:$name);
  let results = (outs ExoGPU_WindowType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoGPU_SplitOp : ExoGPU_Op<"split", [Pure,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>,
    DeclareOpInterfaceMethods<ViewLikeOpInterface>]> {
  let summary = "a window that splits one dimension of a buffer in two";
  let description = [{
    Views dimension `dim` of a buffer, of extent `E`, as two dimensions
    `[E / factor, factor]`: element `(.., i, j, ..)` of the result is element
    `(.., i * factor + j, ..)` of the source. The result aliases the source
    like a window statement (Fig. 2); with a row-major source it is the same
    memory read as one more dimension, e.g. the `[M, S, KC]` view of an
    `[M, K]` matrix that a split-k GEMM takes (K = S * KC). The factor is a
    constant, so every coordinate of the result maps to a quasi-affine
    coordinate of the source. `E` must be a multiple of `factor`: checked
    here when `E` is static, else where the sizes are known (the
    synchronization check, the sequential runner and the CUDA host code).
    Register memories and swizzled shared memory are not split (their layout
    is not a plain row-major array). A special window is taken of the result,
    not split.

    ```mlir
    %A_chunks = exogpu.split %A dim 1 by 4096 : f32[?, ?] @CudaGmemLinear
    %A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 128, 1, 32)
        : window f32[?, ?, 4096] @CudaGmemLinear
    ```
  }];
  let arguments = (ins ExoGPU_AnyBuffer:$source, I64Attr:$dim,
                       I64Attr:$factor, OptionalAttr<StrAttr>:$name);
  let results = (outs ExoGPU_WindowType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The type of the split of a buffer of type `source`.
    static WindowType inferType(BufferTypeInterface source, int64_t dim,
                                int64_t factor);
  }];
}

#endif // EXOGPU_MEMORY_OPS_TD
