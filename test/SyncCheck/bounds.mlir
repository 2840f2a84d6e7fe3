// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="N=100" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="N=100,engine=reference" -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check="N=100,replay-tasks=false" -verify-diagnostics -o /dev/null

// The sequential program is defined only for values that meet each proc's
// `requires` clause and where every access stays inside its buffer (and
// inside the window it is taken through); elsewhere the check has nothing
// to compare the parallel program with, so it reports the clause or the
// access (docs/abstract-machine.md, "Preconditions and bounds"). All at
// N = 100.

// Bug: the guide's vector addition requires N mod 128 == 0; at N = 100 it
// would run no task at all.
// expected-error @below {{the precondition of @vector_add (requires N mod 128 == 0) does not hold: the sequential program is not defined for these values}}
exogpu.proc @vector_add(%N: size, %X: f32[%N] @CudaGmemLinear,
                        %Y: f32[%N] @CudaGmemLinear, %Z: f32[%N] @CudaGmemLinear)
    requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %Z[%task * 128 + %tid] = %X[%task * 128 + %tid] + %Y[%task * 128 + %tid] : f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear
      }
    }
  }
}

// -----

// Bug: without the precondition, the last task reads and writes past the
// end of the vectors.
exogpu.proc @vector_add_past_end(%N: size, %X: f32[%N] @CudaGmemLinear,
                                 %Y: f32[%N] @CudaGmemLinear, %Z: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, (%N + 127) / 128) {
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @below {{out-of-bounds access: @X[100] is outside @X, allocated with extents [100]}}
        exogpu.assign %Z[%task * 128 + %tid] = %X[%task * 128 + %tid] + %Y[%task * 128 + %tid] : f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear
      }
    }
  }
}

// -----

// Twin: the last task's threads past the end do nothing.
exogpu.proc @vector_add_guarded(%N: size, %X: f32[%N] @CudaGmemLinear,
                                %Y: f32[%N] @CudaGmemLinear, %Z: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, (%N + 127) / 128) {
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.if %task * 128 + %tid < %N {
          exogpu.assign %Z[%task * 128 + %tid] = %X[%task * 128 + %tid] + %Y[%task * 128 + %tid] : f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear, f32[?] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Bug: tasks of 4 elements over N = 100 + 32: the later tasks write past
// the end. The box engine replays tasks from the first one; a task whose
// windows would leave the buffer runs instead, and reports the access.
exogpu.proc @tasks_past_end(%N: size, %Z: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 4) {
    exogpu.for %task in cuda_tasks(0, %N / 4 + 8) {
      exogpu.for %tid in cuda_threads(0, 4, unit = cuda_thread) {
        // expected-error @below {{out-of-bounds access: @Z[100] is outside @Z, allocated with extents [100]}}
        exogpu.assign %Z[%task * 4 + %tid] = 1.0 : f32[?] @CudaGmemLinear
      }
    }
  }
}

// -----

// Bug: each thread's window of 8 elements overlaps the next thread's and
// the last one leaves the buffer.
exogpu.proc @window_past_end(%N: size, %A: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 25) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 25, unit = cuda_thread) {
        // expected-error @below {{out-of-bounds access: @A[96..103] is outside @A, allocated with extents [100]}}
        %w = exogpu.window %A[%i * 4:%i * 4 + 8] : f32[?] @CudaGmemLinear
        exogpu.assign %w[0] = 0.0 : window f32[8] @CudaGmemLinear
      }
    }
  }
}

// -----

// Twin: windows of 4 elements tile the buffer.
exogpu.proc @window_tiles(%N: size, %A: f32[%N] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 25) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 25, unit = cuda_thread) {
        %w = exogpu.window %A[%i * 4:%i * 4 + 4] : f32[?] @CudaGmemLinear
        exogpu.assign %w[3] = 0.0 : window f32[4] @CudaGmemLinear
      }
    }
  }
}

// -----

// Bug: an access through a window past the window's end, though inside
// the buffer: @fill writes n = 32 elements of a 16-element argument.
exogpu.proc @fill(%n: size, %x: f32[%n] @DRAM) {
  exogpu.for %i in seq(0, %n) {
    // expected-error @below {{out-of-bounds access: @X[16] is outside @X[0..15], the window of @X it is taken through}}
    exogpu.assign %x[%i] = 0.0 : f32[?] @DRAM
  }
}

exogpu.proc @fill_too_much(%N: size, %X: f32[%N] @DRAM) {
  exogpu.call @fill[32](%X[0:16]) : f32[?] @DRAM
}

// -----

// Twin: @fill writes the 16 elements it is given (@fill is not an entry
// proc: it is checked where it is inlined).
exogpu.proc @fill(%n: size, %x: f32[%n] @DRAM) {
  exogpu.for %i in seq(0, %n) {
    exogpu.assign %x[%i] = 0.0 : f32[?] @DRAM
  }
}

exogpu.proc @fill_window(%N: size, %X: f32[%N] @DRAM) {
  exogpu.call @fill[16](%X[0:16]) : f32[?] @DRAM
}

// -----

// Bug: a callee's precondition fails at the values of a call.
exogpu.proc @fill_quads(%n: size, %x: f32[%n] @DRAM) requires %n mod 4 == 0 {
  exogpu.for %i in seq(0, %n) {
    exogpu.assign %x[%i] = 0.0 : f32[?] @DRAM
  }
}

exogpu.proc @call_bad_size(%N: size, %X: f32[%N] @DRAM) {
  // expected-error @below {{the precondition of @fill_quads (requires n mod 4 == 0) does not hold}}
  exogpu.call @fill_quads[6](%X[0:6]) : f32[?] @DRAM
}
