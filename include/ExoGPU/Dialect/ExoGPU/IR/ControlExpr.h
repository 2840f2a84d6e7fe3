//===- ControlExpr.h - quasi-affine control expressions ---------*- C++ -*-===//
//
// Part of ExoGPU. Control expressions (seeds/002 Fig. 1 CExpr, BExpr,
// WinCoord) are stored as AffineExprs whose dimensions are the `ctrl`
// operands of the op that holds them, like `affine.load` stores its indices.
// This file parses and prints them in the paper's infix spelling
// (`%i * 16 + %j`, `%M / 128`, `%M mod 128`, `a < b and c == d or e`),
// evaluates them, and verifies that stored maps are quasi-affine.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_CONTROLEXPR_H
#define EXOGPU_DIALECT_EXOGPU_IR_CONTROLEXPR_H

#include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUAttrs.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir::exogpu {

/// Evaluates a quasi-affine expression on concrete values of its dimensions,
/// or nothing if an intermediate value overflows int64 (or a dimension has no
/// value). `/` and `mod` are floor division and its non-negative remainder; a
/// division or mod by zero is 0.
std::optional<int64_t> tryEvaluateControlExpr(AffineExpr expr,
                                              ArrayRef<int64_t> values);

/// tryEvaluateControlExpr, with 0 where it gives nothing (for callers whose
/// values cannot overflow).
int64_t evaluateControlExpr(AffineExpr expr, ArrayRef<int64_t> values);

/// Evaluates control expressions many times (the abstract machine runs each
/// statement's expressions once per execution): each expression is
/// translated once into a postfix program, which then runs without walking
/// the expression. The same values as tryEvaluateControlExpr.
class ControlExprEvaluator {
public:
  std::optional<int64_t> evaluate(AffineExpr expr, ArrayRef<int64_t> values);

  /// Starts (`watch`) or stops noting the largest magnitude of the values
  /// evaluate computes (operands and intermediate values included), from 0.
  void watchMagnitudes(bool watch);
  /// The largest magnitude noted since watching started.
  uint64_t getLargestMagnitude() const { return largestMagnitude; }

private:
  /// Per expression, its program (see ControlExpr.cpp).
  llvm::DenseMap<AffineExpr, SmallVector<int64_t, 8>> programs;
  bool watching = false;
  uint64_t largestMagnitude = 0;
};

/// The kind of one window coordinate (Fig. 1 WinCoord): a point `c`, a
/// half-open interval `lo:hi`, or the whole dimension `:`.
enum class CoordKind : int32_t { Point = 0, Interval = 1, Full = 2 };

/// Number of expressions a coordinate of `kind` stores (1, 2 or 0).
unsigned getCoordArity(CoordKind kind);

/// The coordinates of one window access as parsed: kinds and expressions.
struct WindowCoords {
  SmallVector<int32_t> kinds;
  SmallVector<AffineExpr> exprs;
};

/// Parses the control expressions of one op. Every SSA name used becomes one
/// dimension, in order of first use; `resolve` then appends the operands
/// (`index`, or `i1` for names used as boolean condition atoms).
class ControlExprParser {
public:
  explicit ControlExprParser(OpAsmParser &parser) : parser(parser) {}

  /// A parser whose names are the parameters in `scope` (a proc or instr
  /// signature being parsed): dimension `i` is parameter `i`, `i1`
  /// parameters are booleans, and nothing is collected or resolved.
  ControlExprParser(OpAsmParser &parser,
                    const SmallVectorImpl<OpAsmParser::Argument> &scope)
      : parser(parser), scope(&scope) {}

  /// Parses a quasi-affine expression:
  ///   expr := term (('+' | '-') term)*
  ///   term := factor (('*' factor) | ('/' int) | ('mod' int))*
  ///   factor := int | %name | '-' factor | '(' expr ')'
  ParseResult parseExpr(AffineExpr &expr);

  /// Parses a condition in DNF (`and` binds tighter than `or`) whose atoms
  /// are relations (`==`, `<`, `<=`, `>`, `>=`), boolean names, `true` or
  /// `false`. Appends to `exprs` and `atoms` in ConditionAttr's encoding.
  ParseResult parseCondition(SmallVectorImpl<AffineExpr> &exprs,
                             SmallVectorImpl<int64_t> &atoms);
  /// Parses a condition as parseCondition does into a ConditionAttr over the
  /// collected operands; null after an error (already reported).
  ConditionAttr parseConditionAttr();

  /// Parses `[c, lo:hi, :]`. With `pointsOnly`, only point coordinates;
  /// with `optional`, a missing list is an empty one.
  ParseResult parseCoords(WindowCoords &coords, bool pointsOnly,
                          bool optional = false);

  /// The number of operands collected so far.
  unsigned getNumOperands() const { return operands.size(); }

  /// A map over the collected operands (or the scope) with these results.
  AffineMap getMap(ArrayRef<AffineExpr> exprs) const;

  /// Resolves the collected operands and appends them to `values`.
  ParseResult resolve(SmallVectorImpl<Value> &values);

private:
  enum class NameKind { Index, Bool };
  std::optional<unsigned>
  findName(const OpAsmParser::UnresolvedOperand &name) const;
  NameKind kindOf(unsigned index) const;
  FailureOr<unsigned> useName(const OpAsmParser::UnresolvedOperand &name,
                              NameKind kind);
  ParseResult parseSum(AffineExpr &expr, AffineExpr leading);
  ParseResult parseTerm(AffineExpr &expr, AffineExpr leading);
  ParseResult parseFactor(AffineExpr &expr);
  ParseResult parsePositiveInt(int64_t &value);
  ParseResult parseAtom(SmallVectorImpl<AffineExpr> &exprs,
                        SmallVectorImpl<int64_t> &atoms);

  OpAsmParser &parser;
  const SmallVectorImpl<OpAsmParser::Argument> *scope = nullptr;
  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  SmallVector<NameKind> kinds;
};

/// Prints `expr` in infix form, naming dimension `i` by `operands[i]`.
void printControlExpr(OpAsmPrinter &printer, AffineExpr expr,
                      ValueRange operands);

/// Prints a condition as `a < b and c or d == e`.
void printCondition(OpAsmPrinter &printer, ConditionAttr condition,
                    ValueRange operands);
/// Prints `expr` in infix form to `os` (for messages outside the IR),
/// naming dimension `i` `names[i]`.
void printControlExpr(raw_ostream &os, AffineExpr expr,
                      ArrayRef<StringRef> names);

/// Prints a condition as printCondition does, for messages outside the IR,
/// naming dimension `i` `names[i]`.
void printCondition(raw_ostream &os, ConditionAttr condition,
                    ArrayRef<StringRef> names);

/// Prints `[c, lo:hi, :]` for coordinates whose expressions are `exprs`.
void printCoords(OpAsmPrinter &printer, ArrayRef<int32_t> kinds,
                 ArrayRef<AffineExpr> exprs, ValueRange operands);

/// One access of a statement: the coordinates of one named buffer.
struct AccessView {
  ArrayRef<int32_t> kinds;
  ArrayRef<AffineExpr> exprs;
};

/// Splits the coordinates of several accesses (`counts[i]` coordinates for
/// access `i`) stored as one kind list and one map. Returns failure with a
/// diagnostic if the counts do not add up.
FailureOr<SmallVector<AccessView>> splitAccesses(Operation *op,
                                                 ArrayRef<int32_t> kinds,
                                                 ArrayRef<int32_t> counts,
                                                 AffineMap map);

/// Checks that `map` is a valid control-expression map for an op with
/// `numCtrl` control operands: no symbols, one dimension per operand, and
/// every result quasi-affine (Fig. 1: `+`, `-`, `* const`, `/ const`,
/// `mod const`, with positive divisors).
LogicalResult verifyControlMap(Operation *op, AffineMap map, unsigned numCtrl,
                               StringRef what);

/// Checks window coordinates: known kinds, as many expressions as they need.
LogicalResult verifyCoords(Operation *op, ArrayRef<int32_t> kinds,
                           unsigned numExprs, StringRef what);

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_CONTROLEXPR_H
