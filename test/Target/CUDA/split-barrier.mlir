exogpu.import "sm80"
exogpu.import "sm90a"
// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// The programs pass the synchronization check.
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc %sm90a -Werror all-warnings -c %t.cu -o %t.o %}

// Arrive/Await by barrier mechanism (seeds/002 Fig. 13; guide "Queue
// Barrier"; seeds/004 commit groups and mbarriers).

// Commit groups: the arrive commits the thread's cp.async copies, the await
// waits for all but the N latest groups (wait_group N); cp.async writes go
// through the generic proxy, so an async-proxy reader needs a proxy fence
// after the wait.
// CHECK-LABEL: commit_groups_kernel(
// CHECK: // split-barrier.mlir:{{[0-9]+}}: arrive(Sm80_cp_async, 1) >> cg[t]
// CHECK-NEXT: asm volatile("cp.async.commit_group;" ::: "memory");
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(cg[t], cuda_in_order, 1)
// CHECK-NEXT: asm volatile("cp.async.wait_group 1;" ::: "memory");
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(cg[t], cuda_generic_and_async, 0)
// CHECK-NEXT: asm volatile("cp.async.wait_group 0;" ::: "memory");
// CHECK-NEXT: exo::fence_proxy_async();
exogpu.proc @commit_groups(%g: f32[1024] @CudaGmemLinear, %out: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[2, 512] @CudaSmemLinear
      %cg = exogpu.alloc barrier[128] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.for %i in seq(0, 2) {
          exogpu.call @Sm80_cp_async_f32x4(%s[%i, %t * 4:%t * 4 + 4], %g[%i * 512 + %t * 4:%i * 512 + %t * 4 + 4]) : f32[2, 512] @CudaSmemLinear, f32[1024] @CudaGmemLinear
          exogpu.arrive(Sm80_cp_async, 1) >> %cg[%t] : barrier[128] @CudaCommitGroup
        }
        exogpu.await(%cg[%t], cuda_in_order, 1) : barrier[128] @CudaCommitGroup
        exogpu.assign %out[%t * 4] = %s[0, %t * 4] : f32[1024] @CudaGmemLinear, f32[2, 512] @CudaSmemLinear
        exogpu.await(%cg[%t], cuda_generic_and_async, 0) : barrier[128] @CudaCommitGroup
        exogpu.assign %out[512 + %t * 4] = %s[1, %t * 4] : f32[1024] @CudaGmemLinear, f32[2, 512] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// mbarrier queue barriers: the arrive count of a phase is the number of
// hardware arrives of the arriving collective (here one per warp, after a
// __syncwarp: the lanes' global accesses of the previous iteration are
// still pending; arrive-lowering.mlir has every case); a per-warpgroup
// array of barriers is one ring per element (slice); an await with N = 0
// pairs with the awaiting threads' own latest arrive; with N = ~lag it
// waits for the arrive `lag` behind its await count, and its first `lag`
// awaits pass at once.
// CHECK-LABEL: queue_barriers_kernel(
// CHECK: uint64_t *const bar = reinterpret_cast<uint64_t *>(exo_smem + 0); // 2 element(s) x depth 3, 4 arrival(s) per phase
// CHECK: uint64_t *const ring = reinterpret_cast<uint64_t *>(exo_smem + 48); // 1 element(s) x depth 3, 8 arrival(s) per phase
// CHECK: for (int i = 0; i < 6; ++i) exo::mbarrier_init(&bar[i], 4);
// CHECK: for (int i = 0; i < 3; ++i) exo::mbarrier_init(&ring[i], 8);
// CHECK: exo::fence_mbarrier_init();
// CHECK: __syncthreads();
// CHECK: unsigned bar_arrived = 0;
// CHECK: unsigned ring_arrived = 0;
// CHECK: unsigned ring_awaited = 0;
// CHECK: // split-barrier.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> bar[wg]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&bar[wg * 3 + bar_arrived % 3]);
// CHECK-NEXT: }
// CHECK-NEXT: ++bar_arrived;
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(bar[wg], cuda_in_order, 0)
// CHECK-NEXT: exo::mbarrier_wait(&bar[wg * 3 + (bar_arrived - 1) % 3], (bar_arrived - 1) / 3 % 2);
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(ring[], cuda_in_order, -3)
// CHECK-NEXT: // the first 2 awaits pair with no arrive (ring lag 2)
// CHECK-NEXT: if (ring_awaited >= 2) {
// CHECK-NEXT: exo::mbarrier_wait(&ring[(ring_awaited - 2) % 3], (ring_awaited - 2) / 3 % 2);
// CHECK-NEXT: }
// CHECK-NEXT: ++ring_awaited;
// CHECK: // split-barrier.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> ring[]
// CHECK-NEXT: __syncwarp();
// CHECK-NEXT: if (exo_thread % 32 == 0) {
// CHECK-NEXT: exo::mbarrier_arrive(&ring[ring_arrived % 3]);
// CHECK-NEXT: }
// CHECK-NEXT: ++ring_arrived;
exogpu.proc @queue_barriers(%g: f32[1024] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 4) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      %ring = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %k in seq(0, 4) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.arrive(cuda_in_order, 1) >> %bar[%wg] : barrier[2] @CudaMbarrier
          exogpu.await(%bar[%wg], cuda_in_order, 0) : barrier[2] @CudaMbarrier
        }
        exogpu.await(%ring, cuda_in_order, -3) : barrier @CudaMbarrier
        exogpu.for %t in cuda_threads(0, 256, unit = cuda_thread) {
          exogpu.reduce %g[%task * 256 + %t] += 1.0 : f32[1024] @CudaGmemLinear
        }
        exogpu.arrive(cuda_in_order, 1) >> %ring : barrier @CudaMbarrier
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// TMA completes on an mbarrier: the issuing thread's arrive expects the
// bytes its loads deliver into the CTA's shared memory (expect_tx), and
// `{bar}` names the ring slot of that arrive.
// CHECK-LABEL: tma_kernel(
// CHECK: uint64_t *const full = reinterpret_cast<uint64_t *>(exo_smem + 0); // 1 element(s) x depth 1, 1 arrival(s) per phase
// CHECK: cp.async.bulk.tensor.2d{{.*}}"r"((unsigned)__cvta_generic_to_shared(&full[0]))
// CHECK: cp.async.bulk.tensor.2d{{.*}}"r"((unsigned)__cvta_generic_to_shared(&full[0]))
// CHECK: // split-barrier.mlir:{{[0-9]+}}: arrive(tma_to_smem_async, 1) >> full[]
// CHECK-NEXT: exo::mbarrier_arrive_expect_tx(&full[0], 32768);
// CHECK-NEXT: ++full_arrived;
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(full[], cuda_generic_and_async, -1)
// CHECK-NEXT: exo::mbarrier_wait(&full[0], full_awaited % 2);
// CHECK-NEXT: ++full_awaited;
exogpu.proc @tma(%A: f32[256, 32] @CudaGmemLinear, %out: f32[256] @CudaGmemLinear) {
  %map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %smem = exogpu.alloc f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      %full = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%smem[0, :, :], %map[0:128, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.call @Sm90_tma_load_128x32_f32(%smem[1, :, :], %map[128:256, :]) >> %full : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %full : barrier @CudaMbarrier
      }
      exogpu.await(%full, cuda_generic_and_async, -1) : barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %out[%t] = %smem[0, %t, 0] + %smem[1, %t, 31] : f32[256] @CudaGmemLinear, f32[2, 128, 32] @Sm90_SmemSwizzled(128)
      }
      exogpu.fence(cuda_generic_and_async, cuda_in_order)
    }
  }
}

// Cluster sync: the split cluster barrier, arrived at and awaited by every
// thread of the cluster.
// CHECK-LABEL: cluster_sync_kernel(
// CHECK: // split-barrier.mlir:{{[0-9]+}}: arrive(cuda_in_order, 1) >> cs[]
// CHECK-NEXT: exo::cluster_arrive();
// CHECK: // split-barrier.mlir:{{[0-9]+}}: await(cs[], cuda_in_order, 0)
// CHECK-NEXT: exo::cluster_wait();
exogpu.proc @cluster_sync(%g: f32[512] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %g[%cta * 128 + %t] = 1.0 : f32[512] @CudaGmemLinear
        }
      }
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.reduce %g[256 + %cta * 128 + %t] += %g[(1 - %cta) * 128 + %t] : f32[512] @CudaGmemLinear
        }
      }
    }
  }
}
