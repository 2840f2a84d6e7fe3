// RUN: exogpu-opt %s --split-input-file --exogpu-sync-check -o /dev/null
// RUN: exogpu-translate --split-input-file --to-cuda %s | FileCheck %s
// RUN: not exogpu-translate --split-input-file --to-cuda %s --sync-lowering-faults=warp-barriers -o /dev/null 2>&1 | FileCheck %s --check-prefix=FAULT
// RUN: %if nvcc %{ exogpu-translate --split-input-file --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class E: a Fence's barrier is chosen from which threads take
// part, not how many. A collective of 32 threads that is not one warp (the
// even threads of two warps; rows {0..15, 32..47}) meets at a named barrier
// of the two warps (64 threads; each pair of warps has its own id), not at
// __syncwarp(), which orders nothing across warps. The twin, a collective
// of one warp, keeps __syncwarp(). The validator rejects __syncwarp() for
// the first two (--sync-lowering-faults=warp-barriers), naming the
// collective and the threads thread 0 meets. Collectives that span CTAs
// but not the whole cluster: class-e-cluster-collectives.mlir.

// FAULT: within split at {{.*}}class-e-collective-barriers.mlir:1 offset :33:11: error: CUDA translation: cannot justify the lowering of this Fence: the collective {0, 2, 4, ..., 62} (32 threads) must meet, but thread 0 meets only threads {0-31} (missing: a barrier that contains the whole collective)
// FAULT: within split at {{.*}}: error: CUDA translation: cannot justify the lowering of this Fence: the collective {0-15, 32-47} (32 threads) must meet, but thread 0 meets only threads {0-31} (missing: a barrier that contains the whole collective)

// CHECK-LABEL: even_threads_of_two_warps_kernel(
// CHECK: // class-e-collective-barriers.mlir:{{.*}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 64), "r"(64) : "memory");
exogpu.proc @even_threads_of_two_warps(%out: f32[4096] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[4, 32] @CudaSmemLinear
      exogpu.for %sp in cuda_threads(0, 2, unit = 64 * cuda_thread) {
        exogpu.for %c in cuda_threads(0, 2, unit = 32 * cuda_threads_strided(1, 2)) {
          exogpu.for %r in cuda_threads(0, 32, unit = 1 * cuda_thread) {
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.assign %s[%sp * 2 + %c, %r * 1 + %t] = 1.0 : f32[4, 32] @CudaSmemLinear
            }
          }
          exogpu.fence(cuda_in_order, cuda_in_order)
          exogpu.for %r in cuda_threads(0, 32, unit = 1 * cuda_thread) {
            exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
              exogpu.assign %out[%task * 1024 + (%sp * 2 + %c) * 32 + %r * 1 + %t] = %s[%sp * 2 + %c, 31 - (%r * 1 + %t)] : f32[4096] @CudaGmemLinear, f32[4, 32] @CudaSmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// -----

// CHECK-LABEL: rows_of_half_warps_kernel(
// CHECK: // class-e-collective-barriers.mlir:{{.*}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: asm volatile("bar.sync %0, %1;" :: "r"(1 + exo_thread / 64), "r"(64) : "memory");
exogpu.proc @rows_of_half_warps(%out: f32[4096] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[4, 32] @CudaSmemLinear
      exogpu.for %sp in cuda_threads(0, 2, unit = 64 * cuda_thread) {
        exogpu.for %c in cuda_threads(0, 2, unit = 2 * cuda_threads_strided(16, 32)) {
          exogpu.for %r in cuda_threads(0, 2, unit = 16 * cuda_thread) {
            exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
              exogpu.assign %s[%sp * 2 + %c, %r * 16 + %t] = 1.0 : f32[4, 32] @CudaSmemLinear
            }
          }
          exogpu.fence(cuda_in_order, cuda_in_order)
          exogpu.for %r in cuda_threads(0, 2, unit = 16 * cuda_thread) {
            exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
              exogpu.assign %out[%task * 1024 + (%sp * 2 + %c) * 32 + %r * 16 + %t] = %s[%sp * 2 + %c, 31 - (%r * 16 + %t)] : f32[4096] @CudaGmemLinear, f32[4, 32] @CudaSmemLinear
            }
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// -----

// CHECK-LABEL: one_warp_kernel(
// CHECK: // class-e-collective-barriers.mlir:{{.*}}: fence(cuda_in_order, cuda_in_order)
// CHECK-NEXT: __syncwarp();
exogpu.proc @one_warp(%out: f32[4096] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2, 32] @CudaSmemLinear
      exogpu.for %c in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%c, %t] = 1.0 : f32[2, 32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %out[%task * 1024 + (%c) * 32 + %t] = %s[%c, 31 - (%t)] : f32[4096] @CudaGmemLinear, f32[2, 32] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
