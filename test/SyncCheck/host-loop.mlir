// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=replay-tasks=false -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check=replay-remarks=true -o /dev/null 2>&1 | FileCheck %s

// Kernels launched from a host loop (issue 21). Kernels on one stream run
// in order (Fig. 5: each launch and completion is a fence on
// cuda_stream_sync), so a kernel may read what any task of the previous
// kernel wrote, across task boundaries, in every iteration of the loop. The
// box engine replays tasks and rewrites the records of finished tasks
// (docs/abstract-machine.md "Task replay", "Finished tasks", "Replaying
// tasks next to records seen by every thread"); the later launches find the
// earlier kernels' records, which the completion fences made visible to
// every thread, on the elements their tasks read, and the rewrite must
// leave those alone (it once emptied them: "an earlier write by {}"). In
// each launch the first task runs and the others are replayed, except a
// task that reads a halo element nobody writes (its list keeps the previous
// launch's read, seen by every thread, which the task's own read would
// prune). Every program runs with the three engines (the first three RUN
// lines); the remarks show which tasks were replayed. Each variable has a
// halo of one task's chunk on each side.

// Ping-pong: the first kernel's task t reads the element before its chunk
// of a (the last one of task t - 1's chunk of the previous iteration's
// second kernel), the second kernel's task t the element after its chunk of
// b (task t + 1's).
// CHECK-LABEL: remark: task loop: 3 task(s) ran, 9 replayed
// CHECK: remark: task loop: 5 task(s) ran, 7 replayed
exogpu.proc @ping_pong(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 3) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %a[%task * 32 + %tid + 31] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %a[%task * 32 + %tid + 32] = %b[%task * 32 + %tid + 33] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Ping-pong through shared memory: each task stages a window of the other
// buffer shifted across its chunk's boundary, a fence orders the staging
// before the reversed read-back, and a second fence the read-back before
// the free.
// CHECK-LABEL: remark: task loop: 3 task(s) ran, 9 replayed
// CHECK: remark: task loop: 5 task(s) ran, 7 replayed
exogpu.proc @ping_pong_fenced(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 3) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        %s = exogpu.alloc f32[32] @CudaSmemLinear
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%tid] = %a[%task * 32 + %tid + 16] : f32[32] @CudaSmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %s[31 - %tid] : f32[192] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        %s = exogpu.alloc f32[32] @CudaSmemLinear
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%tid] = %b[%task * 32 + %tid + 48] : f32[32] @CudaSmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %a[%task * 32 + %tid + 32] = %s[31 - %tid] : f32[192] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// -----

// A chain of three kernels a -> b -> c -> a: the first reads one element
// back, the second one element ahead, the third a whole chunk ahead (task t
// reads task t + 1's chunk).
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 6 replayed
// CHECK: remark: task loop: 3 task(s) ran, 5 replayed
// CHECK: remark: task loop: 3 task(s) ran, 5 replayed
exogpu.proc @chain_of_three(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear, %c: f32[192] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 2) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %a[%task * 32 + %tid + 31] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %c[%task * 32 + %tid + 32] = %b[%task * 32 + %tid + 33] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %a[%task * 32 + %tid + 32] = %c[%task * 32 + %tid + 64] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// The chain of three with a fence in each kernel: each thread writes its
// element, and after the fence reads its neighbour's to add it in.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 6 replayed
// CHECK: remark: task loop: 3 task(s) ran, 5 replayed
// CHECK: remark: task loop: 3 task(s) ran, 5 replayed
exogpu.proc @chain_of_three_fenced(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear, %c: f32[192] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 2) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        %s = exogpu.alloc f32[32] @CudaSmemLinear
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%tid] = %a[%task * 32 + %tid + 31] : f32[32] @CudaSmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %s[%tid] + %s[31 - %tid] : f32[192] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        %s = exogpu.alloc f32[32] @CudaSmemLinear
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%tid] = %b[%task * 32 + %tid + 33] : f32[32] @CudaSmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %c[%task * 32 + %tid + 32] = %s[%tid] + %s[31 - %tid] : f32[192] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        %s = exogpu.alloc f32[32] @CudaSmemLinear
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %s[%tid] = %c[%task * 32 + %tid + 64] : f32[32] @CudaSmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %a[%task * 32 + %tid + 32] = %s[%tid] + %s[31 - %tid] : f32[192] @CudaGmemLinear, f32[32] @CudaSmemLinear
        }
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// -----

// Reject twin of the ping-pong: the second kernel's task t also reads the
// first element of its neighbour's chunk of the buffer the same kernel
// writes. Tasks of one kernel are not ordered (no synchronization spans
// tasks), so task t's read of a[32 t + 64] races with task t + 1's write of
// it: in sequential order the read comes first, and the write finds it
// unordered.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 3 replayed
// CHECK: remark: task loop: 2 task(s) ran, 0 replayed
exogpu.proc @ping_pong_race(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 3) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %a[%task * 32 + %tid + 31] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          // expected-error @below {{WAR hazard on @a[64]: this write is not ordered after an earlier read by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
          // expected-note @below {{the earlier read is here}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %a[%task * 32 + %tid + 32] = %a[%task * 32 + 64] + %b[%task * 32 + %tid + 33] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// The same race, only in the last iteration (the read is guarded by the
// host iterator): the first two iterations pass, as the ping-pong does. The
// failing check names a record of a finished task: the remarks are those of
// the run without the rewrite, which replays only the first launch.
// CHECK-LABEL: remark: task loop: 9 task(s) ran, 3 replayed
// CHECK: remark: task loop: 10 task(s) ran, 0 replayed
exogpu.proc @ping_pong_race_last_iteration(%a: f32[192] @CudaGmemLinear, %b: f32[192] @CudaGmemLinear, %c: f32[128] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 3) {
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %b[%task * 32 + %tid + 32] = %a[%task * 32 + %tid + 31] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
      }
    }
    exogpu.device_function(blockDim = 32) {
      exogpu.for %task in cuda_tasks(0, 4) {
        exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
          // expected-error @below {{WAR hazard on @a[64]: this write is not ordered after an earlier read by thread 0 of another task on cuda_in_order_ram_qual; thread 0 sees it at invisible on [cuda_in_order_ram_qual], not temporally_ordered}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %a[%task * 32 + %tid + 32] = %b[%task * 32 + %tid + 33] : f32[192] @CudaGmemLinear, f32[192] @CudaGmemLinear
        }
        exogpu.if %it == 2 {
          exogpu.for %tid in cuda_threads(0, 32, unit = cuda_thread) {
            // expected-note @below {{the earlier read is here}}
            exogpu.assign %c[%task * 32 + %tid] = %a[%task * 32 + 64] : f32[128] @CudaGmemLinear, f32[192] @CudaGmemLinear
          }
        }
      }
    }
  }
}
