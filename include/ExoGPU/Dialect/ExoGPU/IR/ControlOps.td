//===- ControlOps.td - exogpu loops, guards and scopes -----*- tablegen -*-===//
//
// The structured statements of Fig. 2: `for` (seq / cuda_tasks /
// cuda_threads), `if`, `device_function` (CudaDeviceFunction) and `warps`
// (CudaWarps).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_CONTROL_OPS_TD
#define EXOGPU_CONTROL_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.td"
include "mlir/IR/RegionKindInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

/// A statement op whose body is one block without terminator.
class ExoGPU_ScopeOp<string mnemonic, list<Trait> traits = []>
    : ExoGPU_Op<mnemonic, traits # [NoTerminator, SingleBlock,
                                    RecursiveMemoryEffects]> {
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def ExoGPU_ForOp : ExoGPU_ScopeOp<"for", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a seq, cuda_tasks or cuda_threads loop";
  let description = [{
    `for y in seq(lo, hi)`, `for y in cuda_tasks(lo, hi)` and
    `for y in cuda_threads(lo, hi, unit = u)` of Fig. 2. The iterator ranges
    over the half-open interval `[lo, hi)`. The bounds are quasi-affine
    control expressions over the `ctrl` operands (`bounds` has two results).

    Static rules (paper Sec. 3.4, guide "Loop Mode"): at CPU scope only `seq`
    loops; `cuda_tasks` loops only as the single child nest of a
    `device_function`; `cuda_threads` loops have `lo = 0`, a constant `hi`
    and a collective unit, and appear only inside the tasks nest.

    ```mlir
    exogpu.for %task in cuda_tasks(0, %M / 128) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, %N) {
        }
      }
    }
    ```
  }];
  let arguments = (ins ExoGPU_LoopModeAttr:$mode, AffineMapAttr:$bounds,
                       OptionalAttr<ExoGPU_CollUnitAttr>:$unit,
                       OptionalAttr<StrAttr>:$iterName,
                       Variadic<Index>:$ctrl);
  let extraClassDeclaration = [{
    /// The loop iterator.
    ::mlir::BlockArgument getIterator() { return getBody().getArgument(0); }
    /// The lower and upper bound expressions over `ctrl`.
    ::mlir::AffineExpr getLowerBoundExpr() { return getBounds().getResult(0); }
    ::mlir::AffineExpr getUpperBoundExpr() { return getBounds().getResult(1); }
    /// The constant trip count, if both bounds are constant.
    std::optional<int64_t> getConstantTripCount();
  }];
}

def ExoGPU_IfOp : ExoGPU_ScopeOp<"if"> {
  let summary = "a guard: `if b then s`";
  let description = [{
    Executes its body when the quasi-affine condition holds (Fig. 2 guard).
    Conditions combine relations `==`, `<`, `<=`, `>`, `>=` of control
    expressions, boolean parameters and `true`/`false` with `and` (binding
    tighter) and `or`.

    ```mlir
    exogpu.if %i * 16 < %M and %flag {
    }
    ```
  }];
  let arguments = (ins ExoGPU_ConditionAttr:$condition,
                       Variadic<ExoGPU_ControlValue>:$ctrl);
}

def ExoGPU_DeviceFunctionOp : ExoGPU_ScopeOp<"device_function"> {
  let summary = "a CUDA kernel launch: `with CudaDeviceFunction(...)`";
  let description = [{
    Opens CUDA device scope (Sec. 3.4). The body is a single nest of one or
    more `cuda_tasks` loops. `clusterDim` (default 1) sets the CTAs per
    cluster; either `blockDim` or a warp config of named warp groups (Fig. 3)
    sets the threads per CTA, `blockDim = 32 * total warps` for a warp config.

    ```mlir
    exogpu.device_function(clusterDim = 2, warps = [
        "producer" = (1, 40, 0), "unused" = (3, 40, 0),
        "consumer" = (8, 0, 232)]) {
      exogpu.for %task in cuda_tasks(0, %M / 256) {
      }
    }
    ```
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$clusterDim,
                       OptionalAttr<ExoGPU_SignedI64Attr>:$blockDim,
                       OptionalAttr<TypedArrayAttrBase<ExoGPU_WarpGroupAttr,
                           "warp config">>:$warpConfig);
  let extraClassDeclaration = [{
    /// Threads per CTA: blockDim, or 32 times the warps of the warp config.
    int64_t getThreadsPerBlock();
    /// The warp group named `name`, if any.
    WarpGroupAttr lookupWarpGroup(::llvm::StringRef name);
    /// The first warp index (within the CTA) of the group named `name`.
    int64_t getFirstWarpOf(::llvm::StringRef name);
  }];
  // The body (a nest of cuda_tasks loops) is checked once its ops are.
  let hasRegionVerifier = 1;
}

def ExoGPU_WarpsOp : ExoGPU_ScopeOp<"warps"> {
  let summary = "warp specialization: `with CudaWarps(lo, hi, name)`";
  let description = [{
    Restricts its body to the warps `[lo, hi)` of the current collective
    (guide, "Warp Specialization"); with a name, to the warps of that named
    warp group of the enclosing `device_function` (indices relative to the
    group). Numbered blocks inside a device function with a warp config must
    be nested in a named block.

    ```mlir
    exogpu.warps "producer" {
    }
    exogpu.warps(3, 4) {
    }
    exogpu.warps "consumer"(0, 4) {
    }
    ```
  }];
  let arguments = (ins OptionalAttr<StrAttr>:$warpName,
                       OptionalAttr<ExoGPU_SignedI64Attr>:$lo,
                       OptionalAttr<ExoGPU_SignedI64Attr>:$hi);
}

#endif // EXOGPU_CONTROL_OPS_TD
