// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Hopper TMA (cp.async.bulk.tensor) loads completing on an mbarrier
// (stdlib/sm90a.mlir @Sm90_tma_load_128x32_f32: out_of_order on
// tma_to_smem_async_qual, async proxy) and a bulk store to global memory.
// seeds/004 "Bulk", "mbarrier" and "async proxy"; paper Fig. 15-16. Each
// bug is followed by its corrected twin. Two tasks of 128 threads; thread 0
// of each CTA issues the copy of a 128 x 32 tile, the CTA reads it.

// RAW: the CTA reads the tile before waiting on the mbarrier the TMA
// completes on (the Await comes after the reads). The TMA's write is
// recorded unordered on tma_to_smem_async_qual for the issuing thread, so
// even thread 0's own read (of row 127) is not ordered after it.

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

exogpu.proc @tma_read_before_wait(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          // expected-error @below {{RAW hazard on @S[127, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual; thread 0}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Await(bar, cuda_in_order, 0) before the reads. The TMA's write was
// tied to the mbarrier's next arrive at issue (`>> %bar`), so the await
// orders it fully on cuda_in_order for every CTA thread.

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

exogpu.proc @tma_read_after_wait(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Await at the wrong scope: only the issuing thread waits on the mbarrier,
// then the whole CTA reads the tile. The await orders the TMA's write for
// the awaiting thread only, so thread 1 (reading row 127 - 1) is not
// ordered after it.

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

exogpu.proc @tma_wait_issuing_thread_only(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
        exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          // expected-error @below {{RAW hazard on @S[126, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual; thread 1 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the issuing thread waits, then __syncthreads: after the await
// thread 0 sees the TMA's write fully on cuda_in_order, so the transitive
// CTA fence passes it on to every thread.

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

exogpu.proc @tma_wait_issuing_thread_then_fence(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
        exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// An await whose second timeline does not cover the readers: with
// cuda_async_proxy (right for a wgmma or TMA consumer) the TMA's write
// becomes visible on the async-proxy timelines only, and nothing on
// cuda_in_order_ram_qual, which the in-order reads need.

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

exogpu.proc @tma_await_wrong_timeline(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.await(%bar, cuda_async_proxy, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          // expected-error @below {{RAW hazard on @S[127, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_smem_async_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual]}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Await(bar, cuda_generic_and_async, 0) covers in-order readers too.

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

exogpu.proc @tma_await_generic_and_async(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.await(%bar, cuda_generic_and_async, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %out[%task * 128 + %tid, %j] = %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAR: two tiles are loaded in turn into one buffer. The second TMA load
// overwrites the buffer while other threads may still read the first tile:
// the TMA's write-only check (temporally_ordered on tma_to_smem_async_qual)
// finds thread 127's read invisible to the issuing thread 0.

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

exogpu.proc @tma_overwrite_while_read(%A: f32[512, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 2) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{WAR hazard on @S[0, 0]: this write is not ordered after an earlier read by thread 127 on cuda_in_order_ram_qual; thread 0}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 256 + %k * 128:%task * 256 + %k * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
          exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
        }
        exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
        exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.for %j in seq(0, 32) {
            // expected-note @below {{the earlier read is here}}
            exogpu.reduce %out[%task * 128 + %tid, %j] += %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: __syncthreads at the end of each iteration; cuda_in_order orders
// the reads temporally on tma_to_smem_async_qual (Fig. 16), which is what
// an overwrite needs.

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

exogpu.proc @tma_overwrite_after_fence(%A: f32[512, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[512, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 2) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 256 + %k * 128:%task * 256 + %k * 128 + 128, :]) >> %bar : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[512, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
          exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
        }
        exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
        exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.for %j in seq(0, 32) {
            exogpu.reduce %out[%task * 128 + %tid, %j] += %S[127 - %tid, %j] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
          }
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Missing fence.proxy.async before a bulk store: the CTA writes the tile
// with in-order (generic proxy) stores, then thread 0 stores it to global
// memory with a bulk copy (async proxy). __syncthreads orders the writes
// only temporally on tma_to_gmem_async_qual (Fig. 16, row cuda_in_order,
// column tmaG: "temp."); the bulk copy's read needs them fully ordered.

// Not in the stdlib: a bulk store (cp.async.bulk shared::cta -> global,
// completing through a bulk async-group), annotated like the TMA load but
// on tma_to_gmem_async_qual (Fig. 15, tmaG: "cp.async.bulk SMEM reads, GMEM
// writes/reduces"). The 128 x 32 tile is 16 KiB of whole rows, contiguous
// in both memories.
exogpu.instr @Sm90_bulk_store_128x32_f32(
    %dst: f32[128, 32] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup,
    cuda = "asm volatile(\22cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16384;\22 :: \22l\22({dst}), \22r\22((unsigned)__cvta_generic_to_shared({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear
    }
  }
}

exogpu.proc @tma_store_no_proxy_fence(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          // expected-note @below {{the earlier write is here}}
          exogpu.assign %S[%tid, %j] = %A[%task * 128 + %tid, %j] * 2.0 : f32[128, 32] @CudaSmemLinear, f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        // expected-error @below {{RAW hazard on @S[0, 0]: this read is not ordered after an earlier write by thread 0 on cuda_in_order_ram_qual; thread 0 sees it at temporally_ordered on [tma_to_gmem_async_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @Sm90_bulk_store_128x32_f32(%out[%task * 128:%task * 128 + 128, :], %S[:, :]) >> %cg : f32[256, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear, barrier @CudaCommitGroup
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Fence(cuda_in_order, cuda_async_proxy) (__syncthreads;
// fence.proxy.async.shared::cta).

// Not in the stdlib: a bulk store (cp.async.bulk shared::cta -> global,
// completing through a bulk async-group), annotated like the TMA load but
// on tma_to_gmem_async_qual (Fig. 15, tmaG: "cp.async.bulk SMEM reads, GMEM
// writes/reduces"). The 128 x 32 tile is 16 KiB of whole rows, contiguous
// in both memories.
exogpu.instr @Sm90_bulk_store_128x32_f32(
    %dst: f32[128, 32] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @CudaSmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup,
    cuda = "asm volatile(\22cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16384;\22 :: \22l\22({dst}), \22r\22((unsigned)__cvta_generic_to_shared({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear
    }
  }
}

exogpu.proc @tma_store_proxy_fence(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%tid, %j] = %A[%task * 128 + %tid, %j] * 2.0 : f32[128, 32] @CudaSmemLinear, f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_bulk_store_128x32_f32(%out[%task * 128:%task * 128 + 128, :], %S[:, :]) >> %cg : f32[256, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear, barrier @CudaCommitGroup
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
