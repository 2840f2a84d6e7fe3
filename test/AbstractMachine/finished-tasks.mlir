// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=replay-tasks=false -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret=replay-remarks=true -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="running again"

// Records of finished tasks (docs/abstract-machine.md "Finished tasks"): the
// box engine rewrites the records a replayed task leaves on global elements
// into their finished form once the task has finished (no thread of it runs
// again), so that equal records of different tasks and elements share one
// state. Verdicts and diagnostics stay those of the reference (the first
// three RUN lines); a check that fails on a finished record is run again
// with the records as made, which the remark says. Everywhere else the
// rewrite must not change a verdict: the implicit CHECK-NOT above fails the
// test if any other program needs the second run.

// A later task writes what replayed tasks wrote, unordered: the finished
// records stay invisible to its threads, and the diagnostic names the
// record as made (task 3's, replayed, then rewritten). Per-thread records
// (a group) become one finished record.
// CHECK: remark: a check failed on a record of a finished task: running again with the records as made, for the diagnostic
// CHECK-NEXT: exoam.proc
// CHECK: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @write_after_finished_tasks() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    // expected-note @below {{the mutate was recorded here by {task 3: 0}}}
    exoam.record_mutate fully_ordered @C[%t * 8 to %t * 8 + 7] on cuda_in_order_ram_qual threads gpu[8]
  }
  exoam.inc_task_id
  // expected-error @below {{check_mutates failed on @C[16]: a mutate recorded on cuda_in_order_ram_qual is not visible at temporally_ordered on any of [cuda_in_order_ram_qual] to thread (task 5, thread 0)}}
  exoam.check_mutates temporally_ordered @C[16 to 23] on [cuda_in_order_ram_qual] threads gpu[8]
}

// -----

// A statement after the task loop runs on the threads of its last task
// (no inc_task_id in between): that task has not finished, and its records
// keep their threads; the check passes.
// CHECK: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @gpu_statement_after_task_loop() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_mutate fully_ordered @C[%t * 8 to %t * 8 + 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
  }
  exoam.check_mutates fully_ordered @C[24 to 31] on [cuda_in_order_ram_qual] threads gpu[8]
}

// -----

// A CPU fence after the kernel witnesses finished records on the timelines
// of its first set only: C[t, 0..3] (on cuda_in_order_ram_qual) are raised
// for the CPU, C[t, 4..7] (on Sm80_cp_async_qual) are not. The two halves of
// each task's window have different finished records and stay apart.
// CHECK: remark: a check failed on a record of a finished task: running again with the records as made, for the diagnostic
// CHECK-NEXT: exoam.proc
// CHECK: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @cpu_fence_after_finished_tasks() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.record_mutate fully_ordered @C[%t, 0 to 3] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    // expected-note @below {{the mutate was recorded here by {task 2: 0}}}
    exoam.record_mutate unordered @C[%t, 4 to 7] on Sm80_cp_async_qual threads gpu[8 (_, 1, 0)]
  }
  exoam.fence transitive pre = [cuda_in_order_ram_qual] full = [cpu_in_order_qual, cuda_in_order_ram_qual] temp = [] threads cpu
  exoam.check_mutates fully_ordered @C[0 to 3, 0 to 3] on [cpu_in_order_qual] threads cpu
  // expected-error @below {{check_mutates failed on @C[1, 4]}}
  exoam.check_mutates fully_ordered @C[1 to 3, 4 to 7] on [cpu_in_order_qual] threads cpu
}

// -----

// A local barrier used after the task loop: the records of the last task
// that observed its count are raised by a later await on it, so the
// observed counts of local barriers must be kept (the locals do not stay
// inside the loop).
// CHECK: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @local_barrier_used_after_loop() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.alloc barrier @bar[]
    exoam.record_mutate fully_ordered @C[%t * 8 to %t * 8 + 7] on cuda_in_order_ram_qual threads gpu[8]
    exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[8]
  }
  exoam.inc_task_id
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[8]
  exoam.check_mutates fully_ordered @C[24 to 31] on [cuda_in_order_ram_qual] threads gpu[8]
}

// -----

// A local variable read after the task loop holds the state the last task
// left (task 4's record, not the recorded task's): the replayed tasks'
// local states are installed when locals do not stay inside the loop.
// CHECK: remark: task loop: 1 task(s) ran, 3 replayed
exoam.proc @local_read_after_loop() {
  exoam.loop %t in (0, 4) {
    exoam.inc_task_id
    exoam.alloc @smem[8]
    // expected-note @below {{the mutate was recorded here by {task 4: 0}}}
    exoam.record_mutate fully_ordered @smem[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
  }
  exoam.inc_task_id
  // expected-error @below {{check_mutates failed on @smem[0]}}
  exoam.check_mutates fully_ordered @smem[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8]
}

// -----

// An ALLOC that does not dominate the accesses (inside a guard): tasks of
// the second outer iteration skip it and read the local state the last task
// of the first one left (task 4's record); the first of them fails.
// CHECK: remark: task loop: 2 task(s) ran, 3 replayed
exoam.proc @allocation_under_guard() {
  exoam.loop %r in (0, 2) {
    exoam.loop %t in (0, 4) {
      exoam.inc_task_id
      exoam.if %r == 0 {
        exoam.alloc @smem[8]
      }
      // expected-error @below {{check_mutates failed on @smem[0]}}
      exoam.check_mutates fully_ordered @smem[0 to 7] on [cuda_in_order_ram_qual] threads gpu[8]
      // expected-note @below {{the mutate was recorded here by {task 4: 0}}}
      exoam.record_mutate fully_ordered @smem[0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    }
  }
}

// -----

// A task loop that runs again (a kernel launched from a host loop, issue
// 21). In the second launch, the records the completion fences made visible
// to every thread are new to the summary: its first task runs, and is
// rewritten once finished, on the boxes of the first launch's summary.
// There the mutate list holds only the other kernel's records: the rewrite
// leaves it as it is (it once emptied such a list, and the other kernel's
// next write found an empty record "by {}", invisible to it).
// CHECK: remark: task loop: 2 task(s) ran, 2 replayed
// CHECK: remark: task loop: 2 task(s) ran, 2 replayed
exoam.proc @task_loop_run_again() {
  exoam.alloc @A[2, 4]
  exoam.loop %it in (0, 2) {
    exoam.loop %t in (0, 2) {
      exoam.inc_task_id
      exoam.check_mutates fully_ordered @A[%t, 0 to 3] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
      exoam.record_read fully_ordered @A[%t, 0 to 3] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
    }
    exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
    exoam.loop %t in (0, 2) {
      exoam.inc_task_id
      exoam.check_reads temporally_ordered @A[%t, 0 to 3] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
      exoam.check_mutates temporally_ordered @A[%t, 0 to 3] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
      exoam.clear_reads @A[%t, 0 to 3]
      exoam.clear_mutates @A[%t, 0 to 3]
      exoam.record_mutate fully_ordered @A[%t, 0 to 3] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
    }
    exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  }
}

// -----

// A record every thread sees keeps the grants that tasks' fences gave their
// threads, rewritten to the thread standing for finished tasks once they
// are finished (finishTaskGrants). A check by every thread that fails on it
// reports as blind a thread past the tasks that see it: the run without the
// rewrite (which replays no task next to such a record) names it.
// CHECK: remark: a check failed on a record of a finished task: running again with the records as made, for the diagnostic
// CHECK-NEXT: exoam.proc
// CHECK: remark: task loop: 2 task(s) ran, 0 replayed
exoam.proc @check_by_all_of_raised_record() {
  exoam.alloc @A[2, 8]
  exoam.alloc @X[1]
  // expected-note @below {{the mutate was recorded here by all threads; that thread sees it at invisible on [cpu_in_order_qual]}}
  exoam.record_mutate fully_ordered @X[0] on cpu_cuda_stream_qual threads cpu
  exoam.loop %t in (0, 2) {
    exoam.inc_task_id
    exoam.record_read fully_ordered @A[%t, 0 to 7] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 0)]
    exoam.fence transitive pre = [cpu_cuda_stream_qual] full = [cpu_in_order_qual] temp = [] threads gpu[8]
  }
  exoam.inc_task_id
  // expected-error @below {{check_mutates failed on @X[0]: a mutate recorded on cpu_cuda_stream_qual is not visible at fully_ordered on any of [cpu_in_order_qual] to thread (task 3, thread 0) of the checking threads all threads}}
  exoam.check_mutates fully_ordered @X[0] on [cpu_in_order_qual] threads cpu
}
