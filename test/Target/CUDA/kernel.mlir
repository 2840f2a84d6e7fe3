// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// Kernels (seeds/002 Sec. 4.2): the task generator over the cuda_tasks
// nest, cuda_threads loops as thread-index arithmetic (Def. 4.1), warps
// blocks, register and shared-memory storage.
// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: {{[1-9][0-9]*}} bytes stack frame

// A three-level tasks nest with a lower bound: tasks in lexicographic order,
// handed round-robin to the CTAs of the persistent grid.
// CHECK-LABEL: tasks_kernel(int M, int N, float *__restrict__ out) {
// CHECK: const int exo_tasks_a = max(M - 1, 0);
// CHECK-NEXT: const int exo_tasks_b = N / 4;
// CHECK-NEXT: const int exo_tasks_c = 3;
// CHECK-NEXT: const int exo_tasks = exo_tasks_a * exo_tasks_b * exo_tasks_c;
// CHECK: for (int exo_task = blockIdx.x; exo_task < exo_tasks; exo_task += gridDim.x) {
// CHECK-NEXT: const int a = 1 + exo_task / (exo_tasks_b * exo_tasks_c);
// CHECK-NEXT: const int b = exo_task / exo_tasks_c % exo_tasks_b;
// CHECK-NEXT: const int c = exo_task % exo_tasks_c;
// CHECK: const int64_t exo_tasks = std::max<int64_t>(M - 1, 0) * std::max<int64_t>(N / 4, 0) * std::max<int64_t>(3, 0);
exogpu.proc @tasks(%M: size, %N: size, %K: size, %out: f32[%M, %N, 3] @CudaGmemLinear)
    requires %M >= 1 and %N mod 4 == 0 {
  exogpu.device_function(blockDim = 4) {
    exogpu.for %a in cuda_tasks(1, %M) {
      exogpu.for %b in cuda_tasks(0, %N / 4) {
        exogpu.for %c in cuda_tasks(0, 3) {
          exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
            exogpu.assign %out[%a, %b * 4 + %t, %c] = 1.0 : f32[?, ?, 3] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// cuda_threads loops: no guard where the tiles cover the collective; a
// guard where they leave threads idle; iterators declared only where the
// code reads them (the distributed index of acc is stripped).
// CHECK-LABEL: threads_kernel(float *__restrict__ out) {
// CHECK: // kernel.mlir:{{[0-9]+}}: for w in cuda_threads(0, 4, unit = cuda_warp)
// CHECK-NEXT: {
// CHECK-NEXT: const int w = exo_thread / 32;
// CHECK: // kernel.mlir:{{[0-9]+}}: for l in cuda_threads(0, 32, unit = cuda_thread)
// CHECK-NEXT: {
// CHECK-NEXT: const int l = exo_thread % 32;
// CHECK: acc = 0.0f;
// CHECK: #pragma unroll
// CHECK-NEXT: for (int i = 0; i < 4; ++i) {
// CHECK: #pragma unroll
// CHECK-NEXT: for (int j = 0; j < 4; ++j) {
// CHECK: acc += regs[j];
// CHECK: // kernel.mlir:{{[0-9]+}}: for p in cuda_threads(0, 3, unit = 32 * cuda_thread)
// CHECK-NEXT: if (exo_thread < 96) {
// CHECK-NEXT: const int p = exo_thread / 32;
// CHECK: // kernel.mlir:{{[0-9]+}}: for q in cuda_threads(0, 2, unit = 8 * cuda_thread)
// CHECK-NEXT: if (exo_thread % 32 < 16) {
// CHECK-NEXT: const int q = exo_thread % 32 / 8;
// CHECK: // kernel.mlir:{{[0-9]+}}: warps(2, 4)
// CHECK-NEXT: if (exo_thread >= 64) {
// CHECK: // kernel.mlir:{{[0-9]+}}: for s in cuda_threads(0, 64, unit = cuda_thread)
// CHECK-NEXT: {
// CHECK-NEXT: const int s = exo_thread - 64;
exogpu.proc @threads(%out: f32[8, 128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %acc = exogpu.alloc f32[4, 32] @CudaRmem
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.for %l in cuda_threads(0, 32, unit = cuda_thread) {
          %regs = exogpu.alloc f32[4] @CudaRmem
          exogpu.assign %acc[%w, %l] = 0.0 : f32[4, 32] @CudaRmem
          exogpu.for %i in seq(0, 4) {
            exogpu.assign %regs[%i] = 1.0 : f32[4] @CudaRmem
          }
          exogpu.for %j in seq(0, 4) {
            exogpu.reduce %acc[%w, %l] += %regs[%j] : f32[4, 32] @CudaRmem, f32[4] @CudaRmem
          }
          exogpu.assign %out[0, %w * 32 + %l] = %acc[%w, %l] : f32[8, 128] @CudaGmemLinear, f32[4, 32] @CudaRmem
        }
      }
      exogpu.for %p in cuda_threads(0, 3, unit = 32 * cuda_thread) {
        exogpu.for %q in cuda_threads(0, 2, unit = 8 * cuda_thread) {
          exogpu.for %r in cuda_threads(0, 8, unit = cuda_thread) {
            exogpu.assign %out[1, %p * 16 + %q * 8 + %r] = 2.0 : f32[8, 128] @CudaGmemLinear
          }
        }
      }
      exogpu.warps(2, 4) {
        exogpu.for %s in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %out[2, %s] = 3.0 : f32[8, 128] @CudaGmemLinear
        }
      }
    }
  }
}

// Shared memory: static offsets; blocks whose lifetimes do not overlap reuse
// the same bytes; 128-byte-swizzled buffers are 1024-byte aligned and their
// scalar accesses swizzled.
// CHECK-LABEL: smem_kernel(float *__restrict__ out) {
// CHECK: // Shared memory (5120 bytes per CTA), aligned to 1024 bytes
// CHECK: float *const first = reinterpret_cast<float *>(exo_smem + 0);
// CHECK: float *const second = reinterpret_cast<float *>(exo_smem + 512);
// CHECK: float *const sibling = reinterpret_cast<float *>(exo_smem + 512);
// CHECK: float *const swizzled = reinterpret_cast<float *>(exo_smem + 1024);
// CHECK: *exo::swizzle<128>(swizzled, t * 32 + 1) = first[t];
// CHECK: const int64_t exo_tasks = std::max<int64_t>(2, 0);
// CHECK: EXOGPU_TRY(exo::persistent_grid(smem_kernel, 128, 1, 6144, exo_tasks, &exo_grid));
exogpu.proc @smem(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %first = exogpu.alloc f32[128] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %first[%t] = 1.0 : f32[128] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %i in seq(0, 1) {
        %second = exogpu.alloc f32[16] @CudaSmemLinear
        exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %second[%t] = %first[%t] : f32[16] @CudaSmemLinear, f32[128] @CudaSmemLinear
          exogpu.assign %out[%task, %t] = %second[%t] : f32[2, 128] @CudaGmemLinear, f32[16] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.for %i in seq(0, 1) {
        %sibling = exogpu.alloc f32[16] @CudaSmemLinear
        %swizzled = exogpu.alloc f32[32, 32] @Sm90_SmemSwizzled(128)
        exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %sibling[%t] = 2.0 : f32[16] @CudaSmemLinear
          exogpu.assign %swizzled[%t, 1] = %first[%t] : f32[32, 32] @Sm90_SmemSwizzled(128), f32[128] @CudaSmemLinear
          exogpu.assign %out[%task, %t + 16] = %sibling[%t] + %swizzled[%t, 1] : f32[2, 128] @CudaGmemLinear, f32[16] @CudaSmemLinear, f32[32, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// Every precision with its C++ type, literals and per-operation rounding
// (f16 and bf16 through cuda_fp16.h / cuda_bf16.h; docs/cuda-translation.md
// "Arithmetic"): a product rounds on its own (`__hmul_rn`, `__dmul_rn`,
// `__fmul_rn`), so that nvcc does not contract it with an add into an FMA;
// integer operations wrap in their width (runtime.cuh's exo::wrap_*).
// CHECK-LABEL: precisions_kernel(__half *__restrict__ h, __nv_bfloat16 *__restrict__ b, double *__restrict__ d, int32_t *__restrict__ i, uint8_t *__restrict__ u, int8_t *__restrict__ s, uint16_t *__restrict__ w, float *__restrict__ f) {
// CHECK: h[t] = __hmul_rn(h[t], __half(0.5f)) + __half(1.0f);
// CHECK: b[t] += __hmul_rn(b[t], b[t] - __nv_bfloat16(0.25f));
// CHECK: d[t] = d[t] / 3.0 - -d[t];
// CHECK: i[t] = exo::wrap_add<int32_t>(exo::wrap_mul<int32_t>(i[t], 3), 7);
// CHECK: u[t] = exo::wrap_add<uint8_t>(u[t], uint8_t(1));
// CHECK: s[t] = exo::wrap_sub<int8_t>(s[t], int8_t(2));
// CHECK: w[t] = exo::wrap_mul<uint16_t>(w[t], uint16_t(5));
// CHECK: f[t] = __fmul_rn(f[t], f[t]) - f[t + 1];
// CHECK: f[t] += exo::convert<float>(__dmul_rn(__dmul_rn(d[t], d[t]), 2.0));
exogpu.proc @precisions(%h: f16[32] @CudaGmemLinear, %b: bf16[32] @CudaGmemLinear,
                        %d: f64[32] @CudaGmemLinear, %i: i32[32] @CudaGmemLinear,
                        %u: ui8[32] @CudaGmemLinear, %s: i8[32] @CudaGmemLinear,
                        %w: ui16[32] @CudaGmemLinear, %f: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %h[%t] = %h[%t] * 0.5 + 1.0 : f16[32] @CudaGmemLinear
        exogpu.reduce %b[%t] += %b[%t] * (%b[%t] - 0.25) : bf16[32] @CudaGmemLinear
        exogpu.assign %d[%t] = %d[%t] / 3.0 - -%d[%t] : f64[32] @CudaGmemLinear
        exogpu.assign %i[%t] = %i[%t] * 3 + 7 : i32[32] @CudaGmemLinear
        exogpu.reduce %u[%t] += 1 : ui8[32] @CudaGmemLinear
        exogpu.assign %s[%t] = %s[%t] - 2 : i8[32] @CudaGmemLinear
        exogpu.assign %w[%t] = %w[%t] * 5 : ui16[32] @CudaGmemLinear
        exogpu.assign %f[%t] = %f[%t] * %f[%t] - %f[%t + 1] : f32[64] @CudaGmemLinear
        exogpu.reduce %f[%t] += %d[%t] * %d[%t] * 2.0 : f32[64] @CudaGmemLinear, f64[32] @CudaGmemLinear
      }
    }
  }
}
