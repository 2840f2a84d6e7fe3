// RUN: exogpu-translate --to-cuda --split-input-file --verify-diagnostics %s -o %t.cu
// RUN: FileCheck %s < %t.cu
// RUN: %if nvcc %{ %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// Issue 30, class H: kernels take their buffers `__restrict__` (and
// `const` where they only read them), so nvcc may load one parameter
// before a store to another. A call that passes overlapping windows of one
// buffer for two parameters of which the callee writes one is rejected;
// disjoint windows with constant bounds, or overlapping ones the callee
// only reads, are accepted. (Callers of the host API from C must not pass
// overlapping buffers either: docs/cuda-translation.md "The host API".)

// The same thread stores a[t], then loads b[t]: with %x for both, nvcc may
// hoist the load above the store and read the old value.
exogpu.proc @store_then_load(%a: f32[64] @CudaGmemLinear, %b: f32[64] @CudaGmemLinear, %c: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %a[%t] = 1.0 : f32[64] @CudaGmemLinear
        exogpu.assign %c[%t] = %b[%t] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @aliased(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  // expected-error @+1 {{arguments 0 and 1 of this call may overlap (both are windows of x) and @store_then_load writes one of them; its parameters do not alias (__restrict__ in its kernels): pass disjoint windows with constant bounds, or a copy}}
  exogpu.call @store_then_load(%x, %x, %y) : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
}

// -----

exogpu.proc @store_then_load(%a: f32[32] @CudaGmemLinear, %b: f32[32] @CudaGmemLinear, %c: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %a[%t] = 1.0 : f32[32] @CudaGmemLinear
        exogpu.assign %c[%t] = %b[%t] : f32[32] @CudaGmemLinear, f32[32] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @overlapping_windows(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  // expected-error @+1 {{arguments 0 and 1 of this call may overlap (both are windows of x)}}
  exogpu.call @store_then_load(%x[16:48], %x[0:32], %y[0:32]) : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
}

// -----

// The twins: disjoint halves of one buffer, and one buffer for two
// parameters the callee only reads.
// CHECK-LABEL: store_then_load_kernel(float *__restrict__ a, const float *__restrict__ b, float *__restrict__ c)
// CHECK-LABEL: extern "C" cudaError_t disjoint_halves(
// CHECK: EXOGPU_TRY(store_then_load(stream, x, x + 32, y));
// CHECK-LABEL: extern "C" cudaError_t both_read(
// CHECK: EXOGPU_TRY(sum(stream, y, x, x));
exogpu.proc @store_then_load(%a: f32[32] @CudaGmemLinear, %b: f32[32] @CudaGmemLinear, %c: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %a[%t] = 1.0 : f32[32] @CudaGmemLinear
        exogpu.assign %c[%t] = %b[%t] : f32[32] @CudaGmemLinear, f32[32] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @sum(%out: f32[32] @CudaGmemLinear, %p: f32[32] @CudaGmemLinear, %q: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %out[%t] = %p[%t] : f32[32] @CudaGmemLinear, f32[32] @CudaGmemLinear
        exogpu.reduce %out[%t] += %q[%t] : f32[32] @CudaGmemLinear, f32[32] @CudaGmemLinear
      }
    }
  }
}
exogpu.proc @disjoint_halves(%x: f32[64] @CudaGmemLinear, %y: f32[32] @CudaGmemLinear) {
  exogpu.call @store_then_load(%x[0:32], %x[32:64], %y) : f32[64] @CudaGmemLinear, f32[32] @CudaGmemLinear
}
exogpu.proc @both_read(%x: f32[32] @CudaGmemLinear, %y: f32[32] @CudaGmemLinear) {
  exogpu.call @sum(%y, %x, %x) : f32[32] @CudaGmemLinear, f32[32] @CudaGmemLinear
}
