// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Hopper wgmma (stdlib/sm90a.mlir: @Sm90_mma_async_tf32_m64n256k8 with D
// on wgmma_async_rmem_d_qual (in issue order, not out_of_order), A and B
// out_of_order on wgmma_async_smem_qual; @Sm90_zero_d_m64n256_f32 and
// @Sm90_store_d_m64n256_f32 in order on cuda_in_order_rmem_qual). The
// rules: seeds/004 "wgmma" (commit groups, wgmma.fence, fence.proxy.async),
// paper Fig. 15-16 (wgmma_async, wgmma_fence_1/2, cuda_async_proxy). Each
// bug is followed by its corrected twin. One warpgroup per CTA, two tasks;
// the CTA fills the 64 x 8 A tile and the 256 x 8 B tile in shared memory
// with in-order writes, one warpgroup multiplies.

// wgmma D read too early: the store of D (in order, cuda_in_order_rmem_qual)
// comes before the commit group is awaited, so the wgmma's write of D
// (recorded on wgmma_async_rmem_d_qual) is not ordered before it. The
// await after the store is too late.

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

exogpu.proc @wgmma_d_read_before_wait(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        // expected-error @below {{RAW hazard on @D[0, 0]: this read is not ordered after an earlier write by threads 0..127 on wgmma_async_rmem_d_qual}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Await(cg, cuda_in_order, 0) (wgmma.wait_group 0) before the store.

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

exogpu.proc @wgmma_d_read_after_wait(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Missing wgmma.fence: D is zeroed by in-order code, then the wgmma reads
// and accumulates into it. The wgmma's D argument is read-write, checked
// fully_ordered on wgmma_async_rmem_d_qual (Fig. 19; reported as a WAW, the
// check of a written argument), but the zeroing is recorded on
// cuda_in_order_rmem_qual and nothing moves it to the wgmma timelines
// (seeds/004 "Register Fence": wgmma.fence is needed before the first
// wgmma to see prior register writes of D).

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

exogpu.proc @wgmma_no_wgmma_fence(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        // expected-error @below {{WAW hazard on @D[0, 0]: this write is not ordered after an earlier write by threads 0..127 on cuda_in_order_rmem_qual}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Fence(wgmma_fence_1, wgmma_fence_2) (wgmma.fence) between the
// zeroing and the wgmma.

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

exogpu.proc @wgmma_with_wgmma_fence(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Commit group await with N = 1 (wgmma.wait_group 1) keeps the last group
// in flight: after the loop the last wgmma's write of D is still pending
// when D is stored (guide seeds/000 "Queue Barrier": N >= 0 pairs with the
// N-th prior arrive, so N = 1 never covers the latest one).

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

exogpu.proc @wgmma_wait_one_in_flight(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %k in seq(0, 2) {
          // expected-note @below {{the earlier write is here}}
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
          exogpu.await(%cg, cuda_in_order, 1) : barrier @CudaCommitGroup
        }
        // expected-error @below {{RAW hazard on @D[0, 0]: this read is not ordered after an earlier write by threads 0..127 on wgmma_async_rmem_d_qual}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: drain the last group with Await(cg, cuda_in_order, 0) before the
// store (as examples/sm90a_gemm.mlir does); arrive and await counts match.

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

exogpu.proc @wgmma_wait_one_then_drain(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.for %k in seq(0, 2) {
          exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
          exogpu.await(%cg, cuda_in_order, 1) : barrier @CudaCommitGroup
        }
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Missing fence.proxy.async: the A and B tiles are written by in-order
// (generic proxy) code and read by wgmma (async proxy). __syncthreads
// (Fence(cuda_in_order, cuda_in_order)) orders the writes fully on the
// cuda_in_order timelines but only temporally on wgmma_async_smem_qual
// (Fig. 16, row cuda_in_order, column wgS: "temp."), while the wgmma's
// read-only SMEM operand needs them fully ordered there (Fig. 19).

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

exogpu.proc @wgmma_no_proxy_fence(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          // expected-note @below {{the earlier write is here}}
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        // expected-error @below {{RAW hazard on @A[0, 0]: this read is not ordered after an earlier write by thread 0 on cuda_in_order_ram_qual; the best any of threads 0..127 sees it is temporally_ordered on [wgmma_async_smem_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Fence(cuda_in_order, cuda_async_proxy) (__syncthreads;
// fence.proxy.async): cuda_async_proxy holds wgmma_async_smem_qual in full.

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

exogpu.proc @wgmma_proxy_fence(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAR on a wgmma SMEM operand: the CTA overwrites B after a __syncthreads
// while the wgmma that reads B may still be running (its commit group is
// awaited only later). The wgmma's read of B is recorded unordered on
// wgmma_async_smem_qual, which a transitive cuda_in_order fence does not
// witness.

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

exogpu.proc @wgmma_operand_overwritten(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        // expected-note @below {{the earlier read is here}}
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            // expected-error @below {{WAR hazard on @B[0, 0]: this write is not ordered after an earlier read by threads 0..127 on wgmma_async_smem_qual}}
            // expected-note @below {{missing synchronization}}
            exogpu.assign %B[%tid * 2 + %j, %i] = 2.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the warpgroup awaits its commit group before the __syncthreads, so
// the wgmma's reads are ordered (on cuda_in_order) for the warpgroup and
// the transitive fence passes them on to the whole CTA.

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

exogpu.proc @wgmma_operand_overwritten_after_wait(%g: f32[128, 256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %A = exogpu.alloc f32[64, 8] @Sm90_SmemSwizzled(128)
      %B = exogpu.alloc f32[256, 8] @Sm90_SmemSwizzled(128)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 4) {
          exogpu.assign %A[%tid / 2, (%tid mod 2) * 4 + %i] = 1.0 : f32[64, 8] @Sm90_SmemSwizzled(128)
        }
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 1.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_async_proxy)
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        exogpu.call @Sm90_zero_d_m64n256_f32(%D[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        exogpu.fence(wgmma_fence_1, wgmma_fence_2)
        exogpu.call @Sm90_mma_async_tf32_m64n256k8(%D[:, :], %A[:, :], %B[:, :]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %j in seq(0, 2) {
          exogpu.for %i in seq(0, 8) {
            exogpu.assign %B[%tid * 2 + %j, %i] = 2.0 : f32[256, 8] @Sm90_SmemSwizzled(128)
          }
        }
      }
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        exogpu.call @Sm90_store_d_m64n256_f32[256](%g[%task * 64:%task * 64 + 64, :], %D[:, :]) : f32[128, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
