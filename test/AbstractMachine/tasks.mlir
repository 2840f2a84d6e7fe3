// RUN: exogpu-opt %s -split-input-file -exoam-interpret="T=2" -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret="T=2,engine=reference" -verify-diagnostics

// Task ids (seeds/002 Fig. 21 INCTASKID, Def. 5.2): a cuda_tasks loop
// becomes a loop that increments the task id first, so the same local
// thread in two iterations is two global threads.

// Both tasks use one shared-memory buffer without reallocating it: thread 0
// of task 2 does not see thread 0 of task 1's write, and a fence of task 2
// cannot raise it (no task-2 thread sees it).
exoam.proc @shared_across_tasks(%T: index) {
  exoam.alloc @smem[4]
  exoam.loop %task in (0, %T) {
    exoam.inc_task_id
    // expected-error @below {{check_reads failed on @smem[0]: a read recorded on cuda_in_order_ram_qual is not visible at temporally_ordered on any of [cuda_in_order_ram_qual] to thread (task 2, thread 0)}}
    exoam.check_reads temporally_ordered @smem[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
    exoam.check_mutates temporally_ordered @smem[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
    exoam.clear_reads @smem[0]
    exoam.clear_mutates @smem[0]
    exoam.record_mutate fully_ordered @smem[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
    // expected-note @below {{the read was recorded here by {task 1: 1}}}
    exoam.record_read fully_ordered @smem[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 1)]
  }
}

// -----

// The twin: each task allocates its buffer (Fig. 22 ALLOC empties it).
exoam.proc @alloc_per_task(%T: index) {
  exoam.loop %task in (0, %T) {
    exoam.inc_task_id
    exoam.alloc @smem[4]
    exoam.check_reads temporally_ordered @smem[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
    exoam.check_mutates temporally_ordered @smem[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
    exoam.clear_reads @smem[0]
    exoam.clear_mutates @smem[0]
    exoam.record_mutate fully_ordered @smem[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
    exoam.record_read fully_ordered @smem[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 1)]
  }
}

// -----

// Loops are half-open and guards skip their body (Fig. 21): the unsynced
// read of thread 1 runs only for %i = 3, so a loop to 3 passes and a loop
// to 4 fails.
exoam.proc @guarded(%T: index) {
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.loop %i in (0, %T + 1) {
    exoam.if %i == 3 {
      exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
    }
  }
}

// -----

exoam.proc @guarded_taken(%T: index) {
  // expected-note @below {{recorded here}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.loop %i in (0, %T + 2) {
    exoam.if %i == 3 {
      // expected-error @below {{check_mutates failed on @x[0]}}
      exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
    }
  }
}
