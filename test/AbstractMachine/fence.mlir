// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// Fences (seeds/002 Fig. 22 FENCE, Def. B.3). Threads are those of one CTA of
// 4: `gpu[4 (_, 1, k)]` is thread k alone, `gpu[4]` the whole CTA. CUDA
// in-order accesses to shared memory are on cuda_in_order_ram_qual (cuda2).

// RAW across threads, no synchronization. Thread 0's record grants
// fully_ordered on cuda2 to thread 0 only, so thread 1's read check (t =
// false) finds thread 1 at invisible.
exoam.proc @raw_unsynchronized() {
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  // expected-error @below {{check_mutates failed on @x[0]: a mutate recorded on cuda_in_order_ram_qual is not visible at fully_ordered on any of [cuda_in_order_ram_qual] to thread (task 0, thread 1) of the checking threads {task 0: 1}}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: a CTA-wide Fence(cuda_in_order, cuda_in_order) (__syncthreads).
// W (t = true): thread 0 sees the record at fully_ordered on cuda2, in pre.
// A: every CTA thread now sees it fully_ordered on cuda1 and cuda2.
exoam.proc @raw_fenced() {
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A fence of the wrong timeline: thread 0 writes with cp.async (an
// out-of-order access: unordered, on Sm80_cp_async_qual). __syncthreads'
// pre set {cuda1, cuda2} holds no timeline on which any thread sees the
// record, so W fails and the record is not raised.
exoam.proc @fence_wrong_timeline() {
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  // expected-error @below {{check_mutates failed on @x[0]: a mutate recorded on Sm80_cp_async_qual is not visible at fully_ordered}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: Fence(Sm80_generic, cuda_in_order). Sm80_generic is not
// transitive; W (t = false) holds because the record's own timeline
// Sm80_cp_async_qual is in pre and thread 0 sees it there at unordered.
exoam.proc @fence_right_timeline() {
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.fence pre = qfull(Sm80_generic) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Transitivity. Thread 0 copies with cp.async, waits for it with
// Fence(Sm80_cp_async, cuda_in_order) (non-transitive; W holds on the
// record's own timeline), so thread 0 sees it fully_ordered on cuda2. Then
// a transitive CTA fence with pre {cuda1, cuda2} witnesses the record
// through thread 0's cuda2 visibility, and thread 1 may read.
exoam.proc @transitive_chain() {
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.fence pre = qfull(Sm80_cp_async) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The same chain with a non-transitive second fence: W (t = false) asks for
// the record's own timeline, Sm80_cp_async_qual, which is not in pre, so
// the record is not raised for thread 1.
exoam.proc @non_transitive_chain() {
  // expected-note @below {{that thread sees it at invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.fence pre = qfull(Sm80_cp_async) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 1, 0)]
  exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  // expected-error @below {{to thread (task 0, thread 1)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A fence raises visibility only for its executing threads: a fence by
// threads 0..1 (a pair) does not help thread 2.
exoam.proc @fence_scope_too_small() {
  // expected-note @below {{recorded here by {task 0: 0}; that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[2 (_, 2, 0), 2]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
  // expected-error @below {{to thread (task 0, thread 2)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 2)]
}

// -----

// Temporal visibility. After __syncthreads a write-after-read (WAR) is
// allowed to an async write, which needs temporally_ordered only (Fig. 19
// CheckReads(temporal_ordered, ...)): cuda_in_order's temporal set holds
// Sm80_cp_async_qual. A read check at fully_ordered on that timeline fails.
exoam.proc @temporal_only() {
  // expected-note @below {{the read was recorded here by {task 0: 0}; that thread sees it at temporally_ordered on [Sm80_cp_async_qual]}}
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  exoam.check_reads temporally_ordered @x[0] on [Sm80_cp_async_qual] threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_reads failed on @x[0]: a read recorded on cuda_in_order_ram_qual is not visible at fully_ordered on any of [Sm80_cp_async_qual]}}
  exoam.check_reads fully_ordered @x[0] on [Sm80_cp_async_qual] threads gpu[4 (_, 1, 1)]
}
