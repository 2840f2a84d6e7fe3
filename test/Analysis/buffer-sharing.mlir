// RUN: exogpu-opt %s -split-input-file --exogpu-test-buffer-sharing -verify-diagnostics -o /dev/null

// Which buffers two threads of a kernel may touch at a common element, one
// of them writing (ExoGPU/Analysis/BufferSharing.h): the CUDA translation
// leaves the others out of what an mbarrier arrive orders
// (docs/cuda-translation.md, "mbarrier arrives").

// An input only read, registers, an output each element of which one
// thread writes once: shared by no one. Shared memory written by some
// threads and read by others: shared within the CTA.
// expected-remark @below {{@x is shared by no two threads}}
// expected-remark @below {{@y is shared by no two threads}}
exogpu.proc @private_buffers(%N: size, %x: f32[%N] @CudaGmemLinear, %y: f32[%N] @CudaGmemLinear) requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      // expected-remark @below {{@s is shared by threads of one CTA}}
      %s = exogpu.alloc f32[128] @CudaSmemLinear
      // expected-remark @below {{@r is shared by no two threads}}
      %r = exogpu.alloc f32[128] @CudaRmem
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %r[%t] = %x[%task * 128 + %t] : f32[128] @CudaRmem, f32[?] @CudaGmemLinear
        exogpu.assign %s[%t] = %r[%t] : f32[128] @CudaSmemLinear, f32[128] @CudaRmem
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %y[%task * 128 + %t] = %s[127 - %t] : f32[?] @CudaGmemLinear, f32[128] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Global memory that two statements access (one writes, another reads), or
// that one statement writes at an element another instance also writes
// (two threads, or two tasks), may be shared across CTAs.
// expected-remark @below {{@y is shared by threads of different CTAs}}
// expected-remark @below {{@z is shared by threads of different CTAs}}
// expected-remark @below {{@w is shared by threads of different CTAs}}
exogpu.proc @shared_buffers(%N: size, %y: f32[%N] @CudaGmemLinear, %z: f32[%N] @CudaGmemLinear, %w: f32[128] @CudaGmemLinear) requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %y[%task * 128 + %t] = 1.0 : f32[?] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %z[%task * 128 + %t / 2 * 2] = %y[%task * 128 + 127 - %t] : f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear
        exogpu.assign %w[%t] = 2.0 : f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A statement executed by a collective of more than one thread may have
// them touch a common element (a warp's store of a tile); shared memory
// that an instruction writes across the cluster (`dist`: multicast) may be
// touched by threads of the other CTA.
exogpu.instr @warp_store(%dst: f32[32] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp, cuda = "{dst}[threadIdx.x % 32] = 0.f;" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = 0.0 : f32[32] @CudaGmemLinear
  }
}
exogpu.instr @multicast_fill(%dst: f32[2, 32] @CudaSmemLinear {dist = [cuda_cta_in_cluster], init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_thread, cuda = "(void){dst};" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 32) {
      exogpu.assign %dst[%c, %i] = 0.0 : f32[2, 32] @CudaSmemLinear
    }
  }
}
// expected-remark @below {{@g is shared by threads of different CTAs}}
exogpu.proc @collective_and_multicast(%g: f32[128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-remark @below {{@m is shared by threads of different CTAs}}
      %m = exogpu.alloc f32[2, 32] @CudaSmemLinear
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
          exogpu.call @warp_store(%g[%cta * 64 + %w * 32:%cta * 64 + %w * 32 + 32]) : f32[128] @CudaGmemLinear
        }
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %cta == 0 {
            exogpu.call @multicast_fill(%m[:, :]) : f32[2, 32] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %g[%cta * 64 + %t] = %m[%cta, %t] : f32[128] @CudaGmemLinear, f32[2, 32] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Accesses through splits (exogpu.split) are accesses of the split buffer:
// element (i, j) of a split by 128 is element i * 128 + j. Each thread
// writes its own element of y; task i writes the 64-element chunks i and
// i + 1 of z, and task i + 1 writes chunk i + 1 too.
// expected-remark @below {{@y is shared by no two threads}}
// expected-remark @below {{@z is shared by threads of different CTAs}}
exogpu.proc @split_buffers(%N: size, %y: f32[%N] @CudaGmemLinear, %z: f32[%N] @CudaGmemLinear) requires %N mod 128 == 0 {
  %y_tiles = exogpu.split %y dim 0 by 128 : f32[?] @CudaGmemLinear
  %z_halves = exogpu.split %z dim 0 by 64 : f32[?] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %y_tiles[%task, %t] = 1.0 : window f32[?, 128] @CudaGmemLinear
        exogpu.assign %z_halves[%task + %t / 64, %t mod 64] = 1.0 : window f32[?, 64] @CudaGmemLinear
      }
    }
  }
}
