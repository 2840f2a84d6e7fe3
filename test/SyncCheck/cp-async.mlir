// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// sm_80 cp.async (stdlib/sm80.mlir @Sm80_cp_async_f32x4: both parameters
// out_of_order, init/ext Sm80_cp_async_qual). A cp.async access is recorded
// unordered on Sm80_cp_async_qual (Fig. 19 with T_ooo), so only a
// synchronization whose first timeline holds Sm80_cp_async_qual (Fig. 16:
// Sm80_cp_async, Sm80_generic, cuda_generic_and_async) completes it; the
// guide's seeds/000 Fig. "Synchronizing mixed synchronous and asynchronous
// instructions" and seeds/004 "cp.async". Each bug is followed by its
// corrected twin. Two tasks of 64 threads; each thread copies 16 bytes.

// A Fence whose first timeline is cuda_in_order (__syncthreads alone, no
// cp.async.wait_all): the transitive cuda_in_order fence witnesses only
// records some thread sees on cuda_in_order_{rmem,ram}_qual, and the
// cp.async write is seen (unordered) on Sm80_cp_async_qual only. Thread 0
// then reads thread 63's copy.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_fence_in_order(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[252]: this read is not ordered after an earlier write by thread 63 on Sm80_cp_async_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Fence(Sm80_generic, cuda_in_order) (cp.async.wait_all;
// __syncthreads): Sm80_generic holds Sm80_cp_async_qual in full, so the
// issuing thread witnesses its copy and every CTA thread is augmented.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_fence_generic(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// An mbarrier arrive with cuda_in_order instead of Sm80_cp_async
// (a plain mbarrier.arrive where cp.async.mbarrier.arrive is needed): the
// transitive cuda_in_order Arrive witnesses only records some arriving
// thread sees on cuda_in_order_{rmem,ram}_qual, so the copies are not tied
// to the arrive and the paired Await does not order them.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_mbarrier_in_order(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
      }
      exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[252]: this read is not ordered after an earlier write by thread 63 on Sm80_cp_async_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Arrive(Sm80_cp_async) >> bar (cp.async.mbarrier.arrive); the
// Await(bar, cuda_in_order, 0) then orders the copies for the whole CTA.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_mbarrier_cp_async(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
      }
      exogpu.arrive(Sm80_cp_async, 1) >> %bar : barrier @CudaMbarrier
      exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Right wait, wrong scope: each thread waits for its own commit group
// (cp.async.wait_group 0 is per thread, seeds/004 "commit_group"), which
// orders the copy for the issuing thread only; the CTA then reads other
// threads' copies without a CTA-wide barrier.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_wait_thread_scope(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        // expected-note @below {{the earlier write is here}}
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
        exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[252]: this read is not ordered after an earlier write by thread 63 on Sm80_cp_async_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the per-thread wait followed by __syncthreads: after the await the
// issuing thread sees its copy fully on cuda_in_order_ram_qual, so the
// transitive CTA Fence(cuda_in_order, cuda_in_order) witnesses it.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_wait_then_fence(%g: f32[512] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        %cg = exogpu.alloc barrier @CudaCommitGroup
        exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 256 + %tid * 4:%task * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[512] @CudaGmemLinear
        exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAW between two cp.async of one thread to the same destination: cp.async
// instructions are not ordered with each other, not even in one thread
// (seeds/004 "cp.async"). The second copy's check_mutates
// (temporally_ordered on Sm80_cp_async_qual) finds the first copy
// unordered.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_waw(%g: f32[1024] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %k in seq(0, 2) {
        exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
          // expected-note @below {{the earlier write is here}}
          // expected-error @below {{WAW hazard on @buf[0]: this write is not ordered after an earlier write by thread 0 on Sm80_cp_async_qual; thread 0}}
          // expected-note @below {{missing synchronization}}
          exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 512 + %k * 256 + %tid * 4:%task * 512 + %k * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[1024] @CudaGmemLinear
        }
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: each iteration waits for its copies (Fence(Sm80_cp_async,
// Sm80_generic): cp.async.wait_all) before the next one overwrites them.

// From stdlib/sm80.mlir.
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.proc @cp_async_waw_waited(%g: f32[1024] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %k in seq(0, 2) {
        exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.call @Sm80_cp_async_f32x4(%buf[%tid * 4:%tid * 4 + 4], %g[%task * 512 + %k * 256 + %tid * 4:%task * 512 + %k * 256 + %tid * 4 + 4]) : f32[256] @CudaSmemLinear, f32[1024] @CudaGmemLinear
        }
        exogpu.fence(Sm80_cp_async, Sm80_generic)
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[(63 - %tid) * 4] : f32[128] @CudaGmemLinear, f32[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
