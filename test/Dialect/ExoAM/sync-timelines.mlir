// RUN: exogpu-opt %s | FileCheck %s

// The table of seeds/002 Fig. 16 as read in docs/abstract-machine.md: for each
// sync timeline, `qfull(tl)` is its full set (Fig. 18 T_qfull) and `qtmp(tl)`
// its full and temporal sets together (T_qtmp).

// CHECK-LABEL: exoam.proc @fig16()
exoam.proc @fig16() {
  // empty_sync_tl
  // CHECK-NEXT: exoam.fence pre = [] full = [] temp = [] threads cpu
  exoam.fence pre = [] full = qfull(empty_sync_tl) temp = qtmp(empty_sync_tl) threads cpu
  // cpu_in_order
  // CHECK-NEXT: exoam.fence pre = [] full = [cpu_in_order_qual] temp = [cpu_in_order_qual] threads cpu
  exoam.fence pre = [] full = qfull(cpu_in_order) temp = qtmp(cpu_in_order) threads cpu
  // cuda_stream_sync
  // CHECK-NEXT: exoam.fence pre = [] full = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  // cuda_in_order
  // CHECK-NEXT: exoam.fence pre = [] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads cpu
  // cuda_temporal
  // CHECK-NEXT: exoam.fence pre = [] full = [] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_temporal) temp = qtmp(cuda_temporal) threads cpu
  // Sm80_cp_async
  // CHECK-NEXT: exoam.fence pre = [] full = [Sm80_cp_async_qual] temp = [Sm80_cp_async_qual] threads cpu
  exoam.fence pre = [] full = qfull(Sm80_cp_async) temp = qtmp(Sm80_cp_async) threads cpu
  // Sm80_generic
  // CHECK-NEXT: exoam.fence pre = [] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads cpu
  exoam.fence pre = [] full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads cpu
  // tma_to_smem_async
  // CHECK-NEXT: exoam.fence pre = [] full = [tma_to_smem_async_qual] temp = [tma_to_smem_async_qual] threads cpu
  exoam.fence pre = [] full = qfull(tma_to_smem_async) temp = qtmp(tma_to_smem_async) threads cpu
  // tma_to_gmem_async
  // CHECK-NEXT: exoam.fence pre = [] full = [tma_to_gmem_async_qual] temp = [tma_to_gmem_async_qual] threads cpu
  exoam.fence pre = [] full = qfull(tma_to_gmem_async) temp = qtmp(tma_to_gmem_async) threads cpu
  // wgmma_async_smem
  // CHECK-NEXT: exoam.fence pre = [] full = [wgmma_async_smem_qual] temp = [wgmma_async_smem_qual] threads cpu
  exoam.fence pre = [] full = qfull(wgmma_async_smem) temp = qtmp(wgmma_async_smem) threads cpu
  // wgmma_fence_1
  // CHECK-NEXT: exoam.fence pre = [] full = [cuda_in_order_rmem_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] temp = [cuda_in_order_rmem_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] threads cpu
  exoam.fence pre = [] full = qfull(wgmma_fence_1) temp = qtmp(wgmma_fence_1) threads cpu
  // wgmma_fence_2
  // CHECK-NEXT: exoam.fence pre = [] full = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] temp = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] threads cpu
  exoam.fence pre = [] full = qfull(wgmma_fence_2) temp = qtmp(wgmma_fence_2) threads cpu
  // wgmma_async
  // CHECK-NEXT: exoam.fence pre = [] full = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] temp = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] threads cpu
  exoam.fence pre = [] full = qfull(wgmma_async) temp = qtmp(wgmma_async) threads cpu
  // cuda_async_proxy
  // CHECK-NEXT: exoam.fence pre = [] full = [tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_smem_qual] temp = [tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_smem_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) threads cpu
  // cuda_async_proxy_wgmma
  // CHECK-NEXT: exoam.fence pre = [] full = [tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] temp = [tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_async_proxy_wgmma) temp = qtmp(cuda_async_proxy_wgmma) threads cpu
  // cuda_generic_and_async
  // CHECK-NEXT: exoam.fence pre = [] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_smem_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads cpu
  exoam.fence pre = [] full = qfull(cuda_generic_and_async) temp = qtmp(cuda_generic_and_async) threads cpu
}
