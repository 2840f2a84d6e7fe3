// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: exogpu-opt %s --exogpu-sync-check=engine=reference -o /dev/null
// RUN: exogpu-run %s --proc=softmax_rows_n128 | FileCheck %s --check-prefix=SOFTMAX
// RUN: exogpu-run %s --proc=ex2_approx | FileCheck %s --check-prefix=EX2
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS --implicit-check-not=C7519 --implicit-check-not=C7517 --implicit-check-not=C7510 %}
// RUN: %if nvcc && cuobjdump %{ %cuobjdump -sass %t.o | FileCheck %s --check-prefix=SASS --implicit-check-not=LDL --implicit-check-not=STL %}
exogpu.import "sm90a"

// The instructions of stdlib/sm90a.mlir that the attention kernel adds
// (examples/attention_fwd_sm90a.mlir), called from small kernels that pass
// the collective analysis, the distributed memory deduction and the
// synchronization check (both engines): the row statistics of wgmma
// accumulators (max and sum over quads, the base-2 exponential, the row
// rescale, the causal mask), the conversion of an accumulator to the
// register A operand, wgmma with A from registers (B K-major and N-major),
// rank-3 TMA loads and stores of attention tiles, 64 x 64 bf16 epilogue
// tiles and the per-thread ex2.approx. Each template's expansion, ptxas on
// every kernel (no spills, no stack, no serialized wgmma), the SASS, and
// the sequential meaning of the softmax instructions.

// PTXAS-COUNT-11: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// SASS-DAG: MUFU.EX2
// SASS-DAG: SHFL.BFLY
// SASS-DAG: UTMALDG.3D
// SASS-DAG: UTMASTG.3D
// SASS-DAG: {{HGMMA.64x64x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x64x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}
// SASS-DAG: {{HGMMA.64x64x16.F32 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x64x16.F32 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}
// SASS-DAG: {{HGMMA.64x128x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x128x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}
// SASS-DAG: {{HGMMA.64x128x16.F32 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x128x16.F32 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}
// SASS-DAG: {{HGMMA.64x256x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x256x16.F32.BF16 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}
// SASS-DAG: {{HGMMA.64x256x16.F32 R[0-9]+, R[0-9]+, gdesc\[}}
// SASS-DAG: {{HGMMA.64x256x16.F32 R[0-9]+, R[0-9]+, gdesc\[.*\].tnspB}}

// The same steps with N = 64.
// CHECK-LABEL: {{^}}softmax_rows_n64_kernel(
// CHECK: for (int exo_i = 0; exo_i < 32; ++exo_i) if (8 * (exo_i / 4)
// CHECK: for (int exo_i = 0; exo_i < 32; exo_i += 4) { exo_m0 = fmaxf(
// CHECK: for (int exo_i = 0; exo_i < 32; ++exo_i) { const float exo_x = fmaf(
// CHECK: for (int exo_i = 0; exo_i < 32; exo_i += 4) { exo_s0 +=
// CHECK: for (int exo_i = 0; exo_i < 32; ++exo_i) S[exo_i] *=
exogpu.proc @softmax_rows_n64(%P: f32[64, 64] @CudaGmemLinear, %L: f32[128, 2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %m = exogpu.alloc f32[128, 2] @CudaRmem
      %l = exogpu.alloc f32[128, 2] @CudaRmem
      %bias = exogpu.alloc f32[128, 2] @CudaRmem
      %c = exogpu.alloc f32[128] @CudaRmem
      exogpu.call @Sm90_zero_d_m64n64_f32(%S[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_mask_causal_d_m64n64_f32[0](%S[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %c[%t] = 0.18033688 : f32[128] @CudaRmem
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %m[%t, %r] = -1.0e30 : f32[128, 2] @CudaRmem
          exogpu.assign %l[%t, %r] = 0.0 : f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_row_max_d_m64n64_f32(%m[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %bias[%t, %r] = %m[%t, %r] * %c[%t] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem, f32[128] @CudaRmem
        }
      }
      exogpu.call @Sm90_exp2_d_m64n64_f32(%S[:, :], %c[:], %bias[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
      exogpu.call @Sm90_row_sum_d_m64n64_f32(%l[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %L[%t, %r] = %l[%t, %r] : f32[128, 2] @CudaGmemLinear, f32[128, 2] @CudaRmem
          exogpu.assign %bias[%t, %r] = 1.0 / %l[%t, %r] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_scale_d_rows_m64n64_f32(%S[:, :], %bias[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[128, 2] @CudaRmem
      exogpu.call @Sm90_store_d_m64n64_f32[64](%P[:, :], %S[:, :]) : f32[64, 64] @CudaGmemLinear, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// Online-softmax steps on a 64 x N accumulator, one warpgroup: the causal
// mask, the row maximum, the base-2 exponential with per-thread scale and
// row bias, the row sum and the rescale by 1 / sum. On a zero S the mask
// leaves row m with m + 1 zeros (columns 0..m) and -1e30 after, so every row
// of P is 1 / (m + 1) on its first m + 1 columns: P sums to 64. The row
// sums L are m + 1, four copies of each row (a quad's threads): 4 * 2080.
// SOFTMAX: P: f32[64, 128] sum 64{{.*}} min 0 max 1 nan 0
// SOFTMAX-NEXT: L: f32[128, 2] sum 8320 min 1 max 64 nan 0
// CHECK-LABEL: {{^}}softmax_rows_n128_kernel(
// CHECK: call @Sm90_mask_causal_d_m64n128_f32[0](S[:, :])
// CHECK-NEXT: { const int exo_t = threadIdx.x % 128; const int exo_row = exo_t / 32 * 16 + exo_t % 32 / 4; _Pragma("unroll") for (int exo_i = 0; exo_i < 64; ++exo_i) if (8 * (exo_i / 4) + 2 * (exo_t % 4) + exo_i % 2 > exo_row + 8 * ((exo_i / 2) % 2) + 0) S[exo_i] = -1e30f; }
// CHECK: call @Sm90_row_max_d_m64n128_f32(m[:, :], S[:, :])
// CHECK-NEXT: { float exo_m0 = m[0], exo_m1 = m[1]; _Pragma("unroll") for (int exo_i = 0; exo_i < 64; exo_i += 4) { exo_m0 = fmaxf(exo_m0, fmaxf(S[exo_i], S[exo_i + 1])); exo_m1 = fmaxf(exo_m1, fmaxf(S[exo_i + 2], S[exo_i + 3])); } exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 1)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 1)); exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 2)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 2)); m[0] = exo_m0; m[1] = exo_m1; }
// CHECK: bias[r] = __fmul_rn(m[r], c);
// CHECK: call @Sm90_exp2_d_m64n128_f32(S[:, :], c[:], bias[:, :])
// CHECK-NEXT: { _Pragma("unroll") for (int exo_i = 0; exo_i < 64; ++exo_i) { const float exo_x = fmaf(S[exo_i], c, -(exo_i % 4 < 2 ? bias[0] : bias[1])); asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(S[exo_i]) : "f"(exo_x)); } }
// CHECK: call @Sm90_row_sum_d_m64n128_f32(l[:, :], S[:, :])
// CHECK: exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 1);
// CHECK: l[0] += exo_s0; l[1] += exo_s1; }
// CHECK: bias[r] = 1.0f / l[r];
// CHECK: call @Sm90_scale_d_rows_m64n128_f32(S[:, :], bias[:, :])
// CHECK-NEXT: { _Pragma("unroll") for (int exo_i = 0; exo_i < 64; ++exo_i) S[exo_i] *= exo_i % 4 < 2 ? bias[0] : bias[1]; }
exogpu.proc @softmax_rows_n128(%P: f32[64, 128] @CudaGmemLinear, %L: f32[128, 2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      %m = exogpu.alloc f32[128, 2] @CudaRmem
      %l = exogpu.alloc f32[128, 2] @CudaRmem
      %bias = exogpu.alloc f32[128, 2] @CudaRmem
      %c = exogpu.alloc f32[128] @CudaRmem
      exogpu.call @Sm90_zero_d_m64n128_f32(%S[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.call @Sm90_mask_causal_d_m64n128_f32[0](%S[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %c[%t] = 0.18033688 : f32[128] @CudaRmem
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %m[%t, %r] = -1.0e30 : f32[128, 2] @CudaRmem
          exogpu.assign %l[%t, %r] = 0.0 : f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_row_max_d_m64n128_f32(%m[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %bias[%t, %r] = %m[%t, %r] * %c[%t] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem, f32[128] @CudaRmem
        }
      }
      exogpu.call @Sm90_exp2_d_m64n128_f32(%S[:, :], %c[:], %bias[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
      exogpu.call @Sm90_row_sum_d_m64n128_f32(%l[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %L[%t, %r] = %l[%t, %r] : f32[128, 2] @CudaGmemLinear, f32[128, 2] @CudaRmem
          exogpu.assign %bias[%t, %r] = 1.0 / %l[%t, %r] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_scale_d_rows_m64n128_f32(%S[:, :], %bias[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[128, 2] @CudaRmem
      exogpu.call @Sm90_store_d_m64n128_f32[128](%P[:, :], %S[:, :]) : f32[64, 128] @CudaGmemLinear, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// The same steps with N = 256.
// CHECK-LABEL: {{^}}softmax_rows_n256_kernel(
// CHECK: for (int exo_i = 0; exo_i < 128; ++exo_i) if (8 * (exo_i / 4)
// CHECK: for (int exo_i = 0; exo_i < 128; exo_i += 4) { exo_m0 = fmaxf(
// CHECK: for (int exo_i = 0; exo_i < 128; ++exo_i) { const float exo_x = fmaf(
// CHECK: for (int exo_i = 0; exo_i < 128; exo_i += 4) { exo_s0 +=
// CHECK: for (int exo_i = 0; exo_i < 128; ++exo_i) S[exo_i] *=
exogpu.proc @softmax_rows_n256(%P: f32[64, 256] @CudaGmemLinear, %L: f32[128, 2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %m = exogpu.alloc f32[128, 2] @CudaRmem
      %l = exogpu.alloc f32[128, 2] @CudaRmem
      %bias = exogpu.alloc f32[128, 2] @CudaRmem
      %c = exogpu.alloc f32[128] @CudaRmem
      exogpu.call @Sm90_zero_d_m64n256_f32(%S[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.call @Sm90_mask_causal_d_m64n256_f32[0](%S[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %c[%t] = 0.18033688 : f32[128] @CudaRmem
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %m[%t, %r] = -1.0e30 : f32[128, 2] @CudaRmem
          exogpu.assign %l[%t, %r] = 0.0 : f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_row_max_d_m64n256_f32(%m[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %bias[%t, %r] = %m[%t, %r] * %c[%t] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem, f32[128] @CudaRmem
        }
      }
      exogpu.call @Sm90_exp2_d_m64n256_f32(%S[:, :], %c[:], %bias[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
      exogpu.call @Sm90_row_sum_d_m64n256_f32(%l[:, :], %S[:, :]) : f32[128, 2] @CudaRmem, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %r in seq(0, 2) {
          exogpu.assign %L[%t, %r] = %l[%t, %r] : f32[128, 2] @CudaGmemLinear, f32[128, 2] @CudaRmem
          exogpu.assign %bias[%t, %r] = 1.0 / %l[%t, %r] : f32[128, 2] @CudaRmem, f32[128, 2] @CudaRmem
        }
      }
      exogpu.call @Sm90_scale_d_rows_m64n256_f32(%S[:, :], %bias[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[128, 2] @CudaRmem
      exogpu.call @Sm90_store_d_m64n256_f32[256](%P[:, :], %S[:, :]) : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// The same with bf16 and N = 64.
// CHECK-LABEL: {{^}}wgmma_rs_bf16_n64_kernel(
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 0; }
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 1; }
exogpu.proc @wgmma_rs_bf16_n64(%B: bf16[256, 64] @CudaGmemLinear, %V: bf16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 64] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc bf16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc bf16[1, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_bf16(%Bk[:, :], %B_map[:, :]) >> %full : bf16[256, 64] @Sm90_SmemSwizzled(128), window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 1) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : bf16[1, 128, 64] @Sm90_SmemSwizzled(128), window bf16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n64_f32(%D[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_bf16[%k](%A[%k, :, :], %X[:, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_bf16(%A[%k, :, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n64k16(%D[:, :], %A[%kk, :, :], %Bk[0:64, %kk * 16:%kk * 16 + 16]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n64k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:1, %kk * 16:%kk * 16 + 16, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[1, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n64_f32[64](%C[:, :], %D[:, :]) : f32[64, 64] @CudaGmemLinear, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// wgmma with A from registers: four A tiles converted from the columns of
// a 64 x 64 accumulator (the seq loop is unrolled, k is a constant) and kept
// packed in .b32 registers up to the wgmma.fence, then
// four k-steps with B K-major (rows of a 256 x 64 tile) and four with B
// N-major (k-rows of two 128 x 64 tiles, 16384 bytes apart: the
// descriptor's leading byte offset, 1024 in units of 16 bytes).
// CHECK-LABEL: {{^}}wgmma_rs_bf16_n128_kernel(
// CHECK: call @Sm90_tma_load_3d_1x128x64_bf16(Bn[c, :, :], V_map[c:c + 1, :, :]) >> full
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];" :: "r"(exo::smem_address(Bn + c * 8192)), "l"(&V_map), "r"(0), "r"(0), "r"(c), "r"(exo::smem_address(&full[0])) : "memory");
// CHECK: #pragma unroll
// CHECK-NEXT: for (int k = 0; k < 4; ++k) {
// CHECK-NEXT: // {{.*}} call @Sm90_convert_d_to_a_m64n64_bf16[k](A[k, :, :], X[:, :])
// CHECK-NEXT: { _Pragma("unroll") for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __nv_bfloat162 exo_h = __floats2bfloat162_rn(X[8 * (k) + exo_i], X[8 * (k) + exo_i + 1]); A[k][exo_i] = exo_h.x; A[k][exo_i + 1] = exo_h.y; } }
// CHECK: call @Sm90_fence_operand_a_bf16(A[k, :, :])
// CHECK-NEXT: { _Pragma("unroll") for (int exo_i = 0; exo_i < 8; exo_i += 2) { uint32_t exo_p = exo::pack_b16x2(A[k][exo_i], A[k][exo_i + 1]); asm volatile("" : "+r"(exo_p)); exo::unpack_b16x2(exo_p, A[k][exo_i], A[k][exo_i + 1]); } }
// CHECK: asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
// CHECK: call @Sm90_mma_async_rs_bf16_m64n128k16(D[:, :], A[kk, :, :], Bk[0:128, kk * 16:kk * 16 + 16])
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, {{.*}}, %63}, {%64, %65, %66, %67}, %68, 1, 1, 1, 0; }" : "+f"(D[0]), {{.*}}, "+f"(D[63]) : "r"(exo::pack_b16x2(A[kk][0], A[kk][1])), "r"(exo::pack_b16x2(A[kk][2], A[kk][3])), "r"(exo::pack_b16x2(A[kk][4], A[kk][5])), "r"(exo::pack_b16x2(A[kk][6], A[kk][7])), "l"(exo::wgmma_desc_sw128(Bk + kk * 16)));
// CHECK: call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(D[:, :], A[kk, :, :], Bn[0:2, kk * 16:kk * 16 + 16, :])
// CHECK-NEXT: asm volatile("{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {%0, %1, {{.*}}, %63}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1; }" : "+f"(D[0]), {{.*}}, "+f"(D[63]) : "r"(exo::pack_b16x2(A[kk][0], A[kk][1])), {{.*}}, "l"((exo::wgmma_desc_sw128(Bn + kk * 1024) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t(8192 * 2 / 16) << 16)));
exogpu.proc @wgmma_rs_bf16_n128(%B: bf16[256, 64] @CudaGmemLinear, %V: bf16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 128] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc bf16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_bf16(%Bk[:, :], %B_map[:, :]) >> %full : bf16[256, 64] @Sm90_SmemSwizzled(128), window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 2) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : bf16[2, 128, 64] @Sm90_SmemSwizzled(128), window bf16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n128_f32(%D[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_bf16[%k](%A[%k, :, :], %X[:, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_bf16(%A[%k, :, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16(%D[:, :], %A[%kk, :, :], %Bk[0:128, %kk * 16:%kk * 16 + 16]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:2, %kk * 16:%kk * 16 + 16, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[2, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n128_f32[128](%C[:, :], %D[:, :]) : f32[64, 128] @CudaGmemLinear, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same with bf16 and N = 256.
// CHECK-LABEL: {{^}}wgmma_rs_bf16_n256_kernel(
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 0; }
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, 1, 1, 1, 1; }
exogpu.proc @wgmma_rs_bf16_n256(%B: bf16[256, 64] @CudaGmemLinear, %V: bf16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 256] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : bf16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : bf16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc bf16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc bf16[4, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_bf16(%Bk[:, :], %B_map[:, :]) >> %full : bf16[256, 64] @Sm90_SmemSwizzled(128), window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 4) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_bf16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : bf16[4, 128, 64] @Sm90_SmemSwizzled(128), window bf16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_bf16[%k](%A[%k, :, :], %X[:, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_bf16(%A[%k, :, :]) : bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n256k16(%D[:, :], %A[%kk, :, :], %Bk[0:256, %kk * 16:%kk * 16 + 16]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_bf16_m64n256k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:4, %kk * 16:%kk * 16 + 16, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), bf16[4, 64, 16] @Sm90_RmemMatrixA(64), bf16[4, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n256_f32[256](%C[:, :], %D[:, :]) : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same with f16 and N = 64.
// CHECK-LABEL: {{^}}wgmma_rs_f16_n64_kernel(
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0; }
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, 1, 1, 1, 1; }
exogpu.proc @wgmma_rs_f16_n64(%B: f16[256, 64] @CudaGmemLinear, %V: f16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 64] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : f16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : f16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc f16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc f16[1, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_f16(%Bk[:, :], %B_map[:, :]) >> %full : f16[256, 64] @Sm90_SmemSwizzled(128), window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 1) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_f16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : f16[1, 128, 64] @Sm90_SmemSwizzled(128), window f16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n64_f32(%D[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_f16[%k](%A[%k, :, :], %X[:, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_f16(%A[%k, :, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n64k16(%D[:, :], %A[%kk, :, :], %Bk[0:64, %kk * 16:%kk * 16 + 16]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n64k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:1, %kk * 16:%kk * 16 + 16, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[1, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n64_f32[64](%C[:, :], %D[:, :]) : f32[64, 64] @CudaGmemLinear, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same with f16 and N = 128.
// CHECK-LABEL: {{^}}wgmma_rs_f16_n128_kernel(
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0; }
// CHECK: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, 1, 1, 1, 1; }
exogpu.proc @wgmma_rs_f16_n128(%B: f16[256, 64] @CudaGmemLinear, %V: f16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 128] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : f16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : f16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc f16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc f16[2, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_f16(%Bk[:, :], %B_map[:, :]) >> %full : f16[256, 64] @Sm90_SmemSwizzled(128), window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 2) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_f16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : f16[2, 128, 64] @Sm90_SmemSwizzled(128), window f16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n128_f32(%D[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_f16[%k](%A[%k, :, :], %X[:, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_f16(%A[%k, :, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n128k16(%D[:, :], %A[%kk, :, :], %Bk[0:128, %kk * 16:%kk * 16 + 16]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n128k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:2, %kk * 16:%kk * 16 + 16, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[2, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n128_f32[128](%C[:, :], %D[:, :]) : f32[64, 128] @CudaGmemLinear, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same with f16 and N = 256.
// CHECK-LABEL: {{^}}wgmma_rs_f16_n256_kernel(
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, 1, 1, 1, 0; }
// CHECK: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {{.*}}, 1, 1, 1, 1; }
exogpu.proc @wgmma_rs_f16_n256(%B: f16[256, 64] @CudaGmemLinear, %V: f16[4, 128, 64] @CudaGmemLinear, %C: f32[64, 256] @CudaGmemLinear) {
  %B_map = exogpu.window %B[:, :] @Sm90_tensorMap(128, 256, 64) : f16[256, 64] @CudaGmemLinear
  %V_map = exogpu.window %V[:, :, :] @Sm90_tensorMap(128, 1, 128, 64) : f16[4, 128, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %Bk = exogpu.alloc f16[256, 64] @Sm90_SmemSwizzled(128)
      %Bn = exogpu.alloc f16[4, 128, 64] @Sm90_SmemSwizzled(128)
      %X = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %A = exogpu.alloc f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %full = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_256x64_f16(%Bk[:, :], %B_map[:, :]) >> %full : f16[256, 64] @Sm90_SmemSwizzled(128), window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64), barrier @CudaMbarrier
        exogpu.for %c in seq(0, 4) {
          exogpu.call @Sm90_tma_load_3d_1x128x64_f16(%Bn[%c, :, :], %V_map[%c:%c + 1, :, :]) >> %full : f16[4, 128, 64] @Sm90_SmemSwizzled(128), window f16[4, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.call @Sm90_zero_d_m64n64_f32(%X[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_convert_d_to_a_m64n64_f16[%k](%A[%k, :, :], %X[:, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
      exogpu.for %k in seq(0, 4) {
        exogpu.call @Sm90_fence_operand_a_f16(%A[%k, :, :]) : f16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.await(%full, cuda_async_proxy_wgmma, -1) : barrier @CudaMbarrier
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n256k16(%D[:, :], %A[%kk, :, :], %Bk[0:256, %kk * 16:%kk * 16 + 16]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[256, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %kk in seq(0, 4) {
        exogpu.call @Sm90_mma_async_rs_f16_m64n256k16_nmajor(%D[:, :], %A[%kk, :, :], %Bn[0:4, %kk * 16:%kk * 16 + 16, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f16[4, 64, 16] @Sm90_RmemMatrixA(64), f16[4, 128, 64] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.call @Sm90_store_d_m64n256_f32[256](%C[:, :], %D[:, :]) : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// Attention epilogue tiles: a 64 x 64 and a 64 x 128 accumulator rounded
// to bf16 into three swizzled 64 x 64 tiles, fenced to the async proxy, and
// stored by one thread with rank-3 TMA boxes of 1 x 64 x 64 (coordinates
// innermost first: column, row, head).
// CHECK-LABEL: {{^}}attention_tiles_kernel(
// CHECK: call @Sm90_store_d_m64n64_tile64x64_bf16[0](O[0, :, :], D64[:, :])
// CHECK: __floats2bfloat162_rn(D64[32 * (0) + 4 * q], D64[32 * (0) + 4 * q + 1])
// CHECK: call @Sm90_store_d_m64n128_tile64x64_bf16[j](O[j + 1, :, :], D128[:, :])
// CHECK: call @Sm90_tma_store_3d_1x64x64_bf16(Out_map[0:1, :, j * 64:j * 64 + 64], O[j, :, :])
// CHECK-NEXT: asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];" :: "l"(&Out_map), "r"(j * 64), "r"(0), "r"(0), "r"(exo::smem_address(O + j * 4096)) : "memory");
exogpu.proc @attention_tiles(%Out: bf16[1, 64, 192] @CudaGmemLinear) {
  %Out_map = exogpu.window %Out[:, :, :] @Sm90_tensorMap(128, 1, 64, 64) : bf16[1, 64, 192] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %O = exogpu.alloc bf16[3, 64, 64] @Sm90_SmemSwizzled(128)
      %D64 = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      %D128 = exogpu.alloc f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.call @Sm90_zero_d_m64n64_f32(%D64[:, :]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.call @Sm90_zero_d_m64n128_f32(%D128[:, :]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      exogpu.call @Sm90_store_d_m64n64_tile64x64_bf16[0](%O[0, :, :], %D64[:, :]) : bf16[3, 64, 64] @Sm90_SmemSwizzled(128), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %j in seq(0, 2) {
        exogpu.call @Sm90_store_d_m64n128_tile64x64_bf16[%j](%O[%j + 1, :, :], %D128[:, :]) : bf16[3, 64, 64] @Sm90_SmemSwizzled(128), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 3) {
          exogpu.call @Sm90_tma_store_3d_1x64x64_bf16(%Out_map[0:1, :, %j * 64:%j * 64 + 64], %O[%j, :, :]) : window bf16[1, 64, 192] @CudaGmemLinear @Sm90_tensorMap(128, 1, 64, 64), bf16[3, 64, 64] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// Each thread raises 2 to its element with ex2.approx; the meaning is
// exp2: 2^-1.5 = 0.353553... in each of the 128 elements.
// EX2: y: f32[128] sum 45.2548{{[0-9]*}} min 0.353553{{[0-9]*}} max 0.353553{{[0-9]*}} nan 0
// CHECK-LABEL: {{^}}ex2_approx_kernel(
// CHECK: call @cuda_ex2_approx_f32(r[t, 1:2], r[t, 0:1])
// CHECK-NEXT: asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r[1]) : "f"(r[0]));
exogpu.proc @ex2_approx(%y: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %r = exogpu.alloc f32[128, 2] @CudaRmem
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %r[%t, 0] = %y[%t] * 0.0 - 1.5 : f32[128, 2] @CudaRmem, f32[128] @CudaGmemLinear
        exogpu.call @cuda_ex2_approx_f32(%r[%t, 1:2], %r[%t, 0:1]) : f32[128, 2] @CudaRmem
        exogpu.assign %y[%t] = %r[%t, 1] : f32[128] @CudaGmemLinear, f32[128, 2] @CudaRmem
      }
    }
  }
}
