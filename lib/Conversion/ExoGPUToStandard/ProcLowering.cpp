//===- ProcLowering.cpp - procs as functions ------------------------------===//
//
// Part of ExoGPU. Procs become func.func (seeds/002 Fig. 2 `Proc`): control
// parameters become index / i1 arguments, data parameters strided memrefs;
// the precondition and the dynamic extents of the data parameters are
// asserted on entry; proc calls (at CPU scope, Sec. 3.4) become func.call.
//
//===----------------------------------------------------------------------===//

#include "ExoGPU/Conversion/ExoGPUToStandard.h"
#include "ExoGPU/Dialect/ExoGPU/IR/ControlExpr.h"
#include "ExoGPU/Dialect/ExoGPU/IR/Libraries.h"
#include "SequentialLowering.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::sequential;

Type mlir::exogpu::getStorageType(Type precision) {
  if (auto integer = dyn_cast<IntegerType>(precision);
      integer && !integer.isSignless())
    return IntegerType::get(precision.getContext(), integer.getWidth());
  return precision;
}

/// The argument type of a data parameter: a memref of its storage type with
/// its static extents and a fully dynamic strided layout, so that windows
/// of any buffer can be passed.
static MemRefType getParamMemRefType(BufferTypeInterface type) {
  MLIRContext *context = type.getContext();
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout = StridedLayoutAttr::get(context, ShapedType::kDynamic, strides);
  return MemRefType::get(type.getShape(), getStorageType(type.getElementType()),
                         layout);
}

/// The names of a proc's parameters (without `%`).
static SmallVector<StringRef> getParamNames(ProcOp proc) {
  return llvm::map_to_vector(proc.getArgNames(), [](Attribute name) {
    return cast<StringAttr>(name).getValue();
  });
}

//===----------------------------------------------------------------------===//
// The module
//===----------------------------------------------------------------------===//

LogicalResult SequentialLowering::checkNoRecursion(ArrayRef<ProcOp> procs) {
  // Depth-first search over proc calls; a call into the active path is a
  // cycle (procs are inlinable programs, seeds/002 Sec. 3.3).
  llvm::SmallPtrSet<Operation *, 8> done, active;
  std::function<LogicalResult(ProcOp)> visit = [&](ProcOp proc) {
    if (done.contains(proc))
      return success();
    active.insert(proc);
    WalkResult result = proc.walk([&](CallOp call) {
      ProcOp callee = call.lookupProc();
      if (!callee)
        return WalkResult::advance();
      if (active.contains(callee)) {
        call.emitError("recursive call of @")
            << callee.getSymName()
            << ": the sequential lowering needs an acyclic call graph";
        return WalkResult::interrupt();
      }
      return WalkResult(visit(callee));
    });
    active.erase(proc);
    done.insert(proc);
    return failure(result.wasInterrupted());
  };
  for (ProcOp proc : procs)
    if (failed(visit(proc)))
      return failure();
  return success();
}

func::FuncOp SequentialLowering::declareFunction(ProcOp proc) {
  SmallVector<Type> inputs;
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    Type type = proc.getParam(i).getType();
    if (auto buffer = dyn_cast<BufferTypeInterface>(type))
      inputs.push_back(getParamMemRefType(buffer));
    else
      inputs.push_back(type); // index or i1
  }
  return func::FuncOp::create(builder, proc.getLoc(), proc.getSymName(),
                              builder.getFunctionType(inputs, {}));
}

LogicalResult SequentialLowering::run() {
  SmallVector<ProcOp> procs;
  SmallVector<InstrOp> instrs;
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto proc = dyn_cast<ProcOp>(op))
      procs.push_back(proc);
    else if (auto instr = dyn_cast<InstrOp>(op))
      instrs.push_back(instr);
  }
  if (failed(checkNoRecursion(procs)))
    return failure();
  // Declare every function first: calls may precede their callee. The
  // functions share their proc's name until the procs are erased.
  builder.setInsertionPointToEnd(module.getBody());
  for (ProcOp proc : procs)
    functions[proc] = declareFunction(proc);
  bool ok = true;
  for (ProcOp proc : procs)
    ok &= succeeded(lowerProc(proc, functions[proc]));
  if (!ok)
    return failure();
  for (ProcOp proc : procs)
    proc.erase();
  for (InstrOp instr : instrs)
    instr.erase();
  return success();
}

LogicalResult mlir::exogpu::convertExoGPUToStandard(ModuleOp module) {
  // The meaning of the whole program: imported procs become functions too.
  if (failed(linkImports(module)))
    return failure();
  return SequentialLowering(module).run();
}

//===----------------------------------------------------------------------===//
// Procs
//===----------------------------------------------------------------------===//

LogicalResult SequentialLowering::lowerProc(ProcOp proc, func::FuncOp func) {
  Block *entry = func.addEntryBlock();
  Frame top;
  for (auto [param, arg] :
       llvm::zip(proc.getBody().getArguments(), entry->getArguments()))
    top.values.map(param, arg);
  frame = &top;
  entryBlock = entry;
  stackBytes = 0;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(entry);
  // The proc's contract, for any caller (a runner, another function).
  SmallVector<Value> args(entry->getArguments());
  emitPreconditionCheck(proc, args, proc.getLoc());
  emitExtentChecks(proc, args, proc.getLoc());
  if (failed(lowerBlock(proc.getBody().front())))
    return failure();
  func::ReturnOp::create(builder, proc.getLoc());
  return success();
}

void SequentialLowering::emitPreconditionCheck(ProcOp proc,
                                               ArrayRef<Value> args,
                                               Location loc) {
  ConditionAttr pre = proc.getPreconditionsAttr();
  if (!pre)
    return;
  std::string clause;
  llvm::raw_string_ostream os(clause);
  printCondition(os, pre, getParamNames(proc));
  createAssert(loc, buildCondition(loc, pre, args),
               "precondition of @" + proc.getSymName() +
                   " does not hold: " + clause);
}

void SequentialLowering::emitExtentChecks(ProcOp proc, ArrayRef<Value> args,
                                          Location loc) {
  // The extents that are not static in the parameters' memref types.
  SmallVector<StringRef> names = getParamNames(proc);
  for (unsigned i = 0, e = proc.getNumParams(); i < e; ++i) {
    if (proc.getParamKind(i) != ParamKind::data)
      continue;
    for (auto [dim, extent] :
         llvm::enumerate(proc.getParamExtents(i).getResults())) {
      if (isa<AffineConstantExpr>(extent))
        continue;
      Value expected = applyCtrlValue(loc, extent, args);
      Value actual = memref::DimOp::create(builder, loc, args[i], dim);
      Value same = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::eq,
                                         actual, expected);
      std::string text;
      llvm::raw_string_ostream os(text);
      printControlExpr(os, extent, names);
      createAssert(loc, same,
                   "@" + proc.getSymName() + ": extent " + Twine(dim) + " of " +
                       names[i] + " is not " + text);
    }
  }
}

LogicalResult SequentialLowering::lowerProcCall(CallOp call, ProcOp callee) {
  // Every proc of the module was declared by run().
  func::FuncOp func = functions.lookup(callee);
  FailureOr<SmallVector<Value>> data = lowerDataArgs(call);
  if (failed(data))
    return failure();
  Location loc = getLoc(call);
  SmallVector<Value> args;
  unsigned nextCtrl = 0, nextData = 0;
  for (unsigned i = 0, e = callee.getNumParams(); i < e; ++i) {
    ParamKind kind = callee.getParamKind(i);
    if (kind != ParamKind::data) {
      FailureOr<Value> value =
          lowerCtrlArg(call, nextCtrl++, kind == ParamKind::boolean);
      if (failed(value))
        return failure();
      if (kind == ParamKind::size) {
        // A size is non-negative (the host function refuses the call too).
        Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
        createAssert(loc,
                     arith::CmpIOp::create(
                         builder, loc, arith::CmpIPredicate::sge, *value, zero),
                     "@" + callee.getSymName() + ": size " +
                         getParamNames(callee)[i] + " is negative");
      }
      args.push_back(*value);
      continue;
    }
    if (nextData >= data->size())
      return call.emitError("sequential lowering: too few data arguments");
    Value view = (*data)[nextData++];
    Type paramType = func.getArgumentTypes()[i];
    if (view.getType() != paramType) {
      if (!memref::CastOp::areCastCompatible(view.getType(), paramType))
        return call.emitError("sequential lowering: data argument ")
               << nextData - 1 << " of type " << view.getType()
               << " cannot be passed as " << paramType;
      view = memref::CastOp::create(builder, loc, paramType, view);
    }
    args.push_back(view);
  }
  // The callee checks its contract too; here a failure points at the call.
  emitPreconditionCheck(callee, args, loc);
  emitExtentChecks(callee, args, loc);
  func::CallOp::create(builder, loc, func, args);
  return success();
}
