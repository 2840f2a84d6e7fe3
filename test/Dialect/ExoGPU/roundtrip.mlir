// Every construct of the exogpu dialect (seeds/002 Fig. 1-3, 10-16) parses,
// verifies, prints, and re-parses to the same text.
// RUN: exogpu-opt %s | exogpu-opt | FileCheck %s
// RUN: exogpu-opt %s | exogpu-opt > %t.1 && exogpu-opt %t.1 > %t.2 && diff %t.1 %t.2

exogpu.instr @Sm80_cp_async_f32x4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread, cuda = "cp.async.cg.shared.global [ {dst} ], [ {src} ], 16;" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.instr @annotated(%n: size, %b: bool, %D: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, dist = [4 * cuda_warp, cuda_threads_strided(2, 4)], init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual, cuda_in_order_rmem_qual], atomic = [cuda_in_order_ram_qual]}, %S: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, ext = [wgmma_async_smem_qual]}, %Z: f32[8] @CudaRmem {init = wgmma_zero_qual})
    target = cuda, unit = cuda_warpgroup, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster], cuda = "wgmma {D}, {S};" {
}

// `convergent` on registers (by default on cuda_in_order_rmem_qual) and on a
// collective async-proxy access: the twins of invalid.mlir's rejections.
exogpu.instr @convergent_operands(%D: f32[8] @CudaRmem {convergent}, %S: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual})
    target = cuda, unit = cuda_warpgroup {
}

exogpu.instr @tma_store(%dst: f32[128] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[128] @Sm90_SmemSwizzled(64))
    target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup {
}

// A load's precondition that the kernel never writes the buffer it reads
// (stdlib/sm80.mlir's ld.global.nc); with another annotation after it.
exogpu.instr @nc_load(%dst: f32[4] @CudaRmem, %src: f32[4] @CudaGmemLinear {ext = [cuda_in_order_ram_qual], kernel_read_only})
    target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}

exogpu.instr @cpu_copy(%dst: f32[8] @DRAM {init = cpu_in_order_qual}, %src: f32[8] @DRAM {ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %dst[%i] = %src[%i] : f32[8] @DRAM, f32[8] @DRAM
  }
}

exogpu.proc @loops_and_units(%N: size, %A: f32[%N] @CudaGmemLinear) requires %N mod 512 == 0 {
  exogpu.device_function(blockDim = 512) {
    exogpu.for %task in cuda_tasks(0, %N / 512) {
      exogpu.for %j in cuda_tasks(0, 2) {
        exogpu.for %t in cuda_threads(0, 512, unit = cuda_thread) {
          exogpu.for %k in seq(0, 4) {
            exogpu.assign %A[%task * 512 + %t] = 1.0 : f32[?] @CudaGmemLinear
          }
        }
        exogpu.for %q in cuda_threads(0, 64, unit = cuda_quadpair) {
        }
        exogpu.for %w in cuda_threads(0, 16, unit = cuda_warp) {
        }
        exogpu.for %w4 in cuda_threads(0, 4, unit = 4 * cuda_warp) {
        }
        exogpu.for %g in cuda_threads(0, 4, unit = cuda_warpgroup) {
        }
        exogpu.for %g2 in cuda_threads(0, 2, unit = 2 * cuda_warpgroup) {
        }
        exogpu.for %s in cuda_threads(0, 4, unit = cuda_threads_strided(4, 2)) {
        }
        exogpu.for %s2 in cuda_threads(0, 2, unit = 2 * cuda_thread) {
        }
        exogpu.for %a in cuda_threads(0, 1, unit = cuda_agnostic_sub_cta) {
        }
        exogpu.for %b in cuda_threads(0, 1, unit = cuda_agnostic_intact_cta) {
        }
        exogpu.for %c in cuda_threads(0, 1, unit = standalone_thread) {
        }
      }
    }
  }
}

exogpu.proc @cluster_units(%N: size) {
  exogpu.device_function(clusterDim = 4, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %c in cuda_threads(0, 1, unit = cuda_cluster) {
        exogpu.for %cta in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
        }
        exogpu.for %cta2 in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
        }
        exogpu.for %cs in cuda_threads(0, 2, unit = cuda_cta_in_cluster_strided(2)) {
        }
        exogpu.for %wc in cuda_threads(0, 32, unit = cuda_warp_in_cluster) {
        }
        exogpu.for %ws in cuda_threads(0, 8, unit = cuda_warp_in_cluster_strided(4)) {
        }
      }
    }
  }
}

exogpu.proc @warp_specialized(%N: size) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "consumer" = (8, 0, 232), "idle" = (3, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.warps "producer" {
        exogpu.warps(0, 1) {
        }
      }
      exogpu.warps "consumer"(0, 4) {
        exogpu.warps(0, 2) {
          exogpu.warps(1, 2) {
          }
        }
      }
      exogpu.warps "consumer"(4, 8) {
      }
    }
  }
}

exogpu.proc @numbered_warps(%N: size) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.warps(0, 4) {
        exogpu.warps(2, 3) {
        }
      }
    }
  }
}

exogpu.proc @conditions(%N: size, %i: index, %b: bool, %c: bool, %A: f32[16] @CudaGmemLinear) requires %N > 0 and %N >= 2 and %i < %N and %i <= 15 and %b or %N == 1 or true {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.if %t < 16 and %b or %t == 0 {
          exogpu.assign %A[%t] = 0.0 : f32[16] @CudaGmemLinear
        }
        exogpu.if %t <= 3 and %t > 0 and %t >= 1 {
        }
        exogpu.if %b and %c or %task * 2 + 1 == %i - 3 {
        }
        exogpu.if true {
        }
        exogpu.if false or true and false {
        }
        exogpu.if %t / 4 == %t mod 4 and -%t < 1 and (%t + 1) * 2 > 0 {
        }
      }
    }
  }
}

exogpu.proc @precisions(%a16: f16[8] @CudaGmemLinear, %abf: bf16[8] @CudaGmemLinear, %a32: f32[8] @CudaGmemLinear, %a64: f64[8] @CudaGmemLinear, %ai8: i8[8] @CudaGmemLinear, %au8: ui8[8] @CudaGmemLinear, %au16: ui16[8] @CudaGmemLinear, %ai32: i32[8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 8) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.assign %a16[%t] = (%a16[%t] + 1.5) * -%a16[%t] : f16[8] @CudaGmemLinear
        exogpu.reduce %abf[%t] += %abf[%t] - %abf[%t] / 2.0 : bf16[8] @CudaGmemLinear
        exogpu.assign %a32[%t] = -(%a32[%t] * %a32[%t]) + %a32[%t] / %a32[%t] - 0.5 : f32[8] @CudaGmemLinear
        exogpu.reduce %a64[%t] += %a64[%t] * 2.0 : f64[8] @CudaGmemLinear
        exogpu.assign %ai8[%t] = %ai8[%t] + 1 : i8[8] @CudaGmemLinear
        exogpu.reduce %au8[%t] += (%au8[%t] - 3) * 2 : ui8[8] @CudaGmemLinear
        exogpu.assign %au16[%t] = %au16[%t] / 7 : ui16[8] @CudaGmemLinear
        exogpu.reduce %ai32[%t] += -%ai32[%t] * (%ai32[%t] - -4) : i32[8] @CudaGmemLinear
        // 2147483648 wraps to INT32_MIN, printed -2147483648: a minus before
        // an integer is part of the literal, so it reads back as itself.
        exogpu.assign %ai32[%t] = (%ai32[%t] + 2147483648) / -(-2147483648) - - -3 : i32[8] @CudaGmemLinear
        %r = exogpu.alloc f32 @CudaRmem
        exogpu.assign %r[] = %a32[%t] : f32 @CudaRmem, f32[8] @CudaGmemLinear
        exogpu.reduce %a32[%t] += %r[] : f32[8] @CudaGmemLinear, f32 @CudaRmem
        exogpu.free %r : f32 @CudaRmem
      }
    }
  }
}

// max, exp2 and log2 are printed function-style, at every precision they
// accept (exp2 and log2 take floating-point values), nested in other
// expressions and taking expressions.
exogpu.proc @functions(%a16: f16[8] @CudaGmemLinear, %abf: bf16[8] @CudaGmemLinear, %a32: f32[8] @CudaGmemLinear, %a64: f64[8] @CudaGmemLinear, %au8: ui8[8] @CudaGmemLinear, %ai32: i32[8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 8) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
        exogpu.assign %a16[%t] = exp2(%a16[%t]) * max(%a16[%t], 0.5) : f16[8] @CudaGmemLinear
        exogpu.reduce %abf[%t] += log2(max(%abf[%t], 1.0)) : bf16[8] @CudaGmemLinear
        exogpu.assign %a32[%t] = exp2((%a32[%t] - max(%a32[%t], -1.0e30)) * 0.18033688) - -log2(2.0) : f32[8] @CudaGmemLinear
        exogpu.assign %a64[%t] = max(max(%a64[%t], 1.0), exp2(-%a64[%t])) : f64[8] @CudaGmemLinear
        exogpu.assign %a64[%t] = -(-%a64[%t]) * -(-2.0) + 1.0e+03 : f64[8] @CudaGmemLinear
        exogpu.assign %au8[%t] = max(%au8[%t] + 1, 7) : ui8[8] @CudaGmemLinear
        exogpu.reduce %ai32[%t] += max(-%ai32[%t], %ai32[%t] * 2) : i32[8] @CudaGmemLinear
      }
    }
  }
}

exogpu.proc @allocs(%N: size) {
  %host = exogpu.alloc f32[16, %N] @DRAM
  %gmem = exogpu.alloc bf16[%N] @CudaGmemLinear
  %const = exogpu.alloc i32[4] @CudaGridConstant
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %smem = exogpu.alloc f32[2, 128, 16] @CudaSmemLinear
      %swz = exogpu.alloc f16[64, 64] @Sm90_SmemSwizzled(128)
      %swz32 = exogpu.alloc f16[64, 16] @Sm90_SmemSwizzled(32)
      %mbar = exogpu.alloc barrier[2] @CudaMbarrier
      %gbar = exogpu.alloc barrier[2, 2] @CudaMbarrier guarded
      %single = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        %rA = exogpu.alloc f16[16, 16] @Sm80_RmemMatrixA(16, 16)
        %rB = exogpu.alloc f16[16, 8] @Sm80_RmemMatrixB(16, 8)
        %rD = exogpu.alloc f32[16, 8] @Sm80_RmemMatrixD(16, 8)
        %rm = exogpu.alloc ui16[4] @CudaRmem
        exogpu.free %rD : f32[16, 8] @Sm80_RmemMatrixD(16, 8)
      }
      exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
        %d = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
        %a = exogpu.alloc bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
      }
      exogpu.free %mbar : barrier[2] @CudaMbarrier
    }
  }
  exogpu.free %const : i32[4] @CudaGridConstant
  exogpu.free %host : f32[16, ?] @DRAM
}

exogpu.instr @tma_load(%n: size, %dst: f32[16, 32] @CudaSmemLinear {out_of_order, init = tma_to_smem_async_qual}, %src: window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster] {
}
exogpu.instr @tma_store_row(%dst: f32[32] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual}, %src: f32[32] @CudaSmemLinear)
    target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup {
}
// An instruction body may write through a tensor-map parameter (a TMA store
// or reduction's sequential meaning); other code may not.
exogpu.instr @tma_reduce_box(%dst: window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32) {out_of_order, init = tma_to_gmem_async_qual}, %src: f32[16, 32] @CudaSmemLinear)
    target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 16) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32), f32[16, 32] @CudaSmemLinear
    }
  }
}
exogpu.instr @host_fill(%n: size, %dst: f32[%n] @DRAM)
    target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear, %h: f32[%n] @DRAM) {
}
exogpu.proc @sync_all(%N: size, %A: f32[%N, 32] @CudaGmemLinear, %H: f32[64] @DRAM) requires %N mod 16 == 0 {
  exogpu.call @callee[%N](%A[:, 0], %H[0:%N]) : f32[?, 32] @CudaGmemLinear, f32[64] @DRAM
  exogpu.call @host_fill[64](%H) : f32[64] @DRAM
  exogpu.for %i in seq(0, %N / 16) {
    %w = exogpu.window %A[%i * 16:%i * 16 + 16, :] @Sm90_tensorMap(128, 16, 32) : f32[?, 32] @CudaGmemLinear
    exogpu.device_function(clusterDim = 2, blockDim = 256) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %smem = exogpu.alloc f32[2, 16, 32] @CudaSmemLinear
        %out = exogpu.alloc f32[128] @CudaSmemLinear
        %a = exogpu.alloc barrier[2] @CudaMbarrier
        %z = exogpu.alloc barrier[4] @CudaMbarrier
        %cg = exogpu.alloc barrier @CudaCommitGroup
        %cs = exogpu.alloc barrier @CudaClusterSync
        %v = exogpu.window %smem[1, 0:16, :] : f32[2, 16, 32] @CudaSmemLinear
        %p = exogpu.window %A[%i, 4:8] : f32[?, 32] @CudaGmemLinear
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.fence(cuda_temporal, cuda_temporal)
        exogpu.fence(Sm80_cp_async, Sm80_generic)
        exogpu.fence(tma_to_smem_async, tma_to_gmem_async)
        exogpu.fence(wgmma_async_smem, wgmma_fence_1)
        exogpu.fence(wgmma_fence_2, wgmma_async)
        exogpu.fence(cuda_async_proxy, cuda_async_proxy_wgmma)
        exogpu.fence(cuda_generic_and_async, cuda_in_order)
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @tma_load[16](%smem[0, :, :], %w) >> %a[0] : f32[2, 16, 32] @CudaSmemLinear, window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32), barrier[2] @CudaMbarrier
          exogpu.call @Sm80_cp_async_f32x4(%v[0, 0:4], %p) : window f32[16, 32] @CudaSmemLinear, window f32[4] @CudaGmemLinear
          exogpu.call @tma_store_row(%A[%i, :], %out[32:64]) >> %cg : f32[?, 32] @CudaGmemLinear, f32[128] @CudaSmemLinear, barrier @CudaCommitGroup
        }
        exogpu.arrive(cuda_in_order, 1) >> %z[%i mod 4] : barrier[4] @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 3) >> %a[0] >> %a[1] : barrier[2] @CudaMbarrier
        exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.arrive(tma_to_gmem_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.arrive(wgmma_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
        exogpu.await(%z[%i mod 4], cuda_in_order, -1) : barrier[4] @CudaMbarrier
        exogpu.await(%a[0], tma_to_smem_async, 0) : barrier[2] @CudaMbarrier
        exogpu.await(%a, cuda_generic_and_async, -2) : barrier[2] @CudaMbarrier
        exogpu.await(%cg, Sm80_cp_async, 0) : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 2) : barrier @CudaCommitGroup
        exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      }
    }
  }
}


// CHECK-LABEL: exogpu.instr @Sm80_cp_async_f32x4(
// CHECK-SAME: %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
// CHECK: target = cuda, unit = cuda_thread, cuda = "cp.async.cg.shared.global [ {dst} ], [ {src} ], 16;" {
// CHECK: exogpu.for %i in seq(0, 4) {
// CHECK: exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
// CHECK-LABEL: exogpu.instr @annotated(
// CHECK-SAME: %n: size, %b: bool, %D: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, dist = [4 * cuda_warp, cuda_threads_strided(2, 4)], init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual, cuda_in_order_rmem_qual], atomic = [cuda_in_order_ram_qual]}, %S: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, ext = [wgmma_async_smem_qual]}, %Z: f32[8] @CudaRmem {init = wgmma_zero_qual})
// CHECK: target = cuda, unit = cuda_warpgroup, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster], cuda = "wgmma {D}, {S};" {
// CHECK-LABEL: exogpu.instr @convergent_operands(
// CHECK-SAME: %D: f32[8] @CudaRmem {convergent}, %S: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual})
// CHECK-LABEL: exogpu.instr @tma_store(
// CHECK-SAME: %dst: f32[128] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]}, %src: f32[128] @Sm90_SmemSwizzled(64))
// CHECK: target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup {
// CHECK-LABEL: exogpu.instr @nc_load(
// CHECK-SAME: %dst: f32[4] @CudaRmem, %src: f32[4] @CudaGmemLinear {ext = [cuda_in_order_ram_qual], kernel_read_only})
// CHECK-LABEL: exogpu.instr @cpu_copy(
// CHECK-SAME: %dst: f32[8] @DRAM {init = cpu_in_order_qual}, %src: f32[8] @DRAM {ext = [cpu_cuda_stream_qual]})
// CHECK: target = cpu, unit = standalone_thread {
// CHECK: exogpu.for %i in seq(0, 8) {
// CHECK: exogpu.assign %dst[%i] = %src[%i] : f32[8] @DRAM, f32[8] @DRAM
// CHECK-LABEL: exogpu.proc @loops_and_units(
// CHECK-SAME: %N: size, %A: f32[%N] @CudaGmemLinear) requires %N mod 512 == 0 {
// CHECK: exogpu.device_function(blockDim = 512) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N / 512) {
// CHECK: exogpu.for %j in cuda_tasks(0, 2) {
// CHECK: exogpu.for %t in cuda_threads(0, 512, unit = cuda_thread) {
// CHECK: exogpu.for %k in seq(0, 4) {
// CHECK: exogpu.assign %A[%task * 512 + %t] = 1.0 : f32[?] @CudaGmemLinear
// CHECK: exogpu.for %q in cuda_threads(0, 64, unit = cuda_quadpair) {
// CHECK: exogpu.for %w in cuda_threads(0, 16, unit = cuda_warp) {
// CHECK: exogpu.for %w4 in cuda_threads(0, 4, unit = 4 * cuda_warp) {
// CHECK: exogpu.for %g in cuda_threads(0, 4, unit = cuda_warpgroup) {
// CHECK: exogpu.for %g2 in cuda_threads(0, 2, unit = 2 * cuda_warpgroup) {
// CHECK: exogpu.for %s in cuda_threads(0, 4, unit = cuda_threads_strided(4, 2)) {
// CHECK: exogpu.for %s2 in cuda_threads(0, 2, unit = 2 * cuda_thread) {
// CHECK: exogpu.for %a in cuda_threads(0, 1, unit = cuda_agnostic_sub_cta) {
// CHECK: exogpu.for %b in cuda_threads(0, 1, unit = cuda_agnostic_intact_cta) {
// CHECK: exogpu.for %c in cuda_threads(0, 1, unit = standalone_thread) {
// CHECK-LABEL: exogpu.proc @cluster_units(
// CHECK-SAME: %N: size) {
// CHECK: exogpu.device_function(clusterDim = 4, blockDim = 256) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N) {
// CHECK: exogpu.for %c in cuda_threads(0, 1, unit = cuda_cluster) {
// CHECK: exogpu.for %cta in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
// CHECK: exogpu.for %cta2 in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
// CHECK: exogpu.for %cs in cuda_threads(0, 2, unit = cuda_cta_in_cluster_strided(2)) {
// CHECK: exogpu.for %wc in cuda_threads(0, 32, unit = cuda_warp_in_cluster) {
// CHECK: exogpu.for %ws in cuda_threads(0, 8, unit = cuda_warp_in_cluster_strided(4)) {
// CHECK-LABEL: exogpu.proc @warp_specialized(
// CHECK-SAME: %N: size) {
// CHECK: exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "consumer" = (8, 0, 232), "idle" = (3, 0, 0)]) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N) {
// CHECK: exogpu.warps "producer" {
// CHECK: exogpu.warps(0, 1) {
// CHECK: exogpu.warps "consumer"(0, 4) {
// CHECK: exogpu.warps(0, 2) {
// CHECK: exogpu.warps(1, 2) {
// CHECK: exogpu.warps "consumer"(4, 8) {
// CHECK-LABEL: exogpu.proc @numbered_warps(
// CHECK-SAME: %N: size) {
// CHECK: exogpu.device_function(blockDim = 256) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N) {
// CHECK: exogpu.warps(0, 4) {
// CHECK: exogpu.warps(2, 3) {
// CHECK-LABEL: exogpu.proc @conditions(
// CHECK-SAME: %N: size, %i: index, %b: bool, %c: bool, %A: f32[16] @CudaGmemLinear) requires %N > 0 and %N >= 2 and %i < %N and %i <= 15 and %b or %N == 1 or true {
// CHECK: exogpu.device_function(blockDim = 32) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N) {
// CHECK: exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
// CHECK: exogpu.if %t < 16 and %b or %t == 0 {
// CHECK: exogpu.assign %A[%t] = 0.0 : f32[16] @CudaGmemLinear
// CHECK: exogpu.if %t <= 3 and %t > 0 and %t >= 1 {
// CHECK: exogpu.if %b and %c or %task * 2 + 1 == %i - 3 {
// CHECK: exogpu.if true {
// CHECK: exogpu.if false or true and false {
// CHECK: exogpu.if %t / 4 == %t mod 4 and -%t < 1 and (%t + 1) * 2 > 0 {
// CHECK-LABEL: exogpu.proc @precisions(
// CHECK-SAME: %a16: f16[8] @CudaGmemLinear, %abf: bf16[8] @CudaGmemLinear, %a32: f32[8] @CudaGmemLinear, %a64: f64[8] @CudaGmemLinear, %ai8: i8[8] @CudaGmemLinear, %au8: ui8[8] @CudaGmemLinear, %au16: ui16[8] @CudaGmemLinear, %ai32: i32[8] @CudaGmemLinear) {
// CHECK: exogpu.device_function(blockDim = 8) {
// CHECK: exogpu.for %task in cuda_tasks(0, 1) {
// CHECK: exogpu.for %t in cuda_threads(0, 8, unit = cuda_thread) {
// CHECK: exogpu.assign %a16[%t] = (%a16[%t] + 1.5) * -%a16[%t] : f16[8] @CudaGmemLinear
// CHECK: exogpu.reduce %abf[%t] += %abf[%t] - %abf[%t] / 2.0 : bf16[8] @CudaGmemLinear
// CHECK: exogpu.assign %a32[%t] = -(%a32[%t] * %a32[%t]) + %a32[%t] / %a32[%t] - 0.5 : f32[8] @CudaGmemLinear
// CHECK: exogpu.reduce %a64[%t] += %a64[%t] * 2.0 : f64[8] @CudaGmemLinear
// CHECK: exogpu.assign %ai8[%t] = %ai8[%t] + 1 : i8[8] @CudaGmemLinear
// CHECK: exogpu.reduce %au8[%t] += (%au8[%t] - 3) * 2 : ui8[8] @CudaGmemLinear
// CHECK: exogpu.assign %au16[%t] = %au16[%t] / 7 : ui16[8] @CudaGmemLinear
// CHECK: exogpu.reduce %ai32[%t] += -%ai32[%t] * (%ai32[%t] - -4) : i32[8] @CudaGmemLinear
// CHECK: exogpu.assign %ai32[%t] = (%ai32[%t] + -2147483648) / -(-2147483648) - -(-3) : i32[8] @CudaGmemLinear
// CHECK: %r = exogpu.alloc f32 @CudaRmem
// CHECK: exogpu.assign %r[] = %a32[%t] : f32 @CudaRmem, f32[8] @CudaGmemLinear
// CHECK: exogpu.reduce %a32[%t] += %r[] : f32[8] @CudaGmemLinear, f32 @CudaRmem
// CHECK: exogpu.free %r : f32 @CudaRmem
// CHECK-LABEL: exogpu.proc @functions(
// CHECK: exogpu.assign %a16[%t] = exp2(%a16[%t]) * max(%a16[%t], 0.5) : f16[8] @CudaGmemLinear
// CHECK: exogpu.reduce %abf[%t] += log2(max(%abf[%t], 1.0)) : bf16[8] @CudaGmemLinear
// CHECK: exogpu.assign %a32[%t] = exp2((%a32[%t] - max(%a32[%t], -1.0000000150474662e+30)) * 0.1803368777036667) - -log2(2.0) : f32[8] @CudaGmemLinear
// CHECK: exogpu.assign %a64[%t] = max(max(%a64[%t], 1.0), exp2(-%a64[%t])) : f64[8] @CudaGmemLinear
// A minus is never glued to its operand's; a literal keeps a '.' before its
// exponent (MLIR's float syntax).
// CHECK: exogpu.assign %a64[%t] = -(-%a64[%t]) * -(-2.0) + 1.0e+03 : f64[8] @CudaGmemLinear
// CHECK: exogpu.assign %au8[%t] = max(%au8[%t] + 1, 7) : ui8[8] @CudaGmemLinear
// CHECK: exogpu.reduce %ai32[%t] += max(-%ai32[%t], %ai32[%t] * 2) : i32[8] @CudaGmemLinear
// CHECK-LABEL: exogpu.proc @allocs(
// CHECK-SAME: %N: size) {
// CHECK: %host = exogpu.alloc f32[16, %N] @DRAM
// CHECK: %gmem = exogpu.alloc bf16[%N] @CudaGmemLinear
// CHECK: %const = exogpu.alloc i32[4] @CudaGridConstant
// CHECK: exogpu.device_function(clusterDim = 2, blockDim = 128) {
// CHECK: exogpu.for %task in cuda_tasks(0, %N) {
// CHECK: %smem = exogpu.alloc f32[2, 128, 16] @CudaSmemLinear
// CHECK: %swz = exogpu.alloc f16[64, 64] @Sm90_SmemSwizzled(128)
// CHECK: %swz32 = exogpu.alloc f16[64, 16] @Sm90_SmemSwizzled(32)
// CHECK: %mbar = exogpu.alloc barrier[2] @CudaMbarrier
// CHECK: %gbar = exogpu.alloc barrier[2, 2] @CudaMbarrier guarded
// CHECK: %single = exogpu.alloc barrier @CudaMbarrier
// CHECK: %cg = exogpu.alloc barrier @CudaCommitGroup
// CHECK: %cs = exogpu.alloc barrier @CudaClusterSync
// CHECK: exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
// CHECK: %rA = exogpu.alloc f16[16, 16] @Sm80_RmemMatrixA(16, 16)
// CHECK: %rB = exogpu.alloc f16[16, 8] @Sm80_RmemMatrixB(16, 8)
// CHECK: %rD = exogpu.alloc f32[16, 8] @Sm80_RmemMatrixD(16, 8)
// CHECK: %rm = exogpu.alloc ui16[4] @CudaRmem
// CHECK: exogpu.free %rD : f32[16, 8] @Sm80_RmemMatrixD(16, 8)
// CHECK: exogpu.for %wg in cuda_threads(0, 1, unit = cuda_warpgroup) {
// CHECK: %d = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
// CHECK: %a = exogpu.alloc bf16[4, 64, 16] @Sm90_RmemMatrixA(64)
// CHECK: exogpu.free %mbar : barrier[2] @CudaMbarrier
// CHECK: exogpu.free %const : i32[4] @CudaGridConstant
// CHECK: exogpu.free %host : f32[16, ?] @DRAM
// CHECK-LABEL: exogpu.instr @tma_load(
// CHECK-SAME: %n: size, %dst: f32[16, 32] @CudaSmemLinear {out_of_order, init = tma_to_smem_async_qual}, %src: window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32))
// CHECK: target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster] {
// CHECK-LABEL: exogpu.instr @tma_store_row(
// CHECK-SAME: %dst: f32[32] @CudaGmemLinear {out_of_order, init = tma_to_gmem_async_qual}, %src: f32[32] @CudaSmemLinear)
// CHECK: target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup {
// CHECK-LABEL: exogpu.instr @tma_reduce_box(
// CHECK: exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32), f32[16, 32] @CudaSmemLinear
// CHECK-LABEL: exogpu.instr @host_fill(
// CHECK-SAME: %n: size, %dst: f32[%n] @DRAM)
// CHECK: target = cpu, unit = standalone_thread {
// CHECK-LABEL: exogpu.proc @callee(
// CHECK-SAME: %n: size, %x: f32[%n] @CudaGmemLinear, %h: f32[%n] @DRAM) {
// CHECK-LABEL: exogpu.proc @sync_all(
// CHECK-SAME: %N: size, %A: f32[%N, 32] @CudaGmemLinear, %H: f32[64] @DRAM) requires %N mod 16 == 0 {
// CHECK: exogpu.call @callee[%N](%A[:, 0], %H[0:%N]) : f32[?, 32] @CudaGmemLinear, f32[64] @DRAM
// CHECK: exogpu.call @host_fill[64](%H) : f32[64] @DRAM
// CHECK: exogpu.for %i in seq(0, %N / 16) {
// CHECK: %w = exogpu.window %A[%i * 16:%i * 16 + 16, :] @Sm90_tensorMap(128, 16, 32) : f32[?, 32] @CudaGmemLinear
// CHECK: exogpu.device_function(clusterDim = 2, blockDim = 256) {
// CHECK: exogpu.for %task in cuda_tasks(0, 1) {
// CHECK: %smem = exogpu.alloc f32[2, 16, 32] @CudaSmemLinear
// CHECK: %out = exogpu.alloc f32[128] @CudaSmemLinear
// CHECK: %a = exogpu.alloc barrier[2] @CudaMbarrier
// CHECK: %z = exogpu.alloc barrier[4] @CudaMbarrier
// CHECK: %cg = exogpu.alloc barrier @CudaCommitGroup
// CHECK: %cs = exogpu.alloc barrier @CudaClusterSync
// CHECK: %v = exogpu.window %smem[1, 0:16, :] : f32[2, 16, 32] @CudaSmemLinear
// CHECK: %p = exogpu.window %A[%i, 4:8] : f32[?, 32] @CudaGmemLinear
// CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
// CHECK: exogpu.fence(cuda_temporal, cuda_temporal)
// CHECK: exogpu.fence(Sm80_cp_async, Sm80_generic)
// CHECK: exogpu.fence(tma_to_smem_async, tma_to_gmem_async)
// CHECK: exogpu.fence(wgmma_async_smem, wgmma_fence_1)
// CHECK: exogpu.fence(wgmma_fence_2, wgmma_async)
// CHECK: exogpu.fence(cuda_async_proxy, cuda_async_proxy_wgmma)
// CHECK: exogpu.fence(cuda_generic_and_async, cuda_in_order)
// CHECK: exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
// CHECK: exogpu.call @tma_load[16](%smem[0, :, :], %w) >> %a[0] : f32[2, 16, 32] @CudaSmemLinear, window f32[16, 32] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32), barrier[2] @CudaMbarrier
// CHECK: exogpu.call @Sm80_cp_async_f32x4(%v[0, 0:4], %p) : window f32[16, 32] @CudaSmemLinear, window f32[4] @CudaGmemLinear
// CHECK: exogpu.call @tma_store_row(%A[%i, :], %out[32:64]) >> %cg[] : f32[?, 32] @CudaGmemLinear, f32[128] @CudaSmemLinear, barrier @CudaCommitGroup
// CHECK: exogpu.arrive(cuda_in_order, 1) >> %z[%i mod 4] : barrier[4] @CudaMbarrier
// CHECK: exogpu.arrive(tma_to_smem_async, 3) >> %a[0] >> %a[1] : barrier[2] @CudaMbarrier
// CHECK: exogpu.arrive(Sm80_cp_async, 1) >> %cg[] : barrier @CudaCommitGroup
// CHECK: exogpu.arrive(tma_to_gmem_async, 1) >> %cg[] : barrier @CudaCommitGroup
// CHECK: exogpu.arrive(wgmma_async, 1) >> %cg[] : barrier @CudaCommitGroup
// CHECK: exogpu.arrive(cuda_in_order, 1) >> %cs[] : barrier @CudaClusterSync
// CHECK: exogpu.await(%z[%i mod 4], cuda_in_order, -1) : barrier[4] @CudaMbarrier
// CHECK: exogpu.await(%a[0], tma_to_smem_async, 0) : barrier[2] @CudaMbarrier
// CHECK: exogpu.await(%a, cuda_generic_and_async, -2) : barrier[2] @CudaMbarrier
// CHECK: exogpu.await(%cg[], Sm80_cp_async, 0) : barrier @CudaCommitGroup
// CHECK: exogpu.await(%cg[], cuda_in_order, 2) : barrier @CudaCommitGroup
// CHECK: exogpu.await(%cs[], cuda_in_order, 0) : barrier @CudaClusterSync

// Allocations at the hardware limits verify (the twins of the limit errors
// in invalid.mlir: 227 KiB of shared memory, 256 KiB of registers and
// 227 KiB / 8 mbarriers in each CTA of a cluster of 16).
// CHECK-LABEL: exogpu.proc @at_the_limits(
// CHECK: exogpu.alloc f32[929792] @CudaSmemLinear
// CHECK: exogpu.alloc f32[1048576] @CudaRmem
// CHECK: exogpu.alloc barrier[464896] @CudaMbarrier
exogpu.proc @at_the_limits() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[929792] @CudaSmemLinear
      %r = exogpu.alloc f32[1048576] @CudaRmem
      %b = exogpu.alloc barrier[464896] @CudaMbarrier
    }
  }
}

// Dimension splits (exogpu.split): of a parameter with a dynamic extent, of a
// window, of a static host buffer and of shared memory; a window and a
// tensor map taken of a split.
// CHECK-LABEL: exogpu.proc @splits(
// CHECK: %A_chunks = exogpu.split %A dim 1 by 64 : f32[?, ?] @CudaGmemLinear
// CHECK: %rows = exogpu.window %A_chunks[0:16, :, :] : window f32[?, ?, 64] @CudaGmemLinear
// CHECK: %A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 16, 1, 32) : window f32[?, ?, 64] @CudaGmemLinear
// CHECK: %row_chunks = exogpu.split %row dim 0 by 8 : window f32[?] @CudaGmemLinear
// CHECK: %H_rows = exogpu.split %H dim 0 by 4 : f32[16, 64] @DRAM
// CHECK: %pairs = exogpu.split %s dim 0 by 2 : f32[128] @CudaSmemLinear
exogpu.proc @splits(%M: size, %K: size, %A: f32[%M, %K] @CudaGmemLinear, %H: f32[16, 64] @DRAM)
    requires %K mod 64 == 0 {
  %A_chunks = exogpu.split %A dim 1 by 64 : f32[?, ?] @CudaGmemLinear
  %rows = exogpu.window %A_chunks[0:16, :, :] : window f32[?, ?, 64] @CudaGmemLinear
  %A_map = exogpu.window %A_chunks[:, :, :] @Sm90_tensorMap(128, 16, 1, 32) : window f32[?, ?, 64] @CudaGmemLinear
  %row = exogpu.window %A[0, :] : f32[?, ?] @CudaGmemLinear
  %row_chunks = exogpu.split %row dim 0 by 8 : window f32[?] @CudaGmemLinear
  %H_rows = exogpu.split %H dim 0 by 4 : f32[16, 64] @DRAM
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[128] @CudaSmemLinear
      %pairs = exogpu.split %s dim 0 by 2 : f32[128] @CudaSmemLinear
    }
  }
}
