// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Fences between in-order (cuda_in_order) shared-memory accesses of
// different threads of a CTA (paper seeds/002 Sec. 2.1 "Explicit
// Synchronization", Fig. 5 Fence, Fig. 16; guide seeds/000 "Fence").
// Each bug is followed by its corrected twin. Two tasks of 64 threads (two
// warps) each; no size parameters.

// RAW: every thread writes buf[tid], then reads buf[63 - tid], written by
// another thread, with no fence in between. The read's check_mutates (on
// cuda_in_order_ram_qual, Fig. 5 assignment) finds the writer's record
// visible to the writer alone.
exogpu.proc @raw_missing_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[63]: this read is not ordered after an earlier write by thread 63 on cuda_in_order_ram_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: __syncthreads (CTA-scope Fence(cuda_in_order, cuda_in_order))
// between the writes and the reads.
exogpu.proc @raw_fenced(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAR: after a correct fence every thread reads buf[63 - tid], then
// overwrites its own buf[tid] while thread 63 - tid may still be reading it.
// The write's check_reads (temporally_ordered on cuda_in_order_ram_qual,
// Fig. 5 `=`) finds the other thread's read record invisible to the writer.
exogpu.proc @war_missing_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier read is here}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{WAR hazard on @buf[0]: this write is not ordered after an earlier read by thread 63 on cuda_in_order_ram_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: a second __syncthreads between the reads and the overwrite.
exogpu.proc @war_fenced(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAW: thread tid initializes buf[tid], then writes buf[(tid + 1) mod 64],
// which thread tid + 1 initialized, with no fence: the two writes may land
// in either order. The second write's check_mutates (temporally_ordered on
// cuda_in_order_ram_qual) finds the first write invisible to the writer.
exogpu.proc @waw_missing_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{WAW hazard on @buf[1]: this write is not ordered after an earlier write by thread 1 on cuda_in_order_ram_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %buf[(%tid + 1) mod 64] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[%tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: __syncthreads between the two writes.
exogpu.proc @waw_fenced(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[(%tid + 1) mod 64] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[%tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Wrong scope: the fence sits inside the warp loop, so it is a warp-scope
// Fence (__syncwarp) that only orders the threads of one warp (Sec. 2.1:
// "at warp scope it maps to __syncwarp"); the reads that follow cross
// warps. The read of buf[63] by thread 0 (warp 0) is not ordered after
// its write by thread 63 (warp 1): warp 1's fence augments warp 1 only.
exogpu.proc @raw_warp_scope_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          // expected-note @below {{the earlier write is here}}
          exogpu.assign %buf[%w * 32 + %lane] = %g[%task * 64 + %w * 32 + %lane] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[63]: this read is not ordered after an earlier write by thread 63 on cuda_in_order_ram_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the fence moves out of the warp loop to CTA scope (__syncthreads).
exogpu.proc @raw_cta_scope_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %buf[%w * 32 + %lane] = %g[%task * 64 + %w * 32 + %lane] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// A warp-scope fence is enough when the sharing stays inside the warp (a
// passing sanity case for the two splits above): each lane reads the
// element of the mirrored lane of its own warp.
exogpu.proc @raw_warp_scope_fence_within_warp(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %buf[%w * 32 + %lane] = %g[%task * 64 + %w * 32 + %lane] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %out[%task * 64 + %w * 32 + %lane] = %buf[%w * 32 + 31 - %lane] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Too weak a timeline: Fence(cuda_in_order, cuda_temporal) orders the
// writes only temporally (Fig. 16: cuda_temporal is "temp." on every
// column), but a read needs the write fully ordered (Fig. 5: in `+=` the
// reads are checked fully_ordered). Thread 0 sees thread 63's write at
// temporally_ordered only.
exogpu.proc @raw_temporal_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_temporal)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @buf[63]: this read is not ordered after an earlier write by thread 63 on cuda_in_order_ram_qual; thread 0 sees it at temporally_ordered on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.reduce %out[%task * 64 + %tid] += %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: Fence(cuda_in_order, cuda_in_order) orders the writes fully.
exogpu.proc @raw_full_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.reduce %out[%task * 64 + %tid] += %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Temporal ordering is enough for a WAR hazard (a passing sanity case): an
// overwrite (`=`) only needs the earlier reads to have happened
// (Fig. 5: tau_pre of `=` is temporally_ordered), so a
// Fence(cuda_in_order, cuda_temporal) between the reads and the overwrite
// suffices.
exogpu.proc @war_temporal_fence(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_temporal)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
