//===- KernelStructure.cpp - task nest and code paths of a kernel ---------===//
//
// Part of ExoGPU (internal to the CUDA translation). See KernelStructure.h.
//
//===----------------------------------------------------------------------===//

#include "KernelStructure.h"

using namespace mlir;
using namespace mlir::exogpu;
using namespace mlir::exogpu::cuda;

SmallVector<ForOp> mlir::exogpu::cuda::getTaskNest(DeviceFunctionOp fn) {
  SmallVector<ForOp> loops;
  Block &body = fn.getBody().front();
  for (auto loop = body.empty() ? ForOp() : dyn_cast<ForOp>(body.front());
       loop && loop.getMode() == LoopMode::cuda_tasks;
       loop = loop.getBody().front().empty()
                  ? ForOp()
                  : dyn_cast<ForOp>(loop.getBody().front().front()))
    loops.push_back(loop);
  return loops;
}

FailureOr<SmallVector<RegisterBranch>>
mlir::exogpu::cuda::getRegisterBranches(DeviceFunctionOp fn) {
  SmallVector<RegisterBranch> branches;
  ArrayAttr config = fn.getWarpConfigAttr();
  if (!config) {
    RegisterBranch all;
    all.numWarps = (fn.getThreadsPerBlock() + 31) / 32;
    all.paths.push_back({"", 0, all.numWarps});
    branches.push_back(all);
    return branches;
  }
  bool anyRegisters = llvm::any_of(config, [](Attribute a) {
    auto group = cast<WarpGroupAttr>(a);
    return group.getRegDec() != 0 || group.getRegInc() != 0;
  });
  int64_t first = 0;
  for (Attribute a : config) {
    auto group = cast<WarpGroupAttr>(a);
    WarpPath path{group.getName().str(), first, group.getCount()};
    first += group.getCount();
    if (!anyRegisters) {
      branches.push_back({path.firstWarp, path.numWarps, 0, 0, {path}});
      continue;
    }
    // setmaxnreg is executed by whole warpgroups (4 warps): groups sharing a
    // warpgroup share its register budget and its branch.
    int64_t dec = group.getRegDec(), inc = group.getRegInc();
    if (!branches.empty()) {
      RegisterBranch &last = branches.back();
      int64_t lastEnd = last.firstWarp + last.numWarps;
      bool sharesWarpgroup = lastEnd % 4 != 0;
      if (sharesWarpgroup || (last.dec == dec && last.inc == inc)) {
        if (last.dec != dec || last.inc != inc)
          return fn.emitError("CUDA translation: warp groups \"")
                 << last.paths.back().group << "\" and \"" << path.group
                 << "\" share a warpgroup but ask for different register "
                    "counts; setmaxnreg applies to whole warpgroups";
        last.numWarps += path.numWarps;
        last.paths.push_back(path);
        continue;
      }
    }
    branches.push_back({path.firstWarp, path.numWarps, dec, inc, {path}});
  }
  if (anyRegisters && first % 4 != 0)
    return fn.emitError("CUDA translation: with setmaxnreg, the warp config "
                        "must fill whole warpgroups (4 warps each)");
  return branches;
}

bool mlir::exogpu::cuda::isInWarpPath(Operation *op, StringRef group) {
  if (group.empty())
    return true;
  for (Operation *p = op; p && !isa<DeviceFunctionOp>(p); p = p->getParentOp())
    if (auto warps = dyn_cast<WarpsOp>(p))
      if (std::optional<StringRef> name = warps.getWarpName())
        if (*name != group)
          return false;
  return true;
}
