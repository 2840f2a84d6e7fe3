// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// Split-k across tasks (the paper's Sec. 6 GEMMs use split-k): the K
// dimension of y = A * x is split between two tasks (clusters), and tasks
// of one kernel are never ordered with each other (Fig. 5: cuda_tasks
// iterations are separate tasks; no synchronization statement spans
// tasks). Both tasks updating the same global element with in-order
// accesses is a race. Each bug is followed by its corrected twin. 64
// threads per task, K = 16 (8 per task).

// WAW across tasks: each task reduces its partial sum into y[tid] with an
// in-order `+=`. The second task's update (check_mutates fully_ordered:
// `+=` reads the old value) finds the first task's update invisible.
exogpu.proc @splitk_reduce(%A: f32[64, 16] @CudaGmemLinear, %x: f32[16] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 2) {
      %acc = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64] @CudaRmem, f32[64, 16] @CudaGmemLinear, f32[16] @CudaGmemLinear
        }
        // expected-note @below {{the earlier write is here}}
        // expected-error @below {{WAW hazard on @y[0]: this write is not ordered after an earlier write by {task 1: 0} on cuda_in_order_ram_qual; thread (task 2, thread 0) of {task 2: 0} sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.reduce %y[%tid] += %acc[%tid] : f32[64] @CudaGmemLinear, f32[64] @CudaRmem
      }
    }
  }
}

// -----

// Twin: the reduction into y is atomic (red.global.add.f32). Not in the
// stdlib: a one-thread atomic add whose destination is annotated atomic on
// cuda_in_order_ram_qual (Fig. 2 `atomic`, Fig. 19 "Atomic": an atomic
// update needs earlier updates only at atomic_only, which every thread has
// on an atomic record).
exogpu.instr @cuda_atomic_add_f32(
    %dst: f32[1] @CudaGmemLinear {atomic = [cuda_in_order_ram_qual]},
    %src: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread,
    cuda = "atomicAdd({dst}, {src.0});" {
  exogpu.reduce %dst[0] += %src[0] : f32[1] @CudaGmemLinear, f32[1] @CudaRmem
}

exogpu.proc @splitk_atomic(%A: f32[64, 16] @CudaGmemLinear, %x: f32[16] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 2) {
      %acc = exogpu.alloc f32[64, 1] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid, 0] = 0.0 : f32[64, 1] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid, 0] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64, 1] @CudaRmem, f32[64, 16] @CudaGmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.call @cuda_atomic_add_f32(%y[%tid:%tid + 1], %acc[%tid, :]) : f32[64] @CudaGmemLinear, f32[64, 1] @CudaRmem
      }
    }
  }
}

// -----

// RAW across tasks: each task adds its partial sum with a plain
// read-modify-write y = y + acc; the second task's read of y is not ordered
// after the first task's write.
exogpu.proc @splitk_read_modify_write(%A: f32[64, 16] @CudaGmemLinear, %x: f32[16] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 2) {
      %acc = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64] @CudaRmem, f32[64, 16] @CudaGmemLinear, f32[16] @CudaGmemLinear
        }
        // expected-note @below {{the earlier write is here}}
        // expected-error @below {{RAW hazard on @y[0]: this read is not ordered after an earlier write by {task 1: 0} on cuda_in_order_ram_qual; thread (task 2, thread 0) of {task 2: 0} sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %y[%tid] = %y[%tid] + %acc[%tid] : f32[64] @CudaGmemLinear, f32[64] @CudaRmem
      }
    }
  }
}

// -----

// Twin: each task writes its partial sums to its own row of a workspace
// (disjoint outputs), and a second kernel, ordered after the first by the
// stream, adds the two rows.
exogpu.proc @splitk_partials(%A: f32[64, 16] @CudaGmemLinear, %x: f32[16] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  %part = exogpu.alloc f32[2, 64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 2) {
      %acc = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64] @CudaRmem, f32[64, 16] @CudaGmemLinear, f32[16] @CudaGmemLinear
        }
        exogpu.assign %part[%ks, %tid] = %acc[%tid] : f32[2, 64] @CudaGmemLinear, f32[64] @CudaRmem
      }
    }
  }
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %y[%tid] = %part[0, %tid] + %part[1, %tid] : f32[64] @CudaGmemLinear, f32[2, 64] @CudaGmemLinear
      }
    }
  }
}
