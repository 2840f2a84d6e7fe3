// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check="M=128" -o /dev/null
// RUN: exogpu-opt %s --exogpu-sync-check="M=128,engine=reference" -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if nvcc && cuobjdump %{ %cuobjdump -sass %t.o | FileCheck %s --check-prefix=SASS --implicit-check-not=LDL --implicit-check-not=STL %}
exogpu.import "sm90a"

// The instructions of stdlib/sm90a.mlir that the benchmark's GEMMs add
// (examples/gemm_{tf32,bf16,splitk}_sm90a.mlir and their variants), called from small kernels
// that pass the collective analysis, the distributed memory deduction and
// the synchronization check (both engines): accumulator tiles written into
// swizzled shared memory, TMA stores and reduce-adds of 64-row boxes, TMA
// loads through rank-3 tensor maps, and the host's stream-ordered memset.
// Each template's expansion, ptxas on every kernel (no spills, no stack)
// and the TMA instructions in the SASS.

// PTXAS-COUNT-5: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-DAG: UTMASTG.2D
// SASS-DAG: UTMAREDG.2D.ADD
// SASS-DAG: UTMALDG.3D

// f32 epilogue: one warpgroup zeroes its 64 x 256 accumulator and writes
// column block j as tile j of S (16 j .. 16 j + 15 are the registers of
// columns 32 j .. 32 j + 31; the seq loop is unrolled, so the register
// indices are constants), fences the tiles to the async proxy, and one
// thread stores each to C and adds it to R with TMA (box origin: row 64 *
// task, column 32 j; innermost first in PTX).
// CHECK-LABEL: {{^}}epilogue_f32_kernel(
// CHECK: #pragma unroll
// CHECK-NEXT: for (int j = 0; j < 8; ++j) {
// CHECK-NEXT: // {{.*}} call @Sm90_store_d_m64n256_tile64x32_f32[j](S[j, :, :], D[:, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; const bool odd = (row & 1u) != 0u; char *const base = reinterpret_cast<char *>(S + j * 2048) + row * 128u; for (int s = 0; s < 4; ++s) { const unsigned q = unsigned(s) ^ (odd ? 2u : 0u); const unsigned offset = (((2u * q + (t % 4u) / 2u) ^ (row % 8u)) << 4) + (t % 2u) * 8u; const float x0 = odd ? D[16 * (j) + 4 * (s ^ 2)] : D[16 * (j) + 4 * s]; const float x1 = odd ? D[16 * (j) + 4 * (s ^ 2) + 1] : D[16 * (j) + 4 * s + 1]; const float x2 = odd ? D[16 * (j) + 4 * (s ^ 2) + 2] : D[16 * (j) + 4 * s + 2]; const float x3 = odd ? D[16 * (j) + 4 * (s ^ 2) + 3] : D[16 * (j) + 4 * s + 3]; *reinterpret_cast<float2 *>(base + offset) = make_float2(x0, x1); *reinterpret_cast<float2 *>(base + 1024u + offset) = make_float2(x2, x3); } }
// CHECK: exo::fence_proxy_async();
// CHECK-NEXT: __syncthreads();
// CHECK: call @Sm90_tma_store_64x32_f32(C_map[task * 64:task * 64 + 64, j * 32:j * 32 + 32], S[j, :, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(j * 32), "r"(task * 64), "r"(exo::smem_address(S + j * 2048)) : "memory");
// CHECK: call @Sm90_tma_reduce_add_64x32_f32(R_map[task * 64:task * 64 + 64, j * 32:j * 32 + 32], S[j, :, :])
// CHECK-NEXT: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&R_map), "r"(j * 32), "r"(task * 64), "r"(exo::smem_address(S + j * 2048)) : "memory");
// CHECK: asm volatile("cp.async.bulk.commit_group;" ::: "memory");
// CHECK: asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
exogpu.proc @epilogue_f32(%C: f32[128, 256] @CudaGmemLinear, %R: f32[128, 256] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32) : f32[128, 256] @CudaGmemLinear
  %R_map = exogpu.window %R[:, :] @Sm90_tensorMap(128, 64, 32) : f32[128, 256] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[8, 64, 32] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %j in seq(0, 8) {
        exogpu.call @Sm90_store_d_m64n256_tile64x32_f32[%j](%S[%j, :, :], %D[:, :]) : f32[8, 64, 32] @Sm90_SmemSwizzled(128), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 8) {
          exogpu.call @Sm90_tma_store_64x32_f32(%C_map[%task * 64:%task * 64 + 64, %j * 32:%j * 32 + 32], %S[%j, :, :]) : window f32[128, 256] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[8, 64, 32] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_tma_reduce_add_64x32_f32(%R_map[%task * 64:%task * 64 + 64, %j * 32:%j * 32 + 32], %S[%j, :, :]) : window f32[128, 256] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[8, 64, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// bf16 epilogue: column block j (registers 32 j .. 32 j + 31) rounded to
// bf16 pairs into tile j, stored with TMA boxes of 64 x 64.
// CHECK-LABEL: {{^}}epilogue_bf16_kernel(
// CHECK: #pragma unroll
// CHECK-NEXT: for (int j = 0; j < 4; ++j) {
// CHECK-NEXT: // {{.*}} call @Sm90_store_d_m64n256_tile64x64_bf16[j](S[j, :, :], D[:, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>(S + j * 4096) + row * 128u; for (int q = 0; q < 8; ++q) { const unsigned offset = ((q ^ (row % 8u)) << 4) + (t % 4u) * 4u; *reinterpret_cast<__nv_bfloat162 *>(base + offset) = __floats2bfloat162_rn(D[32 * (j) + 4 * q], D[32 * (j) + 4 * q + 1]); *reinterpret_cast<__nv_bfloat162 *>(base + 1024u + offset) = __floats2bfloat162_rn(D[32 * (j) + 4 * q + 2], D[32 * (j) + 4 * q + 3]); } }
// CHECK: call @Sm90_tma_store_64x64_bf16(C_map[task * 64:task * 64 + 64, j * 64:j * 64 + 64], S[j, :, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(j * 64), "r"(task * 64), "r"(exo::smem_address(S + j * 4096)) : "memory");
exogpu.proc @epilogue_bf16(%C: bf16[128, 256] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64) : bf16[128, 256] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc bf16[4, 64, 64] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %j in seq(0, 4) {
        exogpu.call @Sm90_store_d_m64n256_tile64x64_bf16[%j](%S[%j, :, :], %D[:, :]) : bf16[4, 64, 64] @Sm90_SmemSwizzled(128), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 4) {
          exogpu.call @Sm90_tma_store_64x64_bf16(%C_map[%task * 64:%task * 64 + 64, %j * 64:%j * 64 + 64], %S[%j, :, :]) : window bf16[128, 256] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[4, 64, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// Rank-3 TMA loads of the split-k operands: A and B are [rows, S = 2,
// KC = 64]; task s loads the k-block 32..63 of chunk s (coordinates
// innermost first: column, chunk, row) into 128 x 32 and 256 x 32 tiles
// (48 KiB of transactions on one mbarrier), which the CTA copies out.
// CHECK-LABEL: {{^}}tma_load_3d_kernel(
// CHECK: call @Sm90_tma_load_3d_128x32_f32(A_smem[:, :], A_map[:, s:s + 1, 32:64]) >> full
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(exo::smem_address(A_smem)), "l"(&A_map), "r"(32), "r"(s), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: call @Sm90_tma_load_3d_256x32_f32(B_smem[:, :], B_map[:, s:s + 1, 32:64]) >> full
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(exo::smem_address(B_smem)), "l"(&B_map), "r"(32), "r"(s), "r"(0), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: exo::mbarrier_arrive_expect_tx(&full[0], 49152);
// The host encodes rank-3 maps: dimensions and box innermost first.
// CHECK-LABEL: extern "C" cudaError_t tma_load_3d(
// CHECK: const cuuint64_t dims[] = {cuuint64_t(64), cuuint64_t(2), cuuint64_t(128)};
// CHECK-NEXT: const cuuint64_t strides[] = {cuuint64_t(4 * 64), cuuint64_t(4 * 2 * 64)};
// CHECK-NEXT: const cuuint32_t box[] = {32, 1, 128};
// CHECK-NEXT: EXOGPU_TRY(cache.encode(&A_map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 3, A, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B));
exogpu.proc @tma_load_3d(%A: f32[128, 2, 64] @CudaGmemLinear, %B: f32[256, 2, 64] @CudaGmemLinear, %OA: f32[2, 128, 32] @CudaGmemLinear, %OB: f32[2, 256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :, :] @Sm90_tensorMap(128, 128, 1, 32) : f32[128, 2, 64] @CudaGmemLinear
  %B_map = exogpu.window %B[:, :, :] @Sm90_tensorMap(128, 256, 1, 32) : f32[256, 2, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %s in cuda_tasks(0, 2) {
      %A_smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %B_smem = exogpu.alloc f32[256, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_3d_128x32_f32(%A_smem[:, :], %A_map[:, %s:%s + 1, 32:64]) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 2, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 1, 32), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_3d_256x32_f32(%B_smem[:, :], %B_map[:, %s:%s + 1, 32:64]) >> %full : f32[256, 32] @Sm90_SmemSwizzled(128), window f32[256, 2, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 1, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %OA[%s, %t, %j] = %A_smem[%t, %j] : f32[2, 128, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
          exogpu.assign %OB[%s, %t, %j] = %B_smem[%t, %j] : f32[2, 256, 32] @CudaGmemLinear, f32[256, 32] @Sm90_SmemSwizzled(128)
          exogpu.assign %OB[%s, %t + 128, %j] = %B_smem[%t + 128, %j] : f32[2, 256, 32] @CudaGmemLinear, f32[256, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// The host zeroes C on the stream (cudaMemsetAsync: a CPU instruction may
// use the host function's `stream`); the stream orders the kernel after it,
// whose TMA reduce-adds then add into zeros.
// CHECK-LABEL: extern "C" cudaError_t zero_then_reduce(
// CHECK: // {{.*}} call @cuda_memset_zero_f32[M, 32](C)
// CHECK-NEXT: EXOGPU_TRY(cudaMemsetAsync(C, 0, sizeof(float) * size_t(M) * size_t(32), stream));
// CHECK: EXOGPU_TRY(exo::launch(zero_then_reduce_kernel,
exogpu.proc @zero_then_reduce(%M: size, %X: f32[64, 32] @CudaGmemLinear, %C: f32[%M, 32] @CudaGmemLinear) requires %M mod 64 == 0 {
  exogpu.call @cuda_memset_zero_f32[%M, 32](%C) : f32[?, 32] @CudaGmemLinear
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 32) : f32[?, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, %M / 64) {
      %S = exogpu.alloc f32[64, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%t, %j] : f32[64, 32] @Sm90_SmemSwizzled(128), f32[64, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_reduce_add_64x32_f32(%C_map[%task * 64:%task * 64 + 64, :], %S[:, :]) : window f32[?, 32] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[64, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// The bf16 small-shape epilogue (examples/gemm_bf16_128x128_sm90a.mlir):
// the host zeroes a bf16 C on the stream, and one warpgroup rounds its
// 64 x 128 accumulator into two bf16 tiles (column block j: registers
// 32 j .. 32 j + 31) and one thread reduce-adds them into C with 64 x 64
// boxes (a bf16 tensor map).
// CHECK-LABEL: {{^}}zero_then_reduce_bf16_kernel(
// CHECK: #pragma unroll
// CHECK-NEXT: for (int j = 0; j < 2; ++j) {
// CHECK-NEXT: // {{.*}} call @Sm90_store_d_m64n128_tile64x64_bf16[j](S[j, :, :], D[:, :])
// CHECK-NEXT: { const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>(S + j * 4096) + row * 128u; for (int q = 0; q < 8; ++q) { const unsigned offset = ((q ^ (row % 8u)) << 4) + (t % 4u) * 4u; *reinterpret_cast<__nv_bfloat162 *>(base + offset) = __floats2bfloat162_rn(D[32 * (j) + 4 * q], D[32 * (j) + 4 * q + 1]); *reinterpret_cast<__nv_bfloat162 *>(base + 1024u + offset) = __floats2bfloat162_rn(D[32 * (j) + 4 * q + 2], D[32 * (j) + 4 * q + 3]); } }
// CHECK: call @Sm90_tma_reduce_add_64x64_bf16(C_map[task * 64:task * 64 + 64, j * 64:j * 64 + 64], S[j, :, :])
// CHECK-NEXT: asm volatile("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];" :: "l"(&C_map), "r"(j * 64), "r"(task * 64), "r"(exo::smem_address(S + j * 4096)) : "memory");
// CHECK-LABEL: extern "C" cudaError_t zero_then_reduce_bf16(
// CHECK: // {{.*}} call @cuda_memset_zero_bf16[M, 128](C)
// CHECK-NEXT: EXOGPU_TRY(cudaMemsetAsync(C, 0, sizeof(__nv_bfloat16) * size_t(M) * size_t(128), stream));
// CHECK: EXOGPU_TRY(cache.encode(&C_map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2,
// CHECK: EXOGPU_TRY(exo::launch(zero_then_reduce_bf16_kernel,
exogpu.proc @zero_then_reduce_bf16(%M: size, %C: bf16[%M, 128] @CudaGmemLinear) requires %M mod 64 == 0 {
  exogpu.call @cuda_memset_zero_bf16[%M, 128](%C) : bf16[?, 128] @CudaGmemLinear
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 64, 64) : bf16[?, 128] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %M / 64) {
      %S = exogpu.alloc bf16[2, 64, 64] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.call @Sm90_zero_d_m64n128_f32(%D[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %j in seq(0, 2) {
        exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%j](%S[%j, :, :], %D[:, :]) : bf16[2, 64, 64] @Sm90_SmemSwizzled(128), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 2) {
          exogpu.call @Sm90_tma_reduce_add_64x64_bf16(%C_map[%task * 64:%task * 64 + 64, %j * 64:%j * 64 + 64], %S[%j, :, :]) : window bf16[?, 128] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[2, 64, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
