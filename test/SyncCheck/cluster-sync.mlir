// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// A CudaClusterSync barrier is barrier.cluster.arrive / barrier.cluster.wait:
// every thread of the cluster executes each arrive and each await once per
// round, so the statements belong at cluster scope. Written inside the loop
// over the CTAs, the sequential program would run one round per CTA
// iteration (CTA 0 awaiting before CTA 1 arrived), which is not what the
// hardware does; the collective analysis rejects it (docs/abstract-machine.md
// "Cluster syncs").

// Bug: the cluster sync is written inside the per-CTA loop. (On hardware
// this program is correct; the check asks for the cluster-scope spelling
// of the twin below rather than report the hazards that the sequential
// order of the CTA iterations would give.)
exogpu.proc @cluster_sync_in_cta_loop(%S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-note @below {{the collective narrows to a part of the cluster here}}
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %S[%cta, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
        }
        // expected-error @below {{an arrive at a CudaClusterSync barrier (barrier.cluster.arrive) synchronizes all 256 threads of the cluster, but this one is executed by 128 of them; write it at cluster scope, outside the cuda_threads loops and warps blocks}}
        exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %out[%cta, %t] = %S[1 - %cta, %t] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Bug: arrive and await inside the per-CTA loop. In the sequential program
// CTA 0 would await before CTA 1 arrives.
exogpu.proc @cluster_sync_round_per_cta(%S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      // expected-note @below {{the collective narrows to a part of the cluster here}}
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        // expected-error @below {{an await of a CudaClusterSync barrier (barrier.cluster.wait) synchronizes all 256 threads of the cluster, but this one is executed by 128 of them}}
        exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      }
    }
  }
}

// -----

// Twin: the cluster sync at cluster scope orders every CTA's writes of S
// before every CTA's reads.
exogpu.proc @cluster_sync_at_cluster_scope(%S: f32[2, 128] @CudaGmemLinear, %out: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %S[%cta, %t] = 1.0 : f32[2, 128] @CudaGmemLinear
        }
      }
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %out[%cta, %t] = %S[1 - %cta, %t] : f32[2, 128] @CudaGmemLinear, f32[2, 128] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Bug: the cluster sync only in the producer warps: the other warps never
// arrive, so barrier.cluster.wait would never complete.
exogpu.proc @cluster_sync_in_warps(%S: f32[2, 32] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 0, 0), "consumer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-note @below {{the collective narrows to a part of the cluster here}}
      exogpu.warps "producer" {
        // expected-error @below {{an arrive at a CudaClusterSync barrier (barrier.cluster.arrive) synchronizes all 128 threads of the cluster, but this one is executed by 64 of them}}
        exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      }
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
    }
  }
}
