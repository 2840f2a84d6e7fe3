// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="engine=reference" -verify-diagnostics -o /dev/null

// The three buggy programs of paper seeds/002 Sec. 2.2 ("Exo-GPU Examples
// with Erroneous Synchronization"), each followed by its corrected twin,
// written with the stdlib instructions (stdlib/sm90a.mlir) in place of the
// paper's example_tma_multicast and example_wgmma, and some_in_order_op*
// instructions standing for non-async work, as in the paper. Clusters of 2
// CTAs; one task.

// (a) Inter-thread bug in a 2-CTA cluster: each CTA reads its shard
// B[cta, :, :] with in-order code and then runs a CTA-scope
// Fence(cuda_in_order, cuda_in_order) (__syncthreads), which only orders
// the threads of one CTA. A thread of CTA 0 then multicasts a new tile into
// both CTAs' shards while CTA 1 may still be reading its shard. The TMA's
// write-only check (temporally_ordered on tma_to_smem_async_qual) finds
// CTA 1's read invisible to the issuing thread (task 1, thread 0).
exogpu.instr @some_in_order_op(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[128, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

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

exogpu.proc @paper_a_cta_fence(%G: f32[128, 32] @CudaGmemLinear, %out: f32[2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        // expected-note @below {{the earlier read is here}}
        exogpu.call @some_in_order_op(%out[%cta, :], %B[%cta, :, :]) : f32[2, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      // One thread of CTA 0 issues the multicast.
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{WAR hazard on @B[1, 0, 0]: this write is not ordered after an earlier read by thread 128 on cuda_in_order_ram_qual; thread 0}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      // Each CTA waits for its shard of the multicast (one expect-tx
      // arrive per CTA at its own mbarrier), then the cluster rendezvous
      // before the compiler frees B and the barriers.
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin of (a): the fence moves to cluster scope (barrier.cluster), which
// orders both CTAs' reads before the multicast.
exogpu.instr @some_in_order_op(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[128, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

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

exogpu.proc @paper_a_cluster_fence(%G: f32[128, 32] @CudaGmemLinear, %out: f32[2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.call @some_in_order_op(%out[%cta, :], %B[%cta, :, :]) : f32[2, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin of (a), split-barrier form: Arrive(cuda_in_order) >> cs ...
// Await(cs, cuda_in_order, 0) on the cluster's CudaClusterSync
// (barrier.cluster.arrive / wait), as in the paper's third program.
exogpu.instr @some_in_order_op(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[128, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

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

exogpu.proc @paper_a_cluster_sync(%G: f32[128, 32] @CudaGmemLinear, %out: f32[2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.call @some_in_order_op(%out[%cta, :], %B[%cta, :, :]) : f32[2, 32] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, :, :], %G_map[:, :]) >> %bar[:] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// (b) Intra-thread bug: each warpgroup of each CTA accumulates into its own
// shard D[cta, wg] with wgmma and then uses D with in-order code (here the
// stdlib store of D), but the async wgmma is not waited for. The store's
// read of D (fully_ordered on cuda_in_order_rmem_qual) finds the wgmma's
// write recorded on wgmma_async_rmem_d_qual only. A and B stand for the
// paper's some_A and some_B: the abstract machine tracks accesses, not
// values, so they are not filled here.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_zero_d_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 128; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo_wgmma_desc_sw128({a})), \22l\22(exo_wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

exogpu.proc @paper_b_no_wait(%C: f32[256, 256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[2, 256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @Sm90_zero_d_m64n256_f32(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          // expected-note @below {{the earlier write is here}}
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A[%cta, %wg * 64:%wg * 64 + 64, :], %B[%cta, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 128, 8] @Sm90_SmemSwizzled(128), f32[2, 256, 8] @Sm90_SmemSwizzled(128)
          // expected-error @below {{RAW hazard on @D[0, 0, 0, 0]: this read is not ordered after an earlier write by threads 0..127 on wgmma_async_rmem_d_qual}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%cta * 128 + %wg * 64:%cta * 128 + %wg * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin of (b): each warpgroup commits its wgmma to its commit group
// cg[cta, wg] (Arrive(wgmma_async)) and waits for it (Await(cg,
// cuda_in_order, 0): wgmma.wait_group 0) before using D.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_zero_d_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 128; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo_wgmma_desc_sw128({a})), \22l\22(exo_wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

exogpu.proc @paper_b_wait(%C: f32[256, 256] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[2, 256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @Sm90_zero_d_m64n256_f32(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A[%cta, %wg * 64:%wg * 64 + 64, :], %B[%cta, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 128, 8] @Sm90_SmemSwizzled(128), f32[2, 256, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
          exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
          exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%cta * 128 + %wg * 64:%cta * 128 + %wg * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// (c) The subtle bug: async wgmma reads interacting with inter-CTA
// synchronization. The cluster-sync pair Arrive(cuda_in_order) >> cs ...
// Await(cs, cuda_in_order, 0) orders the in-order reads of B
// (some_in_order_op_1) before the multicast that overwrites B, and each
// warpgroup's commit group cg[cta, wg] orders its wgmma before its use of
// D. But the Arrive on cs uses cuda_in_order, which does not witness the
// wgmma's reads of B (recorded unordered on wgmma_async_smem_qual), and the
// Await on cg comes after that Arrive, too late to pass them on: the
// multicast may overwrite B while a wgmma still reads it. The first shard
// checked, B[0, ...], is read by CTA 0's warpgroup 1 (threads 128..255);
// the multicasting thread 0 belongs to warpgroup 0, whose own commit-group
// await made its wgmma's reads visible to it. As in the paper's snippet, B
// holds a tile loaded earlier (the loop around it is not shown) and A
// stands for some_A.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo_wgmma_desc_sw128({a})), \22l\22(exo_wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

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

exogpu.instr @some_in_order_op_1(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[256, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[256, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @paper_c_cg_wait_too_late(%G: f32[256, 32] @CudaGmemLinear, %C: f32[256, 256] @CudaGmemLinear, %out: f32[2, 2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[2, 256, 32] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @some_in_order_op_1(%out[%cta, %wg, :], %B[%cta, :, :]) : f32[2, 2, 32] @CudaGmemLinear, f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          // expected-note @below {{the earlier read is here}}
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A[%cta, %wg * 64:%wg * 64 + 64, :], %B[%cta, :, 0:8]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 128, 8] @Sm90_SmemSwizzled(128), f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
        }
      }
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
          exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%cta * 128 + %wg * 64:%cta * 128 + %wg * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      // One thread of CTA 0 multicasts the next B tile (two 128-row boxes).
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{WAR hazard on @B[0, 0, 0]: this write is not ordered after an earlier read by threads 128..255 on wgmma_async_smem_qual; thread 0 sees it at invisible on [tma_to_smem_async_qual], not temporally_ordered}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 0:128, :], %G_map[0:128, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 128:256, :], %G_map[128:256, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin of (c), the fix the paper implies: each warpgroup awaits its commit
// group before the Arrive on cs, so its wgmma's reads of B are ordered on
// cuda_in_order for the warpgroup, and the transitive cuda_in_order Arrive
// on cs then carries them to the whole cluster.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo_wgmma_desc_sw128({a})), \22l\22(exo_wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

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

exogpu.instr @some_in_order_op_1(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[256, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[256, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @paper_c_cg_wait_before_cs(%G: f32[256, 32] @CudaGmemLinear, %C: f32[256, 256] @CudaGmemLinear, %out: f32[2, 2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[2, 256, 32] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @some_in_order_op_1(%out[%cta, %wg, :], %B[%cta, :, :]) : f32[2, 2, 32] @CudaGmemLinear, f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A[%cta, %wg * 64:%wg * 64 + 64, :], %B[%cta, :, 0:8]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 128, 8] @Sm90_SmemSwizzled(128), f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
          exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
        }
      }
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%cta * 128 + %wg * 64:%cta * 128 + %wg * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      // One thread of CTA 0 multicasts the next B tile (two 128-row boxes).
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 0:128, :], %G_map[0:128, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 128:256, :], %G_map[128:256, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Second twin of (c): keep the late commit-group awaits but arrive at cs
// with a timeline that covers the wgmma's shared-memory reads:
// cuda_generic_and_async holds wgmma_async_smem_qual in full (Fig. 16), so
// the Arrive witnesses the wgmma's reads of B (non-transitively, on their
// own timeline) and the Await on cs orders them before the multicast.

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo_wgmma_desc_sw128({a})), \22l\22(exo_wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// From stdlib/sm90a.mlir.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

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

exogpu.instr @some_in_order_op_1(
    %out: f32[32] @CudaGmemLinear,
    %b: f32[256, 32] @Sm90_SmemSwizzled(128))
    target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %out[%j] += %b[%i, %j] : f32[32] @CudaGmemLinear, f32[256, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

exogpu.proc @paper_c_cs_arrive_covers_wgmma(%G: f32[256, 32] @CudaGmemLinear, %C: f32[256, 256] @CudaGmemLinear, %out: f32[2, 2, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[2, 256, 32] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @some_in_order_op_1(%out[%cta, %wg, :], %B[%cta, :, :]) : f32[2, 2, 32] @CudaGmemLinear, f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%cta, %wg, :, :], %A[%cta, %wg * 64:%wg * 64 + 64, :], %B[%cta, :, 0:8]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 128, 8] @Sm90_SmemSwizzled(128), f32[2, 256, 32] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
        }
      }
      exogpu.arrive(cuda_generic_and_async, 1) >> %cs : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
          exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%cta * 128 + %wg * 64:%cta * 128 + %wg * 64 + 64, :], %D[%cta, %wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      // One thread of CTA 0 multicasts the next B tile (two 128-row boxes).
      exogpu.for %c0 in cuda_threads(0, 1, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 0:128, :], %G_map[0:128, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%B[:, 128:256, :], %G_map[128:256, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.arrive(tma_to_smem_async, 1) >> %bar[%cta] : barrier[2] @CudaMbarrier
        }
        exogpu.await(%bar[%cta], cuda_in_order, -1) : barrier[2] @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
