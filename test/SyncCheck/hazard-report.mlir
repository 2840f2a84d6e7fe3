// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null
// RUN: sed -e '/expected-/d' %s | not exogpu-opt -split-input-file --exogpu-sync-check=repair=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOREPAIR
//
// The hazard report of every kind of hazard, as a kernel author reads it
// (docs/abstract-machine.md "Reading a hazard report"): the iteration each
// access ran at, in the source's loop iterators (0-based, as written), and a
// repair the check itself verified: the fence to insert and where (the
// first candidate the check accepts at the given sizes, inserted into a
// copy). Both engines report the same. A hazard that no single fence
// repairs has no repair: the last split. `repair=false` skips the search.
// NOREPAIR: error: RAW hazard on @buf[63]: {{.*}} this read runs at task = 0, tid = 0{{$}}
// NOREPAIR-NOT: repair:
// NOREPAIR: error: WAR hazard on @buf[0]: {{.*}} this write runs at task = 0, tid = 0{{$}}

// RAW: every thread writes buf[tid], then reads buf[63 - tid], written by
// another thread. The repair: a CTA barrier between the two loops.
exogpu.proc @raw(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note-re @below {{the earlier write is here, run at task = 0, tid = 63}}
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error-re @below {{RAW hazard on @buf[63]: this read is not ordered after an earlier write by thread 63 on cuda_in_order_ram_qual; {{.*}} this read runs at task = 0, tid = 0; repair: insert `exogpu.fence(cuda_in_order, cuda_in_order)` right after `exogpu.for %tid` (line {{[0-9]+}}) and before `exogpu.for %tid` (line {{[0-9]+}}), in the body of `exogpu.for %task` (line {{[0-9]+}}) (the check accepts the kernel with it at these sizes)}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAR: after the fence every thread reads buf[63 - tid], then overwrites
// its own buf[tid] while thread 63 - tid may still read it.

exogpu.proc @war(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note-re @below {{the earlier read is here, run at task = 0, tid = 63}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error-re @below {{WAR hazard on @buf[0]: this write is not ordered after an earlier read by thread 63 on cuda_in_order_ram_qual; {{.*}} this write runs at task = 0, tid = 0; repair: insert `exogpu.fence(cuda_in_order, cuda_in_order)` right after `exogpu.for %tid` (line {{[0-9]+}}) and before `exogpu.for %tid` (line {{[0-9]+}}), in the body of `exogpu.for %task` (line {{[0-9]+}}) (the check accepts the kernel with it at these sizes)}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %buf[%tid] = 0.0 : f32[64] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// WAW: every thread writes buf[tid], then buf[63 - tid], which another
// thread wrote.
exogpu.proc @waw(%g: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note-re @below {{the earlier write is here, run at task = 0, tid = 63}}
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error-re @below {{WAW hazard on @buf[63]: this write is not ordered after an earlier write by thread 63 on cuda_in_order_ram_qual; {{.*}} this write runs at task = 0, tid = 0; repair: insert `exogpu.fence(cuda_in_order, cuda_in_order)` right after `exogpu.for %tid` (line {{[0-9]+}}) and before `exogpu.for %tid` (line {{[0-9]+}}), in the body of `exogpu.for %task` (line {{[0-9]+}}) (the check accepts the kernel with it at these sizes)}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %buf[63 - %tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Use after free: the reads of the last loop are not ordered before the
// free the compiler inserts at the end of the task (reported at the
// allocation). The repair goes at the end of the task's body, before the
// inserted free.

exogpu.proc @free(%g: f32[128] @CudaGmemLinear, %out: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      // expected-error-re @below {{use-after-free hazard on @buf[0]: the shared memory is freed (and may be reused) while an earlier read may still be in flight by thread 63 on cuda_in_order_ram_qual; {{.*}} this free runs at task = 0; repair: insert `exogpu.fence(cuda_in_order, cuda_in_order)` right after `exogpu.for %tid` (line {{[0-9]+}}), at the end of the body of `exogpu.for %task` (line {{[0-9]+}}) (the check accepts the kernel with it at these sizes)}}
      // expected-note @below {{missing synchronization}}
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note-re @below {{the earlier read is here, run at task = 0, tid = 63}}
        exogpu.assign %out[%task * 64 + %tid] = %buf[63 - %tid] : f32[128] @CudaGmemLinear, f32[64] @CudaSmemLinear
      }
    }
  }
}

// -----

// No single fence repairs this one: a fence between the two loops leaves
// the next round's first writes unordered after this round's second, one
// at the end of the round leaves the second loop's writes unordered after
// the first loop's. The report has no repair.

exogpu.proc @waw(%g: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %buf = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %round in seq(0, 2) {
        exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
          // expected-note-re @below {{the earlier write is here, run at task = 0, round = 0, tid = 63}}
          exogpu.assign %buf[%tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
        }
        exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
          // expected-error-re @below {{WAW hazard on @buf[63]: {{.*}} this write runs at task = 0, round = 0, tid = 0{{$}}}}
          // expected-note @below {{missing synchronization}}
          exogpu.assign %buf[63 - %tid] = %g[%task * 64 + %tid] : f32[64] @CudaSmemLinear, f32[128] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
