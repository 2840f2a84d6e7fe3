// RUN: exogpu-opt %s -split-input-file -exoam-interpret="n=70000" -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret="n=70000,engine=reference" -verify-diagnostics

// Programs aimed at the shortcuts of the box engine (docs/abstract-machine.md
// "The two engines"); the reference runs them as the rules are written and
// must agree. Thread 0 produces, thread 1 consumes.

// An AWAIT repeated with the same signature and a larger Max must raise the
// records that observed a count between the two Maxes, although their
// elements did not change since the first AWAIT. x[i] observes count i;
// n = 2 gives Max = 0 (x[0]), then n = 0 gives Max = 2 (x[1], x[2]).
exoam.proc @await_again_larger_max() {
  exoam.alloc barrier @cg[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[2] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 2 threads gpu[4 (_, 1, 1)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0 to 2] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: n = 1 the second time (Max = 1) leaves x[2] unordered.
exoam.proc @await_again_short() {
  exoam.alloc barrier @cg[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[2] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 2 threads gpu[4 (_, 1, 1)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 1 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[2]}}
  exoam.check_mutates fully_ordered @x[0 to 2] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A new barrier lifetime forgets the counts observed and the AWAITs run in
// the old one: x[1] observes count 0 of the new lifetime, below the Max of
// the old lifetime's AWAIT with the same signature, and is raised.
exoam.proc @await_new_lifetime() {
  exoam.alloc barrier @bar[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.alloc barrier @bar[]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0 to 1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A FENCE repeated with the same signature must raise a record added since
// its previous run, also after many unrelated changes in between (the box
// engine's change log is trimmed on the way: the fence's next run starts
// over from its index).
exoam.proc @fence_again_after_many_changes(%n: index) {
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.loop %i in (0, %n) {
    exoam.clear_mutates @y[0]
    exoam.record_mutate fully_ordered @y[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 2)]
    exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 1, 2)]
  }
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Record subsumption: the second read of x[0] is no more visible than the
// first, which the await ordered for thread 1 (the box engine drops the
// first; see isSubsumed). Thread 1's write must still fail on the second.
exoam.proc @subsumed_read_dropped() {
  exoam.alloc barrier @bar[]
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  // expected-error @below {{check_reads failed on @x[0]}}
  exoam.check_reads temporally_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: a second arrive and await order the second read too.
exoam.proc @subsumed_read_ordered() {
  exoam.alloc barrier @bar[]
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_reads temporally_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}
