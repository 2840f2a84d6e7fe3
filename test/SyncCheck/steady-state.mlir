// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=K=256 -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="K=256,bulk-loops=false" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="K=256,engine=reference" -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check="K=256,replay-remarks=true" -o /dev/null 2>&1 | FileCheck %s

// The synchronization check of K loops that the box engine runs in a steady
// state (docs/abstract-machine.md "Loops in a steady state"): a late bug is
// reported as when every iteration runs (RUN lines 1-3), and its twin
// passes with most of the loop run in bulk (the remarks). A double-buffered
// cp.async tile: in iteration k each of the 64 threads copies its 4 floats
// of column tile k into stage k mod 2, and the CTA reads stage (k + 1) mod 2,
// filled in iteration k - 1; one Fence(Sm80_generic, Sm80_generic) per
// iteration orders both.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

// The fence is left out of iteration 40: iteration 41's copies into stage 1
// overwrite what iteration 40 read there. Iterations 2-5 are watched, 36
// run in bulk, 40 and 41 run and report.
// CHECK: remark: loop: 6 iteration(s) ran, 36 in bulk in a steady state of period 2
exogpu.proc @fence_missing_in_iteration_40(%K: size, %A: f32[64, %K] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) requires %K mod 4 == 0 {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %stage = exogpu.alloc f32[2, 64, 4] @CudaSmemLinear
      %acc = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %k in seq(0, %K / 4 + 1) {
        exogpu.if %k < %K / 4 {
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            // expected-error @below {{WAR hazard on @stage[1, 0, 0]: this write is not ordered after an earlier read by thread 63}}
            // expected-note @below {{missing synchronization between the two}}
            exogpu.call @Sm80_cp_async_f32x4(%stage[%k mod 2, %t, :], %A[%t, %k * 4:%k * 4 + 4]) : f32[2, 64, 4] @CudaSmemLinear, f32[64, ?] @CudaGmemLinear
          }
        }
        exogpu.if %k > 0 {
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            // expected-note @below {{the earlier read is here}}
            exogpu.assign %acc[%t] = %stage[(%k + 1) mod 2, 63 - %t, 0] : f32[64] @CudaSmemLinear, f32[2, 64, 4] @CudaSmemLinear
          }
        }
        exogpu.if %k < 40 or %k > 40 {
          exogpu.fence(Sm80_generic, Sm80_generic)
        }
      }
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%t] = %acc[%t] : f32[64] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: a fence in every iteration.
// CHECK: remark: loop: 5 iteration(s) ran, 60 in bulk in a steady state of period 2
// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @fence_in_every_iteration(%K: size, %A: f32[64, %K] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) requires %K mod 4 == 0 {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %stage = exogpu.alloc f32[2, 64, 4] @CudaSmemLinear
      %acc = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %k in seq(0, %K / 4 + 1) {
        exogpu.if %k < %K / 4 {
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            exogpu.call @Sm80_cp_async_f32x4(%stage[%k mod 2, %t, :], %A[%t, %k * 4:%k * 4 + 4]) : f32[2, 64, 4] @CudaSmemLinear, f32[64, ?] @CudaGmemLinear
          }
        }
        exogpu.if %k > 0 {
          exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
            exogpu.assign %acc[%t] = %stage[(%k + 1) mod 2, 63 - %t, 0] : f32[64] @CudaSmemLinear, f32[2, 64, 4] @CudaSmemLinear
          }
        }
        exogpu.fence(Sm80_generic, Sm80_generic)
      }
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%t] = %acc[%t] : f32[64] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
