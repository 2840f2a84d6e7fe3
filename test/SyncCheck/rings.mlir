// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="replay-tasks=false bulk-loops=false" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// mbarrier phases as the hardware has them (docs/abstract-machine.md,
// "Rings"): the CUDA translation makes each CudaMbarrier element a ring of
// R mbarriers, R = 1 + the sum of the largest await lag (~N) of each
// mbarrier of the kernel, and numbers each thread's arrives and awaits on a
// barrier variable. Each rule has a program it rejects, then its twin,
// accepted.

// Rule 1, one collective per element: two warpgroups release a stage each
// with its own arrive. The ring counts the arrivals of one collective; the
// hardware completes a phase with whichever warpgroup arrives first.

exogpu.proc @release_per_warpgroup(%out: f32[256] @CudaGmemLinear) {
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
            // expected-error @below {{several collectives arrive at @empty[]: this arrive by threads 256..383 signals phase 1, earlier phases were signaled by threads 128..255; the hardware completes a phase with the arrivals of whichever collective comes first}}
            // expected-note @below {{the earlier arrive}}
            exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: one arrive by both warpgroups (and, for a release per warpgroup,
// an element per warpgroup: @release_per_warpgroup_element below).

exogpu.proc @release_by_consumers(%out: f32[256] @CudaGmemLinear) {
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

// -----

// Rule 2, numbering: the translation numbers a thread's awaits (and
// arrives) on a barrier variable. The consumer warpgroups take turns to
// await `full`; the second warpgroup's first await is await 1 of @full[]
// (phase 1 in the check), but its own await 0 on the hardware, which waits
// for phase 0 and reads the stage before phase 1 filled it. (A thread that
// arrives at two elements of one variable breaks the same rule; the
// distributed memory deduction keeps exogpu threads to one element each:
// test/AbstractMachine/rings.mlir has it in AMIR.)

exogpu.proc @awaits_in_turns(%out: f32[256] @CudaGmemLinear) {
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
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.if %wg == %k mod 2 {
              // expected-error @below {{this await is await 1 of @full[], but thread 256 made 0 await(s) on @full before it: the translation numbers each thread's awaits on a barrier variable, so on the hardware it would wait for another phase}}
              exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
              exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %j in seq(0, 2) {
                  exogpu.reduce %out[%wg * 128 + %tid] += %S[%k mod 2, %tid * 2 + %j] : f32[256] @CudaGmemLinear, f32[2, 256] @CudaSmemLinear
                }
              }
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

// Twin: both warpgroups await every phase, as one collective.

exogpu.proc @awaits_together(%out: f32[256] @CudaGmemLinear) {
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
            exogpu.if %wg == %k mod 2 {
              exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
                exogpu.for %j in seq(0, 2) {
                  exogpu.reduce %out[%wg * 128 + %tid] += %S[%k mod 2, %tid * 2 + %j] : f32[256] @CudaGmemLinear, f32[2, 256] @CudaSmemLinear
                }
              }
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

// Rule 3, an await with N >= 0 waits for its own threads' arrives (their
// N-th latest): the translation counts arrives per thread, and threads that
// did not arrive would wait for arrive -1 (at once, on the wrong parity).
// Thread 0 signals the stage; the CTA awaits it with N = 0.

exogpu.proc @await_own_by_others(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %S[%j] = 1.0 : f32[128] @CudaSmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      // expected-error @below {{an await with N = 0 waits for the awaiting threads' own arrives on @bar (their N-th latest), but thread 1 made 0 arrive(s) on @bar where @bar[] has 1: on the hardware it would wait for another phase; use N < 0 (ring lag ~N) to wait for other threads' arrives}}
      exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %out[%tid] = %S[127 - %tid] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: N = -1 (ring lag 0) pairs each await with the next arrive, by any
// threads.

exogpu.proc @await_lag_zero(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %S[%j] = 1.0 : f32[128] @CudaSmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %out[%tid] = %S[127 - %tid] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 3, an await with N >= 0 that pairs with no arrive: the arriving
// thread waits before its arrive (the hardware would wait for its arrive
// -1).

exogpu.proc @await_own_before_arrive(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %S[%j] = 1.0 : f32[128] @CudaSmemLinear
        }
        // expected-error @below {{an await with N = 0 waits for the awaiting threads' own arrives on @bar (their N-th latest), but @bar[] has 0 arrive(s): the hardware would wait for arrive -1, which does not exist}}
        exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %out[%j] = %S[%j] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the thread waits for its own arrive after making it.

exogpu.proc @await_own_after_arrive(%out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[128] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %S[%j] = 1.0 : f32[128] @CudaSmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
        exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
        exogpu.for %j in seq(0, 128) {
          exogpu.assign %out[%j] = %S[%j] : f32[128] @CudaGmemLinear, f32[128] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 4, a signal waits for the previous phase of its ring slot to
// complete: four TMA loads, each with its expect-tx arrive, on a ring of
// depth 1 (no await lags in the kernel) and no back-pressure: the second
// load's bytes may land while phase 0 is still incomplete and count toward
// it (phase aliasing).

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

exogpu.proc @four_loads_depth_one(%A: f32[512, 32] @CudaGmemLinear, %out: f32[4, 128] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[4, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.for %k in seq(0, 4) {
            // expected-error @below {{ring overrun: this asynchronous completion of phase 1 of @full[] may run before phase 0, the previous phase of its ring slot (slot 0 of @full[]'s ring of 1), completed: the hardware would count it toward phase 0}}
            // expected-note @below {{this signal of phase 0 is not ordered before it}}
            // expected-note @below {{the CUDA translation makes every mbarrier element of a kernel a ring of 1 + (the sum of the largest await lag of each of its mbarriers) mbarriers}}
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k, :, :], %A_map[%k * 128:%k * 128 + 128, :]) >> %full : f32[4, 128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
      }
      exogpu.warps "consumer" {
        exogpu.for %k in seq(0, 4) {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%k, %tid] = %S[%k, %tid, 0] : f32[4, 128] @CudaGmemLinear, f32[4, 128, 32] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the producer awaits the consumers' releases with lag 3, so the
// rings are 4 deep and hold the four phases; the consumers' awaits
// interleave with the loads. (Its first three awaits pair with no release.)

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

exogpu.proc @four_loads_depth_four(%A: f32[512, 32] @CudaGmemLinear, %out: f32[4, 128] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[4, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%empty, cuda_generic_and_async, -4) : barrier @CudaMbarrier
            exogpu.call @Sm90_tma_load_128x32_f32(%S[%k, :, :], %A_map[%k * 128:%k * 128 + 128, :]) >> %full : f32[4, 128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          }
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%k, %tid] = %S[%k, %tid, 0] : f32[4, 128] @CudaGmemLinear, f32[4, 128, 32] @Sm90_SmemSwizzled(128)
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 4, a phase completes only after every await of the previous phase
// of its ring slot passed: the producer signals every stage without waiting
// (rings of depth 1); the consumers' await of phase 0 may still be waiting
// when phase 1 completes, and then waits for phase 2 on the same mbarrier
// (its parity matches again).

exogpu.proc @producer_ahead(%out: f32[4, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[4, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%k, %t * 4 + %j] = 1.0 : f32[4, 128] @CudaSmemLinear
            }
          }
          // expected-note @below {{the last signal of phase 1}}
          // expected-note @below {{the ring slot is used again here}}
          // expected-note @below {{the CUDA translation makes every mbarrier element of a kernel a ring}}
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          // expected-error @below {{ring overrun: this await of phase 0 of @full[] may pass only after phase 1, the next phase of its ring slot (slot 0 of @full[]'s ring of 1), completed: no signal of that phase is ordered after thread 32 passed it, and its parity wait would then wait for a later phase (the signaling threads run more than 1 phases ahead of the awaiting ones)}}
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%k, %tid] = %S[%k, %tid] : f32[4, 128] @CudaGmemLinear, f32[4, 128] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the producer waits for the consumers' release of the previous
// phase before signaling the next (and for the last one after the loop).

exogpu.proc @producer_in_step(%out: f32[4, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[4, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "producer" {
          exogpu.if %k > 0 {
            exogpu.await(%empty, cuda_in_order, -1) : barrier @CudaMbarrier
          }
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%k, %t * 4 + %j] = 1.0 : f32[4, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%k, %tid] = %S[%k, %tid] : f32[4, 128] @CudaGmemLinear, f32[4, 128] @CudaSmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.await(%empty, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 4, a ring slot is used by one phase at a time: the consumers await
// phases 0 and 1 before either is signaled, on a ring of depth 1. Phase
// 1's parity wait on the one mbarrier, which is in phase 0, returns at
// once.

exogpu.proc @awaits_ahead(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
        // expected-note @below {{phase 1 of @full[] is here}}
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%s, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          // expected-error @below {{ring overrun: this arrive of phase 0 of @full[] comes after phase 1 used the same ring slot (slot 0 of @full[]'s ring of 1): on the hardware that later phase's events count toward this one}}
          // expected-note @below {{the CUDA translation makes every mbarrier element of a kernel a ring}}
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "consumer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%s, %tid] = %S[%s, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: rings of depth 2 (the producer collects the consumers' `done`
// notice with lag 1), so phases 0 and 1 use two mbarriers.

exogpu.proc @awaits_ahead_two_slots(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %done = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
        exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%s, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "consumer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%s, %tid] = %S[%s, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %done : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.await(%done, cuda_in_order, -2) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 4, from the awaiting side: the producer signals phases 0 and 1
// before the consumers await phase 0, on a ring of depth 1. By then the
// one mbarrier may have completed both phases, and the parity wait for
// phase 0 waits for phase 2.

exogpu.proc @await_behind(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "producer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%s, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          // expected-note @below {{phase 1 of @full[] is here}}
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
      }
      exogpu.warps "consumer" {
        exogpu.for %s in seq(0, 2) {
          // expected-error @below {{ring overrun: this await of phase 0 of @full[] comes after phase 1 signaled the same ring slot (slot 0 of @full[]'s ring of 1): its parity wait may then wait for a later phase}}
          // expected-note @below {{the CUDA translation makes every mbarrier element of a kernel a ring}}
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%s, %tid] = %S[%s, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: rings of depth 2 hold both phases.

exogpu.proc @await_behind_two_slots(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %done = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "producer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %S[%s, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
      }
      exogpu.warps "consumer" {
        exogpu.for %s in seq(0, 2) {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%s, %tid] = %S[%s, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %done : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.await(%done, cuda_in_order, -2) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Rule 5, an await orders the completion of an asynchronous copy only in
// its own phase: the thread that loads two stages (phases 0 and 1 of a
// ring of depth 2) waits for phase 1 alone (N = 0) and reads stage 0. The
// hardware's wait for phase 1 does not wait for the bytes of phase 0,
// which complete on the other mbarrier of the ring. (The `done` barrier,
// awaited with lag 1, makes the rings 2 deep.)

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

exogpu.proc @skipped_wait(%A: f32[256, 32] @CudaGmemLinear, %out: f32[2, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %done = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %s in seq(0, 2) {
          // expected-note @below {{the earlier write is here}}
          exogpu.call @Sm90_tma_load_128x32_f32(%S[%s, :, :], %A_map[%s * 128:%s * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
          exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
        }
        // expected-note @below {{skipped wait: this await waited for phase 1 of @full[], which does not order the earlier access: it completes in phase 0 (complete_tx), and on the hardware only a wait for that phase waits for it}}
        exogpu.await(%full, cuda_in_order, 0) : barrier @CudaMbarrier
        exogpu.for %s in seq(0, 2) {
          exogpu.for %j in seq(0, 32) {
            // expected-error @below {{RAW hazard on @S[0, 0, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual}}
            // expected-note @below {{missing synchronization}}
            exogpu.assign %out[%s, %j] = %S[%s, 0, %j] : f32[2, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %done : barrier @CudaMbarrier
        exogpu.await(%done, cuda_in_order, -2) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the thread waits for each phase after its arrive (N = 0; an
// mbarrier await takes no N > 0).

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

exogpu.proc @every_wait(%A: f32[256, 32] @CudaGmemLinear, %out: f32[2, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      %done = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %s in seq(0, 2) {
          exogpu.call @Sm90_tma_load_128x32_f32(%S[%s, :, :], %A_map[%s * 128:%s * 128 + 128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
          exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
          exogpu.await(%full, cuda_in_order, 0) : barrier @CudaMbarrier
        }
        exogpu.for %s in seq(0, 2) {
          exogpu.for %j in seq(0, 32) {
            exogpu.assign %out[%s, %j] = %S[%s, 0, %j] : f32[2, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %done : barrier @CudaMbarrier
        exogpu.await(%done, cuda_in_order, -2) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// An await that pairs with an arrive made later in program order (lag 0):
// the consumers wait for phase k, which the producer signals later in
// iteration k, and read the stage of phase k - 1. No wait cycle: the
// producer waits only for the release of iteration k - 1 (lag 1, rings of
// depth 2). The box engine once skipped, at each await, the records that
// had observed a count the previous await had already covered, here the
// producer's writes of iteration k - 1, whose arrive followed the
// consumers' await of phase k - 1, and reported a RAW hazard on @T[1, 0];
// all engines accept it.

exogpu.proc @await_before_its_arrive(%out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %T = exogpu.alloc f32[2, 128] @CudaSmemLinear
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.warps "consumer" {
          exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.if %k > 0 {
            exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.reduce %out[%task, %tid] += %T[(%k + 1) mod 2, %tid] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty : barrier @CudaMbarrier
        }
        exogpu.warps "producer" {
          exogpu.await(%empty, cuda_in_order, -2) : barrier @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.for %j in seq(0, 4) {
              exogpu.assign %T[%k mod 2, %t * 4 + %j] = 1.0 : f32[2, 128] @CudaSmemLinear
            }
          }
          exogpu.arrive(cuda_in_order, 1) >> %full : barrier @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
