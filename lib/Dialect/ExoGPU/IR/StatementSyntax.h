//===- StatementSyntax.h - shared syntax of exogpu statements ---*- C++ -*-===//
//
// Part of ExoGPU (internal to the dialect library). Statements name buffers
// and barriers inline (`%A[%i, 0:16]`) and list their types after a colon,
// one per distinct name in order of first appearance, because an MLIR parser
// cannot look up the type of an SSA name.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_DIALECT_EXOGPU_IR_STATEMENTSYNTAX_H
#define EXOGPU_LIB_DIALECT_EXOGPU_IR_STATEMENTSYNTAX_H

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUOps.h"

namespace mlir::exogpu {

/// Collects the buffer names a statement uses and resolves them against its
/// trailing type list.
class BufferNameList {
public:
  /// Parses a buffer or barrier name, if one follows, and records the use.
  OptionalParseResult parseOptionalName(OpAsmParser &parser);

  /// Parses `: type, type, ...` with one compact type per distinct name.
  ParseResult parseTypes(OpAsmParser &parser);

  /// Resolves every recorded use, in order, into `values`.
  ParseResult resolve(OpAsmParser &parser, SmallVectorImpl<Value> &values);

  /// The type of use `i` (after parseTypes).
  Type getTypeOfUse(unsigned i) const { return types[distinctOf[i]]; }

  unsigned getNumUses() const { return uses.size(); }

private:
  SmallVector<OpAsmParser::UnresolvedOperand> uses;
  SmallVector<unsigned> distinctOf;
  SmallVector<OpAsmParser::UnresolvedOperand> distinct;
  SmallVector<Type> types;
};

/// Prints ` : type, type` for the distinct values of `uses`, in order.
void printBufferTypes(OpAsmPrinter &printer, ArrayRef<Value> uses);

/// Verifies that an access of a buffer of rank `rank` has one coordinate per
/// dimension, or none (the whole buffer) if `allowWhole`.
LogicalResult verifyAccessRank(Operation *op, ArrayRef<int32_t> kinds,
                               unsigned rank, bool allowWhole, StringRef what);

/// Verifies that the constant coordinates of a window of a buffer of
/// `shape` lie within it, as memref.subview (which a window becomes)
/// requires: a point or an interval's start in [0, E), an interval's end in
/// [0, E] (only non-negative where E is dynamic), no negative interval.
/// Checked even where the statement never runs; the rest is checked where
/// the sizes are known.
LogicalResult verifyStaticBounds(Operation *op, ArrayRef<int64_t> shape,
                                 ArrayRef<int32_t> kinds,
                                 ArrayRef<AffineExpr> exprs, StringRef what);

/// The extents of the window an access denotes: points drop their
/// dimension, an interval keeps `hi - lo` (static when constant), `:` and a
/// bare name keep the buffer's extents.
SmallVector<int64_t> getAccessShape(ArrayRef<int64_t> bufferShape,
                                    ArrayRef<int32_t> kinds,
                                    ArrayRef<AffineExpr> exprs);

/// Parses `%name[coords]` (or a bare `%name`, the whole buffer) of a
/// statement, if a name follows: records the name and appends its
/// coordinates.
OptionalParseResult
parseOptionalAccess(OpAsmParser &parser, ControlExprParser &ctrl,
                    BufferNameList &names, WindowCoords &coords,
                    SmallVectorImpl<int32_t> &coordCounts, bool pointsOnly);

/// Like parseOptionalAccess, but the access is required.
ParseResult parseAccess(OpAsmParser &parser, ControlExprParser &ctrl,
                        BufferNameList &names, WindowCoords &coords,
                        SmallVectorImpl<int32_t> &coordCounts, bool pointsOnly);

/// Prints `%name[coords]` for coordinates whose expressions are `exprs`.
void printAccess(OpAsmPrinter &printer, Value buffer, ArrayRef<int32_t> kinds,
                 ArrayRef<AffineExpr> exprs, ValueRange ctrl);

/// The user's spelling of an SSA name (`%acc` -> "acc") to keep as a name
/// attribute, or null for MLIR's numbered names.
StringAttr getUserName(MLIRContext *ctx, StringRef ssaName);

} // namespace mlir::exogpu

#endif // EXOGPU_LIB_DIALECT_EXOGPU_IR_STATEMENTSYNTAX_H
