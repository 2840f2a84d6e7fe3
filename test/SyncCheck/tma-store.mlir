// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// TMA stores and reductions through a tensor map (stdlib/sm90a.mlir
// @Sm90_tma_store_128x32_f32, @Sm90_tma_reduce_add_128x32_f32: shared
// memory read and global memory written out of order on
// tma_to_gmem_async_qual) completing through a bulk commit group:
// Arrive(tma_to_gmem_async, 1) >> cg is cp.async.bulk.commit_group and
// Await(cg, cuda_in_order, 0) is cp.async.bulk.wait_group 0 (seeds/004
// "Bulk" and "Async-group"; paper Fig. 15-16). Each bug is followed by its
// corrected twin. Two tasks of 128 threads; the CTA writes a 128 x 32 tile
// into swizzled shared memory, orders it before the async proxy, and
// thread 0 stores it to its band of C.

// WAR: the CTA overwrites the tile while the store may still read it: the
// wait comes after the overwrite.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_store_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @tma_store_overwrite_before_wait(%X: f32[256, 32] @CudaGmemLinear, %C: f32[256, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier read is here}}
        exogpu.call @Sm90_tma_store_128x32_f32(%C_map[%task * 128:%task * 128 + 128, :], %S[:, :]) : window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
      }
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @below {{WAR hazard on @S[0, 0]: this write is not ordered after an earlier read by thread 0 on tma_to_gmem_async_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %S[%t, 0] = 0.0 : f32[128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: thread 0 waits for its bulk group (wait_group 0), then a CTA
// barrier passes that on to every thread before the overwrite.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_store_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @tma_store_overwrite_after_wait(%X: f32[256, 32] @CudaGmemLinear, %C: f32[256, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_store_128x32_f32(%C_map[%task * 128:%task * 128 + 128, :], %S[:, :]) : window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %S[%t, 0] = 0.0 : f32[128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// RAW: thread 0 reads global memory the reduce-add is still writing (the
// X written back is a scratch element no other thread touches).

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_reduce_add_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @tma_reduce_read_before_wait(%X: f32[256, 32] @CudaGmemLinear, %C: f32[256, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_tma_reduce_add_128x32_f32(%C_map[%task * 128:%task * 128 + 128, :], %S[:, :]) : window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        // expected-error @below {{RAW hazard on @C[0, 0]: this read is not ordered after an earlier write by thread 0 on tma_to_gmem_async_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %X[%task * 128, 0] = %C[%task * 128, 0] : f32[256, 32] @CudaGmemLinear, f32[256, 32] @CudaGmemLinear
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the read follows wait_group 0.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_reduce_add_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @tma_reduce_read_after_wait(%X: f32[256, 32] @CudaGmemLinear, %C: f32[256, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%task * 128 + %t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_reduce_add_128x32_f32(%C_map[%task * 128:%task * 128 + 128, :], %S[:, :]) : window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
        exogpu.assign %X[%task * 128, 0] = %C[%task * 128, 0] : f32[256, 32] @CudaGmemLinear, f32[256, 32] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Split-k: tasks of one kernel add partial tiles into the same tile of C.
// The reduce-adds are atomic per element (the `atomic` annotation of
// @Sm90_tma_reduce_add_128x32_f32, seeds/002 Fig. 19 "Atomic"), so they need
// no synchronization between them; a plain TMA store into the tile by one
// task is not atomic and races with the other task's reduce-add (WAW).

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_store_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_reduce_add_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @splitk_store_races_reduce(%X: f32[128, 32] @CudaGmemLinear, %C: f32[128, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[128, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.if %task == 0 {
          // expected-note @below {{the earlier write is here}}
          exogpu.call @Sm90_tma_store_128x32_f32(%C_map[:, :], %S[:, :]) : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.if %task == 1 {
          // expected-error @below {{WAW hazard on @C[0, 0]: this write is not ordered after an earlier write by thread 0 of another task on tma_to_gmem_async_qual; thread 0 sees it at invisible on [tma_to_gmem_async_qual], not atomic_only}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm90_tma_reduce_add_128x32_f32(%C_map[:, :], %S[:, :]) : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        }
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: every task only reduce-adds into C (examples/gemm_splitk_sm90a.mlir).

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_tma_reduce_add_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @splitk_reduce_adds(%X: f32[128, 32] @CudaGmemLinear, %C: f32[128, 32] @CudaGmemLinear) {
  %C_map = exogpu.window %C[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%t, %j] = %X[%t, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), f32[128, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_reduce_add_128x32_f32(%C_map[:, :], %S[:, :]) : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
