// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="first=0" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="first=1" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="first=0,engine=reference" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="first=1,engine=reference" -verify-diagnostics -o /dev/null

// Multicast completions and multicast arrives in a 2-CTA cluster
// (docs/abstract-machine.md, "Multicast"). Every program runs with the
// CTA `first` (the one that issues the multicast TMA, or reads the other
// CTA's shard) = 0 and = 1: the verdict must not depend on the order in
// which the machine runs the CTAs. The expected diagnostics are written
// for both orders. (An await pairs with the signals that precede it in the
// sequential program, so the awaits that wait for another CTA's multicast
// are written after it, in a loop over the CTAs of their own, as the
// hardware's order is then the sequential one.)
//
// A multicast TMA (`>> bar[:]` with barrier_dist) writes a shard into each
// CTA's shared memory and signals each CTA's mbarrier with the bytes it
// delivered there: the record of shard c observes bar[c] only, at the
// phase of the issuing CTA's barrier (its arrive count, the index of the
// arrive its expect-tx arrive is about to make). The issuer's expect-tx
// arrive does not complete the other CTA's shard (decision (j)).

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster],
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})), \22h\22((unsigned short)0x3) : \22memory\22);" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// Bug: the issuing CTA waits only for its own shard before multicasting
// again: the other CTA's shard may still be landing (WAW), and its mbarrier
// may still be counting the first copy's bytes.
exogpu.proc @multicast_twice_in_flight(%first: index, %G: f32[128, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %cta == %first {
            // expected-note @below {{the earlier write is here}}
            exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          }
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.if %cta == %first {
          exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            // expected-error @below {{WAW hazard on @B[}}
            // expected-note @below {{missing synchronization}}
            exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster],
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})), \22h\22((unsigned short)0x3) : \22memory\22);" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// Twin: every CTA waits for its own shard, and the cluster barrier tells
// the issuing CTA that both copies landed before it multicasts again. The
// waits follow the multicast in the sequential program (a loop over the
// CTAs of their own): an await pairs with the signals before it.
exogpu.proc @multicast_twice_after_waits(%first: index, %G: f32[128, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %round in seq(0, 2) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.if %cta == %first {
              exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
            }
            exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
          }
        }
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%bar[%cta], cuda_async_proxy, -1) : barrier[2] @CudaMbarrier
        }
        exogpu.fence(cuda_generic_and_async, cuda_generic_and_async)
      }
    }
  }
}

// -----

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster],
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})), \22h\22((unsigned short)0x3) : \22memory\22);" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// Bug: only the issuing CTA expects and waits for its shard; the cluster
// barrier and the free follow while the other CTA's shard may still be
// landing. (The issuer's expect-tx arrive covers only the bytes its own
// mbarrier counts.)
exogpu.proc @multicast_free_in_flight(%first: index, %G: f32[128, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{use-after-free hazard on @B[}}
      // expected-note @below {{missing synchronization}}
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.if %cta == %first {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            // expected-note @below {{the earlier write is here}}
            exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
            exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
          }
          exogpu.await(%bar[%cta], cuda_async_proxy, -1) : barrier[2] @CudaMbarrier
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_generic_and_async)
    }
  }
}

// -----

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster],
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})), \22h\22((unsigned short)0x3) : \22memory\22);" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// Twin: both CTAs expect and wait for their shards before the cluster
// barrier and the free.
exogpu.proc @multicast_free_after_waits(%first: index, %G: f32[128, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %cta == %first {
            exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          }
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.await(%bar[%cta], cuda_async_proxy, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_generic_and_async, cuda_generic_and_async)
    }
  }
}

// -----

// A multicast arrive (`>> bar[cta] >> bar[:]`) signals every CTA's
// mbarrier; each signal belongs to the phase numbered by the arriving CTA's
// own arrives at its home barrier, whichever CTA the machine runs first.
// Each CTA writes its row of S, arrives at both barriers, waits for its
// own, and CTA `first` reads the other CTA's row.
exogpu.proc @multicast_arrive_read_other(%first: index, %S: f32[2, 128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %S[%cta, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
        exogpu.if %cta == %first {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.assign %out[%t] = %S[1 - %cta, %t] : f32[128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin (bug): each CTA arrives only at its own barrier, so waiting for it
// orders nothing of the other CTA.
exogpu.proc @own_arrive_read_other(%first: index, %S: f32[2, 128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          // expected-note @below {{the earlier write is here}}
          exogpu.assign %S[%cta, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
        exogpu.if %cta == %first {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            // expected-error @below {{RAW hazard on @S[}}
            // expected-note @below {{missing synchronization}}
            exogpu.assign %out[%t] = %S[1 - %cta, %t] : f32[128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// One producer CTA (`first`) fills a 2-stage ring in global memory and
// signals both CTAs' `full` barrier with a multicast arrive; the consumers
// of both CTAs read each stage and release it to both CTAs' `empty`
// barrier; every CTA waits for `empty` with lag 2 (the producer before
// reusing a stage). A hang: the translation counts, in each element's
// ring, the arrivals of every CTA of a multicast arrive's window, and only
// `first` arrives at `full` (docs/abstract-machine.md, "Rings").
exogpu.proc @one_producer_ring(%first: index, %S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %full = exogpu.alloc barrier[2] @CudaMbarrier
      %empty = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %k in seq(0, 6) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%empty[%cta], cuda_in_order, -3) : barrier[2] @CudaMbarrier
          exogpu.if %cta == %first {
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.assign %S[%k mod 2, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
            }
            // expected-note @below {{the arrivals of phase 0 come from here}}
            // expected-note @below {{the arrive that sets the ring's arrival count}}
            exogpu.arrive(cuda_in_order, 1) >> %full[%cta] >> %full[:] : barrier[2] @CudaMbarrier
          }
        }
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          // expected-error-re @below {{hang: this await waits for phase 0 of @full[{{[01]}}], which gets 128 of the 256 arrivals its ring counts, so it never completes on the hardware}}
          exogpu.await(%full[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%cta, %t] += %S[%k mod 2, %t] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: every CTA of the window arrives at `full` in each phase, after the
// producer's writes (the other CTA has nothing to order).
exogpu.proc @one_producer_ring_both_arrive(%first: index, %S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %full = exogpu.alloc barrier[2] @CudaMbarrier
      %empty = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %k in seq(0, 6) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%empty[%cta], cuda_in_order, -3) : barrier[2] @CudaMbarrier
          exogpu.if %cta == %first {
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              exogpu.assign %S[%k mod 2, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
            }
          }
        }
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.arrive(cuda_in_order, 1) >> %full[%cta] >> %full[:] : barrier[2] @CudaMbarrier
        }
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%full[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.reduce %out[%cta, %t] += %S[%k mod 2, %t] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] >> %empty[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Bug: the consumers release a stage only to their own CTA, so the producer
// overwrites a stage the other CTA's consumers may still read.
exogpu.proc @one_producer_ring_own_release(%first: index, %S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %full = exogpu.alloc barrier[2] @CudaMbarrier
      %empty = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %k in seq(0, 6) {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%empty[%cta], cuda_in_order, -3) : barrier[2] @CudaMbarrier
          exogpu.if %cta == %first {
            exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
              // expected-error @below {{WAR hazard on @S[0, 0]: this write is not ordered after an earlier read by}}
              // expected-note @below {{missing synchronization}}
              exogpu.assign %S[%k mod 2, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
            }
            exogpu.arrive(cuda_in_order, 1) >> %full[%cta] >> %full[:] : barrier[2] @CudaMbarrier
          }
        }
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.await(%full[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            // expected-note @below {{the earlier read is here}}
            exogpu.reduce %out[%cta, %t] += %S[%k mod 2, %t] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %empty[%cta] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
