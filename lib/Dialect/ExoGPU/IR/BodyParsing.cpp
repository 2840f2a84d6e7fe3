//===- BodyParsing.cpp - statement bodies of exogpu and exoam ops ---------===//
//
// Part of ExoGPU.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/BodyParsing.h"

using namespace mlir;

/// The number of bodies being parsed on this thread (each parser runs on one
/// thread; nested bodies are parsed by nested calls).
static thread_local unsigned bodyNesting = 0;

ParseResult
mlir::exogpu::parseStatementBody(OpAsmParser &parser, OperationState &result,
                                 ArrayRef<OpAsmParser::Argument> args) {
  if (bodyNesting >= kMaxBodyNesting)
    return parser.emitError(parser.getCurrentLocation())
           << "statement bodies nest more than " << kMaxBodyNesting
           << " deep; split the proc";
  Region *body = result.addRegion();
  ++bodyNesting;
  ParseResult parsed = parser.parseRegion(*body, args);
  --bodyNesting;
  if (failed(parsed))
    return failure();
  if (body->empty())
    body->emplaceBlock();
  return success();
}
