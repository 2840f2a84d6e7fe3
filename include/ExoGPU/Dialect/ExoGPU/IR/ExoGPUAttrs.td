//===- ExoGPUAttrs.td - exogpu attributes ------------------*- tablegen -*-===//
//
// Attributes of the GPU IR: data memories (Fig. 12), special windows
// (Fig. 14), collective units (Fig. 11), instruction parameter annotations
// (Fig. 2 `Arg`), warp configs (Fig. 3) and quasi-affine conditions (Fig. 1).
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ATTRS_TD
#define EXOGPU_ATTRS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUEnums.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def ExoGPU_MemoryAttr : ExoGPU_Attr<"Memory", "mem"> {
  let summary = "a data memory type of Fig. 12";
  let description = [{
    Names the physical backing memory and layout of a data buffer. Memories of
    Fig. 12 that take parameters carry them as integers.

    ```mlir
    #exogpu.mem<CudaSmemLinear>
    #exogpu.mem<Sm80_RmemMatrixD(16, 8)>
    #exogpu.mem<Sm90_SmemSwizzled(128)>
    ```
  }];
  let parameters = (ins EnumParameter<ExoGPU_MemoryKind>:$kind,
                        ArrayRefParameter<"int64_t">:$args);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of integer parameters the memory kind takes (Fig. 12).
    static unsigned getArity(MemoryKind kind);
    /// Whether the memory is shared memory (Fig. 5 text, "shared memories").
    bool isSmem() const;
    /// Whether accesses need no synchronization check (Fig. 5 text,
    /// "sync-exempt memories").
    bool isSyncExempt() const;
    /// Whether the memory is per-thread or per-collective register memory.
    bool isRmem() const;
    /// For the register-matrix memories (Sm80_RmemMatrix*, Sm90_RmemMatrix*):
    /// the threads whose registers hold one tile (a warp or a warpgroup);
    /// 0 for other memories.
    int64_t getMatrixThreads() const;
    /// Whether the memory lives on the host (Exo's DRAM).
    bool isHost() const;
    /// Whether allocations of this memory are made from CPU code (global
    /// memory, grid constants, host memory).
    bool isCpuAllocated() const;
    /// Whether the kind is a base type that only parameters may name
    /// (Fig. 12 "base type for ...").
    static bool isAbstract(MemoryKind kind);
    /// Whether a buffer in this memory may be passed where `required` is
    /// expected: the same memory, or a memory derived from a base type.
    bool conformsTo(MemoryAttr required) const;
    /// Prints `Kind` or `Kind(a, b)` without the attribute wrapper.
    void printBody(::mlir::AsmPrinter &printer) const;
    /// Parses what printBody prints.
    static MemoryAttr parseBody(::mlir::AsmParser &parser);
  }];
}

def ExoGPU_SpecialWindowAttr : ExoGPU_Attr<"SpecialWindow", "special_window"> {
  let summary = "a special window type of Fig. 14";
  let description = [{
    `Sm90_tensorMap(swizzle, box...)`: a CUtensorMap for TMA, parameterized by
    its swizzle mode in bytes (0, 32, 64 or 128) and its shared-memory box.

    ```mlir
    #exogpu.special_window<@Sm90_tensorMap(128, 64, 32)>
    ```
  }];
  let parameters = (ins "int64_t":$swizzle, ArrayRefParameter<"int64_t">:$box);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Prints `@Sm90_tensorMap(swizzle, box...)`.
    void printBody(::mlir::AsmPrinter &printer) const;
    /// Parses what printBody prints, if an @-name follows.
    static ::mlir::OptionalParseResult
    parseOptionalBody(::mlir::AsmParser &parser, SpecialWindowAttr &attr);
  }];
}

def ExoGPU_CollUnitAttr : ExoGPU_Attr<"CollUnit", "unit"> {
  let summary = "a collective unit of Fig. 11";
  let description = [{
    The shape of the thread collective that executes one iteration of a
    `cuda_threads` loop, or that an instruction requires. `n * unit` scales a
    unit by `n` (`32 * cuda_thread` is `cuda_warp`); the strided units take
    their stride parameters in parentheses.

    ```mlir
    #exogpu.unit<cuda_thread>
    #exogpu.unit<4 * cuda_warp>
    #exogpu.unit<cuda_threads_strided(2, 4)>
    ```
  }];
  let parameters = (ins EnumParameter<ExoGPU_CollUnitKind>:$kind,
                        "int64_t":$scale, ArrayRefParameter<"int64_t">:$args);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Number of parenthesized parameters of the unit kind (Fig. 11).
    static unsigned getArity(CollUnitKind kind);
    /// Whether the unit kind accepts an `n *` scale (Fig. 11).
    static bool isScalable(CollUnitKind kind);
    void printBody(::mlir::AsmPrinter &printer) const;
    static CollUnitAttr parseBody(::mlir::AsmParser &parser);
  }];
}

def ExoGPU_ArgSpecAttr : ExoGPU_Attr<"ArgSpec", "arg"> {
  let summary = "the hardware annotations of an instruction parameter";
  let description = [{
    The `Arg` annotations of Fig. 2 beyond precision and memory type:
    out-of-order execution, convergence, the distributed collective units of
    the leading dimensions, and the initial, extended and atomic qualitative
    timelines used by the abstract machine (Fig. 19, 20). Absent fields print
    nothing; `init` defaults to the in-order timeline of the memory.
    `convergent` lets one thread's synchronization stand for the unit's
    (Fig. 7, t = true): an `exogpu.instr` may set it only on registers and
    on collective async-proxy accesses (wgmma, TMA), not on the loads,
    stores and cp.async copies each thread makes on its own.
    `kernel_read_only` is a precondition of the instruction: the kernel that
    calls it never writes the buffer the parameter is a window of (for
    loads through the non-coherent path, `ld.global.nc`, which may return
    stale data for memory the kernel writes, and whose inline asm carries no
    memory clobber). Only a global-memory parameter the instruction only
    reads may carry it; the CUDA translation refuses a call whose kernel
    writes the buffer.

    ```mlir
    #exogpu.arg<out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]>
    #exogpu.arg<convergent, dist = [cuda_warp]>
    #exogpu.arg<kernel_read_only>
    ```
  }];
  let parameters = (ins "bool":$outOfOrder, "bool":$convergent,
                        ArrayRefParameter<"CollUnitAttr">:$dist,
                        OptionalParameter<"std::optional<QualTimeline>">:$init,
                        ArrayRefParameter<"QualTimeline">:$ext,
                        ArrayRefParameter<"QualTimeline">:$atomic,
                        "bool":$kernelReadOnly);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    /// Whether every field has its default value.
    bool isDefault() const;
    void printBody(::mlir::AsmPrinter &printer) const;
    static ArgSpecAttr parseBody(::mlir::AsmParser &parser);
  }];
}

def ExoGPU_WarpGroupAttr : ExoGPU_Attr<"WarpGroup", "warp_group"> {
  let summary = "a named group of warps in a warp config (Fig. 3)";
  let description = [{
    `name = (count, dec, inc)`: `count` warps named `name`; if non-zero, `dec`
    and `inc` are the register counts the warps move to with
    `setmaxnreg.dec` / `setmaxnreg.inc`.

    ```mlir
    #exogpu.warp_group<"consumer" = (8, 0, 232)>
    ```
  }];
  let parameters = (ins StringRefParameter<>:$name, "int64_t":$count,
                        "int64_t":$regDec, "int64_t":$regInc);
  let assemblyFormat = "`<` $name `=` `(` $count `,` $regDec `,` $regInc `)` `>`";
  let genVerifyDecl = 1;
}

def ExoGPU_ConditionAttr : ExoGPU_Attr<"Condition", "cond"> {
  let summary = "a boolean control expression (Fig. 1 BExpr)";
  let description = [{
    A condition in disjunctive normal form over quasi-affine relations and
    boolean operands. `map` holds the affine expressions of the atoms in
    order; `atoms` gives each atom's kind (see `ConditionAtomKind`): a relation
    consumes two results of `map`, a boolean operand one (a dimension), a
    constant none; `Or` separates conjunctions. The dimensions of `map` are
    the control operands of the op that carries the condition.
  }];
  let parameters = (ins "AffineMap":$map, ArrayRefParameter<"int64_t">:$atoms);
  let assemblyFormat = "`<` $map `,` `[` $atoms `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Evaluates the condition; `values` are the control operand values.
    bool evaluate(::llvm::ArrayRef<int64_t> values) const;
    /// The same, with `evaluator` computing the expressions (the same
    /// values; an expression that overflows counts as 0 in both).
    bool evaluate(::llvm::ArrayRef<int64_t> values,
                  ControlExprEvaluator &evaluator) const;
  }];
}

#endif // EXOGPU_ATTRS_TD
