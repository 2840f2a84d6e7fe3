// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// The `t` flag of records and checks (seeds/002 Def. B.1, Fig. 7; Fig. 20
// T_cvg). A convergent check passes if some executing thread sees each
// record; a non-convergent one needs every executing thread. A convergent
// record is one record for all executing threads; a non-convergent one is a
// record per thread.

// Thread 0 writes; the whole CTA checks convergently (a collective
// instruction): thread 0 sees the write, which suffices.
exoam.proc @convergent_check() {
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.check_mutates fully_ordered convergent @x[0] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// The same check without `convergent`: thread 1 is the first CTA thread
// that does not see the write.
exoam.proc @per_thread_check() {
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  // expected-error @below {{to thread (task 0, thread 1) of the checking threads {task 0: 0..3}}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// A convergent check that no executing thread passes.
exoam.proc @convergent_check_blind() {
  // expected-note @below {{the best any checking thread sees it is invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  // expected-error @below {{to any of the checking threads {task 0: 2..3}}}
  exoam.check_mutates fully_ordered convergent @x[0] on [cuda_in_order_ram_qual] threads gpu[2 (_, 2, 2), 2]
}

// -----

// Threads 0..3 write non-convergently: four records, each seen by its own
// thread. Thread 1 then does not see thread 0's record.
exoam.proc @per_thread_records() {
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4]
  // expected-error @below {{to thread (task 0, thread 1)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: a convergent write is one record that all four threads see.
exoam.proc @convergent_record() {
  exoam.record_mutate fully_ordered convergent @x[0] on cuda_in_order_ram_qual threads gpu[4]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A check passes when some checked timeline has the level: the ext
// timelines of an instruction parameter (Fig. 20 T_ext) may list several.
exoam.proc @any_checked_timeline() {
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.check_mutates fully_ordered @x[0] on [wgmma_async_smem_qual, cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
}
