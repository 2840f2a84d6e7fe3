// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=replay-tasks=false -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check=replay-remarks=true -o /dev/null 2>&1 | FileCheck %s

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
        // expected-error @below {{WAW hazard on @y[0]: this write is not ordered after an earlier write by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
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
        // expected-error @below {{RAW hazard on @y[0]: this read is not ordered after an earlier write by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
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

// -----

// Split-k as the benchmarked kernel does it (examples/gemm_splitk_sm90a.mlir):
// y is zeroed on the stream first, then eight tasks each add their partial
// sums atomically. The box engine runs the first task and replays the
// others (docs/abstract-machine.md "Replaying tasks next to records seen by
// every thread"): the other tasks' atomic records in the lists a task
// checks pass its atomic check, and the memset's record, which every thread
// sees, is left as the first task left it.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 7 replayed
exogpu.instr @cuda_memset_zero_f32(%dst: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = 0.0 : f32[64] @CudaGmemLinear
  }
}

exogpu.instr @cuda_atomic_add_f32(
    %dst: f32[1] @CudaGmemLinear {atomic = [cuda_in_order_ram_qual]},
    %src: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread,
    cuda = "atomicAdd({dst}, {src.0});" {
  exogpu.reduce %dst[0] += %src[0] : f32[1] @CudaGmemLinear, f32[1] @CudaRmem
}

exogpu.proc @splitk_atomic_replayed(%A: f32[64, 64] @CudaGmemLinear, %x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.call @cuda_memset_zero_f32(%y) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 8) {
      %acc = exogpu.alloc f32[64, 1] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid, 0] = 0.0 : f32[64, 1] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid, 0] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64, 1] @CudaRmem, f32[64, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
        exogpu.call @cuda_atomic_add_f32(%y[%tid:%tid + 1], %acc[%tid, :]) : f32[64] @CudaGmemLinear, f32[64, 1] @CudaRmem
      }
    }
  }
}

// -----

// A task that also reads what the other tasks reduce into: after its atomic
// add, each task copies y[tid] out. Nothing orders the tasks, so the first
// task's read races with the second task's atomic add (the second task's
// own read would race with the first task's add). The add's check rejects
// the first task's read record, so the second task is not replayed but
// runs, and reports it.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exogpu.instr @cuda_memset_zero_f32(%dst: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = 0.0 : f32[64] @CudaGmemLinear
  }
}

exogpu.instr @cuda_atomic_add_f32(
    %dst: f32[1] @CudaGmemLinear {atomic = [cuda_in_order_ram_qual]},
    %src: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread,
    cuda = "atomicAdd({dst}, {src.0});" {
  exogpu.reduce %dst[0] += %src[0] : f32[1] @CudaGmemLinear, f32[1] @CudaRmem
}

exogpu.proc @splitk_atomic_read_of_sum(%A: f32[64, 64] @CudaGmemLinear, %x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear, %z: f32[8, 64] @CudaGmemLinear) {
  exogpu.call @cuda_memset_zero_f32(%y) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 8) {
      %acc = exogpu.alloc f32[64, 1] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid, 0] = 0.0 : f32[64, 1] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid, 0] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64, 1] @CudaRmem, f32[64, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
        // expected-error @below {{WAR hazard on @y[0]: this write is not ordered after an earlier read by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @cuda_atomic_add_f32(%y[%tid:%tid + 1], %acc[%tid, :]) : f32[64] @CudaGmemLinear, f32[64, 1] @CudaRmem
        // expected-note @below {{the earlier read is here}}
        exogpu.assign %z[%ks, %tid] = %y[%tid] : f32[8, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}

// -----

// The read before the add: the second task's read of y[tid] sees the first
// task's atomic update only at atomic_only, not fully_ordered. Here the
// record the replay's check rejects is the other task's atomic one.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exogpu.instr @cuda_memset_zero_f32(%dst: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = 0.0 : f32[64] @CudaGmemLinear
  }
}

exogpu.instr @cuda_atomic_add_f32(
    %dst: f32[1] @CudaGmemLinear {atomic = [cuda_in_order_ram_qual]},
    %src: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread,
    cuda = "atomicAdd({dst}, {src.0});" {
  exogpu.reduce %dst[0] += %src[0] : f32[1] @CudaGmemLinear, f32[1] @CudaRmem
}

exogpu.proc @splitk_read_then_atomic(%A: f32[64, 64] @CudaGmemLinear, %x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear, %z: f32[8, 64] @CudaGmemLinear) {
  exogpu.call @cuda_memset_zero_f32(%y) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 8) {
      %acc = exogpu.alloc f32[64, 1] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{RAW hazard on @y[0]: this read is not ordered after an earlier write by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at atomic_only on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %z[%ks, %tid] = %y[%tid] : f32[8, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        exogpu.assign %acc[%tid, 0] = 0.0 : f32[64, 1] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid, 0] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64, 1] @CudaRmem, f32[64, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
        // expected-note @below {{the earlier write is here}}
        exogpu.call @cuda_atomic_add_f32(%y[%tid:%tid + 1], %acc[%tid, :]) : f32[64] @CudaGmemLinear, f32[64, 1] @CudaRmem
      }
    }
  }
}

// -----

// Its non-atomic twin: the in-order `+=` of the second task races with the
// first task's read as well (and with its `+=`).
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exogpu.instr @cuda_memset_zero_f32(%dst: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = 0.0 : f32[64] @CudaGmemLinear
  }
}

exogpu.proc @splitk_read_of_sum(%A: f32[64, 64] @CudaGmemLinear, %x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear, %z: f32[8, 64] @CudaGmemLinear) {
  exogpu.call @cuda_memset_zero_f32(%y) : f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %ks in cuda_tasks(0, 8) {
      %acc = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %acc[%tid] = 0.0 : f32[64] @CudaRmem
        exogpu.for %j in seq(0, 8) {
          exogpu.reduce %acc[%tid] += %A[%tid, %ks * 8 + %j] * %x[%ks * 8 + %j] : f32[64] @CudaRmem, f32[64, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
        // expected-error @below {{WAR hazard on @y[0]: this write is not ordered after an earlier read by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not fully_ordered}}
        // expected-note @below {{missing synchronization}}
        exogpu.reduce %y[%tid] += %acc[%tid] : f32[64] @CudaGmemLinear, f32[64] @CudaRmem
        // expected-note @below {{the earlier read is here}}
        exogpu.assign %z[%ks, %tid] = %y[%tid] : f32[8, 64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}
