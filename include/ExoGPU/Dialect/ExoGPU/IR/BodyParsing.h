//===- BodyParsing.h - statement bodies of exogpu and exoam ops -*- C++ -*-===//
//
// Part of ExoGPU. Procs, loops, guards and scopes of both dialects parse
// their one-block body the same way, with a bound on how deeply bodies nest:
// MLIR's parser recurses once per nested region, so thousands of nested
// loops would overflow the stack instead of getting a diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_DIALECT_EXOGPU_IR_BODYPARSING_H
#define EXOGPU_DIALECT_EXOGPU_IR_BODYPARSING_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::exogpu {

/// The deepest nesting of statement bodies the parsers accept.
constexpr unsigned kMaxBodyNesting = 1000;

/// Parses the single-block body of the op `result` describes (an empty
/// region gets an empty block); `args` become the entry block's arguments.
/// An error if this body lies more than kMaxBodyNesting bodies deep.
ParseResult parseStatementBody(OpAsmParser &parser, OperationState &result,
                               ArrayRef<OpAsmParser::Argument> args = {});

} // namespace mlir::exogpu

#endif // EXOGPU_DIALECT_EXOGPU_IR_BODYPARSING_H
