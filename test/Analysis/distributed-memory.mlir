// Distributed memory deduction (seeds/002 Sec. 4.1; guide "Distributed
// Memory", rules 1-4) on the documents' examples: the remark on each
// allocation gives its distributed leading dimensions, their thread pitches,
// the threads owning one shard and the owner of shard 0.
// RUN: exogpu-opt %s -split-input-file --exogpu-distributed-memory=emit-remarks=true -o /dev/null 2>&1 | FileCheck %s

// The guide's first example: a 16 x 16 grid of threads, each with an 8 x 4
// register tile (m: 256 -> 16, n: 16 -> 1).
// CHECK-LABEL: remark: 2 distributed dim(s) [16, 16] with thread pitches [16, 1]; shards of 1 thread(s); shard 0 owned by [0, 0]
exogpu.proc @guide_simple() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %vals = exogpu.alloc f32[16, 16, 8, 4] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %vals[%m, %n, 0, 0] = 0.0 : f32[16, 16, 8, 4] @CudaRmem
          exogpu.assign %vals[%m, %n, 0, 1] = 0.0 : f32[16, 16, 8, 4] @CudaRmem
        }
      }
    }
  }
}

// -----

// The guide's chain examples: a warps block offsets the owners (shard 0
// belongs to thread 64), and iterators may come in any order as long as
// their tiling operators chain 256 -> 128 -> 8 -> 1.
// CHECK-LABEL: remark: 2 distributed dim(s) [16, 8] with thread pitches [8, 1]; shards of 1 thread(s); shard 0 owned by [64, 64]
// CHECK: remark: 3 distributed dim(s) [16, 8, 2] with thread pitches [8, 1, 128]; shards of 1 thread(s); shard 0 owned by [0, 0]
exogpu.proc @guide_chains() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %vals0 = exogpu.alloc f32[16, 8, 2] @CudaRmem
      exogpu.warps(2, 6) {
        exogpu.for %m in cuda_threads(0, 16, unit = 8 * cuda_thread) {
          exogpu.for %n in cuda_threads(0, 8, unit = cuda_thread) {
            exogpu.for %s in seq(0, 2) {
              exogpu.assign %vals0[%m, %n, %s] = 0.0 : f32[16, 8, 2] @CudaRmem
            }
          }
        }
      }
      %vals1 = exogpu.alloc f32[16, 8, 2] @CudaRmem
      exogpu.for %b in cuda_threads(0, 2, unit = 128 * cuda_thread) {
        exogpu.for %m in cuda_threads(0, 16, unit = 8 * cuda_thread) {
          exogpu.for %n in cuda_threads(0, 8, unit = cuda_thread) {
            exogpu.assign %vals1[%m, %n, %b] = 0.0 : f32[16, 8, 2] @CudaRmem
          }
        }
      }
    }
  }
}

// -----

// The guide's repeated index: the second %m is not distributed, the chain
// m: 256 -> 16, n: 16 -> 1 is complete after two indices.
// CHECK-LABEL: remark: 2 distributed dim(s) [16, 16] with thread pitches [1, 16]; shards of 1 thread(s); shard 0 owned by [0, 0]
exogpu.proc @guide_repeated_index() {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %vals = exogpu.alloc f32[16, 16, 16] @CudaRmem
      exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %vals[%n, %m, %m] = 0.0 : f32[16, 16, 16] @CudaRmem
        }
      }
    }
  }
}

// -----

// The paper's register example fixed (Sec. 2.1): one register per thread,
// written by one loop and read by the same thread in another. The second
// loop's iterator is a different value with the same thread mapping.
// CHECK-LABEL: remark: 1 distributed dim(s) [32] with thread pitches [1]; shards of 1 thread(s); shard 0 owned by [0, 0]
exogpu.proc @paper_tmp(%A: f32[32] @CudaGmemLinear, %B: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %tmp = exogpu.alloc f32[32] @CudaRmem
      exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %tmp[%i] = %A[%i] : f32[32] @CudaRmem, f32[32] @CudaGmemLinear
      }
      exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %B[%i] = %tmp[%i] : f32[32] @CudaGmemLinear, f32[32] @CudaRmem
      }
    }
  }
}

// -----

// Named warps (the guide's many_tensors example): the second group's
// registers belong to threads 256 and up.
// CHECK-LABEL: remark: 2 distributed dim(s) [16, 16] with thread pitches [16, 1]; shards of 1 thread(s); shard 0 owned by [0, 0]
// CHECK: remark: 2 distributed dim(s) [16, 16] with thread pitches [16, 1]; shards of 1 thread(s); shard 0 owned by [256, 256]
exogpu.proc @guide_many_tensors() {
  exogpu.device_function(warps = ["first_half" = (8, 0, 0), "second_half" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %val1 = exogpu.alloc f32[16, 16] @CudaRmem
      %val3 = exogpu.alloc f32[16, 16] @CudaRmem
      exogpu.warps "first_half" {
        exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
          exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
            exogpu.assign %val1[%m, %n] = 0.0 : f32[16, 16] @CudaRmem
          }
        }
      }
      exogpu.warps "second_half" {
        exogpu.for %m in cuda_threads(0, 16, unit = 16 * cuda_thread) {
          exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
            exogpu.assign %val3[%m, %n] = 0.0 : f32[16, 16] @CudaRmem
          }
        }
      }
    }
  }
}

// -----

// Paper Sec. 2.2, first example: B[c, :, :] lives in the shared memory of
// CTA c. The multicast instruction distributes its first dimension over the
// CTAs of its cluster-wide collective (Sec. 4.1 step 1, `dist`).
// CHECK-LABEL: remark: 1 distributed dim(s) [2] with thread pitches [256]; shards of 256 thread(s); shard 0 owned by [0, 255]
exogpu.instr @some_in_order_op(%b: f32[256, 32] @CudaSmemLinear) target = cuda, unit = cuda_cta_in_cluster {
  exogpu.for %i in seq(0, 256) {
    exogpu.assign %b[%i, 0] = 0.0 : f32[256, 32] @CudaSmemLinear
  }
}
exogpu.instr @example_tma_multicast(%b: f32[2, 256, 32] @CudaSmemLinear {dist = [cuda_cta_in_cluster]}, %g: f32[2, 256, 32] @CudaGmemLinear) target = cuda, unit = cuda_cluster {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 256) {
      exogpu.assign %b[%c, %i, 0] = %g[%c, %i, 0] : f32[2, 256, 32] @CudaSmemLinear, f32[2, 256, 32] @CudaGmemLinear
    }
  }
}
exogpu.proc @paper_multicast(%g: f32[2, 256, 32] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 256, 32] @CudaSmemLinear
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.call @some_in_order_op(%B[%cta, :, :]) : f32[2, 256, 32] @CudaSmemLinear
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
      exogpu.call @example_tma_multicast(%B[:, :, :], %g[:, :, :]) : f32[2, 256, 32] @CudaSmemLinear, f32[2, 256, 32] @CudaGmemLinear
    }
  }
}

// -----

// Paper Sec. 2.2, second and third examples: D[x, y] belongs to warpgroup y
// of CTA x; cg[x, y] is that warpgroup's commit group; cs is the cluster's.
// CHECK-LABEL: remark: 1 distributed dim(s) [2] with thread pitches [256]; shards of 256 thread(s); shard 0 owned by [0, 255]
// CHECK: remark: 2 distributed dim(s) [2, 2] with thread pitches [256, 128]; shards of 128 thread(s); shard 0 owned by [0, 127]
// CHECK: remark: 2 distributed dim(s) [2, 2] with thread pitches [256, 128]; shards of 128 thread(s); shard 0 owned by [0, 127]
// CHECK: remark: 0 distributed dim(s) [] with thread pitches []; shards of 512 thread(s); shard 0 owned by [0, 511]
exogpu.instr @some_in_order_op_1(%b: f32[256, 32] @CudaSmemLinear) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 256) {
    exogpu.assign %b[%i, 0] = 0.0 : f32[256, 32] @CudaSmemLinear
  }
}
exogpu.instr @some_in_order_op_2(%d: f32[64, 256] @Sm90_RmemMatrixD(64, 256)) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %d[%i, 0] = 0.0 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
  }
}
exogpu.instr @example_wgmma(%d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {out_of_order, convergent}, %b: f32[256, 32] @CudaSmemLinear {out_of_order, convergent, init = wgmma_async_smem_qual}) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 64) {
    exogpu.reduce %d[%i, 0] += %b[%i, 0] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[256, 32] @CudaSmemLinear
  }
}
exogpu.proc @paper_wgmma() {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 256, 32] @CudaSmemLinear
      %D = exogpu.alloc f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @some_in_order_op_1(%B[%cta, :, :]) : f32[2, 256, 32] @CudaSmemLinear
          exogpu.call @example_wgmma(%D[%cta, %wg, :, :], %B[%cta, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256), f32[2, 256, 32] @CudaSmemLinear
          exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
        }
      }
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
          exogpu.call @some_in_order_op_2(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 256] @Sm90_RmemMatrixD(64, 256)
        }
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
    }
  }
}

// -----

// Desugared instruction arguments (Sec. 4.1 step 1): a two-thread shuffle
// distributes its `:` dimension over its threads (dist = [cuda_thread]), so
// tmp[e, :, k2, k1] is distributed like partial[e, k4, k2, k1]; the chain
// e: 128 -> 8, (arg): 2 -> 1, k2: 8 -> 4, k1: 4 -> 2 is complete.
// CHECK-LABEL: remark: 4 distributed dim(s) [16, 2, 2, 2] with thread pitches [8, 4, 2, 1]; shards of 1 thread(s); shard 0 owned by [0, 0]
// CHECK: remark: 4 distributed dim(s) [16, 2, 2, 2] with thread pitches [8, 4, 2, 1]; shards of 1 thread(s); shard 0 owned by [0, 0]
exogpu.instr @shfl_xor4(%dst: f32[2] @CudaRmem {convergent, dist = [cuda_thread]}, %src: f32[2] @CudaRmem {convergent, dist = [cuda_thread]}) target = cuda, unit = 2 * cuda_threads_strided(1, 4) {
  exogpu.for %i in seq(0, 2) {
    exogpu.assign %dst[%i] = %src[1 - %i] : f32[2] @CudaRmem, f32[2] @CudaRmem
  }
}
exogpu.proc @desugared_shuffle() {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %partial = exogpu.alloc f32[16, 2, 2, 2] @CudaRmem
      %tmp = exogpu.alloc f32[16, 2, 2, 2] @CudaRmem
      exogpu.for %e in cuda_threads(0, 16, unit = 8 * cuda_thread) {
        exogpu.for %k4 in cuda_threads(0, 2, unit = 4 * cuda_thread) {
          exogpu.for %k2 in cuda_threads(0, 2, unit = 2 * cuda_thread) {
            exogpu.for %k1 in cuda_threads(0, 2, unit = cuda_thread) {
              exogpu.assign %partial[%e, %k4, %k2, %k1] = 1.0 : f32[16, 2, 2, 2] @CudaRmem
            }
          }
        }
        exogpu.for %k2 in cuda_threads(0, 2, unit = 2 * cuda_threads_strided(2, 4)) {
          exogpu.for %k1 in cuda_threads(0, 2, unit = 2 * cuda_threads_strided(1, 4)) {
            exogpu.call @shfl_xor4(%tmp[%e, :, %k2, %k1], %partial[%e, :, %k2, %k1]) : f32[16, 2, 2, 2] @CudaRmem, f32[16, 2, 2, 2] @CudaRmem
          }
        }
      }
    }
  }
}

// -----

// A one-thread TMA multicast writes the shared memory of both CTAs and
// signals both CTAs' mbarriers: its `:` indices span the shards as the
// allocation distributes them (the guide's "limited exceptions" to
// ownership). Shared memory allocated at CTA scope is not distributed.
// CHECK-LABEL: remark: 1 distributed dim(s) [2] with thread pitches [128]; shards of 128 thread(s); shard 0 owned by [0, 127]
// CHECK: remark: 1 distributed dim(s) [2] with thread pitches [128]; shards of 128 thread(s); shard 0 owned by [0, 127]
// CHECK: remark: 0 distributed dim(s) [] with thread pitches []; shards of 128 thread(s); shard 0 owned by [0, 127]
exogpu.instr @tma_multicast(%dst: f32[2, 128, 32] @CudaSmemLinear {out_of_order, dist = [cuda_cta_in_cluster]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster] {
  exogpu.for %c in seq(0, 2) {
    exogpu.assign %dst[%c, 0, 0] = 0.0 : f32[2, 128, 32] @CudaSmemLinear
  }
}
exogpu.proc @one_thread_multicast() {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 128, 32] @CudaSmemLinear
      %full = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @tma_multicast(%B[:, :, :]) >> %full[:] : f32[2, 128, 32] @CudaSmemLinear, barrier[2] @CudaMbarrier
        }
        exogpu.await(%full[%cta], cuda_in_order, 0) : barrier[2] @CudaMbarrier
        %C = exogpu.alloc f32[128] @CudaSmemLinear
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %C[%t] = %B[%cta, %t, 0] : f32[128] @CudaSmemLinear, f32[2, 128, 32] @CudaSmemLinear
        }
      }
    }
  }
}

// -----

// An access through a split (exogpu.split) is an access of the split's
// source: splits of a dimension inside the shards keep the CTA dimension,
// indexed by the CTA iterator, distributed.
// CHECK: distributed-memory.mlir:[[@LINE+4]]:{{[0-9]+}}: remark: 1 distributed dim(s) [2] with thread pitches [128]; shards of 128 thread(s); shard 0 owned by [0, 127]
exogpu.proc @split_within_shards() {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %B = exogpu.alloc f32[2, 256] @CudaSmemLinear
      %B_rows = exogpu.split %B dim 1 by 32 : f32[2, 256] @CudaSmemLinear
      %B_quads = exogpu.split %B_rows dim 2 by 4 : window f32[2, 8, 32] @CudaSmemLinear
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %B_quads[%cta, %t / 32, %t mod 32 / 4, %t mod 4] = 0.0 : window f32[2, 8, 8, 4] @CudaSmemLinear
        }
      }
    }
  }
}
