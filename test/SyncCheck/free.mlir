// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Use after free of shared memory. The compiler frees every allocation at
// the end of its block (paper Sec. 3.4; --exogpu-insert-frees), and a
// persistent CTA's next task may reuse the shared memory at once (Sec. 4.2
// "Shared Memory Allocations"), so the free of shared memory checks that
// every earlier access is temporally ordered, on the in-order timeline of
// the memory, for every thread of the freeing collective (Fig. 5 Free). The
// error is reported at the allocation, where the inserted free takes its
// location from. Each bug is followed by its corrected twin.

// examples/cta_reduction.mlir without its trailing fence: after the
// broadcast sum every thread has read all of buf, but nothing orders thread
// 0's reads before the free for thread 1 (which may run ahead into the next
// task and overwrite buf).
exogpu.proc @cta_sum_no_trailing_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      // expected-error @below {{use-after-free hazard on @buf[0]: the shared memory is freed (and may be reused) while an earlier read may still be in flight by thread 0 on cuda_in_order_ram_qual; thread 1 of threads 0..63 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
      // expected-note @below {{missing synchronization}}
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      %accum = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %accum[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %i in seq(0, 64) {
          // expected-note @below {{the earlier read is here}}
          exogpu.reduce %accum[%tid] += %buf[%i] : f32[64] @CudaRmem, f32[64] @CudaSmemLinear
        }
        exogpu.assign %out[%task * 64 + %tid] = %accum[%tid] : f32[128] @CudaGmemLinear, f32[64] @CudaRmem
      }
    }
  }
}

// -----

// Twin: the trailing Fence(cuda_in_order, cuda_in_order) of
// examples/cta_reduction.mlir.
exogpu.proc @cta_sum_trailing_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      %accum = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %accum[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %i in seq(0, 64) {
          exogpu.reduce %accum[%tid] += %buf[%i] : f32[64] @CudaRmem, f32[64] @CudaSmemLinear
        }
        exogpu.assign %out[%task * 64 + %tid] = %accum[%tid] : f32[128] @CudaGmemLinear, f32[64] @CudaRmem
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A wgmma still reading shared memory at the free: two warpgroups each
// multiply their half of A by the shared B tile. Each waits for its own
// commit group only after the CTA's trailing fence, so the fence does not
// pass the wgmma's reads (recorded unordered on wgmma_async_smem_qual) on
// to the other warpgroup, which may leave the task and reuse B while the
// first warpgroup's wgmma still reads it.

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

exogpu.proc @wgmma_reads_at_free(%C: f32[256, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[128, 8] @Sm90_SmemSwizzled(128)
      // expected-error @below {{use-after-free hazard on @B[0, 0]: the shared memory is freed (and may be reused) while an earlier read may still be in flight by threads 0..127 on wgmma_async_smem_qual; thread 128 of threads 0..255 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
      // expected-note @below {{missing synchronization}}
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %tid in cuda_threads(0, 256, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[128, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %i in seq(0, 8) {
          exogpu.assign %B[%tid, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        // expected-note @below {{the earlier read is here}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%wg, :, :], %A[%wg * 64:%wg * 64 + 64, :], %B[:, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[128, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%task * 128 + %wg * 64:%task * 128 + %wg * 64 + 64, :], %D[%wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      }
    }
  }
}

// -----

// Twin: each warpgroup waits for its commit group before the trailing
// fence, which then orders both wgmmas' reads for the whole CTA.

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

exogpu.proc @wgmma_waited_before_free(%C: f32[256, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[128, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %tid in cuda_threads(0, 256, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[128, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %i in seq(0, 8) {
          exogpu.assign %B[%tid, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%wg, :, :], %A[%wg * 64:%wg * 64 + 64, :], %B[:, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[128, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
          exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_store_d_m64n256_f32[256](%C[%task * 128 + %wg * 64:%task * 128 + %wg * 64 + 64, :], %D[%wg, :, :]) : f32[256, 256] @CudaGmemLinear, f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      }
    }
  }
}

// -----

// A bulk (TMA) store still reading shared memory at the free: the epilogue
// issues the store and commits it, but the issuing thread waits for the
// bulk group (cp.async.bulk.wait_group.read 0) only after the trailing
// fence, which does not witness the store's read (recorded unordered on
// tma_to_gmem_async_qual): the rest of the CTA may reuse S too early.
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

exogpu.proc @bulk_store_reads_at_free(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      // expected-error @below {{use-after-free hazard on @S[0, 0]: the shared memory is freed (and may be reused) while an earlier read may still be in flight by thread 0 on tma_to_gmem_async_qual; thread 1 of threads 0..127 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
      // expected-note @below {{missing synchronization}}
      %S = exogpu.alloc f32[128, 32] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%tid, %j] = %A[%task * 128 + %tid, %j] * 2.0 : f32[128, 32] @CudaSmemLinear, f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-note @below {{the earlier read is here}}
        exogpu.call @Sm90_bulk_store_128x32_f32(%out[%task * 128:%task * 128 + 128, :], %S[:, :]) >> %cg[%t] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear, barrier[1] @CudaCommitGroup
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
    }
  }
}

// -----

// Twin: the issuing thread waits for its bulk group before the trailing
// fence.
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

exogpu.proc @bulk_store_waited_before_free(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256, 32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @CudaSmemLinear
      %cg = exogpu.alloc barrier[1] @CudaCommitGroup
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 32) {
          exogpu.assign %S[%tid, %j] = %A[%task * 128 + %tid, %j] * 2.0 : f32[128, 32] @CudaSmemLinear, f32[256, 32] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_bulk_store_128x32_f32(%out[%task * 128:%task * 128 + 128, :], %S[:, :]) >> %cg[%t] : f32[256, 32] @CudaGmemLinear, f32[128, 32] @CudaSmemLinear, barrier[1] @CudaCommitGroup
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg[%t] : barrier[1] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[1] @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
