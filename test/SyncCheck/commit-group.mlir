// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Commit groups are per thread (cp.async) or per warpgroup (wgmma): a
// wait_group covers only the groups the waiting collective committed
// (seeds/004, "Async-group": it "cannot be used to implement separate
// producer/consumer threads"). The sync check runs the distributed memory
// deduction (Sec. 4.1), which requires the collective that arrives at or
// awaits a commit group to own its shard, so an await by other threads is
// rejected before the abstract machine runs. A group owned by a larger
// collective (the whole CTA) is committed and awaited by every thread of it,
// each for its own work: the await (`exoam.await own`) orders for each
// thread only the asynchronous accesses it issued, so other threads' copies
// need a barrier after the waits (the last five cases).

// Bug: warp 0's thread commits a cp.async group, warp 1's thread waits for
// it and reads the copy. %cg is one shard owned by the whole CTA.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cg_other_thread(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      // expected-note @below {{allocated here}}
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %w == 0 {
            exogpu.call @Sm80_cp_async_f32x4(%buf[0:4], %g[%task * 256:%task * 256 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
            // expected-error @below {{distributed memory deduction for the barrier @CudaCommitGroup allocation failed: a commit group pairs the arrives and awaits of one collective, but 1 thread(s) use a shard owned by 64}}
            exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
          }
          exogpu.if %w == 1 {
            exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
            exogpu.assign %out[%task * 64] = %buf[0] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: one commit group per thread; the issuing thread waits for its own
// group, and a CTA fence orders the copy before warp 1's read.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cg_own_thread(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %cg = exogpu.alloc barrier[2, 1] @CudaCommitGroup
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %w == 0 {
            exogpu.call @Sm80_cp_async_f32x4(%buf[0:4], %g[%task * 256:%task * 256 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
            exogpu.arrive(Sm80_cp_async, 1) >> %cg[%w, %lane] : barrier[2, 1] @CudaCommitGroup
            exogpu.await(%cg[%w, %lane], cuda_in_order, 0) : barrier[2, 1] @CudaCommitGroup
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.if %w == 1 {
            exogpu.assign %out[%task * 64] = %buf[0] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Bug: warpgroup 0 commits its wgmma, warpgroup 1 waits for the group and
// overwrites B, which the wgmma may still be reading.
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

exogpu.proc @cg_other_warpgroup() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      // expected-note @below {{allocated here}}
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.if %wg == 0 {
          %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
          // expected-error @below {{distributed memory deduction for the barrier @CudaCommitGroup allocation failed: a commit group pairs the arrives and awaits of one collective, but 128 thread(s) use a shard owned by 256}}
          exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        }
        exogpu.if %wg == 1 {
          exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %i in seq(0, 2) {
              exogpu.assign %B[%t * 2 + %i, 0] = 0.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
            }
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: one commit group per warpgroup; warpgroup 0 waits for its own
// group, and a CTA fence orders the wgmma's reads of B before warpgroup 1
// overwrites it.
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

exogpu.proc @cg_own_warpgroup() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.if %wg == 0 {
          %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
          exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.if %wg == 1 {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %i in seq(0, 2) {
              exogpu.assign %B[%t * 2 + %i, 0] = 0.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
            }
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A commit group of the whole CTA over per-thread cp.async: every thread
// commits and waits for its own group (cp.async.commit_group,
// cp.async.wait_group), so the wait orders only the thread's own copies.
// Bug: thread t reads the word thread t + 1 copied, with no barrier after
// the waits.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cta_group_cross_thread(%g: f32[256] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm80_cp_async_f32x4(%buf[%t * 4:%t * 4 + 4], %g[%t * 4:%t * 4 + 4]) : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
      }
      exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 63, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[4]: this read is not ordered after an earlier write by thread 1 on Sm80_cp_async_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%t] = %buf[%t * 4 + 4] : f32[64] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: each thread reads its own copy; its wait covers it.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cta_group_own_thread(%g: f32[256] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%buf[%t * 4:%t * 4 + 4], %g[%t * 4:%t * 4 + 4]) : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
      }
      exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%t] = %buf[%t * 4] : f32[64] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the waits and then a CTA barrier (cp.async.wait_group;
// __syncthreads) order every thread's copy before every thread's reads.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cta_group_then_fence(%g: f32[256] @CudaGmemLinear, %out: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%buf[%t * 4:%t * 4 + 4], %g[%t * 4:%t * 4 + 4]) : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
      }
      exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 63, unit = cuda_thread) {
        exogpu.assign %out[%t] = %buf[%t * 4 + 4] : f32[64] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A commit group of the whole CTA over per-warpgroup wgmma: each warpgroup
// commits and waits for its own wgmma (wgmma.commit_group,
// wgmma.wait_group). Bug: warpgroup 1 overwrites B, which warpgroup 0's
// wgmma may still be reading: warpgroup 1's wait does not cover it.
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

exogpu.proc @cta_group_cross_warpgroup() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        // expected-note @below {{the earlier read is here}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%wg, :, :], %A[%wg, :, :], %B[:, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.if %wg == 1 {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %i in seq(0, 2) {
              // expected-error @below {{WAR hazard on @B[0, 0]: this write is not ordered after an earlier read by threads 0..127 on wgmma_async_smem_qual; thread 128 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
              // expected-note @below {{missing synchronization}}
              exogpu.assign %B[%t * 2 + %i, 0] = 0.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
            }
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: after the waits, a CTA barrier orders both warpgroups' wgmma reads
// before warpgroup 1's overwrite.
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

exogpu.proc @cta_group_then_fence_wgmma() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %A = exogpu.alloc f32[2, 64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[%wg, :, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[%wg, :, :], %A[%wg, :, :], %B[:, :]) : f32[2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
      exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.if %wg == 1 {
          exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
            exogpu.for %i in seq(0, 2) {
              exogpu.assign %B[%t * 2 + %i, 0] = 0.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
            }
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
