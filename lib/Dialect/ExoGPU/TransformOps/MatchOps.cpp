//===- MatchOps.cpp - finding exogpu statements ---------------------------===//
//
// Part of ExoGPU. transform.exogpu.match, get_block and get_body.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Analysis/BufferAccesses.h"
#include "ExoGPU/Analysis/ControlConstraints.h"
#include "ExoGPU/Dialect/ExoGPU/TransformOps/ExoGPUTransformOps.h"
#include "HandleUtils.h"
#include "mlir/IR/AsmState.h"
#include "llvm/Support/Regex.h"

using namespace mlir;
using namespace mlir::exogpu;

#define GET_OP_CLASSES
#include "ExoGPU/Dialect/ExoGPU/TransformOps/MatchOps.cpp.inc"

/// `text` with `%` removed and runs of white space collapsed.
static std::string normalize(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      continue;
    if (isspace(c)) {
      if (!out.empty() && out.back() != ' ')
        out += ' ';
      continue;
    }
    out += c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  return out;
}

/// The infix text of a data expression: `A[i, k] * B[k, j]`.
static void printDataText(llvm::raw_ostream &os, Value value, int context) {
  Operation *def = value.getDefiningOp();
  if (auto read = dyn_cast_or_null<ReadOp>(def)) {
    os << getBufferName(read.getSource()) << '[';
    llvm::interleaveComma(
        read.getIndices().getResults(), os,
        [&](AffineExpr e) { os << printControlText(e, read.getCtrl()); });
    os << ']';
    return;
  }
  if (auto constant = dyn_cast_or_null<ConstantOp>(def)) {
    if (auto f = dyn_cast<FloatAttr>(constant.getValue()))
      os << f.getValueAsDouble();
    else if (auto i = dyn_cast<IntegerAttr>(constant.getValue()))
      os << i.getValue().getSExtValue();
    return;
  }
  if (auto neg = dyn_cast_or_null<NegOp>(def)) {
    os << '-';
    printDataText(os, neg.getOperand(), 2);
    return;
  }
  if (StringRef name = dataFunctionName(def); !name.empty()) {
    os << name << '(';
    llvm::interleaveComma(def->getOperands(), os,
                          [&](Value arg) { printDataText(os, arg, 0); });
    os << ')';
    return;
  }
  auto binary = [&](Value lhs, Value rhs, StringRef symbol, int own) {
    if (own < context)
      os << '(';
    printDataText(os, lhs, own);
    os << ' ' << symbol << ' ';
    printDataText(os, rhs, own + 1);
    if (own < context)
      os << ')';
  };
  if (auto op = dyn_cast_or_null<AddOp>(def))
    return binary(op.getLhs(), op.getRhs(), "+", 0);
  if (auto op = dyn_cast_or_null<SubOp>(def))
    return binary(op.getLhs(), op.getRhs(), "-", 0);
  if (auto op = dyn_cast_or_null<MulOp>(def))
    return binary(op.getLhs(), op.getRhs(), "*", 1);
  if (auto op = dyn_cast_or_null<DivOp>(def))
    return binary(op.getLhs(), op.getRhs(), "/", 1);
}

/// The text a pattern is matched against (see MatchOp's description).
static std::string getMatchText(Operation *op, AsmState &state) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (isDataExpressionOp(op)) {
    printDataText(os, op->getResult(0), 0);
    return normalize(text);
  }
  op->print(os, state);
  StringRef line = StringRef(text).split('\n').first;
  line = line.split(" : ").first;
  line.consume_back(" {...}");
  line.consume_back(" {");
  // Drop the dialect prefix of the op name (after `%x = ` for allocs and
  // windows).
  std::string result = line.str();
  if (size_t pos = result.find("exogpu."); pos != std::string::npos)
    result.erase(pos, strlen("exogpu."));
  return normalize(result);
}

/// A regex for a pattern: each stand-alone `_` matches any text.
static std::string patternToRegex(StringRef pattern) {
  std::string norm = normalize(pattern);
  std::string regex = "^";
  auto isName = [](char c) { return isalnum(c) || c == '_'; };
  for (size_t i = 0; i < norm.size(); ++i) {
    char c = norm[i];
    bool hole = c == '_' && (i == 0 || !isName(norm[i - 1])) &&
                (i + 1 == norm.size() || !isName(norm[i + 1]));
    if (hole) {
      regex += ".*";
      continue;
    }
    if (StringRef("\\^$.|?*+()[]{}").contains(c))
      regex += '\\';
    regex += c;
  }
  return regex + "$";
}

LogicalResult MatchOp::verify() {
  if (!getKind() && !getIter() && !getLabel() && !getPattern() &&
      !getCallee() && !getProc())
    return emitOpError(
        "needs at least one of kind, iter, label, pattern, callee or proc");
  // A pattern needs no check: patternToRegex escapes every regex
  // metacharacter, so each pattern is a valid regex.
  return success();
}

DiagnosedSilenceableFailure
MatchOp::apply(transform::TransformRewriter &rewriter,
               transform::TransformResults &results,
               transform::TransformState &state) {
  std::optional<llvm::Regex> regex;
  if (getPattern())
    regex.emplace(patternToRegex(*getPattern()));
  DenseMap<Operation *, std::unique_ptr<AsmState>> states;
  OpPrintingFlags flags;
  flags.skipRegions();
  // The statement's text, never its location (--mlir-print-debuginfo).
  flags.enableDebugInfo(false);
  auto matches = [&](Operation *op) {
    auto proc = op->getParentOfType<ProcOp>();
    if (op->getParentOfType<InstrOp>() || !proc)
      return false;
    if (getProc() && proc.getSymName() != *getProc())
      return false;
    if (!isProcStatement(op) && !isDataExpressionOp(op))
      return false;
    if (getKind() &&
        op->getName().getStringRef() != ("exogpu." + *getKind()).str())
      return false;
    if (getIter()) {
      auto loop = dyn_cast<ForOp>(op);
      if (!loop || loop.getIterName() != *getIter())
        return false;
    }
    if (getCallee()) {
      auto call = dyn_cast<CallOp>(op);
      if (!call || call.getCallee() != *getCallee())
        return false;
    }
    if (getLabel()) {
      auto label = op->getAttrOfType<StringAttr>("exogpu.label");
      if (!label || label.getValue() != *getLabel())
        return false;
    }
    if (regex) {
      std::unique_ptr<AsmState> &asmState = states[proc];
      if (!asmState)
        asmState = std::make_unique<AsmState>(proc, flags);
      if (!regex->match(getMatchText(op, *asmState)))
        return false;
    }
    return true;
  };
  SmallVector<Operation *> found;
  for (Operation *root : state.getPayloadOps(getTarget()))
    root->walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != root && matches(op))
        found.push_back(op);
    });
  if (found.empty())
    return emitSilenceableError() << "no statement matches";
  if (std::optional<int64_t> nth = getNth()) {
    int64_t index = *nth < 0 ? *nth + static_cast<int64_t>(found.size()) : *nth;
    if (index < 0 || index >= static_cast<int64_t>(found.size()))
      return emitSilenceableError()
             << "nth " << *nth << " is out of range: " << found.size()
             << " statement(s) match";
    found = {found[index]};
  }
  results.set(cast<OpResult>(getResult()), found);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
GetBlockOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  Operation *first = nullptr;
  DiagnosedSilenceableFailure diag = getSingleStatement(
      *this, state, getTarget(), "a statement", isProcStatement, first);
  if (!diag.succeeded())
    return diag;
  SmallVector<Operation *> block;
  for (Operation *op = first;
       op && block.size() < static_cast<size_t>(getCount());
       op = op->getNextNode())
    block.push_back(op);
  if (block.size() != static_cast<size_t>(getCount()))
    return emitSilenceableError()
           << "only " << block.size() << " statement(s) from here to the end "
           << "of the block, expected " << getCount();
  results.set(cast<OpResult>(getResult()), block);
  return DiagnosedSilenceableFailure::success();
}

DiagnosedSilenceableFailure
GetBodyOp::apply(transform::TransformRewriter &rewriter,
                 transform::TransformResults &results,
                 transform::TransformState &state) {
  Operation *scope = nullptr;
  DiagnosedSilenceableFailure diag = getSingleStatement(
      *this, state, getTarget(), "a loop, guard or scope",
      [](Operation *op) {
        return isa<ForOp, IfOp, DeviceFunctionOp, WarpsOp>(op);
      },
      scope);
  if (!diag.succeeded())
    return diag;
  SmallVector<Operation *> body;
  for (Operation &op : scope->getRegion(0).front())
    body.push_back(&op);
  if (body.empty())
    return emitSilenceableError() << "the body is empty";
  results.set(cast<OpResult>(getResult()), body);
  return DiagnosedSilenceableFailure::success();
}

void SetLabelOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  getEditEffects(*this, effects);
}

DiagnosedSilenceableFailure
SetLabelOp::apply(transform::TransformRewriter &rewriter,
                  transform::TransformResults &results,
                  transform::TransformState &state) {
  for (Operation *op : state.getPayloadOps(getTarget())) {
    if (!isProcStatement(op)) {
      DiagnosedSilenceableFailure diag =
          emitSilenceableError()
          << "expected statements of an exogpu.proc, got '" << op->getName()
          << "'";
      diag.attachNote(op->getLoc()) << "payload op";
      return diag;
    }
    rewriter.modifyOpInPlace(op, [&] {
      op->setAttr("exogpu.label", rewriter.getStringAttr(getLabel()));
    });
  }
  return DiagnosedSilenceableFailure::success();
}
