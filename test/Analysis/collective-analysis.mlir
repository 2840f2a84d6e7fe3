// Collective tilings and thread sets of the documents' worked examples and of
// every collective unit of seeds/002 Fig. 11 (remarks show the first four
// iterations of the innermost cuda_threads iterator, the others at 0).
// RUN: exogpu-opt %s -split-input-file --exogpu-collective-analysis=emit-remarks=true -o /dev/null 2>&1 | FileCheck %s

// The guide's m/n loops ("cuda_threads Loops" figure): in a CTA of 128
// threads, m = 2 runs on threads [32, 47] and each n on one thread.
// CHECK-LABEL: remark: cuda_threads %m: tiling [8 pitch 16: %m(box 16, tiles 8, pitch 16)] [16]; 16 thread(s); %m = 0: [0, 15]; %m = 1: [16, 31]; %m = 2: [32, 47]; %m = 3: [48, 63]; ...
// CHECK: remark: cuda_threads %n: tiling [8 pitch 16: %m(box 16, tiles 8, pitch 16)] [16: %n(box 1, tiles 16, pitch 1)]; 1 thread(s); %n = 0: [0, 0]; %n = 1: [1, 1]; %n = 2: [2, 2]; %n = 3: [3, 3]; ...
exogpu.proc @guide_m_n(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %m in cuda_threads(0, 8, unit = 16 * cuda_thread) {
        exogpu.for %n in cuda_threads(0, 16, unit = cuda_thread) {
          exogpu.assign %x[%m * 16 + %n] = 0.0 : f32[128] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// The guide's CudaWarps(3, 4) under a warpgroup loop selects threads
// [96, 127] and [224, 255].
// CHECK-LABEL: remark: cuda_threads %wg: tiling [2 pitch 128: %wg(box 128, tiles 2, pitch 128)] [128]; 128 thread(s); %wg = 0: [0, 127]; %wg = 1: [128, 255]
// CHECK: remark: warps: tiling [2 pitch 128: %wg(box 128, tiles 2, pitch 128)] [4 pitch 32: warps(box 32, offset 96)] [32]; 32 thread(s); %wg = 0: [96, 127]; %wg = 1: [224, 255]
// CHECK: remark: call @warp_op: {{.*}}; 32 thread(s); %wg = 0: [96, 127]; %wg = 1: [224, 255]
exogpu.instr @warp_op(%x: f32[32] @CudaGmemLinear) target = cuda, unit = cuda_warp {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %x[%i] = 0.0 : f32[32] @CudaGmemLinear
  }
}
exogpu.proc @guide_cuda_warps(%x: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
        exogpu.warps(3, 4) {
          exogpu.call @warp_op(%x[%wg * 32:%wg * 32 + 32]) : f32[64] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// The scopes of paper Sec. 2.1 (inset): cuda_tasks(0, 37) is a CTA scope,
// cuda_threads over cuda_warp a warp scope, over cuda_thread a thread scope.
// CHECK-LABEL: remark: cuda_threads %w: tiling [4 pitch 32: %w(box 32, tiles 4, pitch 32)] [32]; 32 thread(s); %w = 0: [0, 31]; %w = 1: [32, 63]; %w = 2: [64, 95]; %w = 3: [96, 127]
// CHECK: remark: cuda_threads %t: tiling [4 pitch 32: %w(box 32, tiles 4, pitch 32)] [32: %t(box 1, tiles 32, pitch 1)]; 1 thread(s); %t = 0: [0, 0]; %t = 1: [1, 1]; %t = 2: [2, 2]; %t = 3: [3, 3]; ...
exogpu.proc @paper_scopes(%x: f32[4736] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %blk in cuda_tasks(0, 37) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %x[%blk * 128 + %w * 32 + %t] = 0.0 : f32[4736] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Paper Sec. 2.2: a cluster of 2 CTAs (natural thread index
// cluster_ctarank * blockDim + threadIdx.x); warpgroups within each CTA.
// CHECK-LABEL: remark: cuda_threads %cta: tiling [2 pitch 256: %cta(box 256, tiles 2, pitch 256)] [256]; 256 thread(s); %cta = 0: [0, 255]; %cta = 1: [256, 511]
// CHECK: remark: cuda_threads %wg: tiling [2 pitch 256: %cta(box 256, tiles 2, pitch 256)] [2 pitch 128: %wg(box 128, tiles 2, pitch 128)] [128]; 128 thread(s); %wg = 0: [0, 127]; %wg = 1: [128, 255]
// CHECK: remark: call @wg_op: {{.*}}; 128 thread(s); %wg = 0: [0, 127]; %wg = 1: [128, 255]
exogpu.instr @wg_op(%x: f32[128] @CudaGmemLinear) target = cuda, unit = cuda_warpgroup {
  exogpu.for %i in seq(0, 128) {
    exogpu.assign %x[%i] = 0.0 : f32[128] @CudaGmemLinear
  }
}
exogpu.proc @paper_cluster(%x: f32[512] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 256) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
          exogpu.call @wg_op(%x[%cta * 256 + %wg * 128:%cta * 256 + %wg * 128 + 128]) : f32[512] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Named warps (paper Fig. 3: 1 producer, 3 unused and 8 consumer warps per
// CTA, clusters of 2 CTAs, blockDim 384). A name selects that group's warps
// in every CTA of the collective; numbered warps are relative to it.
// CHECK-LABEL: remark: warps: tiling [2 pitch 384] [12 pitch 32: warps(box 256, offset 128)] [32]; 512 thread(s); threads [128, 383] [512, 767]
// CHECK: remark: cuda_threads %cta: {{.*}}; 256 thread(s); %cta = 0: [128, 383]; %cta = 1: [512, 767]
// CHECK: remark: cuda_threads %wg: {{.*}}; 128 thread(s); %wg = 0: [128, 255]; %wg = 1: [256, 383]
// CHECK: remark: warps: {{.*}}; 32 thread(s); %wg = 0: [160, 191]; %wg = 1: [288, 319]
// CHECK: remark: call @warp_op: {{.*}}; 32 thread(s); %wg = 0: [160, 191]; %wg = 1: [288, 319]
// CHECK: remark: warps: tiling [2 pitch 384] [12 pitch 32: warps(box 32)] [32]; 64 thread(s); threads [0, 31] [384, 415]
// CHECK: remark: cuda_threads %p: {{.*}}; 32 thread(s); %p = 0: [0, 31]; %p = 1: [384, 415]
// CHECK: remark: cuda_threads %t: {{.*}}; 1 thread(s); %t = 0: [0, 0]
// CHECK: remark: warps: tiling [2 pitch 384] [12 pitch 32: warps(box 128, offset 256)] [32]; 256 thread(s); threads [256, 383] [640, 767]
exogpu.instr @warp_op(%x: f32[32] @CudaGmemLinear) target = cuda, unit = cuda_warp {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %x[%i] = 0.0 : f32[32] @CudaGmemLinear
  }
}
exogpu.proc @named_warps(%x: f32[64] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, warps = ["producer" = (1, 40, 0), "unused" = (3, 40, 0), "consumer" = (8, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.warps "consumer" {
        exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %wg in cuda_threads(0, 2, unit = cuda_warpgroup) {
            exogpu.warps(1, 2) {
              exogpu.call @warp_op(%x[%wg * 32:%wg * 32 + 32]) : f32[64] @CudaGmemLinear
            }
          }
        }
      }
      exogpu.warps "producer" {
        exogpu.for %p in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
          exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
            exogpu.assign %x[%p] = 1.0 : f32[64] @CudaGmemLinear
          }
        }
      }
      exogpu.warps "consumer"(4, 8) {
      }
    }
  }
}

// -----

// Units of Fig. 11 inside one CTA: n * cuda_thread, cuda_quadpair (threads
// 4q..4q+3 and 4q+16..4q+19 of a warp), n * cuda_threads_strided(n2, n3)
// (n rows of n2 threads, rows n3 threads apart) and n * cuda_warp.
// CHECK-LABEL: remark: cuda_threads %q: {{.*}}; 8 thread(s); %q = 0: [0, 3] [16, 19]; %q = 1: [4, 7] [20, 23]; %q = 2: [8, 11] [24, 27]; %q = 3: [12, 15] [28, 31]
// CHECK: remark: call @quadpair_op: {{.*}}; 8 thread(s); %q = 0: [0, 3] [16, 19]
// CHECK: remark: cuda_threads %e: {{.*}}; 8 thread(s); %e = 0: [0, 7]; %e = 1: [8, 15]; %e = 2: [16, 23]; %e = 3: [24, 31]; ...
// CHECK: remark: cuda_threads %k2: {{.*}}; 4 thread(s); %k2 = 0: [0, 1] [4, 5]; %k2 = 1: [2, 3] [6, 7]
// CHECK: remark: cuda_threads %k1: {{.*}}; 2 thread(s); %k1 = 0: [0, 0] [4, 4]; %k1 = 1: [1, 1] [5, 5]
// CHECK: remark: call @pair_op: {{.*}}; 2 thread(s); %k1 = 0: [0, 0] [4, 4]; %k1 = 1: [1, 1] [5, 5]
// CHECK: remark: cuda_threads %h: tiling [2 pitch 64: %h(box 64, tiles 2, pitch 64)] [64]; 64 thread(s); %h = 0: [0, 63]; %h = 1: [64, 127]
exogpu.instr @quadpair_op(%x: f32[8] @CudaGmemLinear) target = cuda, unit = cuda_quadpair {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %x[%i] = 0.0 : f32[8] @CudaGmemLinear
  }
}
exogpu.instr @pair_op(%x: f32[2] @CudaGmemLinear) target = cuda, unit = 2 * cuda_threads_strided(1, 4) {
  exogpu.for %i in seq(0, 2) {
    exogpu.assign %x[%i] = 0.0 : f32[2] @CudaGmemLinear
  }
}
exogpu.proc @cta_units(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
        exogpu.for %q in cuda_threads(0, 4, unit = cuda_quadpair) {
          exogpu.call @quadpair_op(%x[%q * 8:%q * 8 + 8]) : f32[128] @CudaGmemLinear
        }
      }
      exogpu.for %e in cuda_threads(0, 16, unit = 8 * cuda_thread) {
        exogpu.for %k2 in cuda_threads(0, 2, unit = 2 * cuda_threads_strided(2, 4)) {
          exogpu.for %k1 in cuda_threads(0, 2, unit = 2 * cuda_threads_strided(1, 4)) {
            exogpu.call @pair_op(%x[%k1 * 2:%k1 * 2 + 2]) : f32[128] @CudaGmemLinear
          }
        }
      }
      exogpu.for %h in cuda_threads(0, 2, unit = 2 * cuda_warp) {
      }
    }
  }
}

// -----

// Cluster units of Fig. 11 with 4 CTAs of 128 threads: n * cuda_cta_in_cluster,
// n * cuda_warp_in_cluster (the same warp of n CTAs; with n = 1 the 16 warps
// of the cluster in order), the strided variants (CTAs n3 apart),
// cuda_cluster, and cuda_warp, which at cluster scope is agnostic about the
// CTA (one warp of every CTA).
// CHECK-LABEL: remark: cuda_threads %pair: {{.*}}; 256 thread(s); %pair = 0: [0, 255]; %pair = 1: [256, 511]
// CHECK: remark: cuda_threads %s: {{.*}}; 256 thread(s); %s = 0: [0, 127] [256, 383]; %s = 1: [128, 255] [384, 511]
// CHECK: remark: cuda_threads %w: {{.*}}; 128 thread(s); %w = 0: [0, 31] [128, 159] [256, 287] [384, 415]; %w = 1: [32, 63] [160, 191] [288, 319] [416, 447]; %w = 2: [64, 95] [192, 223] [320, 351] [448, 479]; %w = 3: [96, 127] [224, 255] [352, 383] [480, 511]
// CHECK: remark: cuda_threads %ws: {{.*}}; 64 thread(s); %ws = 0: [0, 31] [256, 287]; %ws = 1: [128, 159] [384, 415]
// CHECK: remark: cuda_threads %cw: tiling [16 pitch 32: %cw(box 32, tiles 16, pitch 32)] [32]; 32 thread(s); %cw = 0: [0, 31]; %cw = 1: [32, 63]; %cw = 2: [64, 95]; %cw = 3: [96, 127]; ...
// CHECK: remark: cuda_threads %aw: {{.*}}; 128 thread(s); %aw = 0: [0, 31] [128, 159] [256, 287] [384, 415]; %aw = 1: [32, 63] [160, 191] [288, 319] [416, 447]
// CHECK: remark: cuda_threads %c: {{.*}}; 512 thread(s); %c = 0: [0, 511]
// CHECK: remark: call @cluster_op: {{.*}}; 512 thread(s); %c = 0: [0, 511]
// CHECK: remark: cuda_threads %a: {{.*}}; 128 thread(s); %a = 0: [0, 127]; %a = 1: [128, 255]; %a = 2: [256, 383]; %a = 3: [384, 511]
// CHECK: remark: call @intact_op: {{.*}}; 128 thread(s); %a = 0: [0, 127]
// CHECK: remark: cuda_threads %v: {{.*}}; 32 thread(s); %v = 0: [0, 31]
// CHECK: remark: call @sub_cta_op: {{.*}}; 32 thread(s); %v = 0: [0, 31]
exogpu.instr @cluster_op(%x: f32[4] @CudaGmemLinear) target = cuda, unit = cuda_cluster {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %x[%i] = 0.0 : f32[4] @CudaGmemLinear
  }
}
exogpu.instr @intact_op(%x: f32[4] @CudaGmemLinear) target = cuda, unit = cuda_agnostic_intact_cta {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %x[%i] = 0.0 : f32[4] @CudaGmemLinear
  }
}
exogpu.instr @sub_cta_op(%x: f32[4] @CudaGmemLinear) target = cuda, unit = cuda_agnostic_sub_cta {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %x[%i] = 0.0 : f32[4] @CudaGmemLinear
  }
}
exogpu.proc @cluster_units(%x: f32[4] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 4, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %pair in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster) {
      }
      exogpu.for %s in cuda_threads(0, 2, unit = 2 * cuda_cta_in_cluster_strided(2)) {
      }
      exogpu.for %w in cuda_threads(0, 4, unit = 4 * cuda_warp_in_cluster) {
        exogpu.for %ws in cuda_threads(0, 2, unit = 2 * cuda_warp_in_cluster_strided(2)) {
        }
      }
      exogpu.for %cw in cuda_threads(0, 16, unit = cuda_warp_in_cluster) {
      }
      exogpu.for %aw in cuda_threads(0, 4, unit = cuda_warp) {
      }
      exogpu.for %c in cuda_threads(0, 1, unit = cuda_cluster) {
        exogpu.call @cluster_op(%x[0:4]) : f32[4] @CudaGmemLinear
      }
      exogpu.for %a in cuda_threads(0, 4, unit = cuda_cta_in_cluster) {
        exogpu.call @intact_op(%x[0:4]) : f32[4] @CudaGmemLinear
        exogpu.for %v in cuda_threads(0, 1, unit = cuda_warp) {
          exogpu.call @sub_cta_op(%x[0:4]) : f32[4] @CudaGmemLinear
        }
      }
    }
  }
}
