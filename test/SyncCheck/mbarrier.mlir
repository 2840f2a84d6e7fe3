// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// mbarrier queue barriers (guide seeds/000 "Split Barrier", "Queue
// Barrier"; paper Fig. 22 ARRIVE / AWAIT, Fig. 7 CHECKBARRIER;
// examples/sm90a_gemm.mlir). The ring: one producer warp loads K = 4 tiles
// of 128 x 32 with TMA into a 2-stage shared-memory ring, arriving at
// `full` (tma_to_smem_async); a consumer warpgroup waits on `full`, reads
// the stage (4 columns of each row, to keep the check fast) and releases
// it by arriving at `empty`; before refilling a stage the producer waits on
// `empty` with ring lag 2 (N = -3, ~N = 2: the await of iteration k pairs
// with the release of iteration k - 2). Each bug is followed by its
// corrected twin. Two tasks. The last pair arrives at the barrier of the
// wrong CTA of a 2-CTA cluster.

// Producer lag too large: N = -4 (~N = 3) pairs the await of iteration k
// with the release of iteration k - 3, but the ring has 2 stages, so in
// iteration 2 the TMA refills stage 0 while nothing orders it after
// iteration 0's use of the stage. The first check of the refill to fail is
// its check_mutates: iteration 0's TMA write of stage 0 reached the
// consumers (through `full`) but comes back to the producer only through
// the consumers' release, which this await does not pair with. (The
// consumers' reads are unordered as well: the WAR behind it.)

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_lag_too_large(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -4) : barrier @CudaMbarrier
            // expected-note @below {{the earlier write is here}}
            // expected-error @below {{WAW hazard on @S[0, 0, 0]: this write is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual; thread 0 sees it at unordered on [tma_to_smem_async_qual], not temporally_ordered}}
            // expected-note @below {{missing synchronization}}
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: N = -3, a lag equal to the number of stages.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_lag_two(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Consumer lag too large: Await(full, cuda_in_order, -2) pairs with the
// producer's previous arrive, so the consumers read a stage whose TMA load
// has not been waited for (a RAW on the async write).

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_consumer_lag(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            // expected-note @below {{the earlier write is here}}
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -2) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              // expected-error @below {{RAW hazard on @S[0, 0, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual; thread 32}}
              // expected-note @below {{missing synchronization}}
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Await(full, cuda_in_order, -1) pairs with this iteration's arrive.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_consumer_no_lag(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// An await with no matching arrive: the consumers skip the release of the
// last stage ("nothing will be loaded after it"), but the producer still
// awaits `empty` in every iteration (the queue pairs by counts), so at the
// free `empty` was awaited 4 times and arrived at 3 times. The frees
// inserted at the end of the task check every barrier (Fig. 7
// CHECKBARRIER); the error is reported at the allocation.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_missing_release(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      // expected-error @below {{check_barrier failed on @empty[]: arrive count 3 differs from await count 4 (barrier mismatch}}
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.if %k < 3 {
            exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the consumers release every stage, the last one included.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_all_released(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Unbalanced arrives at the free: the producer skips the wait of the first
// iteration and pairs each later wait with the release one stage back
// (N = -2, ring lag 1: rings of 1 + 1 mbarriers), which orders the refills
// correctly, but the last release is never awaited: 4 arrives, 3 awaits at
// the free.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_unawaited_releases(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      // expected-error @below {{check_barrier failed on @empty[]: arrive count 4 differs from await count 3 (barrier mismatch}}
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.if %k >= 1 {
              exogpu.await(%empty, cuda_generic_and_async, -2) : barrier @CudaMbarrier
            }
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: after the loop the producer drains the outstanding release.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

exogpu.proc @ring_drained_releases(%A: f32[1024, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[1024, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.if %k >= 1 {
              exogpu.await(%empty, cuda_generic_and_async, -2) : barrier @CudaMbarrier
            }
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%task * 512 + %k * 128:%task * 512 + %k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[1024, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.reduce %out[%task * 128 + %tid, %j] += %S[%k mod 2, %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%empty, cuda_generic_and_async, -2) : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Arrive at the wrong CTA's mbarrier: in a 2-CTA cluster, warp 0 of each
// CTA fills its CTA's shard S[cta, :] and signals warp 1 of the same CTA,
// but arrives at the other CTA's barrier bar[1 - cta] (a remote
// mbarrier.arrive.shared::cluster) instead of its own bar[cta]. Warp 1's
// Await(bar[cta]) then pairs with the other CTA's arrive, which carries the
// other CTA's writes, not this CTA's. The sync check runs the distributed
// memory deduction (Sec. 4.1) first, which rejects the index expression
// 1 - cta of the distributed barrier: the shard bar[1 - cta] is not owned
// by the arriving CTA. (Without that deduction the abstract machine reports
// a RAW hazard on S[0, 31]: the read by thread 32 is not ordered after the
// write by thread 31.)
exogpu.proc @arrive_other_cta(%g: f32[256] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 32] @CudaSmemLinear
      // expected-note @below {{allocated here}}
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 1) {
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %S[%cta, %lane] = %g[%task * 64 + %cta * 32 + %lane] : f32[2, 32] @CudaSmemLinear, f32[256] @CudaGmemLinear
          }
          // expected-error @below {{distributed memory deduction for the barrier[2] @CudaMbarrier allocation failed: distributed index 0 must be a cuda_threads iterator, not an expression}}
          exogpu.arrive(cuda_in_order, 1) >> %bar[1 - %cta] : barrier[2] @CudaMbarrier
        }
        exogpu.warps(1, 2) {
          exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %out[%task * 64 + %cta * 32 + %lane] = %S[%cta, 31 - %lane] : f32[256] @CudaGmemLinear, f32[2, 32] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: each CTA arrives at its own barrier bar[cta].
exogpu.proc @arrive_own_cta(%g: f32[256] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 32] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.warps(0, 1) {
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %S[%cta, %lane] = %g[%task * 64 + %cta * 32 + %lane] : f32[2, 32] @CudaSmemLinear, f32[256] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.warps(1, 2) {
          exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %out[%task * 64 + %cta * 32 + %lane] = %S[%cta, 31 - %lane] : f32[256] @CudaGmemLinear, f32[2, 32] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
