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

// A task iterator that selects statements (here the bound of a loop whose
// length grows with the query block %i, as in the causal attention kernel)
// is part of the key; windows are translated along the others (%b). Each
// value of %i runs once and the tasks with the same %i are replayed: the
// keys alternate from task to task, so the loop keeps one summary per key.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 6 replayed
exoam.proc @keyed_task_iterator() {
  exoam.loop %b in (0, 4) {
    exoam.inc_task_id
    exoam.loop %i in (0, 2) {
      exoam.inc_task_id
      exoam.alloc @smem[8]
      exoam.loop %k in (0, %i + 1) {
        exoam.check_mutates fully_ordered @A[%b, %k, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8]
        exoam.record_read fully_ordered @A[%b, %k, 0 to 7] on cuda_in_order_ram_qual threads gpu[8]
        exoam.record_mutate fully_ordered @smem[0 to 7] on cuda_in_order_ram_qual threads gpu[8]
      }
      exoam.check_mutates temporally_ordered @C[%b, %i] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
      exoam.check_reads temporally_ordered @C[%b, %i] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
      exoam.clear_reads @C[%b, %i]
      exoam.clear_mutates @C[%b, %i]
      exoam.record_mutate fully_ordered @C[%b, %i] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    }
  }
}

// -----

// The rejected twin: the tasks of the second query block also write one
// element of D that does not move with %b. The task (b = 1, i = 0) is
// replayed; the task (b = 1, i = 1) checks a
// list holding the record of (b = 0, i = 1), which it does not see, so it
// runs instead of being replayed and fails as it must.
// CHECK-LABEL: remark: task loop: 3 task(s) ran, 1 replayed
exoam.proc @keyed_task_iterator_race() {
  exoam.loop %b in (0, 4) {
    exoam.inc_task_id
    exoam.loop %i in (0, 2) {
      exoam.inc_task_id
      exoam.if %i == 1 {
        // expected-error @below {{check_mutates failed on @D[0]}}
        exoam.check_mutates temporally_ordered @D[0] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
        exoam.clear_mutates @D[0]
        // expected-note @below {{the mutate was recorded here}}
        exoam.record_mutate fully_ordered @D[0] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
      }
      exoam.record_mutate fully_ordered @C[%b, %i] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    }
  }
}

// -----

// Not replayable: the task iterator sits under a mod in a global window.
// This loop runs every task and gives no remark. A task iterator that
// selects threads or guards a statement is a key: each task of these
// loops has its own, so every task runs.
// CHECK-LABEL: remark: task loop: 4 task(s) ran, 0 replayed
// CHECK: remark: task loop: 4 task(s) ran, 0 replayed
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

// -----

// Tasks that reduce into one window atomically (split-k), after a CPU
// statement wrote it (a record every thread sees): each task's atomic check
// passes on the other tasks' atomic records and on the CPU's, so the first
// task runs and the others are replayed (docs/abstract-machine.md
// "Replaying tasks next to records seen by every thread"). The fence in
// each task gives its threads a grant on the CPU record, which the rewrite
// of the finished task turns into the finished thread's: the record stays
// as the first task left it.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @atomic_reductions_after_cpu_write() {
  exoam.alloc @C[8]
  exoam.clear_mutates @C[0 to 7]
  exoam.record_mutate fully_ordered @C[0 to 7] on cuda_in_order_ram_qual threads cpu
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.check_mutates fully_ordered @A[%t, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.record_read fully_ordered @A[%t, 0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
    exoam.check_mutates atomic_only @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.check_reads temporally_ordered @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.clear_reads @C[0 to 7]
    exoam.record_mutate fully_ordered @C[0 to 7] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
  }
}

// -----

// The same with a plain read of the window before each task's update: the
// second task's read check rejects the first task's atomic record (seen at
// atomic_only), so the second task is not replayed; it runs and reports.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exoam.proc @read_of_atomic_reductions() {
  exoam.alloc @C[8]
  exoam.clear_mutates @C[0 to 7]
  exoam.record_mutate fully_ordered @C[0 to 7] on cuda_in_order_ram_qual threads cpu
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    // expected-error @below {{check_mutates failed on @C[0]: a mutate recorded on cuda_in_order_ram_qual is not visible at fully_ordered on any of [cuda_in_order_ram_qual] to thread (task 2, thread 0)}}
    exoam.check_mutates fully_ordered @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.record_read fully_ordered @C[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
    exoam.check_mutates atomic_only @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.check_reads temporally_ordered @C[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
    exoam.clear_reads @C[0 to 7]
    // expected-note @below {{the mutate was recorded here by {task 1: 0}; that thread sees it at atomic_only}}
    exoam.record_mutate fully_ordered @C[0 to 7] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
  }
}

// -----

// A task's clears drop the records of others (here a CPU record every
// thread sees, at unordered only, on Sm80_cp_async_qual): a replay drops
// them too. After the CPU fence, the check sees the tasks' records fully
// ordered; had a replay kept the CPU record, the check would fail on it.
// CHECK-LABEL: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @clears_of_records_seen_by_all() {
  exoam.alloc @C[32]
  exoam.record_mutate unordered @C[0 to 31] on Sm80_cp_async_qual threads cpu
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.clear_mutates @C[%t * 8 to %t * 8 + 7]
    exoam.record_mutate fully_ordered @C[%t * 8 to %t * 8 + 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
  exoam.fence transitive pre = [cuda_in_order_ram_qual] full = [cuda_in_order_ram_qual] temp = [] threads cpu
  exoam.check_mutates temporally_ordered @C[0 to 31] on [cuda_in_order_ram_qual] threads cpu
}

// -----

// A record every thread sees, on the timeline of the records a task adds
// to the same list (which could prune it), keeps the tasks from being
// replayed: they run.
// CHECK-LABEL: remark: task loop: 4 task(s) ran, 0 replayed
exoam.proc @record_seen_by_all_in_a_kept_list() {
  exoam.alloc @A[4, 8]
  exoam.record_read fully_ordered @A[0 to 3, 0 to 7] on cuda_in_order_ram_qual threads cpu
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_read fully_ordered @A[%t, 0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
}

// -----

// A task loop launched twice, with a CPU statement in between that makes a
// new record every thread sees: the summary of the first launch does not
// know it, so the first task of the second launch runs, and the others are
// replayed.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 6 replayed
exoam.proc @new_record_seen_by_all_between_launches() {
  exoam.alloc @A[4, 8]
  exoam.alloc @X[1]
  exoam.loop %it in (0, 2) {
    exoam.clear_mutates @X[0]
    exoam.record_mutate fully_ordered @X[0] on cpu_in_order_qual threads cpu
    exoam.loop %t in (0, 4) {
      exoam.inc_task_id
      exoam.check_mutates fully_ordered @A[%t, 0 to 7] on [cuda_in_order_ram_qual] threads gpu[8 (_, 1, 0)]
      exoam.record_read fully_ordered @A[%t, 0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
      exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
    }
    exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
    exoam.check_reads temporally_ordered @A[0 to 3, 0 to 7] on [cpu_cuda_stream_qual] threads cpu
    exoam.clear_reads @A[0 to 3, 0 to 7]
  }
}

// -----

// A record every thread sees, made after the last task of a launch ran and
// before it was rewritten as finished (at the next INCTASKID): it did not go
// through that task, so the next launch's task runs (its fence raises the
// record for its threads, through which the host fence then orders it);
// the tasks after it may be replayed again.
// CHECK-LABEL: remark: task loop: 2 task(s) ran, 0 replayed
exoam.proc @record_seen_by_all_after_pending_task() {
  exoam.alloc @A[8]
  exoam.alloc @X[1]
  exoam.loop %it in (0, 2) {
    exoam.if %it == 1 {
      exoam.record_mutate fully_ordered @X[0] on cpu_in_order_qual threads cpu
    }
    exoam.loop %t in (0, 1) {
      exoam.inc_task_id
      exoam.record_read fully_ordered @A[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
      exoam.fence transitive pre = [cpu_in_order_qual] full = [Sm80_cp_async_qual] temp = [] threads gpu[8]
    }
  }
  exoam.fence transitive pre = [Sm80_cp_async_qual] full = [cuda_in_order_ram_qual] temp = [] threads cpu
  exoam.check_mutates fully_ordered @X[0] on [cuda_in_order_ram_qual] threads cpu
}
