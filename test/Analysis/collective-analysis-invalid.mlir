// Static checks of the collective analysis (seeds/002 Sec. 3.4, Sec. 4;
// guide "cuda_threads Loops", "Warp Specialization").
// RUN: exogpu-opt %s -split-input-file --exogpu-collective-analysis -verify-diagnostics

// The guide's example: 10 x 4 = 40 threads do not fit in a warp.
exogpu.proc @too_many_threads() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        // expected-error @+1 {{cuda_threads loop asks for 10 x 4 * cuda_thread = 40 threads, more than the collective of its scope (32 threads) provides: the scope's collective has room for 8 unit(s) along the subdivided dimension, but 10 are needed}}
        exogpu.for %i in cuda_threads(0, 10, unit = 4 * cuda_thread) {
        }
      }
    }
  }
}

// -----

// A thread count past int64 is reported as such, not as a wrapped product.
exogpu.proc @thread_count_overflow() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        // expected-error @+1 {{cuda_threads loop asks for 4611686018427387904 x 4 * cuda_thread = more than 2^63 threads, more than the collective of its scope (32 threads) provides}}
        exogpu.for %i in cuda_threads(0, 4611686018427387904, unit = 4 * cuda_thread) {
        }
      }
    }
  }
}

// -----

// A unit larger than the scope's collective.
exogpu.proc @unit_larger_than_scope() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 8, unit = cuda_warp) {
        // expected-error @+1 {{cuda_threads loop asks for 1 x 2 * cuda_warp = 64 threads, more than the collective of its scope (32 threads) provides: 8 tile(s) of 32 threads at offset 0 straddle groups of 64 threads}}
        exogpu.for %i in cuda_threads(0, 1, unit = 2 * cuda_warp) {
        }
      }
    }
  }
}

// -----

// More than one iteration of the scope's own unit.
exogpu.proc @trivial_tiling_range() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        // expected-error @+1 {{the unit is the scope's whole collective, so only the range [0, 1) fits, not [0, 2)}}
        exogpu.for %i in cuda_threads(0, 2, unit = cuda_warp) {
        }
      }
    }
  }
}

// -----

// A warpgroup instruction in a single warp (Sec. 3.4: calls to g only at
// tau_u-scope).
exogpu.instr @wg_op(%x: f32[128] @CudaGmemLinear) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 128) {
    exogpu.assign %x[%i] = 0.0 : f32[128] @CudaGmemLinear
  }
}
exogpu.proc @warpgroup_instr_in_warp(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        // expected-error @+1 {{instruction @wg_op requires collective unit cuda_warpgroup, but the collective of this scope (32 thread(s)) does not match it: over domain (4, 32) the collective has box (1, 32) but the unit needs (4, 32)}}
        exogpu.call @wg_op(%x[0:128]) : f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// A warpgroup instruction in a single thread.
exogpu.instr @wg_op(%x: f32[128] @CudaGmemLinear) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 128) {
    exogpu.assign %x[%i] = 0.0 : f32[128] @CudaGmemLinear
  }
}
exogpu.proc @warpgroup_instr_in_thread(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @+1 {{instruction @wg_op requires collective unit cuda_warpgroup, but the collective of this scope (1 thread(s)) does not match it}}
        exogpu.call @wg_op(%x[0:128]) : f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// A warp instruction on a warp-sized collective that is not a warp: thread
// t of each of the 32 groups of 4 threads.
exogpu.instr @warp_op(%x: f32[32] @CudaGmemLinear) target = cuda, unit = cuda_warp {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %x[%i] = 0.0 : f32[32] @CudaGmemLinear
  }
}
exogpu.proc @strided_is_not_a_warp(%x: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 4, unit = 32 * cuda_threads_strided(1, 4)) {
        // expected-error @+1 {{instruction @warp_op requires collective unit cuda_warp, but the collective of this scope (32 thread(s)) does not match it}}
        exogpu.call @warp_op(%x[0:32]) : f32[32] @CudaGmemLinear
      }
    }
  }
}

// -----

// Scalar writes by more than one thread (guide: "scalar reduce/writes are
// performed using single threads only").
exogpu.proc @scalar_write_by_cta(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{scalar write executed by 128 threads; assignments and reductions must be executed by a single thread}}
      exogpu.assign %x[0] = 0.0 : f32[128] @CudaGmemLinear
    }
  }
}

// -----

exogpu.proc @scalar_reduce_by_warp(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        %acc = exogpu.alloc f32 @CudaRmem
        // expected-error @+1 {{scalar reduction executed by 32 threads}}
        exogpu.reduce %acc[] += %x[%w] : f32 @CudaRmem, f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// cuda_thread at cluster scope is agnostic about the CTA: each iteration is
// one thread of every CTA, so a scalar write there has 2 writers.
exogpu.proc @scalar_write_per_cta(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @+1 {{scalar write executed by 2 threads}}
        exogpu.assign %x[%t] = 0.0 : f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// A unit whose box does not divide blockDim.
exogpu.proc @unit_does_not_divide() {
  exogpu.device_function(blockDim = 160) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{collective unit 2 * cuda_warp cannot be aligned with the threads of this device_function: unit 2 * cuda_warp has box 64, which does not divide its domain extent 160 with clusterDim = 1 and blockDim = 160}}
      exogpu.for %i in cuda_threads(0, 2, unit = 2 * cuda_warp) {
      }
    }
  }
}

// -----

// The same warp of a pair of CTAs: the iterator would have to pick both the
// pair and the warp, two dimensions that are not one hierarchical slice.
exogpu.proc @ambiguous_dimension() {
  exogpu.device_function(clusterDim = 4, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{collective unit 2 * cuda_warp_in_cluster cannot be aligned with the collective tiling of this scope: the unit subdivides more than one dimension: over domain (2, 2, 4, 32) the scope has box (2, 2, 4, 32) and the unit box (1, 2, 1, 32)}}
      exogpu.for %w in cuda_threads(0, 4, unit = 2 * cuda_warp_in_cluster) {
      }
    }
  }
}

// -----

// Groups of 16 threads straddle the warp boundaries a quadpair needs.
exogpu.proc @tiles_straddle_pitch() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %m in cuda_threads(0, 8, unit = 16 * cuda_thread) {
        // expected-error @+1 {{collective unit cuda_quadpair cannot be aligned with the collective tiling of this scope: 8 tile(s) of 16 threads at offset 0 straddle groups of 32 threads}}
        exogpu.for %q in cuda_threads(0, 1, unit = cuda_quadpair) {
        }
      }
    }
  }
}

// -----

// warps ranges outside the collective.
exogpu.proc @warps_outside_warpgroup() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        // expected-error @+1 {{warps block selects warps [3, 5), outside the collective of its scope (128 threads): the scope's collective has room for 4 unit(s) along the subdivided dimension, but 5 are needed}}
        exogpu.warps(3, 5) {
        }
      }
    }
  }
}

// -----

exogpu.proc @warps_inside_a_warp() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 8, unit = cuda_warp) {
        // expected-error @+1 {{warps block selects warps [0, 2), outside the collective of its scope (32 threads): the unit is the scope's whole collective, so only the range [0, 1) fits, not [0, 2)}}
        exogpu.warps(0, 2) {
        }
      }
    }
  }
}

// -----

// Named warps select warps of every CTA, so they belong at CTA or cluster
// scope.
exogpu.proc @named_warps_below_cta() {
  exogpu.device_function(warps = ["producer" = (1, 40, 0), "consumer" = (4, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %h in cuda_threads(0, 2, unit = 80 * cuda_thread) {
        // expected-error @+1 {{warps block "consumer" must be at CTA or cluster scope, but the collective of its scope has 80 thread(s) per CTA}}
        exogpu.warps "consumer" {
        }
      }
    }
  }
}
