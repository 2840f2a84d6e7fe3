//===- ExoAMAttrs.td - exoam attributes --------------------*- tablegen -*-===//
//
// Attributes of AMIR statements (seeds/002 Fig. 4): visibility levels,
// qualitative-timeline sets, windowed accesses `x[w*]`, and the thread
// mapping of a statement (a collective tiling, seeds/001 "Collective Tiling
// Interpretation", plus the CPU/GPU scope of Def. 5.2).
//
//===----------------------------------------------------------------------===//

#ifndef EXOAM_ATTRS_TD
#define EXOAM_ATTRS_TD

include "ExoGPU/Dialect/ExoAM/IR/ExoAMEnums.td"
include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUEnums.td"

def ExoAM_VisibilityLevelAttr
    : EnumAttr<ExoAM_Dialect, ExoAM_VisibilityLevel, "vl">;

def ExoAM_AccessPurposeAttr
    : EnumAttr<ExoAM_Dialect, ExoAM_AccessPurpose, "purpose">;

def ExoAM_QualTimelineSetAttr : ExoAM_Attr<"QualTimelineSet", "quals"> {
  let summary = "a set of qualitative timelines (Fig. 4 `tau_q*`)";
  let description = [{
    A finite set of the qualitative timelines of Fig. 15, stored as a bit
    mask (bit `i` is the timeline with enum value `i`), so sets compare and
    hash by value. In statements it is written as a list:

    ```mlir
    #exoam.quals<[cuda_in_order_rmem_qual, cuda_in_order_ram_qual]>
    ```

    Statement syntax also accepts `qfull(tl)` and `qtmp(tl)` for the full and
    temporal sets of a sync timeline (Fig. 18 `T_qfull`, `T_qtmp`, read from
    the table of Fig. 16 as explained in docs/abstract-machine.md); they are
    printed as the list they denote.
  }];
  let parameters = (ins "uint32_t":$bits);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Whether the set contains `timeline`.
    bool contains(::mlir::exogpu::QualTimeline timeline) const;
    /// The timelines of the set, in enum order.
    ::llvm::SmallVector<::mlir::exogpu::QualTimeline> getTimelines() const;
    /// Prints `[a, b]` without the attribute wrapper.
    void printBody(::mlir::AsmPrinter &printer) const;
    /// Parses `[a, b]`, `qfull(tl)` or `qtmp(tl)`.
    static QualTimelineSetAttr parseBody(::mlir::AsmParser &parser);
  }];
}

def ExoAM_AccessAttr : ExoAM_Attr<"Access", "access"> {
  let summary = "a windowed access `x[w*]` (Fig. 4 `e#`)";
  let description = [{
    Names a data or barrier variable and gives one window coordinate per
    dimension: a point `c` or an inclusive range `c1 to c2` (Fig. 6 W-POINT,
    W-RANGE). `kinds` holds each coordinate's kind (0 point, 1 range);
    `coords` holds the coordinate expressions in order (one per point, two
    per range) as a quasi-affine map whose dimensions are the control
    operands of the op that holds the access. An access without coordinates
    is the degenerate `x[<>]` of a scalar (Fig. 17).

    In statement syntax: `@A[%i * 16 + %j, 0 to 15]`; standalone:

    ```mlir
    #exoam.access<"A", [0, 1], (d0, d1) -> (d0 * 16 + d1, 0, 15)>
    ```
  }];
  let parameters = (ins "StringAttr":$var, ArrayRefParameter<"int32_t">:$kinds,
                        "AffineMap":$coords);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of coordinates (the rank of the accessed variable).
    unsigned getRank() const { return getKinds().size(); }
  }];
}

def ExoAM_TilingOpAttr : ExoAM_Attr<"TilingOp", "tiling_op"> {
  let summary = "one operator of a collective tiling dimension";
  let description = [{
    A `CollDimOp` (seeds/001): maps a linear thread interval `[a, b]` to
    `[x, x + linearBox - 1]` with `x = a + linearOffset + s * linearBox`,
    where `s` is the value of control operand `iter` of the statement, or 0
    when `iter` is absent.

    In statement syntax: `(%t, 32, 0)` or `(_, 32, 64)`.
  }];
  let parameters = (ins OptionalParameter<"std::optional<int64_t>">:$iter,
                        "int64_t":$linearBox, "int64_t":$linearOffset);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

def ExoAM_TilingDimAttr : ExoAM_Attr<"TilingDim", "tiling_dim"> {
  let summary = "one dimension of a collective tiling";
  let description = [{
    A dimension descriptor `(D_m, O_m)` of Def. 4.2: the extent `D_m` and
    the ordered list of operators that narrow it.

    In statement syntax: `128 (%w, 32, 0)`.
  }];
  let parameters = (ins "int64_t":$extent,
                        OptionalArrayRefParameter<"TilingOpAttr">:$ops);
  let assemblyFormat = "`<` $extent (`,` `[` $ops^ `]`)? `>`";
  let genVerifyDecl = 1;
}

def ExoAM_ThreadMappingAttr : ExoAM_Attr<"ThreadMapping", "threads"> {
  let summary = "the thread mapping of a statement (Def. 5.2 `f_s`, `scope`)";
  let description = [{
    Which global threads execute a statement instance. A `cpu` statement is
    executed by all global threads (Def. 5.2). A `gpu` statement carries the
    collective tiling computed by collective analysis (Def. 4.2, seeds/001):
    under control values `sigma` dimension `m` selects the coordinates
    `F_m(sigma)`, and the local threads are the lexicographic linearization
    of the product of those coordinate intervals; the global threads pair
    them with the current task id.

    ```mlir
    #exoam.threads<cpu>
    #exoam.threads<gpu, [#exoam.tiling_dim<128, [#exoam.tiling_op<iter = 0,
        linearBox = 1, linearOffset = 0>]>]>
    ```

    In statement syntax: `threads cpu`, `threads gpu[2, 128 (%t, 32, 0)]`.
  }];
  let parameters = (ins EnumParameter<ExoAM_ExecScope>:$scope,
                        OptionalArrayRefParameter<"TilingDimAttr">:$dims);
  let assemblyFormat = "`<` $scope (`,` `[` $dims^ `]`)? `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The number of threads of one cluster (the product of the extents).
    int64_t getClusterSize() const;
  }];
}

#endif // EXOAM_ATTRS_TD
