//===- StatementSyntax.h - shared syntax of exoam statements ----*- C++ -*-===//
//
// Part of ExoGPU (internal to the exoam dialect library). AMIR statements
// write control expressions inline; every SSA name they use becomes one
// `ctrl` operand, in order of first use, and the expressions are stored as
// maps over those operands. Maps are built only once the whole statement is
// parsed, when the number of operands is known.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTSYNTAX_H
#define EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTSYNTAX_H

#include "ExoGPU/Dialect/ExoAM/IR/ExoAMOps.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"

namespace mlir::exoam {

/// An access as parsed, before its coordinate map exists.
struct ParsedAccess {
  StringAttr var;
  SmallVector<int32_t> kinds;
  SmallVector<AffineExpr> exprs;
};

/// A thread mapping as parsed: iterators are operand positions.
struct ParsedThreads {
  struct Op {
    std::optional<int64_t> iter;
    int64_t linearBox;
    int64_t linearOffset;
  };
  struct Dim {
    int64_t extent;
    SmallVector<Op> ops;
  };
  ExecScope scope = ExecScope::cpu;
  SmallVector<Dim> dims;
};

/// Parses the clauses of one statement, sharing its control operands.
class StatementParser {
public:
  explicit StatementParser(OpAsmParser &parser)
      : parser(parser), ctrl(parser) {}

  OpAsmParser &getParser() { return parser; }
  exogpu::ControlExprParser &getControlParser() { return ctrl; }

  /// Parses `@x[w, ...]`; with `pointsOnly`, every coordinate is a point.
  ParseResult parseAccess(ParsedAccess &access, bool pointsOnly = false);

  /// Parses `>> @z[...]` repeatedly (at least once if `required`).
  ParseResult parseBarrierList(SmallVectorImpl<ParsedAccess> &barriers,
                               bool required);

  /// Parses an optional `home @z[...]` into `result` as attribute `name`.
  ParseResult parseOptionalHome(OperationState &result, StringAttr name);

  /// Parses `threads cpu` or `threads gpu[D (%i, box, offset)..., ...]`.
  ParseResult parseThreads(ParsedThreads &threads);

  /// Parses a visibility level keyword.
  ParseResult parseLevel(VisibilityLevel &level);

  /// Parses `keyword = <set>` for a qualitative timeline set.
  ParseResult parseNamedSet(StringRef keyword, QualTimelineSetAttr &set);

  /// Builds the access attribute over all collected operands.
  AccessAttr buildAccess(const ParsedAccess &access);

  /// Builds an array of access attributes over all collected operands.
  ArrayAttr buildAccessArray(ArrayRef<ParsedAccess> accesses);

  /// Builds the thread mapping attribute.
  ThreadMappingAttr buildThreads(const ParsedThreads &threads);

  /// Resolves the collected operands into `result` and parses the trailing
  /// attribute dictionary.
  ParseResult finish(OperationState &result);

private:
  OpAsmParser &parser;
  exogpu::ControlExprParser ctrl;
};

/// Prints `@x[w, ...]`.
void printAccess(OpAsmPrinter &printer, AccessAttr access, ValueRange ctrl);

/// Prints ` >> @z[...]` for each barrier access.
void printBarrierList(OpAsmPrinter &printer, ArrayAttr barriers,
                      ValueRange ctrl);

/// Prints ` home @z[...]` if `home` is given.
void printOptionalHome(OpAsmPrinter &printer, AccessAttr home, ValueRange ctrl);

/// Prints ` threads cpu` or ` threads gpu[...]`.
void printThreads(OpAsmPrinter &printer, ThreadMappingAttr threads,
                  ValueRange ctrl);

/// Prints ` keyword = [...]`.
void printNamedSet(OpAsmPrinter &printer, StringRef keyword,
                   QualTimelineSetAttr set);

} // namespace mlir::exoam

#endif // EXOGPU_LIB_DIALECT_EXOAM_IR_STATEMENTSYNTAX_H
