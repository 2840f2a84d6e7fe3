// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="replay-tasks=false bulk-loops=false" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Liveness (docs/abstract-machine.md, "Rings", rule 6): a kernel whose
// mbarrier awaits can wait forever on the hardware is reported as a hang.
// Fig. 22's awaits never block, so the machine sees such a kernel run to its
// end (and used to accept it, or report a hazard elsewhere). Each hang is
// followed by its twin, accepted.

// A wait cycle at k = 0: the producer's first await on `empty` (lag 0)
// pairs with the consumers' first release, which they give only after
// awaiting `full`, which the producer arrives at only after that await.

exogpu.proc @wait_cycle(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          // expected-error @below {{hang: this await waits for phase 0 of @empty[], which the arrive noted below completes, which waits for this await: the arrive by threads 32..159 is ordered after thread 0 passed it}}
          exogpu.await(%empty, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%k mod 2, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%task, %tid] += %S[%k mod 2, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
          // expected-note @below {{the arrive that completes phase 0 of @empty[], ordered after the await}}
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the producer waits with lag 2 (the ring has 2 stages): its first
// two awaits pair with no release, then with the release two stages back.

exogpu.proc @wait_lag_two(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.await(%empty, cuda_in_order, -3) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%k mod 2, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%task, %tid] += %S[%k mod 2, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A cycle through a fence: the consumers wait for the producer's first
// signal, then meet the producer at a CTA-wide fence before it arrives. On
// the hardware the consumers never reach the fence and the producer never
// leaves it.

exogpu.proc @wait_cycle_through_fence(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "consumer" {
        // expected-error @below {{hang: this await waits for phase 0 of @full[], which the arrive noted below completes, which waits for this await: the arrive by threads 0..31 is ordered after thread 32 passed it}}
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.for %j in seq(0, 4) {
            exogpu.assign %S[%t * 4 + %j] = 1.0 : f32[128] @CudaSmemLinear
          }
        }
        // expected-note @below {{the arrive that completes phase 0 of @full[], ordered after the await}}
        exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.warps "consumer" {
        exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.reduce %out[%tid] += %S[%tid] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the producer arrives before the fence (which the await no longer
// needs, but keeps).

exogpu.proc @arrive_before_fence(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.for %j in seq(0, 4) {
            exogpu.assign %S[%t * 4 + %j] = 1.0 : f32[128] @CudaSmemLinear
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "consumer" {
        exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.reduce %out[%tid] += %S[%tid] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A phase no arrive completes: the producer skips its last expect-tx
// arrive, so the consumers' last await waits forever (this used to be
// reported as a barrier mismatch at the free, 3 arrives for 4 awaits).

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

exogpu.proc @last_arrive_skipped(%A: f32[512, 32] @CudaGmemLinear, %out: f32[128, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      // expected-note @below {{the lifetime of @full[] ends here}}
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%k * 128:%k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.if %k < 3 {
              exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
            }
          }
        }
        exogpu.warps "consumer" {
          // expected-error @below {{hang: this await waits for phase 3 of @full[], which no arrive completes: @full[] has 3 phase(s) when its lifetime ends}}
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%tid, 0] += %S[%k mod 2, %tid, 0] : f32[128, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: every TMA is followed by its expect-tx arrive.

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

exogpu.proc @every_arrive(%A: f32[512, 32] @CudaGmemLinear, %out: f32[128, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -3) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k mod 2, :, :], %A_map[%k * 128:%k * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%tid, 0] += %S[%k mod 2, %tid, 0] : f32[128, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Arrivals from collectives of different sizes: at k = 0 one warpgroup of
// two releases the stage. The translation gives the ring one arrival count
// (and refuses collectives of different sizes); with the count of both
// warpgroups, phase 0 never completes and the producer's await of it
// waits forever.

exogpu.proc @release_by_one_warpgroup(%out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 256] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.await(%empty, cuda_in_order, -3) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 2) {
              exogpu.assign %S[%k mod 2, %t * 2 + %j] = 1.0 : f32[2, 256] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.reduce %out[%wg * 128 + %tid] += %S[%k mod 2, %wg * 128 + %tid] : f32[256] @CudaGmemLinear, f32[2, 256] @CudaSmemLinear
            }
            exogpu.if %k == 0 and %wg == 1 {
              // expected-note @below {{the earlier arrive (its threads times the elements it reaches)}}
              exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
            }
          }
          exogpu.if %k > 0 {
            // expected-error @below {{hang: this arrive brings 256 arrival(s) to phase 1 of @empty[], an earlier arrive on @empty 128: the translation gives every ring of @empty one arrival count, so on the hardware a phase of the smaller arrive never completes and its awaits wait forever}}
            exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: both warpgroups release every stage, as one collective.

exogpu.proc @release_by_both_warpgroups(%out: f32[256] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 256] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.await(%empty, cuda_in_order, -3) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %j in seq(0, 2) {
              exogpu.assign %S[%k mod 2, %t * 2 + %j] = 1.0 : f32[2, 256] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.reduce %out[%wg * 128 + %tid] += %S[%k mod 2, %wg * 128 + %tid] : f32[256] @CudaGmemLinear, f32[2, 256] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
