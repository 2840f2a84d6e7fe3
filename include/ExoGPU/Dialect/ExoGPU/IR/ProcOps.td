//===- ProcOps.td - exogpu procs, instructions and calls ---*- tablegen -*-===//
//
// `Proc` and `Instr` of Fig. 2 (both symbols) and the call statement.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_PROC_OPS_TD
#define EXOGPU_PROC_OPS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

/// Shared parameter representation of procs and instructions: one block
/// argument per parameter; `argKinds` gives each parameter's ParamKind and
/// `argExtents` the extents of each data parameter as control expressions over
/// all parameters (an empty map for control parameters); `argNames` keeps the
/// parameter names so printed IR and diagnostics use the user's names.
class ExoGPU_CallableOp<string mnemonic, list<Trait> traits = []>
    : ExoGPU_Op<mnemonic, traits # [IsolatedFromAbove, NoTerminator,
        SingleBlock, Symbol,
        DeclareOpInterfaceMethods<OpAsmOpInterface,
                                  ["getAsmBlockArgumentNames"]>]> {
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  code callableClassDeclaration = [{
    /// The kind of parameter `i`.
    ParamKind getParamKind(unsigned i) {
      return static_cast<ParamKind>(getArgKinds()[i]);
    }
    unsigned getNumParams() { return getArgKinds().size(); }
    ::mlir::BlockArgument getParam(unsigned i) {
      return getBody().getArgument(i);
    }
    /// The extents of data parameter `i` over the parameters.
    ::mlir::AffineMap getParamExtents(unsigned i) {
      return ::llvm::cast<::mlir::AffineMapAttr>(getArgExtents()[i]).getValue();
    }
    /// The indices of the data parameters, in order: the parameters a
    /// call's data arguments bind (zip them with `getDataArgs()`).
    ::llvm::SmallVector<unsigned> getDataParamIndices() {
      ::llvm::SmallVector<unsigned> indices;
      for (unsigned i = 0, e = getNumParams(); i < e; ++i)
        if (getParamKind(i) == ParamKind::data)
          indices.push_back(i);
      return indices;
    }
  }];
}

def ExoGPU_ProcOp : ExoGPU_CallableOp<"proc"> {
  let summary = "a procedure: `proc y*, (x : tau_x @ pi_d)* do s`";
  let description = [{
    A CPU procedure that may launch CUDA device functions (Sec. 3.3). Size,
    index and bool parameters are control values; data parameters carry
    precision, extents over the size parameters, and memory type. `requires`
    states preconditions on the control parameters.

    ```mlir
    exogpu.proc @scale(%N: size, %x: f32[%N] @CudaGmemLinear)
        requires %N mod 128 == 0 {
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI32ArrayAttr:$argKinds,
                       ArrayAttr:$argExtents, StrArrayAttr:$argNames,
                       OptionalAttr<ExoGPU_ConditionAttr>:$preconditions);
  let extraClassDeclaration = callableClassDeclaration;
}

def ExoGPU_InstrOp : ExoGPU_CallableOp<"instr"> {
  let summary = "a hardware instruction: behavior plus hardware annotations";
  let description = [{
    `proc y*, (x : tau_a)*, t, tau_u, pi_z, tau_u* do s` of Fig. 2. The body
    gives the instruction's sequential behavior (used by the reference
    interpreter and by the abstract machine lowering to classify parameters
    as read-only, write-only or read-write). Each data parameter carries its
    `Arg` annotations (Fig. 2; `#exogpu.arg`). `target` is `cpu` or `cuda`;
    `unit` is the collective unit the call site must have; `barrier` is the
    completion mechanism a trailing `>> z` must use, with `barrier_dist` the
    collective units of its distributed dimensions; `cuda` is the CUDA C++ /
    inline PTX template.

    ```mlir
    exogpu.instr @Sm80_cp_async_f32x4(
        %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual,
                                      ext = [Sm80_cp_async_qual]},
        %src: f32[4] @CudaGmemLinear {out_of_order,
                                      init = Sm80_cp_async_qual,
                                      ext = [Sm80_cp_async_qual]})
        target = cuda, unit = cuda_thread,
        cuda = "cp.async.cg.shared.global [ {dst} ], [ {src} ], 16;" {
      exogpu.for %i in seq(0, 4) {
        exogpu.assign %dst[%i] = %src[%i]
            : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, DenseI32ArrayAttr:$argKinds,
                       ArrayAttr:$argExtents, StrArrayAttr:$argNames,
                       TypedArrayAttrBase<ExoGPU_ArgSpecAttr,
                                          "parameter annotations">:$argSpecs,
                       ExoGPU_InstrTargetAttr:$target,
                       ExoGPU_CollUnitAttr:$unit,
                       OptionalAttr<ExoGPU_BarrierKindAttr>:$barrier,
                       OptionalAttr<TypedArrayAttrBase<ExoGPU_CollUnitAttr,
                           "barrier distribution">>:$barrierDist,
                       OptionalAttr<StrAttr>:$cuda);
  let extraClassDeclaration = callableClassDeclaration # [{
    ArgSpecAttr getParamSpec(unsigned i) {
      return ::llvm::cast<ArgSpecAttr>(getArgSpecs()[i]);
    }
    /// Fig. 20 T_init of data parameter `i`: its `init` annotation, by
    /// default the in-order timeline of the parameter's memory.
    QualTimeline getParamInitTimeline(unsigned i);
  }];
}

def ExoGPU_CallOp : ExoGPU_Op<"call", [AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "call a proc or an instruction";
  let description = [{
    `p(c*, e*)` and `g(c*, e*) >> e_z` (Fig. 2). Control arguments go in
    square brackets, data arguments (buffer windows) in parentheses; an
    instruction call may end with `>> z[...]`, the barrier its completion
    arrives at. The types of the named buffers and barriers follow the colon,
    in order of first appearance. Proc calls are only allowed at CPU scope;
    instruction calls at the scope their target and collective unit demand.

    ```mlir
    exogpu.call @Sm80_cp_async_f32x4(%A_smem[%k, %r, 4 * %c:4 * %c + 4],
                                     %A[%m * 16 + %r, 4 * %c:4 * %c + 4])
        : f32[2, 16, 16] @CudaSmemLinear, f32[?, ?] @CudaGmemLinear
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, AffineMapAttr:$ctrlArgs,
                       Variadic<ExoGPU_AnyBuffer>:$dataArgs,
                       Optional<ExoGPU_BarrierType>:$barrier,
                       DenseI32ArrayAttr:$coordKinds,
                       DenseI32ArrayAttr:$coordCounts, AffineMapAttr:$coords,
                       Variadic<Index>:$ctrl);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The proc or instruction this call names: the module's own
    /// definition, else the one an `exogpu.import` brings
    /// (exogpu::lookupSymbol). Null when the name is not defined.
    ::mlir::Operation *lookupCallee(
        ::mlir::SymbolTableCollection *symbolTables = nullptr);
    /// The instruction this call names; null for a proc or an unknown name.
    InstrOp lookupInstr();
    /// The proc this call names; null for an instruction or an unknown name.
    ProcOp lookupProc();
  }];
}

#endif // EXOGPU_PROC_OPS_TD
