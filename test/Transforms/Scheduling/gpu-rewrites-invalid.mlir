// RUN: exogpu-opt %s --transform-interpreter -split-input-file -verify-diagnostics

// set_loop_mode keeps the IR valid: CPU scope has only seq loops.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mode_cpu(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{set_loop_mode would make the IR invalid}}
    // expected-note @below {{'exogpu.for' op only seq loops are allowed at CPU scope}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_loop_mode %i "cuda_threads" unit "cuda_thread" : !transform.any_op
    transform.yield
  }
}

// -----

// set_loop_mode names a loop mode.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mode_name(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'parallel' is not a loop mode (seq, cuda_tasks or cuda_threads)}}
    transform.exogpu.set_loop_mode %i "parallel" : !transform.any_op
    transform.yield
  }
}

// -----

// set_loop_mode names a collective unit.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mode_unit(%N: size, %x: f32[%N] @DRAM) {
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'cuda_bunch' is not a collective unit (Fig. 11)}}
    transform.exogpu.set_loop_mode %i "cuda_threads" unit "cuda_bunch" : !transform.any_op
    transform.yield
  }
}

// -----

// wrap_device_function needs as many perfectly nested loops as tasks.
module attributes {transform.with_named_sequence} {
  exogpu.proc @wrap_short(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{wrap_device_function: the loop nest has fewer than 2 perfectly nested loops to become cuda_tasks loops}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.wrap_device_function %i tasks 2 {blockDim = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_device_function keeps the IR valid: CUDA code cannot access host memory.
module attributes {transform.with_named_sequence} {
  exogpu.proc @wrap_host(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{wrap_device_function would make the IR invalid}}
    exogpu.for %i in seq(0, %N) {
      // expected-note @below {{'exogpu.assign' op CUDA code cannot access host memory (DRAM)}}
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.wrap_device_function %i tasks 1 {blockDim = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_device_function does not nest kernels.
module attributes {transform.with_named_sequence} {
  exogpu.proc @wrap_nested(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        // expected-error @below {{wrap_device_function: the loop is already in a device function}}
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %k = transform.exogpu.wrap_device_function %t tasks 1 {blockDim = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_device_function takes blockDim or a warp config.
module attributes {transform.with_named_sequence} {

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{needs either blockDim or a warp config (warps)}}
    %d = transform.exogpu.wrap_device_function %k tasks 1 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_warps takes a name or a range.
module attributes {transform.with_named_sequence} {

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{needs a warp group name or a range}}
    %w = transform.exogpu.wrap_warps %k : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_warps keeps the IR valid: the named group exists.
module attributes {transform.with_named_sequence} {
  exogpu.proc @warps_unknown(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        // expected-error @below {{wrap_warps would make the IR invalid}}
        // expected-note-re @below {{'exogpu.warps' op {{.*}}}}
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.wrap_warps %t name "producer" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert_fence keeps the IR valid: no synchronization at CPU scope.
module attributes {transform.with_named_sequence} {
  exogpu.proc @fence_cpu(%N: size, %x: f32[%N] @DRAM) {
    // expected-error @below {{insert_fence would make the IR invalid}}
    // expected-note @below {{'exogpu.fence' op synchronization statements are only allowed inside the cuda_tasks nest of a device_function}}
    exogpu.for %i in seq(0, %N) {
      exogpu.assign %x[%i] = 1.0 : f32[?] @DRAM
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.insert_fence %i at "before" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert ops take a position.
module attributes {transform.with_named_sequence} {
  exogpu.proc @position(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{position must be "before", "after", "start" or "end"}}
    %f = transform.exogpu.insert_fence %t at "middle" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert ops name sync timelines of Fig. 16.
module attributes {transform.with_named_sequence} {
  exogpu.proc @timeline(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'cuda_sometimes' is not a sync timeline (Fig. 16)}}
    %f = transform.exogpu.insert_fence %t at "before" "cuda_sometimes", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert at the start of a statement without a body.
module attributes {transform.with_named_sequence} {
  exogpu.proc @no_body(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        // expected-error @below {{cannot insert at the start or end of a statement without a body}}
        exogpu.assign %x[%i, 0] = 2.0 : f32[?, 32] @CudaGmemLinear
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %s = transform.exogpu.match kind "assign" nth 0 in %root : (!transform.any_op) -> !transform.any_op
    %f = transform.exogpu.insert_fence %s at "start" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert_barrier_alloc names a barrier mechanism of Fig. 13.
module attributes {transform.with_named_sequence} {
  exogpu.proc @mechanism(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'CudaFlag' is not a barrier mechanism (Fig. 13)}}
    %z = transform.exogpu.insert_barrier_alloc %t at "before" "z" [1] "CudaFlag" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert_await keeps the IR valid: an mbarrier cannot wait for an older phase.
module attributes {transform.with_named_sequence} {
  exogpu.proc @await_count(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        %z = exogpu.alloc barrier[1] @CudaMbarrier
        // expected-error @below {{insert_await would make the IR invalid}}
        // expected-note-re @below {{'exogpu.await' op {{.*}}}}
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %w = transform.exogpu.insert_await %t at "before" "z[0]" "cuda_in_order" count 3 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// set_trailing_barrier needs a barrier.
module attributes {transform.with_named_sequence} {
  exogpu.instr @tma(%dst: f32[4] @CudaSmemLinear, %src: f32[4] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
    }
  }
  exogpu.proc @trailing_data(%x: f32[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %s = exogpu.alloc f32[4] @CudaSmemLinear
        %z = exogpu.alloc barrier[1] @CudaMbarrier
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{'s' is a data buffer, not a barrier}}
          exogpu.call @tma(%s, %x) >> %z[0] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear, barrier[1] @CudaMbarrier
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_trailing_barrier %c "s[0]" : !transform.any_op
    transform.yield
  }
}

// -----

// set_trailing_barrier keeps the IR valid: this instruction completes on a barrier.
module attributes {transform.with_named_sequence} {
  exogpu.instr @tma(%dst: f32[4] @CudaSmemLinear, %src: f32[4] @CudaGmemLinear)
      target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "" {
    exogpu.for %i in seq(0, 4) {
      exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
    }
  }
  exogpu.proc @trailing_removed(%x: f32[4] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 1) {
        %s = exogpu.alloc f32[4] @CudaSmemLinear
        %z = exogpu.alloc barrier[1] @CudaMbarrier
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @below {{set_trailing_barrier would make the IR invalid}}
          // expected-note @below {{'exogpu.call' op @tma completes through a CudaMbarrier: end the call with '>> barrier'}}
          exogpu.call @tma(%s, %x) >> %z[0] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear, barrier[1] @CudaMbarrier
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %c = transform.exogpu.match kind "call" in %root : (!transform.any_op) -> !transform.any_op
    transform.exogpu.set_trailing_barrier %c : !transform.any_op
    transform.yield
  }
}

// -----

// insert_arrive needs barriers.
module attributes {transform.with_named_sequence} {
  exogpu.proc @arrive_data(%N: size, %x: f32[%N, 32] @CudaGmemLinear) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %i in cuda_tasks(0, %N) {
        %s = exogpu.alloc f32[4] @CudaSmemLinear
        // expected-error @below {{'s' is a data buffer, not a barrier}}
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%i, %t] = 1.0 : f32[?, 32] @CudaGmemLinear
        }
      }
    }
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %a = transform.exogpu.insert_arrive %t at "after" "cuda_in_order" count 1 to ["s[0]"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_warps takes a range of two integers.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{range needs two integers: lo, hi}}
    %w = transform.exogpu.wrap_warps %k range [0, 1, 2] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// wrap_device_function moves parameters to an exogpu memory.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %k = transform.exogpu.match kind "for" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'Nowhere' is not an exogpu memory (Fig. 12)}}
    %d = transform.exogpu.wrap_device_function %k tasks 1 params_to "Nowhere" {blockDim = 32} : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// insert_fence checks its second timeline too.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'cuda_later' is not a sync timeline (Fig. 16)}}
    %f = transform.exogpu.insert_fence %t at "before" "cuda_in_order", "cuda_later" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{position must be "before", "after", "start" or "end"}}
    %a = transform.exogpu.insert_arrive %t at "inside" "cuda_in_order" count 1 to ["z[0]"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'cuda_sometimes' is not a sync timeline (Fig. 16)}}
    %a = transform.exogpu.insert_arrive %t at "after" "cuda_sometimes" count 1 to ["z[0]"] : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{position must be "before", "after", "start" or "end"}}
    %w = transform.exogpu.insert_await %t at "inside" "z[0]" "cuda_in_order" count 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{'cuda_sometimes' is not a sync timeline (Fig. 16)}}
    %w = transform.exogpu.insert_await %t at "before" "z[0]" "cuda_sometimes" count 0 : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{position must be "before", "after", "start" or "end"}}
    %z = transform.exogpu.insert_barrier_alloc %t at "inside" "z" [1] "CudaMbarrier" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}

// -----

// The insert ops name a place: before, after, start or end.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %i = transform.exogpu.match iter "i" in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{position must be "before", "after", "start" or "end"}}
    %f = transform.exogpu.insert_fence %i at "middle" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
