// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=C7519 --implicit-check-not=C7517 %}
// RUN: %if nvcc && cuobjdump %{ %cuobjdump -sass %t.o | FileCheck %s --check-prefix=SASS %}
exogpu.import "sm90a"

// Every instruction of stdlib/sm90a.mlir except the multicast TMA load,
// called from small kernels that pass the collective analysis, the
// distributed memory deduction and the synchronization check: each
// template's expansion, ptxas on every kernel (no spills, no stack, and no
// wgmma serialization that ptxas would inject, warnings C7517 / C7519), and
// the tensor-core and TMA instructions in the SASS.

// PTXAS-COUNT-9: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-DAG: UTMALDG.2D
// SASS-DAG: UTMASTG.2D
// SASS-DAG: UTMAREDG.2D.ADD
// SASS-DAG: HGMMA.64x256x8.F32.TF32
// SASS-DAG: HGMMA.64x128x8.F32.TF32
// SASS-DAG: HGMMA.64x64x8.F32.TF32
// SASS-DAG: HGMMA.64x256x16.F32.BF16
// SASS-DAG: HGMMA.64x128x16.F32.BF16
// SASS-DAG: HGMMA.64x64x16.F32.BF16
// SASS-DAG: {{HGMMA.64x256x16.F32[[:space:]]}}
// SASS-DAG: {{HGMMA.64x128x16.F32[[:space:]]}}
// SASS-DAG: {{HGMMA.64x64x16.F32[[:space:]]}}

// wgmma tf32 with N = 256 after TMA loads of a 128 x 32 A tile and a
// 256 x 32 B tile (one mbarrier, 48 KiB of transactions); each warpgroup
// multiplies its 64 rows of A, four k-steps of 8, and stores its 64 x 256
// accumulator. The descriptor addresses advance 32 bytes per k-step inside
// the 128-byte swizzled rows.
// CHECK-LABEL: {{^}}wgmma_tf32_n256_kernel(
// CHECK: call @Sm90_tma_load_128x32_f32(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"((unsigned)__cvta_generic_to_shared(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_256x32_f32(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"((unsigned)__cvta_generic_to_shared(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 49152);
// CHECK: call @Sm90_zero_d_m64n256_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 128; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_tf32_m64n256k8(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {%0, %1, {{.*}}, %127}, %128, %129, 1, 1, 1; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 2048 + kk * 8)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 8)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n256_f32[256](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 16384) + row * 256 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 256] = D0[r + 2]; p[8 * 256 + 1] = D0[r + 3]; } }
exogpu.proc @wgmma_tf32_n256(%A: f32[128, 32] @CudaGmemLinear, %B: f32[256, 32] @CudaGmemLinear, %C0: f32[128, 256] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc f32[256, 32] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[:, :], %A_map[:, :]) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_256x32_f32(%B_smem[:, :], %B_map[:, :]) >> %full : f32[256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 256, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D0[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[0:256, %kk * 8:%kk * 8 + 8]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 256] @CudaGmemLinear, f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma tf32 with N = 128 and N = 64 (the first 64 rows of the B tile).
// CHECK-LABEL: {{^}}wgmma_tf32_n128_n64_kernel(
// CHECK: call @Sm90_tma_load_128x32_f32(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"((unsigned)__cvta_generic_to_shared(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_128x32_f32(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"((unsigned)__cvta_generic_to_shared(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"((unsigned)__cvta_generic_to_shared(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 32768);
// CHECK: call @Sm90_zero_d_m64n128_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 64; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]));
// CHECK: call @Sm90_zero_d_m64n64_f32(D1[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 32; ++r) D1[r] = 0.f; asm volatile("" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_tf32_m64n128k8(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {%0, %1, {{.*}}, %63}, %64, %65, 1, 1, 1; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 2048 + kk * 8)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 8)));
// CHECK: call @Sm90_mma_async_tf32_m64n64k8(D1[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {%0, %1, {{.*}}, %31}, %32, %33, 1, 1, 1; }" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 2048 + kk * 8)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 8)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n128_f32[128](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 64; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 8192) + row * 128 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 128] = D0[r + 2]; p[8 * 128 + 1] = D0[r + 3]; } }
// CHECK: call @Sm90_store_d_m64n64_f32[64](C1[wg * 64:wg * 64 + 64, :], D1[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 32; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C1 + wg * 4096) + row * 64 + col; p[0] = D1[r]; p[1] = D1[r + 1]; p[8 * 64] = D1[r + 2]; p[8 * 64 + 1] = D1[r + 3]; } }
exogpu.proc @wgmma_tf32_n128_n64(%A: f32[128, 32] @CudaGmemLinear, %B: f32[128, 32] @CudaGmemLinear, %C0: f32[128, 128] @CudaGmemLinear, %C1: f32[128, 64] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
      %D1 = exogpu.alloc f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%A_smem[:, :], %A_map[:, :]) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_128x32_f32(%B_smem[:, :], %B_map[:, :]) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n128_f32(%D0[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_zero_d_m64n64_f32(%D1[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_tf32_m64n128k8(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[0:128, %kk * 8:%kk * 8 + 8]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f32[128, 32] @Sm90_SmemSwizzled(128), f32[128, 32] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_mma_async_tf32_m64n64k8(%D1[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 8:%kk * 8 + 8], %B_smem[0:64, %kk * 8:%kk * 8 + 8]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64), f32[128, 32] @Sm90_SmemSwizzled(128), f32[128, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n128_f32[128](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 128] @CudaGmemLinear, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_store_d_m64n64_f32[64](%C1[%wg * 64:%wg * 64 + 64, :], %D1[%wg, :, :]) : f32[128, 64] @CudaGmemLinear, f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma bf16 with N = 256 after TMA loads of 128 x 64 and 256 x 64 bf16 tiles
// (128-byte rows); k-steps of 16 elements, 32 bytes.
// CHECK-LABEL: {{^}}wgmma_bf16_n256_kernel(
// CHECK: call @Sm90_tma_load_128x64_bf16(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_256x64_bf16(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 49152);
// CHECK: call @Sm90_zero_d_m64n256_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 128; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_bf16_m64n256k16(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {%0, %1, {{.*}}, %127}, %128, %129, 1, 1, 1, 0, 0; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n256_f32[256](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 16384) + row * 256 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 256] = D0[r + 2]; p[8 * 256 + 1] = D0[r + 3]; } }
exogpu.proc @wgmma_bf16_n256(%A: bf16[128, 64] @CudaGmemLinear, %B: bf16[256, 64] @CudaGmemLinear, %C0: f32[128, 256] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[128, 64] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[256, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc bf16[128, 64] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc bf16[256, 64] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[:, :], %A_map[:, :]) >> %full : bf16[128, 64] @Sm90_SmemSwizzled(128), window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_256x64_bf16(%B_smem[:, :], %B_map[:, :]) >> %full : bf16[256, 64] @Sm90_SmemSwizzled(128), window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D0[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_bf16_m64n256k16(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:256, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), bf16[128, 64] @Sm90_SmemSwizzled(128), bf16[256, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 256] @CudaGmemLinear, f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma bf16 with N = 128 and N = 64.
// CHECK-LABEL: {{^}}wgmma_bf16_n128_n64_kernel(
// CHECK: call @Sm90_tma_load_128x64_bf16(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_128x64_bf16(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 32768);
// CHECK: call @Sm90_zero_d_m64n128_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 64; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]));
// CHECK: call @Sm90_zero_d_m64n64_f32(D1[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 32; ++r) D1[r] = 0.f; asm volatile("" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_bf16_m64n128k16(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, {{.*}}, %63}, %64, %65, 1, 1, 1, 0, 0; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: call @Sm90_mma_async_bf16_m64n64k16(D1[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {%0, %1, {{.*}}, %31}, %32, %33, 1, 1, 1, 0, 0; }" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n128_f32[128](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 64; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 8192) + row * 128 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 128] = D0[r + 2]; p[8 * 128 + 1] = D0[r + 3]; } }
// CHECK: call @Sm90_store_d_m64n64_f32[64](C1[wg * 64:wg * 64 + 64, :], D1[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 32; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C1 + wg * 4096) + row * 64 + col; p[0] = D1[r]; p[1] = D1[r + 1]; p[8 * 64] = D1[r + 2]; p[8 * 64 + 1] = D1[r + 3]; } }
exogpu.proc @wgmma_bf16_n128_n64(%A: bf16[128, 64] @CudaGmemLinear, %B: bf16[128, 64] @CudaGmemLinear, %C0: f32[128, 128] @CudaGmemLinear, %C1: f32[128, 64] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[128, 64] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc bf16[128, 64] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc bf16[128, 64] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
      %D1 = exogpu.alloc f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x64_bf16(%A_smem[:, :], %A_map[:, :]) >> %full : bf16[128, 64] @Sm90_SmemSwizzled(128), window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_128x64_bf16(%B_smem[:, :], %B_map[:, :]) >> %full : bf16[128, 64] @Sm90_SmemSwizzled(128), window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n128_f32(%D0[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_zero_d_m64n64_f32(%D1[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_bf16_m64n128k16(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:128, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), bf16[128, 64] @Sm90_SmemSwizzled(128), bf16[128, 64] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_mma_async_bf16_m64n64k16(%D1[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:64, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64), bf16[128, 64] @Sm90_SmemSwizzled(128), bf16[128, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n128_f32[128](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 128] @CudaGmemLinear, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_store_d_m64n64_f32[64](%C1[%wg * 64:%wg * 64 + 64, :], %D1[%wg, :, :]) : f32[128, 64] @CudaGmemLinear, f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma f16 with N = 256 after TMA loads of 128 x 64 and 256 x 64 f16 tiles
// (128-byte rows); k-steps of 16 elements, 32 bytes.
// CHECK-LABEL: {{^}}wgmma_f16_n256_kernel(
// CHECK: call @Sm90_tma_load_128x64_f16(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_256x64_f16(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 49152);
// CHECK: call @Sm90_zero_d_m64n256_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 128; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_f16_m64n256k16(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%0, %1, {{.*}}, %127}, %128, %129, 1, 1, 1, 0, 0; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[127]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n256_f32[256](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 16384) + row * 256 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 256] = D0[r + 2]; p[8 * 256 + 1] = D0[r + 3]; } }
exogpu.proc @wgmma_f16_n256(%A: f16[128, 64] @CudaGmemLinear, %B: f16[256, 64] @CudaGmemLinear, %C0: f32[128, 256] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : f16[128, 64] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : f16[256, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc f16[128, 64] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc f16[256, 64] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x64_f16(%A_smem[:, :], %A_map[:, :]) >> %full : f16[128, 64] @Sm90_SmemSwizzled(128), window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_256x64_f16(%B_smem[:, :], %B_map[:, :]) >> %full : f16[256, 64] @Sm90_SmemSwizzled(128), window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D0[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_f16_m64n256k16(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:256, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f16[128, 64] @Sm90_SmemSwizzled(128), f16[256, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 256] @CudaGmemLinear, f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma f16 with N = 128 and N = 64.
// CHECK-LABEL: {{^}}wgmma_f16_n128_n64_kernel(
// CHECK: call @Sm90_tma_load_128x64_f16(A_smem[:, :], A_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(A_smem)), "l"(&A_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_128x64_f16(B_smem[:, :], B_map[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" :: "r"(exo::smem_address(B_smem)), "l"(&B_map), "r"(0), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 32768);
// CHECK: call @Sm90_zero_d_m64n128_f32(D0[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 64; ++r) D0[r] = 0.f; asm volatile("" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]));
// CHECK: call @Sm90_zero_d_m64n64_f32(D1[wg, :, :])
// CHECK-NEXT: for (int r = 0; r < 32; ++r) D1[r] = 0.f; asm volatile("" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]));
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_f16_m64n128k16(D0[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, {{.*}}, %63}, %64, %65, 1, 1, 1, 0, 0; }" : "+f"(D0[0]), {{.*}}, "+f"(D0[63]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: call @Sm90_mma_async_f16_m64n64k16(D1[wg, :, :]
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%0, %1, {{.*}}, %31}, %32, %33, 1, 1, 1, 0, 0; }" : "+f"(D1[0]), {{.*}}, "+f"(D1[31]) : "l"(exo::wgmma_desc_sw128(A_smem + wg * 4096 + kk * 16)), "l"(exo::wgmma_desc_sw128(B_smem + kk * 16)));
// CHECK: asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
// CHECK: asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
// CHECK: call @Sm90_store_d_m64n128_f32[128](C0[wg * 64:wg * 64 + 64, :], D0[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 64; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C0 + wg * 8192) + row * 128 + col; p[0] = D0[r]; p[1] = D0[r + 1]; p[8 * 128] = D0[r + 2]; p[8 * 128 + 1] = D0[r + 3]; } }
// CHECK: call @Sm90_store_d_m64n64_f32[64](C1[wg * 64:wg * 64 + 64, :], D1[wg, :, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 32; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = (C1 + wg * 4096) + row * 64 + col; p[0] = D1[r]; p[1] = D1[r + 1]; p[8 * 64] = D1[r + 2]; p[8 * 64 + 1] = D1[r + 3]; } }
exogpu.proc @wgmma_f16_n128_n64(%A: f16[128, 64] @CudaGmemLinear, %B: f16[128, 64] @CudaGmemLinear, %C0: f32[128, 128] @CudaGmemLinear, %C1: f32[128, 64] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 64) : f16[128, 64] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 128, 64) : f16[128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A_smem = exogpu.alloc f16[128, 64] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc f16[128, 64] @Sm90_SmemSwizzled(128)
      %D0 = exogpu.alloc f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
      %D1 = exogpu.alloc f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x64_f16(%A_smem[:, :], %A_map[:, :]) >> %full : f16[128, 64] @Sm90_SmemSwizzled(128), window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_128x64_f16(%B_smem[:, :], %B_map[:, :]) >> %full : f16[128, 64] @Sm90_SmemSwizzled(128), window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n128_f32(%D0[%wg, :, :]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_zero_d_m64n64_f32(%D1[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %kk in seq(0, 4) {
          exogpu.call @Sm90_mma_async_f16_m64n128k16(%D0[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:128, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128), f16[128, 64] @Sm90_SmemSwizzled(128), f16[128, 64] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_mma_async_f16_m64n64k16(%D1[%wg, :, :], %A_smem[%wg * 64:%wg * 64 + 64, %kk * 16:%kk * 16 + 16], %B_smem[0:64, %kk * 16:%kk * 16 + 16]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64), f16[128, 64] @Sm90_SmemSwizzled(128), f16[128, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n128_f32[128](%C0[%wg * 64:%wg * 64 + 64, :], %D0[%wg, :, :]) : f32[128, 128] @CudaGmemLinear, f32[2, 64, 128] @Sm90_RmemMatrixD(64, 128)
        exogpu.call @Sm90_store_d_m64n64_f32[64](%C1[%wg * 64:%wg * 64 + 64, :], %D1[%wg, :, :]) : f32[128, 64] @CudaGmemLinear, f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// TMA store and reduce-add: the CTA writes a 128-row tile into swizzled
// shared memory, orders it before the async proxy (fence.proxy.async and
// the CTA barrier), and one thread stores it and adds it to global memory
// at box origin (row task * 128, column 32), innermost coordinate first in
// PTX, then commits the bulk group and waits for it before the tile is
// reused.
// CHECK-LABEL: {{^}}tma_store_reduce_f32_kernel(
// CHECK: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: call @Sm90_tma_store_128x32_f32(C_map[task * 128:task * 128 + 128, 32:64], S[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(32), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK: call @Sm90_tma_reduce_add_128x32_f32(R_map[task * 128:task * 128 + 128, 32:64], S[:, :])
// CHECK-NEXT: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&R_map), "r"(32), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK-NEXT: // {{.*}} arrive(tma_to_gmem_async, 1) >> cg[t]
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: // {{.*}} await(cg[t], cuda_in_order, 0)
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
exogpu.proc @tma_store_reduce_f32(%X: f32[256, 64] @CudaGmemLinear, %C: f32[256, 64] @CudaGmemLinear, %R: f32[256, 64] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 64] @CudaGmemLinear
  %R_map = exogpu.window %R[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, 32 + %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 64] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_store_128x32_f32(%C_map[%task * 128:%task * 128 + 128, 32:64], %S[:, :]) : window f32[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.call @Sm90_tma_reduce_add_128x32_f32(%R_map[%task * 128:%task * 128 + 128, 32:64], %S[:, :]) : window f32[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// TMA store and reduce-add of a 128 x 64 bf16 tile.
// CHECK-LABEL: {{^}}tma_store_reduce_bf16_kernel(
// CHECK: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: call @Sm90_tma_store_128x64_bf16(C_map[task * 128:task * 128 + 128, 64:128], S[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(64), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK: call @Sm90_tma_reduce_add_128x64_bf16(R_map[task * 128:task * 128 + 128, 64:128], S[:, :])
// CHECK-NEXT: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&R_map), "r"(64), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK-NEXT: // {{.*}} arrive(tma_to_gmem_async, 1) >> cg[t]
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: // {{.*}} await(cg[t], cuda_in_order, 0)
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
exogpu.proc @tma_store_reduce_bf16(%X: bf16[256, 128] @CudaGmemLinear, %C: bf16[256, 128] @CudaGmemLinear, %R: bf16[256, 128] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[256, 128] @CudaGmemLinear
  %R_map = exogpu.window %R[:, :] @Sm90_tensorMap(128, 128, 64) : bf16[256, 128] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc bf16[128, 64] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 64) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, 64 + %j] : bf16[128, 64] @Sm90_SmemSwizzled(128), bf16[256, 128] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_store_128x64_bf16(%C_map[%task * 128:%task * 128 + 128, 64:128], %S[:, :]) : window bf16[256, 128] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), bf16[128, 64] @Sm90_SmemSwizzled(128)
        exogpu.call @Sm90_tma_reduce_add_128x64_bf16(%R_map[%task * 128:%task * 128 + 128, 64:128], %S[:, :]) : window bf16[256, 128] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), bf16[128, 64] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// TMA store and reduce-add of a 128 x 64 f16 tile.
// CHECK-LABEL: {{^}}tma_store_reduce_f16_kernel(
// CHECK: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: call @Sm90_tma_store_128x64_f16(C_map[task * 128:task * 128 + 128, 64:128], S[:, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(64), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK: call @Sm90_tma_reduce_add_128x64_f16(R_map[task * 128:task * 128 + 128, 64:128], S[:, :])
// CHECK-NEXT: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&R_map), "r"(64), "r"(task * 128), "r"(exo::smem_address(S)) : "memory");
// CHECK-NEXT: // {{.*}} arrive(tma_to_gmem_async, 1) >> cg[t]
// CHECK-NEXT: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK-NEXT: // {{.*}} await(cg[t], cuda_in_order, 0)
// CHECK-NEXT: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
exogpu.proc @tma_store_reduce_f16(%X: f16[256, 128] @CudaGmemLinear, %C: f16[256, 128] @CudaGmemLinear, %R: f16[256, 128] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 64) : f16[256, 128] @CudaGmemLinear
  %R_map = exogpu.window %R[:, :] @Sm90_tensorMap(128, 128, 64) : f16[256, 128] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f16[128, 64] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 64) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, 64 + %j] : f16[128, 64] @Sm90_SmemSwizzled(128), f16[256, 128] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_store_128x64_f16(%C_map[%task * 128:%task * 128 + 128, 64:128], %S[:, :]) : window f16[256, 128] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), f16[128, 64] @Sm90_SmemSwizzled(128)
        exogpu.call @Sm90_tma_reduce_add_128x64_f16(%R_map[%task * 128:%task * 128 + 128, 64:128], %S[:, :]) : window f16[256, 128] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), f16[128, 64] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
