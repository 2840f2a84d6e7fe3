// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// Atomic accesses (seeds/002 Fig. 19 "Atomic"; Def. B.1): a record with
// atomic timelines grants atomic_only on them to every thread, so another
// atomic access (CheckMutates(atomic_only, ...)) needs no synchronization;
// a non-atomic access still does.

// Two threads reduce into x[0] atomically, each as Fig. 19 lowers it.
exoam.proc @atomic_reductions() {
  exoam.loop %t in (0, 2) {
    exoam.check_mutates atomic_only @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
    exoam.check_reads temporally_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
    exoam.clear_reads @x[0]
    exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
  }
}

// -----

// The same with non-atomic records: thread 1 sees thread 0's update at
// invisible, below atomic_only.
exoam.proc @non_atomic_reductions() {
  exoam.loop %t in (0, 2) {
    // expected-error @below {{check_mutates failed on @x[0]: a mutate recorded on cuda_in_order_ram_qual is not visible at atomic_only on any of [cuda_in_order_ram_qual] to thread (task 0, thread 1)}}
    exoam.check_mutates atomic_only @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
    exoam.check_reads temporally_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
    exoam.clear_reads @x[0]
    // expected-note @below {{recorded here by {task 0: 0}; that thread sees it at invisible}}
    exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (%t, 1, 0)]
  }
}

// -----

// A plain read after the atomic updates needs fully_ordered: atomic_only
// is not enough.
exoam.proc @read_after_atomics() {
  exoam.loop %t in (0, 2) {
    // expected-note @below {{recorded here by {task 0: 0}; that thread sees it at atomic_only}}
    exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
  }
  // expected-error @below {{is not visible at fully_ordered}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: __syncthreads first.
exoam.proc @read_after_atomics_fenced() {
  exoam.loop %t in (0, 2) {
    exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[4 (%t, 1, 0)]
  }
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// atomic_only does not witness a fence: W needs at least unordered, so a
// fence by threads that see the record only atomically raises nothing.
exoam.proc @atomic_not_witness() {
  // expected-note @below {{recorded here by {task 0: 0}; that thread sees it at atomic_only}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 2)]
  // expected-error @below {{to thread (task 0, thread 2)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 2)]
}
