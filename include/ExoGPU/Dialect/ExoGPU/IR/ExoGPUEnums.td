//===- ExoGPUEnums.td - exogpu enumerations ----------------*- tablegen -*-===//
//
// Enumerations of the GPU IR: loop modes (Fig. 2), collective unit kinds
// (Fig. 11), data memories (Fig. 12), barrier completion mechanisms (Fig. 13),
// qualitative timelines (Fig. 15) and sync timelines (Fig. 16) of seeds/002.
//
//===----------------------------------------------------------------------===//

#ifndef EXOGPU_ENUMS_TD
#define EXOGPU_ENUMS_TD

include "ExoGPU/Dialect/ExoGPU/IR/ExoGPUBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Loop modes (Fig. 2)
//===----------------------------------------------------------------------===//

def ExoGPU_LoopMode : I32EnumAttr<"LoopMode", "loop mode of an exogpu.for", [
    I32EnumAttrCase<"seq", 0>,
    I32EnumAttrCase<"cuda_tasks", 1>,
    I32EnumAttrCase<"cuda_threads", 2>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}
def ExoGPU_LoopModeAttr
    : EnumAttr<ExoGPU_Dialect, ExoGPU_LoopMode, "loop_mode">;

//===----------------------------------------------------------------------===//
// Collective units (Fig. 11)
//===----------------------------------------------------------------------===//

def ExoGPU_CollUnitKind : I32EnumAttr<"CollUnitKind",
    "collective unit of a cuda_threads loop or an instruction (Fig. 11)", [
    I32EnumAttrCase<"standalone_thread", 0>,
    I32EnumAttrCase<"cuda_thread", 1>,
    I32EnumAttrCase<"cuda_quadpair", 2>,
    I32EnumAttrCase<"cuda_warp", 3>,
    I32EnumAttrCase<"cuda_warpgroup", 4>,
    I32EnumAttrCase<"cuda_threads_strided", 5>,
    I32EnumAttrCase<"cuda_warp_in_cluster", 6>,
    I32EnumAttrCase<"cuda_cta_in_cluster", 7>,
    I32EnumAttrCase<"cuda_cluster", 8>,
    I32EnumAttrCase<"cuda_cta_in_cluster_strided", 9>,
    I32EnumAttrCase<"cuda_warp_in_cluster_strided", 10>,
    I32EnumAttrCase<"cuda_agnostic_sub_cta", 11>,
    I32EnumAttrCase<"cuda_agnostic_intact_cta", 12>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}

//===----------------------------------------------------------------------===//
// Data memories (Fig. 12) and barrier mechanisms (Fig. 13)
//===----------------------------------------------------------------------===//

def ExoGPU_MemoryKind : I32EnumAttr<"MemoryKind",
    "data memory type (Fig. 12, plus Exo's host memory DRAM)", [
    I32EnumAttrCase<"DRAM", 0>,
    I32EnumAttrCase<"CudaBasicDeviceVisible", 1>,
    I32EnumAttrCase<"CudaBasicSmem", 2>,
    I32EnumAttrCase<"CudaDeviceVisibleAtomicity16B", 3>,
    I32EnumAttrCase<"CudaDeviceVisibleLinear", 4>,
    I32EnumAttrCase<"CudaGridConstant", 5>,
    I32EnumAttrCase<"CudaGmemLinear", 6>,
    I32EnumAttrCase<"CudaSmemAtomicity16B", 7>,
    I32EnumAttrCase<"CudaSmemLinear", 8>,
    I32EnumAttrCase<"CudaRmem", 9>,
    I32EnumAttrCase<"Sm80_RmemMatrixA", 10>,
    I32EnumAttrCase<"Sm80_RmemMatrixB", 11>,
    I32EnumAttrCase<"Sm80_RmemMatrixD", 12>,
    I32EnumAttrCase<"Sm90_SmemSwizzled", 13>,
    I32EnumAttrCase<"Sm90_RmemMatrixA", 14>,
    I32EnumAttrCase<"Sm90_RmemMatrixD", 15>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}

def ExoGPU_BarrierKind : I32EnumAttr<"BarrierKind",
    "barrier completion mechanism (Fig. 13)", [
    I32EnumAttrCase<"CudaDeviceBarrier", 0>,
    I32EnumAttrCase<"CudaMbarrier", 1>,
    I32EnumAttrCase<"CudaCommitGroup", 2>,
    I32EnumAttrCase<"CudaClusterSync", 3>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}
def ExoGPU_BarrierKindAttr
    : EnumAttr<ExoGPU_Dialect, ExoGPU_BarrierKind, "barrier_kind">;

//===----------------------------------------------------------------------===//
// Timelines (Fig. 15, 16)
//===----------------------------------------------------------------------===//

def ExoGPU_QualTimeline : I32EnumAttr<"QualTimeline",
    "qualitative timeline of a memory access (Fig. 15)", [
    I32EnumAttrCase<"cpu_in_order_qual", 0>,
    I32EnumAttrCase<"cpu_cuda_stream_qual", 1>,
    I32EnumAttrCase<"cuda_in_order_rmem_qual", 2>,
    I32EnumAttrCase<"cuda_in_order_ram_qual", 3>,
    I32EnumAttrCase<"Sm80_cp_async_qual", 4>,
    I32EnumAttrCase<"tma_to_smem_async_qual", 5>,
    I32EnumAttrCase<"tma_to_gmem_async_qual", 6>,
    I32EnumAttrCase<"wgmma_async_rmem_a_qual", 7>,
    I32EnumAttrCase<"wgmma_async_rmem_d_qual", 8>,
    I32EnumAttrCase<"wgmma_async_smem_qual", 9>,
    I32EnumAttrCase<"wgmma_zero_qual", 10>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}
def ExoGPU_QualTimelineAttr
    : EnumAttr<ExoGPU_Dialect, ExoGPU_QualTimeline, "qual_tl">;

def ExoGPU_SyncTimeline : I32EnumAttr<"SyncTimeline",
    "synchronization timeline of fence/arrive/await (Fig. 16)", [
    I32EnumAttrCase<"empty_sync_tl", 0>,
    I32EnumAttrCase<"cpu_in_order", 1>,
    I32EnumAttrCase<"cuda_stream_sync", 2>,
    I32EnumAttrCase<"cuda_in_order", 3>,
    I32EnumAttrCase<"cuda_temporal", 4>,
    I32EnumAttrCase<"Sm80_cp_async", 5>,
    I32EnumAttrCase<"Sm80_generic", 6>,
    I32EnumAttrCase<"tma_to_smem_async", 7>,
    I32EnumAttrCase<"tma_to_gmem_async", 8>,
    I32EnumAttrCase<"wgmma_async_smem", 9>,
    I32EnumAttrCase<"wgmma_fence_1", 10>,
    I32EnumAttrCase<"wgmma_fence_2", 11>,
    I32EnumAttrCase<"wgmma_async", 12>,
    I32EnumAttrCase<"cuda_async_proxy", 13>,
    I32EnumAttrCase<"cuda_async_proxy_wgmma", 14>,
    I32EnumAttrCase<"cuda_generic_and_async", 15>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}
def ExoGPU_SyncTimelineAttr
    : EnumAttr<ExoGPU_Dialect, ExoGPU_SyncTimeline, "sync_tl">;

//===----------------------------------------------------------------------===//
// Instruction device target (the `t` flag of Fig. 2 Instr)
//===----------------------------------------------------------------------===//

def ExoGPU_InstrTarget : I32EnumAttr<"InstrTarget",
    "whether an instruction runs on the CPU or in CUDA device code", [
    I32EnumAttrCase<"cpu", 0>,
    I32EnumAttrCase<"cuda", 1>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}
def ExoGPU_InstrTargetAttr
    : EnumAttr<ExoGPU_Dialect, ExoGPU_InstrTarget, "instr_target">;

//===----------------------------------------------------------------------===//
// Parameter kinds of procs and instructions (Fig. 2 `Proc`, `Instr`)
//===----------------------------------------------------------------------===//

def ExoGPU_ParamKind : I32EnumAttr<"ParamKind",
    "kind of a proc or instr parameter", [
    I32EnumAttrCase<"size", 0>,
    I32EnumAttrCase<"index", 1>,
    I32EnumAttrCase<"boolean", 2, "bool">,
    I32EnumAttrCase<"data", 3>,
    I32EnumAttrCase<"barrier", 4>]> {
  let cppNamespace = "::mlir::exogpu";
  let genSpecializedAttr = 0;
}

#endif // EXOGPU_ENUMS_TD
