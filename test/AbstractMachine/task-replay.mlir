// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=replay-tasks=false -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret=replay-remarks=true -o /dev/null 2>&1 | FileCheck %s

// Task replay (docs/abstract-machine.md "Task replay"): the box engine runs
// the first task of a task loop, summarizes it, and applies the summary to
// later tasks where their runs would be the same up to the task id and a
// translation of the global windows. Verdicts and diagnostics are those of
// running every task (the first three RUN lines); the remarks say which
// tasks were replayed.

// Each task reads its slice of A, stages it in its own shared memory and
// writes its slice of C: tasks 2 to 4 are replayed.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @disjoint_tasks() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.alloc @smem[8]
    exoam.check_mutates fully_ordered @A[%t * 8 to %t * 8 + 7] on [cuda_in_order_ram_qual] threads gpu[8]
    exoam.record_read fully_ordered @A[%t * 8 to %t * 8 + 7] on cuda_in_order_ram_qual threads gpu[8]
    exoam.record_mutate fully_ordered @smem[0 to 7] on cuda_in_order_ram_qual threads gpu[8]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
    exoam.check_mutates fully_ordered @smem[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.record_read fully_ordered @smem[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.check_mutates temporally_ordered @C[%t, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.check_reads temporally_ordered @C[%t, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.clear_reads @C[%t, 0 to 7]
    exoam.clear_mutates @C[%t, 0 to 7]
    // expected-note @below {{the mutate was recorded here by {task 4: 0}}}
    exoam.record_mutate fully_ordered @C[%t, 0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
  // The replayed tasks left their records: a later write to C by another
  // task's thread is unordered after them.
  exoam.inc_task_id
  // expected-error @below {{check_mutates failed on @C[3, 0]}}
  exoam.check_mutates temporally_ordered @C[3, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
}

// -----

// Every task writes all of C (split-k without cross-task ordering): task 2
// checks lists holding task 1's records, so it is not replayed but run, and
// fails as it must.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exoam.proc @overlapping_tasks() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    // expected-error @below {{check_mutates failed on @C[0]: a mutate recorded on cuda_in_order_ram_qual is not visible at temporally_ordered on any of [cuda_in_order_ram_qual] to thread (task 2, thread 0)}}
    exoam.check_mutates temporally_ordered @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.clear_mutates @C[0 to 7]
    // expected-note @below {{the mutate was recorded here by {task 1: 0}}}
    exoam.record_mutate fully_ordered @C[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
}

// -----

// An outer sequential loop's iterator is part of the key: each of its
// iterations records a summary of its own.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 6 replayed
exoam.proc @keyed_by_outer_loop() {
  exoam.loop %r in (0, 2) {
    exoam.loop %t in (0, 4) {
      exoam.inc_task_id
      exoam.alloc @smem[8]
      exoam.record_mutate fully_ordered @smem[%r * 4 to %r * 4 + 3] on cuda_in_order_ram_qual threads gpu[8]
      exoam.record_mutate fully_ordered @C[%r, %t] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    }
  }
}

// -----

// Not replayable: the task iterator selects threads, sits under a mod, or
// guards a statement. These loops run every task and give no remark.
exoam.proc @not_replayable() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_mutate fully_ordered @C[%t, 0] on cuda_in_order_ram_qual threads gpu[8 (%t, 2, 0)]
  }
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_mutate fully_ordered @C[%t mod 2 + 8, 0] on cuda_in_order_ram_qual threads gpu[8]
  }
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.if %t > 0 {
      exoam.record_mutate fully_ordered @C[%t + 16, 0] on cuda_in_order_ram_qual threads gpu[8]
    }
  }
}

// -----

// Allocations inside the body (here in a nested loop) are replayed as
// well: a replayed task resets what they allocate.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @allocation_in_nested_loop() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.loop %i in (0, 2) {
      exoam.alloc @rmem[8]
      exoam.record_mutate fully_ordered @rmem[%i] on cuda_in_order_rmem_qual threads gpu[8 (_, 1, 0)]
      exoam.record_read fully_ordered @C[%t, %i] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    }
  }
}

// -----

// A task that accesses a local variable before allocating it sees the
// previous task's state there: no task is summarized.
// CHECK-LABEL: remark: task loop: 4 task(s) ran, 0 replayed
exoam.proc @local_used_before_allocation() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_read fully_ordered @smem[0] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.alloc @smem[8]
    exoam.record_mutate fully_ordered @C[%t, 0] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
}
