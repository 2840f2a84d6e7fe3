//===- CallLowering.cpp - instruction and proc calls ----------------------===//
//
// Part of ExoGPU. A call `g(c*, e*) >> z` (seeds/002 Fig. 2) of an
// instruction means the instruction's body run on the actual control
// arguments and argument windows: the body is lowered in place (inlined)
// with each parameter bound to its argument; the completion barrier has no
// sequential meaning. Proc calls are lowered in ProcLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "SequentialLowering.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::sequential;

LogicalResult SequentialLowering::lowerCall(CallOp call) {
  Operation *callee = call.lookupCallee();
  if (auto instr = dyn_cast_or_null<InstrOp>(callee))
    return inlineInstr(call, instr);
  if (auto proc = dyn_cast_or_null<ProcOp>(callee))
    return lowerProcCall(call, proc);
  return call.emitError("sequential lowering: unknown callee ")
         << call.getCalleeAttr();
}

FailureOr<SmallVector<Value>> SequentialLowering::lowerDataArgs(CallOp call) {
  FailureOr<SmallVector<AccessView>> accesses = splitAccesses(
      call, call.getCoordKinds(), call.getCoordCounts(), call.getCoords());
  if (failed(accesses))
    return failure();
  if (accesses->size() < call.getDataArgs().size())
    return call.emitError("sequential lowering: too few coordinate lists");
  SmallVector<Value> views;
  for (auto [arg, access] : llvm::zip(call.getDataArgs(), *accesses)) {
    FailureOr<Value> view =
        createView(call, arg, access.kinds, access.exprs, call.getCtrl());
    if (failed(view))
      return failure();
    views.push_back(*view);
  }
  return views;
}

FailureOr<Value> SequentialLowering::lowerCtrlArg(CallOp call, unsigned index,
                                                  bool isBool) {
  AffineMap args = call.getCtrlArgs();
  if (index >= args.getNumResults())
    return call.emitError("sequential lowering: too few control arguments");
  FailureOr<Value> value =
      lowerCtrlValue(call, args.getResult(index), call.getCtrl());
  if (failed(value) || !isBool)
    return value;
  // Control arguments are index expressions: a bool parameter is true when
  // its argument is not 0.
  Location loc = getLoc(call);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  return builder.createOrFold<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                             *value, zero);
}

LogicalResult SequentialLowering::inlineInstr(CallOp call, InstrOp instr) {
  FailureOr<SmallVector<Value>> data = lowerDataArgs(call);
  if (failed(data))
    return failure();
  Frame callee;
  callee.callSite = getLoc(call);
  unsigned nextCtrl = 0, nextData = 0;
  for (unsigned i = 0, e = instr.getNumParams(); i < e; ++i) {
    ParamKind kind = instr.getParamKind(i);
    if (kind == ParamKind::data) {
      if (nextData >= data->size())
        return call.emitError("sequential lowering: too few data arguments");
      callee.values.map(instr.getParam(i), (*data)[nextData++]);
      continue;
    }
    FailureOr<Value> value =
        lowerCtrlArg(call, nextCtrl++, kind == ParamKind::boolean);
    if (failed(value))
      return failure();
    callee.values.map(instr.getParam(i), *value);
  }
  Frame *caller = frame;
  frame = &callee;
  LogicalResult result = lowerBlock(instr.getBody().front());
  frame = caller;
  return result;
}
