// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null

// Counts no AWAIT can use (docs/abstract-machine.md "Counts no AWAIT can
// use"): the box engine lets a record skip observing a barrier's count at
// an ARRIVE when every AWAIT on that barrier (all within the task, by its
// first N threads) would join only grants the record has. Each program here
// needs the count, and passes only if it is observed (the reference
// observes every count).

// The AWAIT joins Sm80_cp_async_qual fully_ordered, which the fence
// (cp.async.wait_all; __syncthreads) joined temporally_ordered only:
// thread 0's copy must observe its arrive to be raised.
exoam.proc @await_joins_more_timelines() {
  exoam.loop %t in (0, 1) {
    exoam.inc_task_id
    exoam.alloc barrier @cg[]
    exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[64 (_, 1, 0)]
    exoam.fence pre = qfull(Sm80_generic) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[64]
    exoam.arrive pre = [Sm80_cp_async_qual] >> @cg[] threads gpu[64 (_, 1, 0)]
    exoam.await @cg[] full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) n = 0 threads gpu[64 (_, 1, 0)]
    exoam.check_mutates fully_ordered @x[0] on [Sm80_cp_async_qual] threads gpu[64 (_, 1, 0)]
  }
}

// -----

// The fence covers threads 0..31, the AWAIT runs on thread 40 (of 64 in its
// tiling): the record must observe the count to be raised for thread 40.
exoam.proc @await_by_threads_past_the_fence() {
  exoam.loop %t in (0, 1) {
    exoam.inc_task_id
    exoam.alloc barrier @bar[]
    exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[64 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[64 (_, 32, 0)]
    exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[64 (_, 1, 0)]
    exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[64 (_, 1, 40)]
    exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[64 (_, 1, 40)]
  }
}

// -----

// A barrier allocated outside the task loop lives across tasks: task 2's
// AWAIT raises task 1's record, which must observe task 1's ARRIVE although
// task 1's fence covers every thread of task 1.
exoam.proc @barrier_across_tasks() {
  exoam.alloc barrier @bar[]
  exoam.loop %t in (0, 2) {
    exoam.inc_task_id
    exoam.if %t == 0 {
      exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[64 (_, 1, 0)]
      exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[64]
      exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[64 (_, 1, 0)]
    }
    exoam.if %t == 1 {
      exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[64 (_, 1, 0)]
      exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[64 (_, 1, 0)]
    }
  }
}

// -----

// Twin of the first program without the arrive: the check fails (the
// programs above are not vacuous).
exoam.proc @no_arrive() {
  exoam.loop %t in (0, 1) {
    exoam.inc_task_id
    exoam.alloc barrier @cg[]
    // expected-note @below {{the mutate was recorded here}}
    exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[64 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[64]
    exoam.await @cg[] full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) n = 0 threads gpu[64 (_, 1, 0)]
    // expected-error @below {{check_mutates failed on @x[0]}}
    exoam.check_mutates fully_ordered @x[0] on [Sm80_cp_async_qual] threads gpu[64 (_, 1, 0)]
  }
}
