// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// The programs pass the synchronization check.
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// How a collective Arrive on an mbarrier is lowered (docs/cuda-translation.md,
// "mbarrier arrives"; SyncPlan.h): which threads issue the hardware arrives
// (every thread, lane 0 of each warp after a __syncwarp or without one, the
// first thread of each warpgroup), how many arrivals the barrier counts, and
// the scope of arrives at a peer CTA's barrier. Each case next to the one
// that must keep the stronger form.

// Test instructions: a warpgroup's wgmma reading shared memory (the async
// proxy) into its accumulator, and the accumulator's zeroing.
exogpu.instr @wgmma(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]}, %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup, cuda = "asm volatile(\"// wgmma\" : {d.regs} : \"l\"({a}));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.reduce %d[%m, %n] += %a[%m, 0] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 8] @Sm90_SmemSwizzled(128)
    }
  }
}
exogpu.instr @zero_d(%d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent})
    target = cuda, unit = cuda_warpgroup, cuda = "for (int r = 0; r < 32; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// One arrive per warpgroup: the consumers' only accesses before the release
// are their wgmmas' shared-memory reads, which wgmma.wait_group completed for
// the whole warpgroup at once. The barrier counts 2 arrivals (2
// warpgroups); the own CTA's barrier is arrived at with .release.cta.
// CHECK-LABEL: warpgroup_release_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 2 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: }
// CHECK-NEXT: ++bar_arrived;
exogpu.proc @warpgroup_release(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 64, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %bar = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.warps "consumer" {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @zero_d(%D[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @wgmma(%D[%wg, :, :], %S[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64), f32[2, 64, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
          exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.assign %S[0, 0, 0] = %g[0] : f32[2, 64, 8] @Sm90_SmemSwizzled(128), f32[64] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// One arrive per warp, after a __syncwarp: the lanes wrote shared memory
// that the awaiting thread reads; __syncwarp orders each lane's write
// before its lane 0's arrive, whose release.cta carries them. Two warps: 2
// arrivals.
// CHECK-LABEL: warp_release_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 2 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: }
exogpu.proc @warp_release(%g: f32[64] @CudaGmemLinear, %out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writers" = (2, 0, 0), "reader" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[64] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writers" {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %s[%t] = %g[%t] : f32[64] @CudaSmemLinear, f32[64] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "reader" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[63] : f32[2] @CudaGmemLinear, f32[64] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// The same writes made by an instruction whose parameters carry no
// annotation: their accesses are on the in-order timeline of their memory
// (Fig. 20 T_init), generic accesses each lane makes on its own, so the
// arrive keeps the __syncwarp.
exogpu.instr @copy_element(%dst: f32[1] @CudaSmemLinear, %src: f32[1] @CudaGmemLinear)
    target = cuda, unit = cuda_thread, cuda = "*({dst}) = *({src});" {
  exogpu.assign %dst[0] = %src[0] : f32[1] @CudaSmemLinear, f32[1] @CudaGmemLinear
}
// CHECK-LABEL: warp_release_by_instruction_kernel(
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: }
exogpu.proc @warp_release_by_instruction(%g: f32[64] @CudaGmemLinear, %out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writers" = (2, 0, 0), "reader" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[64] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writers" {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.call @copy_element(%s[%t:%t + 1], %g[%t:%t + 1]) : f32[64] @CudaSmemLinear, f32[64] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "reader" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[63] : f32[2] @CudaGmemLinear, f32[64] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// The same writes, then a Fence of the two warps (a named barrier): lane 0
// of each warp met every lane there, so no __syncwarp. The arriving
// collective is two warps, not a warpgroup: one arrive per warp.
// CHECK-LABEL: warp_release_after_rendezvous_kernel(
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: }
exogpu.proc @warp_release_after_rendezvous(%g: f32[64] @CudaGmemLinear, %out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writers" = (2, 0, 0), "reader" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[64] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writers" {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %s[%t] = %g[%t] : f32[64] @CudaSmemLinear, f32[64] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "reader" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[63] : f32[2] @CudaGmemLinear, f32[64] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// Every thread arrives where the arriving collective is not made of whole
// warps (here 16 threads of a warp): 16 arrivals.
// CHECK-LABEL: thread_release_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 16 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: ++bar_arrived;
exogpu.proc @thread_release(%g: f32[16] @CudaGmemLinear, %out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps(0, 1) {
        exogpu.for %q in cuda_threads(0, 1, unit = 16 * cuda_thread) {
          exogpu.for %t in cuda_threads(0, 16, unit = cuda_thread) {
            exogpu.assign %s[%t] = %g[%t] : f32[16] @CudaSmemLinear, f32[16] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
        }
      }
      exogpu.warps(1, 2) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[15] : f32[2] @CudaGmemLinear, f32[16] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// All arrives on one barrier bring the same number of arrivals: the
// barrier's issuers are the finest any of its arrives needs. The first
// release follows the lanes' shared-memory writes (one arrive per warp,
// after a __syncwarp; the awaiting side may use the async proxy, so a proxy
// fence too); the second follows a Fence of the consumers (which orders
// those writes for every thread) and the warpgroups' wgmma waits, which
// would allow one arrive per warpgroup: both arrive per warp, 8 arrivals.
// (The ring has one mbarrier: the producer waits for the first phase before
// a CTA barrier that the second release follows, so the second phase cannot
// complete before that wait passed.)
// CHECK-LABEL: finest_issuers_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 8 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: exo::fence_proxy_async();
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: if (exo_thread % 32 == 0) {
exogpu.proc @finest_issuers(%g: f32[256] @CudaGmemLinear, %out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["consumer" = (8, 0, 0), "producer" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[256] @CudaSmemLinear
      %S = exogpu.alloc f32[2, 64, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %bar = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier[2] @CudaCommitGroup
      exogpu.warps "consumer" {
        exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
          exogpu.assign %s[%t] = %g[%t] : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[255] : f32[2] @CudaGmemLinear, f32[256] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "consumer" {
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @zero_d(%D[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64)
          exogpu.fence(wgmma_fence_1, wgmma_fence_2)
          exogpu.call @wgmma(%D[%wg, :, :], %S[%wg, :, :]) : f32[2, 64, 64] @Sm90_RmemMatrixD(64, 64), f32[2, 64, 8] @Sm90_SmemSwizzled(128)
          exogpu.arrive(wgmma_async, 1) >> %cg[%wg] : barrier[2] @CudaCommitGroup
          exogpu.await(%cg[%wg], cuda_in_order, 0) : barrier[2] @CudaCommitGroup
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_generic_and_async, -1) : barrier @CudaMbarrier
          exogpu.assign %S[0, 0, 0] = %g[1] : f32[2, 64, 8] @Sm90_SmemSwizzled(128), f32[256] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// A release to both CTAs of a cluster (`>> bar[cta] >> bar[:]`) after the
// wgmma waits: each elected thread arrives at its own CTA's barrier
// (.release.cta) and at the peer's with .relaxed.cluster: the arrive orders
// only reads that are complete when it issues (temporal order), so no
// release at cluster scope. 2 warpgroups x 2 CTAs = 4 arrivals.
// CHECK-LABEL: peer_release_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 4 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer(&bar[0], exo_cta ^ 1);
// CHECK-NEXT: }
exogpu.proc @peer_release(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128)
      %D = exogpu.alloc f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier[2, 2] @CudaCommitGroup
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.call @zero_d(%D[%cta, %wg, :, :]) : f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64)
            exogpu.fence(wgmma_fence_1, wgmma_fence_2)
            exogpu.call @wgmma(%D[%cta, %wg, :, :], %S[%cta, %wg, :, :]) : f32[2, 2, 64, 64] @Sm90_RmemMatrixD(64, 64), f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128)
            exogpu.arrive(wgmma_async, 1) >> %cg[%cta, %wg] : barrier[2, 2] @CudaCommitGroup
            exogpu.await(%cg[%cta, %wg], cuda_in_order, 0) : barrier[2, 2] @CudaCommitGroup
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%bar[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
            exogpu.assign %S[%cta, 0, 0, 0] = %g[0] : f32[2, 2, 64, 8] @Sm90_SmemSwizzled(128), f32[64] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The stronger form: the consumers' stores to global memory precede the
// release and no cluster-wide rendezvous has ordered them, so the arrive at
// the peer is .release.cluster (after a __syncwarp, by lane 0 of each warp:
// 8 warps x 2 CTAs = 16 arrivals).
// CHECK-LABEL: peer_release_after_stores_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 16 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer_release(&bar[0], exo_cta ^ 1);
// CHECK-NEXT: }
exogpu.proc @peer_release_after_stores(%g: f32[2048] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
            exogpu.assign %g[%task * 1024 + %cta * 256 + %t] = 1.0 : f32[2048] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%bar[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
            exogpu.assign %g[%task * 1024 + 512 + %cta] = %g[%task * 1024 + (1 - %cta) * 256] : f32[2048] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// The same stores, then a Fence of the whole cluster (the cluster barrier)
// before the release: it ordered the stores at cluster scope and met every
// lane, so the release is one relaxed arrive per warpgroup again.
// CHECK-LABEL: peer_release_after_cluster_fence_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 4 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer(&bar[0], exo_cta ^ 1);
// CHECK-NEXT: }
exogpu.proc @peer_release_after_cluster_fence(%g: f32[2048] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
            exogpu.assign %g[%task * 1024 + %cta * 256 + %t] = 1.0 : f32[2048] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%bar[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
            exogpu.assign %g[%task * 1024 + 512 + %cta] = %g[%task * 1024 + (1 - %cta) * 256] : f32[2048] @CudaGmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// Only accesses to elements that another thread may touch (one of them
// writing) need the arrive's ordering (BufferSharing.h): reads of an input
// nothing writes, and an output each element of which one thread writes
// once, need none. One relaxed arrive per warpgroup, as after wgmma alone.
// CHECK-LABEL: private_accesses_kernel(
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer(&bar[0], exo_cta ^ 1);
exogpu.proc @private_accesses(%x: f32[2048] @CudaGmemLinear, %y: f32[2048] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
            exogpu.assign %y[%task * 1024 + %cta * 256 + %t] = %x[%task * 1024 + %cta * 256 + %t] : f32[2048] @CudaGmemLinear, f32[2048] @CudaGmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%bar[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// A write the issuing thread itself made needs no meeting before its own
// arrive: the first thread of the warpgroup wrote, it arrives for the
// warpgroup. Its twin: the second thread wrote, lane 0 of its warp arrives
// after a __syncwarp (and the barrier counts warps).
// CHECK-LABEL: issuer_wrote_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 1 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: if (exo_thread % 128 == 0) {
// CHECK-LABEL: other_thread_wrote_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 4 arrival(s) per phase
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
exogpu.proc @issuer_wrote(%out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writer" = (4, 0, 0), "reader" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %s[0] = 1.0 : f32[2] @CudaSmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "reader" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[0] : f32[2] @CudaGmemLinear, f32[2] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
exogpu.proc @other_thread_wrote(%out: f32[2] @CudaGmemLinear) {
  exogpu.device_function(warps = ["writer" = (4, 0, 0), "reader" = (4, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.warps "writer" {
        exogpu.for %t in cuda_threads(0, 2, unit = cuda_thread) {
          exogpu.if %t == 1 {
            exogpu.assign %s[0] = 1.0 : f32[2] @CudaSmemLinear
          }
        }
        exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      }
      exogpu.warps "reader" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.await(%bar, cuda_in_order, -1) : barrier @CudaMbarrier
          exogpu.assign %out[%task] = %s[0] : f32[2] @CudaGmemLinear, f32[2] @CudaSmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// Shared memory of the CTA (no instruction writes it across the cluster)
// is out of the peer's reach: the lanes' writes need the warp to meet
// before lane 0 arrives, but the arrive at the peer stays relaxed.
// CHECK-LABEL: cta_shared_memory_kernel(
// CHECK: // arrive-lowering.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[cta] >> bar[:]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[0]);
// CHECK-NEXT: exo::mbarrier_arrive_peer(&bar[0], exo_cta ^ 1);
exogpu.proc @cta_shared_memory(%out: f32[4] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (4, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %s = exogpu.alloc f32[2, 256] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
            exogpu.assign %s[%cta, %t] = 1.0 : f32[2, 256] @CudaSmemLinear
          }
          exogpu.arrive(cuda_in_order, 1) >> %bar[%cta] >> %bar[:] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "producer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.await(%bar[%cta], cuda_generic_and_async, -1) : barrier[2] @CudaMbarrier
            exogpu.assign %out[%task * 2 + %cta] = %s[%cta, 255] : f32[4] @CudaGmemLinear, f32[2, 256] @CudaSmemLinear
          }
        }
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}
