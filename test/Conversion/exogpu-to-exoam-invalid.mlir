// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-exoam -verify-diagnostics

// Errors of --convert-exogpu-to-exoam on IR that the exogpu verifier
// accepts. The translation's other errors guard against IR built without
// the verifier; the one for a proc call inside a device_function is
// checked in exogpu-to-exoam-unverified.mlir.

// A proc call at CPU scope is inlined (seeds/002 Sec. 5.2 preprocessing
// (ii)); a recursive call cannot be.
exogpu.proc @self(%x: f32[4] @DRAM) {
  // expected-error @below {{sync check: recursive call of @self cannot be inlined}}
  exogpu.call @self(%x) : f32[4] @DRAM
}

// -----

// Mutual recursion: each proc is translated on its own, so each reports
// the call that closes its cycle.
exogpu.proc @ping(%n: size, %x: f32[%n] @DRAM) {
  // expected-error @below {{sync check: recursive call of @pong cannot be inlined}}
  exogpu.call @pong[%n](%x) : f32[?] @DRAM
}

exogpu.proc @pong(%n: size, %x: f32[%n] @DRAM) {
  // expected-error @below {{sync check: recursive call of @ping cannot be inlined}}
  exogpu.call @ping[%n](%x) : f32[?] @DRAM
}

// -----

// The pass runs the collective analysis first and reports its errors: a
// cuda_threads loop cannot create threads.
exogpu.proc @too_many_threads(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{cuda_threads loop asks for 128 x cuda_thread = 128 threads, more than the collective of its scope (64 threads) provides: the scope's collective has room for 64 unit(s) along the subdivided dimension, but 128 are needed}}
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %x[%t] = 0.0 : f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// A multicast completion (barrier_dist) spans the CTAs of the cluster; the
// translation pairs each CTA's shard with that CTA's barrier.
exogpu.instr @multicast_warps(%dst: f32[2, 32] @CudaSmemLinear {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_warp] {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 32) {
      exogpu.assign %dst[%c, %i] = 0.0 : f32[2, 32] @CudaSmemLinear
    }
  }
}

exogpu.proc @multicast_over_warps() {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 32] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{sync check: a multicast completion (barrier_dist) must span the CTAs of the cluster: barrier_dist = [cuda_cta_in_cluster] and a barrier window whose first interval is the CTA dimension}}
          exogpu.call @multicast_warps(%S[:, :]) >> %bar[:] : f32[2, 32] @CudaSmemLinear, barrier[2] @CudaMbarrier
        }
      }
    }
  }
}

// -----

exogpu.instr @multicast_dst_by_warps(%dst: f32[2, 32] @CudaSmemLinear {out_of_order, dist = [cuda_warp], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster] {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 32) {
      exogpu.assign %dst[%c, %i] = 0.0 : f32[2, 32] @CudaSmemLinear
    }
  }
}

exogpu.proc @multicast_shards_by_warps() {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 32] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{sync check: a parameter of a multicast instruction is distributed over the CTAs of the cluster, like its barrier, or not at all}}
          exogpu.call @multicast_dst_by_warps(%S[:, :]) >> %bar[:] : f32[2, 32] @CudaSmemLinear, barrier[2] @CudaMbarrier
        }
      }
    }
  }
}
