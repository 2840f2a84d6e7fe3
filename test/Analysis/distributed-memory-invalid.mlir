// Errors of the distributed memory deduction (seeds/002 Sec. 4.1; guide
// "Distributed Memory", rules 1-4): one split per message of
// lib/Analysis/DistributedMemory.cpp.
// RUN: exogpu-opt %s -split-input-file --exogpu-distributed-memory -verify-diagnostics

// Sec. 4.1 (i), guide rule 1: a warp-native matrix allocated by a single
// thread; no warp can own a shard of it.
exogpu.proc @alloc_smaller_than_native_unit() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @+1 {{f32[16, 8] @Sm80_RmemMatrixD is allocated by a tile of 1 thread(s), smaller than its native unit cuda_warp (32 threads); allocate it in an enclosing scope (Sec. 4.1 (i))}}
        %D = exogpu.alloc f32[16, 8] @Sm80_RmemMatrixD(16, 8)
      }
    }
  }
}

// -----

// Sec. 4.1 (i), guide rule 1: the native unit itself does not fit the
// device function (a 128-thread warpgroup in a 96-thread CTA).
exogpu.proc @native_unit_does_not_fit() {
  exogpu.device_function(blockDim = 96) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{f32[64, 256] @Sm90_RmemMatrixD is allocated by a tile of 96 thread(s), smaller than its native unit cuda_warpgroup: unit cuda_warpgroup has box 128, which does not divide its domain extent 96 with clusterDim = 1 and blockDim = 96; allocate it in an enclosing scope (Sec. 4.1 (i))}}
      %D = exogpu.alloc f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// -----

// Sec. 4.1 step 1 (desugaring), guide rule 2: an argument dimension the
// instruction distributes over its threads must be passed whole (`:`), not
// as the sub-interval 0:2 of an extent-4 dimension.
exogpu.instr @pair_op(%dst: f32[2] @CudaRmem {convergent, dist = [cuda_thread]}) target = cuda, unit = 2 * cuda_thread {
  exogpu.for %i in seq(0, 2) {
    exogpu.assign %dst[%i] = 0.0 : f32[2] @CudaRmem
  }
}
exogpu.proc @partial_distributed_interval() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %r = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %p in cuda_threads(0, 32, unit = 2 * cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[32, 4] @CudaRmem allocation failed: index 1 is distributed over the instruction's threads, so it must span the whole (static) dimension}}
        exogpu.call @pair_op(%r[%p, 0:2]) : f32[32, 4] @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 step 1 (desugaring): the parameter's `dist` unit (3 warps) cannot
// be typed in a 128-thread CTA.
exogpu.instr @cta_op(%dst: f32[4] @CudaRmem {dist = [3 * cuda_warp]}) target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = 0.0 : f32[4] @CudaRmem
  }
}
exogpu.proc @dist_unit_does_not_fit() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %r = exogpu.alloc f32[4] @CudaRmem
      // expected-error @+1 {{distributed memory deduction for the f32[4] @CudaRmem allocation failed: unit 3 * cuda_warp has box 96, which does not divide its domain extent 128 with clusterDim = 1 and blockDim = 128}}
      exogpu.call @cta_op(%r[:]) : f32[4] @CudaRmem
    }
  }
}

// -----

// Sec. 4.1 step 1 (desugaring): distributing 8 elements over one warp each
// needs 8 warps, but the calling CTA has 4.
exogpu.instr @cta_op(%dst: f32[8] @CudaRmem {dist = [cuda_warp]}) target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %dst[%i] = 0.0 : f32[8] @CudaRmem
  }
}
exogpu.proc @dist_needs_more_threads() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %r = exogpu.alloc f32[8] @CudaRmem
      // expected-error @+1 {{distributed memory deduction for the f32[8] @CudaRmem allocation failed: the instruction cannot distribute index 0 over 8 x cuda_warp: the scope's collective has room for 4 unit(s) along the subdivided dimension, but 8 are needed}}
      exogpu.call @cta_op(%r[:]) : f32[8] @CudaRmem
    }
  }
}

// -----

// Sec. 4.1 (i)/(iii), guide rule 2: distributed indices must be plain
// cuda_threads iterators; %s is a seq iterator (the message says (iii)).
exogpu.proc @seq_iterator_index() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[16, 16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.for %s in seq(0, 16) {
            // expected-error @+1 {{distributed memory deduction for the f32[16, 16] @CudaRmem allocation failed: distributed index 1 must be a cuda_threads iterator, not a seq iterator (tiling chain so far from 256 threads: index 0: 256 -> 16) (Sec. 4.1 (iii))}}
            exogpu.assign %vals[%m, %s] = 0.0 : f32[16, 16] @CudaRmem
          }
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (i)/(iii), guide rule 2: an expression of an iterator is not a
// plain read of it.
exogpu.proc @expression_index() {
  exogpu.device_function(blockDim = 16) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[16] @CudaRmem
      exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[16] @CudaRmem allocation failed: distributed index 0 must be a cuda_threads iterator, not an expression (tiling chain so far from 16 threads: none) (Sec. 4.1 (iii))}}
        exogpu.assign %vals[15 - %t] = 0.0 : f32[16] @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 (i)/(iii), guide rule 2: a window interval in a distributed
// position (the leading dimension spans all threads' shards).
exogpu.proc @window_interval_index() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[32, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[32, 4] @CudaRmem allocation failed: distributed index 0 must be a cuda_threads iterator, not a window interval (tiling chain so far from 32 threads: none) (Sec. 4.1 (iii))}}
        %w = exogpu.window %vals[0:32, %t] : f32[32, 4] @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 (i)/(iii), guide rule 2: a cuda_tasks iterator selects a task,
// not threads, so it cannot be a distributed index.
exogpu.proc @tasks_iterator_index() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 4) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[4, 32] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[4, 32] @CudaRmem allocation failed: distributed index 0 must be a cuda_threads iterator, not a cuda_tasks iterator (tiling chain so far from 32 threads: none) (Sec. 4.1 (iii))}}
        exogpu.assign %vals[%task, %t] = 0.0 : f32[4, 32] @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 (i)/(iii), guide rule 2: a size parameter is a control value but
// no loop iterator at all.
exogpu.proc @size_parameter_index(%n: size) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[4, 32] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[4, 32] @CudaRmem allocation failed: distributed index 0 must be a cuda_threads iterator, not a control value that is not a cuda_threads iterator (tiling chain so far from 32 threads: none) (Sec. 4.1 (iii))}}
        exogpu.assign %vals[%n, %t] = 0.0 : f32[4, 32] @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 step 3, guide rule 2: every index of a barrier is distributed, so
// a barrier array indexed by a seq iterator is rejected (at its first use).
exogpu.proc @barrier_index_not_distributed() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %bar = exogpu.alloc barrier[4] @CudaMbarrier
      exogpu.for %s in seq(0, 4) {
        // expected-error @+1 {{distributed memory deduction for the barrier[4] @CudaMbarrier allocation failed: distributed index 0 must be a cuda_threads iterator, not a seq iterator (tiling chain so far from 128 threads: none) (Sec. 4.1 (iii))}}
        exogpu.arrive(cuda_in_order, 1) >> %bar[%s] : barrier[4] @CudaMbarrier
        exogpu.await(%bar[%s], cuda_in_order, 0) : barrier[4] @CudaMbarrier
      }
    }
  }
}

// -----

// Sec. 4.1 (iii): the distributed index ranges over 16 tiles but the
// dimension it indexes has extent 8.
exogpu.proc @extent_mismatch() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[8, 16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[8, 16] @CudaRmem allocation failed: distributed index 0 ranges over 16 value(s), but the dimension has extent 8 (Sec. 4.1 (iii))}}
          exogpu.assign %vals[%m, %n] = 0.0 : f32[8, 16] @CudaRmem
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (iii), guide rule 2 (extra iterator): %m's loop encloses the
// allocation, so its operator 256 -> 16 starts above the 16-thread tile t_a.
exogpu.proc @loop_encloses_allocation() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        // expected-note @+1 {{allocated here}}
        %vals = exogpu.alloc f32[16, 16] @CudaRmem
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[16, 16] @CudaRmem allocation failed: distributed index 0 subdivides tiles of 256 threads, more than the 16 threads of the tile that allocates it; its loop encloses the allocation (Sec. 4.1 (iii))}}
          exogpu.assign %vals[%m, %n] = 0.0 : f32[16, 16] @CudaRmem
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (iii), guide rule 2 (extra iterator): %m twice before the chain
// reaches the native unit; both indices would subdivide the same tile.
exogpu.proc @repeated_index() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[16, 16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[16, 16] @CudaRmem allocation failed: distributed index 1 subdivides tiles of 256 threads like index 0 (repeated index?) (Sec. 4.1 (iii))}}
          exogpu.assign %vals[%m, %m] = 0.0 : f32[16, 16] @CudaRmem
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (iii), guide rules 1-2 (too many distributed dims): a warp-native
// matrix indexed per thread; the chain 64 -> 1 overshoots t_n = 32.
exogpu.proc @overshoot_native_unit() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %D = exogpu.alloc f32[64, 16, 8] @Sm80_RmemMatrixD(16, 8)
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32[64, 16, 8] @Sm80_RmemMatrixD allocation failed: distributed index 0 yields tiles of 1 thread(s), overshooting the 32 threads of the native unit cuda_warp (Sec. 4.1 (iii))}}
        exogpu.assign %D[%t, 0, 0] = 0.0 : f32[64, 16, 8] @Sm80_RmemMatrixD(16, 8)
      }
    }
  }
}

// -----

// Sec. 4.1 (iii), guide rules 1-2 (too few distributed dims): the chain
// 256 -> 16 stops short of cuda_thread; 16 threads would share a register.
exogpu.proc @too_few_iterators() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[16] @CudaRmem allocation failed: the 256-thread tile that allocates it must be distributed down to its native unit cuda_thread (1 thread(s)), but its indices stop at tiles of 16 threads (chain: index 0: 256 -> 16); without more cuda_threads iterator indices, threads would share a shard (Sec. 4.1 (iii))}}
          exogpu.assign %vals[%m] = 0.0 : f32[16] @CudaRmem
        }
      }
    }
  }
}

// -----

// The guide's counterexample (figure why_dist; rules 1-2): a CudaRmem scalar
// x allocated at CTA scope, written by each thread and read back by the
// threads of another loop. No distributed dimension: all 128 threads share x.
exogpu.proc @guide_shared_register_scalar(%A: f32[128] @CudaGmemLinear, %B: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %x = exogpu.alloc f32 @CudaRmem
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        // expected-error @+1 {{distributed memory deduction for the f32 @CudaRmem allocation failed: the 128-thread tile that allocates it must be distributed down to its native unit cuda_thread (1 thread(s)), but its indices stop at tiles of 128 threads (chain: none); without more cuda_threads iterator indices, threads would share a shard (Sec. 4.1 (iii))}}
        exogpu.assign %x[] = %A[%tid] : f32 @CudaRmem, f32[128] @CudaGmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %B[%tid] = %x[] : f32[128] @CudaGmemLinear, f32 @CudaRmem
      }
    }
  }
}

// -----

// Sec. 4.1 (iii), guide rule 2: the barrier's indices skip %a, so the
// operators 256 -> 16 and 8 -> 1 are not one chain.
exogpu.proc @barrier_chain_gap() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %bar = exogpu.alloc barrier[16, 8] @CudaMbarrier
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %a in cuda_threads(0, 2, unit = 8 * cuda_thread) {
          exogpu.for %b in cuda_threads(0, 8, unit = cuda_thread) {
            // expected-error @+1 {{distributed memory deduction for the barrier[16, 8] @CudaMbarrier allocation failed: the distributed indices do not form one tiling chain from 256 threads (index 0: 256 -> 16, index 1: 8 -> 1) (Sec. 4.1 (iii))}}
            exogpu.await(%bar[%m, %b], cuda_in_order, 0) : barrier[16, 8] @CudaMbarrier
          }
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (i), guide rule 1: 32 threads strided by 4 are no warp, so a
// warp-native matrix cannot have its shards owned by them.
exogpu.proc @shard_owner_not_native_unit() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %D = exogpu.alloc f32[4, 16, 8] @Sm80_RmemMatrixD(16, 8)
      exogpu.for %t in cuda_threads(0, 4, unit = 32 * cuda_threads_strided(1, 4)) {
        exogpu.for %u in cuda_threads(0, 1, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[4, 16, 8] @Sm80_RmemMatrixD allocation failed: its shards would be owned by collectives that are not cuda_warp: over domain (4, 8, 4) the tile has box (4, 8, 1) but the unit needs (1, 8, 4) (Sec. 4.1 (i))}}
          exogpu.assign %D[%t, 0, 0] = 0.0 : f32[4, 16, 8] @Sm80_RmemMatrixD(16, 8)
        }
      }
    }
  }
}

// -----

// Sec. 4.1 (ii), guide rule 3: the second loop nest swaps the roles of the
// iterators, so the same element belongs to a different thread.
exogpu.proc @inconsistent_uses() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %vals = exogpu.alloc f32[16, 16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-note @+1 {{first use here}}
          exogpu.assign %vals[%m, %n] = 0.0 : f32[16, 16] @CudaRmem
        }
      }
      exogpu.for %n in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %m in cuda_threads(0, 16, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[16, 16] @CudaRmem allocation failed: this use deduces 2 distributed dim(s) [16, 16] with thread pitches [1, 16]; shards of 1 thread(s); shard 0 owned by [0, 0], inconsistent with 2 distributed dim(s) [16, 16] with thread pitches [16, 1]; shards of 1 thread(s); shard 0 owned by [0, 0] deduced at its first use (Sec. 4.1 (ii))}}
          exogpu.assign %vals[%m, %n] = 1.0 : f32[16, 16] @CudaRmem
        }
      }
    }
  }
}

// -----

// A commit group pairs the arrives and awaits of the collective that owns
// it (seeds/004 "Async-group"): a CTA-scoped group used by single threads
// is rejected; index it by the thread iterator instead.
exogpu.proc @commit_group_used_by_part_of_owner() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @below {{allocated here}}
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{distributed memory deduction for the barrier @CudaCommitGroup allocation failed: a commit group pairs the arrives and awaits of one collective, but 1 thread(s) use a shard owned by 64; index it by the collective that issues the asynchronous work (seeds/004 "Async-group")}}
        exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
        exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      }
    }
  }
}

// -----

// A distributed dimension cannot be split (exogpu.split): a use through the
// split indexes the CTA dimension with two coordinates.
exogpu.proc @split_distributed_use() {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %B = exogpu.alloc f32[2, 256] @CudaSmemLinear
      // expected-note @+1 {{split here}}
      %B2 = exogpu.split %B dim 0 by 2 : f32[2, 256] @CudaSmemLinear
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          // expected-error @+1 {{distributed memory deduction for the f32[2, 256] @CudaSmemLinear allocation failed: distributed index 0 indexes a dimension split by exogpu.split; a distributed dimension cannot be split}}
          exogpu.assign %B2[0, %cta, %t] = 0.0 : window f32[1, 2, 256] @CudaSmemLinear
        }
      }
    }
  }
}

// -----

// The same for a split no use goes through (here a split of a split of the
// distributed dimension 0): the other uses make dimension 0 distributed.
exogpu.proc @split_distributed_dim() {
  exogpu.device_function(clusterDim = 4, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-note @+1 {{allocated here}}
      %B = exogpu.alloc f32[4, 256] @CudaSmemLinear
      %B_pairs = exogpu.split %B dim 1 by 2 : f32[4, 256] @CudaSmemLinear
      // expected-error @+1 {{exogpu.split splits dimension 0 of the f32[4, 256] @CudaSmemLinear allocation, which is distributed over thread collectives; a distributed dimension cannot be split}}
      %B_halves = exogpu.split %B_pairs dim 0 by 2 : window f32[4, 128, 2] @CudaSmemLinear
      exogpu.for %cta in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %B[%cta, %t] = 0.0 : f32[4, 256] @CudaSmemLinear
        }
      }
    }
  }
}
