// RUN: exogpu-translate --to-cuda --split-input-file --verify-diagnostics %s

// Every diagnostic of the CUDA translation (lib/Target/CUDA): programs the
// verifiers and the analyses accept but the translation cannot lower.

// A register buffer's shard sizes registers: its extents are constants.
exogpu.proc @dynamic_registers(%N: size, %g: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @below {{CUDA translation: the shard of a CudaRmem buffer must have constant extents}}
        %r = exogpu.alloc f32[%N] @CudaRmem
        exogpu.assign %r[0] = 1.0 : f32[?] @CudaRmem
      }
    }
  }
}

// -----

// Shared memory has static offsets: its extents are constants.
exogpu.proc @dynamic_shared(%N: size, %g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{shared memory needs constant extents}}
      %s = exogpu.alloc f32[%N] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.assign %s[0] = 1.0 : f32[?] @CudaSmemLinear
      }
    }
  }
}

// -----

// Four stages of 128 x 128 floats (64 KiB each): 262144 bytes plus 128 of
// alignment exceed the 227 KiB of a CTA (the verifier bounds each
// allocation by a whole cluster's shared memory; the translation knows the
// CTA's layout). The examples are the accepted twins: the tf32 GEMM's CTA
// takes 197632 bytes and 1024 of alignment (examples/gemm_tf32_sm90a.mlir).
exogpu.proc @too_much_shared(%g: f32[4] @CudaGmemLinear) {
  // expected-error @below {{the kernel needs 262272 bytes of shared memory per CTA (its shared allocations and mbarrier rings, aligned), more than the 232448 bytes (227 KiB) a CTA can have}}
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[4, 128, 128] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.assign %s[0, 0, 0] = 1.0 : f32[4, 128, 128] @CudaSmemLinear
      }
    }
  }
}

// -----

// A register-matrix element lives in some other thread's registers.
exogpu.proc @matrix_element(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %d = exogpu.alloc f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @below {{elements of Sm90_RmemMatrixD(64, 64) tiles are held in the registers of many threads and can only be accessed through instructions}}
        exogpu.assign %g[0] = %d[0, 0] : f32[64] @CudaGmemLinear, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
    }
  }
}

// -----

// TMA reads the innermost dimension contiguously.
exogpu.proc @strided_map(%A: f32[64, 64] @CudaGmemLinear) {
  // expected-error @below {{TMA needs the innermost dimension of the window to be the buffer's contiguous one}}
  %m = exogpu.window %A[:, 0] @Sm90_tensorMap(128, 64) : f32[64, 64] @CudaGmemLinear
}

// -----

// A swizzled box row fits the swizzle span.
exogpu.proc @wide_box(%A: f32[64, 64] @CudaGmemLinear) {
  // expected-error @below {{the box's inner extent (128 bytes) exceeds the 64-byte swizzle span}}
  %m = exogpu.window %A[:, :] @Sm90_tensorMap(64, 64, 32) : f32[64, 64] @CudaGmemLinear
}

// -----

// A proc parameter is a dense buffer.
exogpu.proc @callee(%N: size, %g: f32[%N, 2] @CudaGmemLinear) {
}
exogpu.proc @strided_argument(%N: size, %g: f32[%N, 4] @CudaGmemLinear) {
  // expected-error @below {{argument 0 is not a contiguous block of its buffer, which a proc parameter needs}}
  exogpu.call @callee[%N](%g[:, 0:2]) : f32[?, 4] @CudaGmemLinear
}

// -----

// setmaxnreg sets the registers of whole warpgroups.
exogpu.proc @mixed_budgets(%g: f32[64] @CudaGmemLinear) {
  // expected-error @below {{warp groups "a" and "b" share a warpgroup but ask for different register counts; setmaxnreg applies to whole warpgroups}}
  exogpu.device_function(warps = ["a" = (2, 40, 0), "b" = (2, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
    }
  }
}

// -----

// With setmaxnreg, the warp groups fill whole warpgroups.
exogpu.proc @partial_warpgroup(%g: f32[64] @CudaGmemLinear) {
  // expected-error @below {{with setmaxnreg, the warp config must fill whole warpgroups (4 warps each)}}
  exogpu.device_function(warps = ["a" = (4, 40, 0), "b" = (2, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
    }
  }
}

// -----

// The task generator enumerates a rectangular nest.
exogpu.proc @triangular_tasks(%N: size, %g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %a in cuda_tasks(0, %N) {
      // expected-error @below {{the bounds of a cuda_tasks loop must not depend on an enclosing cuda_tasks iterator}}
      exogpu.for %b in cuda_tasks(0, %a) {
      }
    }
  }
}

// -----

// Each thread of an mbarrier arrive is one arrival.
exogpu.proc @arrive_count(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier @CudaMbarrier
      // expected-error @below {{mbarrier arrives take N = 1 (one arrival per thread)}}
      exogpu.arrive(cuda_in_order, 2) >> %bar : barrier @CudaMbarrier
      exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
    }
  }
}

// -----

// An mbarrier counts one collective's hardware arrives per phase (here one
// per warp: the barrier's second arrive is by one warp, so the first, by
// two warps, arrives per warp too).
exogpu.proc @arrive_sizes(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        // expected-error @below {{every arrive on an mbarrier must come from collectives of the same size: this one brings 1 arrival(s), an earlier one 2}}
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
    }
  }
}

// -----

// A CTA has 15 named barriers.
exogpu.proc @named_barriers(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 1024) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %p in cuda_threads(0, 16, unit = 2 * cuda_warp) {
        // expected-error @below {{the kernel needs more than the 15 named barriers a CTA has}}
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// -----

// Only the cluster barrier spans CTAs.
exogpu.proc @two_of_four_ctas(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 4, blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %p in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
        // expected-error @below {{no hardware barrier synchronizes this Fence: its collective [0, 63] spans CTAs but is not the whole cluster}}
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// -----

// A Fence cannot wait for TMA loads.
exogpu.proc @fence_on_tma(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{TMA loads complete through the mbarrier they arrive at: await that barrier instead of a Fence on tma_to_smem_async}}
      exogpu.fence(tma_to_smem_async, cuda_in_order)
    }
  }
}

// -----

// A multicast arrive reaches the same element in other CTAs.
exogpu.proc @multicast_within_cta(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        // expected-error @below {{a multicast barrier window may only span the CTAs of the cluster}}
        exogpu.arrive(cuda_in_order, 1) >> %bar[%wg] >> %bar[:] : barrier[2] @CudaMbarrier
        exogpu.await(%bar[%wg], cuda_in_order, 0) : barrier[2] @CudaMbarrier
      }
    }
  }
}

// -----

// ... of one barrier variable.
exogpu.proc @multicast_two_variables(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %a = exogpu.alloc barrier @CudaMbarrier
      %b = exogpu.alloc barrier @CudaMbarrier
      // expected-error @below {{a multicast arrive names one barrier variable}}
      exogpu.arrive(cuda_in_order, 1) >> %a >> %b : barrier @CudaMbarrier, barrier @CudaMbarrier
      exogpu.await(%a, cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.await(%b, cuda_in_order, 0) : barrier @CudaMbarrier
    }
  }
}

// -----

// A commit-group await waits for groups some arrive commits.
exogpu.proc @nothing_committed(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        // expected-error @below {{no arrive commits to this commit group}}
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
    }
  }
}

// -----

// N >= 0 pairs an mbarrier await with the awaiting threads' own arrives.
exogpu.proc @foreign_arrive(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(warps = ["p" = (1, 0, 0), "c" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "p" {
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "c" {
        // expected-error @below {{an mbarrier await with N >= 0 pairs with the threads' own arrives; use N < 0 (ring lag ~N) to wait for other threads' arrives}}
        exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
      }
    }
  }
}

// -----

// A call that completes on an mbarrier the arrive expects the bytes of runs
// unconditionally.
exogpu.import "sm90a"
exogpu.proc @conditional_tma(%A: f32[128, 32] @CudaGmemLinear) {
  %map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[128, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %smem = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.if %task == 0 {
          // expected-error @below {{a call completing on an mbarrier may only be nested in seq loops with constant trip counts between it and the arrive that expects its bytes}}
          exogpu.call @Sm90_tma_load_128x32_f32(%smem, %map) >> %full : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        }
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
    }
  }
}

// -----

// {bar} names an mbarrier slot.
exogpu.instr @committed_copy(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]}, %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaCommitGroup, cuda = "copy({dst}, {src}, {bar});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}
exogpu.proc @bar_of_commit_group(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[4] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        // expected-error @below {{{bar} needs a call that completes on a CudaMbarrier (`>> z`)}}
        exogpu.call @committed_copy(%s, %g) >> %cg : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear, barrier @CudaCommitGroup
        exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
    }
  }
}

// -----

// An instruction a kernel calls has a CUDA template.
exogpu.instr @no_template(%dst: f32[4] @CudaGmemLinear) target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = 0.0 : f32[4] @CudaGmemLinear
  }
}
exogpu.proc @untranslatable(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // expected-error @below {{instruction no_template has no CUDA template}}
        exogpu.call @no_template(%g) : f32[4] @CudaGmemLinear
      }
    }
  }
}

// -----

// {p.regs} makes one 32-bit (or f64) asm operand per element.
exogpu.instr @bf16_operands(%r: bf16[4] @CudaRmem) target = cuda, unit = cuda_thread, cuda = "asm volatile(\"\" : {r.regs});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %r[%i] = 0.0 : bf16[4] @CudaRmem
  }
}
exogpu.proc @packed_registers(%g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        %r = exogpu.alloc bf16[4] @CudaRmem
        // expected-error @below {{{r.regs} needs 32-bit or f64 elements}}
        exogpu.call @bf16_operands(%r) : bf16[4] @CudaRmem
      }
    }
  }
}

// -----

// A kernel computes its control values in int: a constant one past 32 bits
// cannot be computed (values from the host are checked by the host function
// at the call, host-limits.test).
exogpu.proc @beyond_int(%g: f32[8] @CudaGmemLinear) {
  // expected-error @below {{CUDA translation: a control value of the kernel can reach 3000000000, past the 32-bit int its kernel computes in}}
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.for %i in seq(0, 3000000000) {
          exogpu.if %i == 7 {
            exogpu.assign %g[7] = 1.0 : f32[8] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// -----

// A kernel_read_only parameter (the non-coherent ld.global.nc loads of
// stdlib/sm80.mlir) names a buffer the same kernel writes: the sync check
// accepts the program (the fence orders the write before the read), but the
// non-coherent path may return the stale value, and nvcc may hoist the
// clobber-less asm above the __syncthreads(). The accepted twins are in
// kernel-read-only.mlir.
exogpu.instr @ld_nc_f32x4(%dst: f32[4] @CudaRmem, %src: f32[4] @CudaGmemLinear {kernel_read_only}) target = cuda, unit = cuda_thread, cuda = "asm(\22ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\22 : \22=f\22({dst.0}), \22=f\22({dst.1}), \22=f\22({dst.2}), \22=f\22({dst.3}) : \22l\22({src}));" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}
exogpu.proc @writes_what_it_reads_nc(%x: f32[128] @CudaGmemLinear, %y: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %v = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.for %e in seq(0, 4) {
          // expected-note @below {{the kernel writes it here}}
          exogpu.assign %x[%t * 4 + %e] = 1.0 : f32[128] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @below {{CUDA translation: @ld_nc_f32x4 reads its parameter 'src' through the non-coherent path (kernel_read_only), which needs 'x' read-only in the whole kernel, but the kernel writes it}}
        exogpu.call @ld_nc_f32x4(%v[%t, :], %x[(31 - %t) * 4:(31 - %t) * 4 + 4]) : f32[32, 4] @CudaRmem, f32[128] @CudaGmemLinear
        exogpu.for %e in seq(0, 4) {
          exogpu.assign %y[%t * 4 + %e] = %v[%t, %e] : f32[128] @CudaGmemLinear, f32[32, 4] @CudaRmem
        }
      }
    }
  }
}

// -----

// The write may come after the load, and through an instruction: other
// CTAs' writes may reach the non-coherent cache at any time in the kernel.
exogpu.instr @ld_nc_f32x4(%dst: f32[4] @CudaRmem, %src: f32[4] @CudaGmemLinear {kernel_read_only}) target = cuda, unit = cuda_thread, cuda = "asm(\22ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\22 : \22=f\22({dst.0}), \22=f\22({dst.1}), \22=f\22({dst.2}), \22=f\22({dst.3}) : \22l\22({src}));" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}
exogpu.instr @st_f32x4(%dst: f32[4] @CudaGmemLinear, %src: f32[4] @CudaRmem) target = cuda, unit = cuda_thread, cuda = "asm volatile(\22st.global.v4.f32 [%0], {%1, %2, %3, %4};\22 :: \22l\22({dst}), \22f\22({src.0}), \22f\22({src.1}), \22f\22({src.2}), \22f\22({src.3}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaGmemLinear, f32[4] @CudaRmem
  }
}
exogpu.proc @writes_later_by_instruction(%x: f32[4, 128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 4) {
      %v = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @below {{@ld_nc_f32x4 reads its parameter 'src' through the non-coherent path (kernel_read_only), which needs 'x' read-only}}
        exogpu.call @ld_nc_f32x4(%v[%t, :], %x[%task, %t * 4:%t * 4 + 4]) : f32[32, 4] @CudaRmem, f32[4, 128] @CudaGmemLinear
        // expected-note @below {{the kernel writes it here}}
        exogpu.call @st_f32x4(%x[%task, %t * 4:%t * 4 + 4], %v[%t, :]) : f32[4, 128] @CudaGmemLinear, f32[32, 4] @CudaRmem
      }
    }
  }
}
