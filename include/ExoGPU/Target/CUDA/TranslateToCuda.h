//===- TranslateToCuda.h - exogpu to CUDA C++ -------------------*- C++ -*-===//
//
// Part of ExoGPU. The CUDA translation (seeds/002 Sec. 4.2; DESIGN.md "CUDA
// translation"): a module of exogpu procs and instructions becomes one
// self-contained CUDA C++ file (host functions that launch persistent kernels
// with inline PTX) and a C/C++ header for host callers. The entry points an
// embedding compiler calls; `exogpu-translate --to-cuda` and
// `--to-cuda-header` wrap them. docs/cuda-translation.md describes the
// mapping and the host API.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H
#define EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>

namespace mlir::exogpu {

/// Weakenings of the lowered synchronization that the validation must
/// reject (docs/cuda-translation.md "Validation"): each brings back the
/// lowering of one class of miscompiles that the translation had, for tests
/// of the validator. Never for code that runs.
enum class SyncFault : unsigned {
  /// Arrives at other CTAs' barriers are `.relaxed.cluster`.
  RelaxedPeerArrives = 1u << 0,
  /// Elected arrives go without their `__syncwarp()`.
  NoSyncwarp = 1u << 1,
  /// No `fence.proxy.async`.
  NoProxyFences = 1u << 2,
  /// mbarrier waits acquire at CTA scope.
  CtaAcquire = 1u << 3,
  /// Every Fence of several threads meets at `__syncwarp()`.
  WarpBarriers = 1u << 4,
  /// Every named barrier's ids start at 1.
  SharedBarrierIds = 1u << 5,
  /// Multicast arrives reach every CTA of the cluster.
  ClusterWideMulticast = 1u << 6,
  /// Fences wait for bulk copies and wgmmas without committing them.
  NoCommitBeforeWait = 1u << 7,
};

/// The faults of a comma-separated list of their names
/// (`relaxed-peer-arrives`, `no-syncwarp`, `no-proxy-fences`,
/// `cta-acquire`, `warp-barriers`, `shared-barrier-ids`,
/// `cluster-wide-multicast`, `no-commit-before-wait`), as a mask; nullopt
/// for an unknown name.
std::optional<unsigned> parseSyncFaults(StringRef list);

/// Options of the CUDA translation.
struct CudaTranslationOptions {
  /// Validate each kernel's lowered synchronization against what the
  /// synchronization check relies on (docs/cuda-translation.md
  /// "Validation"); turn it off only to time the rest of the translation.
  bool validateSynchronization = true;
  /// SyncFault flags to inject (tests of the validation only).
  unsigned syncFaults = 0;
};

/// Writes the CUDA C++ translation of `module` to `os`; the definitions its
/// `exogpu.import`s bring are translated with it (exogpu::withImportsLinked:
/// imported procs get host functions too). Runs the collective
/// analysis and the distributed memory deduction first; their errors, and
/// any construct the translation cannot lower or whose synchronization it
/// cannot justify, are reported as diagnostics at the offending op, and the
/// result is failure (nothing useful is written).
LogicalResult translateModuleToCuda(ModuleOp module, raw_ostream &os,
                                    const CudaTranslationOptions &options = {});

/// Writes the C/C++ header declaring the host function of every proc of
/// `module` and of its imports (the host API of docs/cuda-translation.md).
LogicalResult translateModuleToCudaHeader(ModuleOp module, raw_ostream &os);

/// Registers `--to-cuda` and `--to-cuda-header` with mlir-translate's
/// registry, for tools that embed the translation.
void registerToCudaTranslation();

} // namespace mlir::exogpu

#endif // EXOGPU_TARGET_CUDA_TRANSLATETOCUDA_H
