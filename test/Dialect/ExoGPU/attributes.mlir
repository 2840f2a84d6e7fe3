// exogpu attributes and types in their generic (#exogpu.* / !exogpu.*) form.
// RUN: exogpu-opt %s | exogpu-opt | FileCheck %s

// CHECK-LABEL: exogpu.proc @attrs
// CHECK-SAME: m0 = #exogpu.mem<@CudaSmemLinear>
// CHECK-SAME: m1 = #exogpu.mem<@Sm80_RmemMatrixD(16, 8)>
// CHECK-SAME: m2 = #exogpu.mem<@Sm90_SmemSwizzled(128)>
// CHECK-SAME: m3 = #exogpu.mem<@Sm90_RmemMatrixD(64, 256)>
// CHECK-SAME: sw = #exogpu.special_window<@Sm90_tensorMap(128, 16, 32)>
// CHECK-SAME: u0 = #exogpu.unit<4 * cuda_warp>
// CHECK-SAME: u1 = #exogpu.unit<cuda_threads_strided(4, 2)>
// CHECK-SAME: u2 = #exogpu.unit<2 * cuda_cta_in_cluster_strided(2)>
// CHECK-SAME: u3 = #exogpu.unit<cuda_warp_in_cluster_strided(4)>
// CHECK-SAME: u4 = #exogpu.unit<cuda_agnostic_intact_cta>
exogpu.proc @attrs() attributes {
  m0 = #exogpu.mem<@CudaSmemLinear>, m1 = #exogpu.mem<@Sm80_RmemMatrixD(16, 8)>,
  m2 = #exogpu.mem<@Sm90_SmemSwizzled(128)>, m3 = #exogpu.mem<@Sm90_RmemMatrixD(64, 256)>,
  sw = #exogpu.special_window<@Sm90_tensorMap(128, 16, 32)>,
  u0 = #exogpu.unit<4 * cuda_warp>, u1 = #exogpu.unit<cuda_threads_strided(4, 2)>,
  u2 = #exogpu.unit<2 * cuda_cta_in_cluster_strided(2)>, u3 = #exogpu.unit<cuda_warp_in_cluster_strided(4)>,
  u4 = #exogpu.unit<cuda_agnostic_intact_cta>} {
}

// CHECK-LABEL: exogpu.proc @args
// CHECK-SAME: a0 = #exogpu.arg<default>
// CHECK-SAME: a1 = #exogpu.arg<out_of_order, convergent, dist = [cuda_thread, 4 * cuda_warp], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual, cuda_in_order_ram_qual], atomic = [cuda_in_order_ram_qual]>
// CHECK-SAME: c0 = #exogpu.cond<(d0, d1) -> (d0, d1), [0]>
// CHECK-SAME: wg = #exogpu.warp_group<"producer" = (1, 40, 0)>
exogpu.proc @args() attributes {
  a0 = #exogpu.arg<default>,
  a1 = #exogpu.arg<out_of_order, convergent, dist = [cuda_thread, 4 * cuda_warp], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual, cuda_in_order_ram_qual], atomic = [cuda_in_order_ram_qual]>,
  c0 = #exogpu.cond<(d0, d1) -> (d0, d1), [0]>,
  wg = #exogpu.warp_group<"producer" = (1, 40, 0)>} {
}

// CHECK-LABEL: exogpu.proc @types
// CHECK-SAME: b0 = !exogpu.barrier<[2, 2] @CudaMbarrier guarded>
// CHECK-SAME: b1 = !exogpu.barrier<@CudaCommitGroup>
// CHECK-SAME: b2 = !exogpu.barrier<@CudaClusterSync>
// CHECK-SAME: t0 = !exogpu.tensor<f32[16, ?] @CudaGmemLinear>
// CHECK-SAME: t1 = !exogpu.tensor<bf16 @CudaRmem>
// CHECK-SAME: w0 = !exogpu.window<f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32)>
// CHECK-SAME: w1 = !exogpu.window<ui8[4] @CudaSmemLinear>
exogpu.proc @types() attributes {
  t0 = !exogpu.tensor<f32[16, ?] @CudaGmemLinear>, t1 = !exogpu.tensor<bf16 @CudaRmem>,
  w0 = !exogpu.window<f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32)>,
  w1 = !exogpu.window<ui8[4] @CudaSmemLinear>,
  b0 = !exogpu.barrier<[2, 2] @CudaMbarrier guarded>, b1 = !exogpu.barrier<@CudaCommitGroup>,
  b2 = !exogpu.barrier<@CudaClusterSync>} {
}
