// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// Split barriers (seeds/002 Fig. 22 ARRIVE, AWAIT; guide "Queue Barrier").
// Thread 0 produces, thread 1 consumes; barriers are scalars `@bar[]`. An
// arrive notes the barrier's arrive count `a` in every record its threads
// see on pre, then increments `a`. An await with counts (a, w) raises the
// records that noted a count <= Max, with Max = a - (n + 1) for n >= 0 and
// Max = w + n + 1 for n < 0.

// N = 0. x's record notes count 0 at the arrive; the await sees (a, w) =
// (1, 0), Max = 0, and raises it for thread 1.
exoam.proc @n0_paired() {
  exoam.alloc barrier @bar[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The write comes after the arrive: its record noted no count, so the
// await does not raise it.
exoam.proc @n0_write_after_arrive() {
  exoam.alloc barrier @bar[]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[0]}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The arrive's pre timelines must cover the access: a cp.async write
// (Sm80_cp_async_qual) is not witnessed by an arrive on cuda_in_order.
exoam.proc @arrive_wrong_timeline() {
  exoam.alloc barrier @bar[]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[0]}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: an Sm80_cp_async arrive (cp.async.mbarrier.arrive).
exoam.proc @arrive_right_timeline() {
  exoam.alloc barrier @bar[]
  exoam.record_mutate unordered @x[0] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive pre = qfull(Sm80_cp_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// N = 1 (wait_group 1): two groups; x[0]'s record notes {0, 1}, x[1]'s {1}.
// The await sees (2, 0): Max = 0 raises x[0] only.
exoam.proc @n1_older_group() {
  exoam.alloc barrier @cg[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 1 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

exoam.proc @n1_newest_group() {
  exoam.alloc barrier @cg[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 1 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[1]}}
  exoam.check_mutates fully_ordered @x[1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// The twin: wait_group 0 (Max = 1) raises both groups.
exoam.proc @n0_newest_group() {
  exoam.alloc barrier @cg[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// N = -1 (a ring without lag): the k-th await pairs with the k-th arrive.
// First await: w = 0, Max = 0 raises x[0]; second: w = 1, Max = 1, x[1].
exoam.proc @ring_in_order() {
  exoam.alloc barrier @full[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
  exoam.check_barrier @full[]
}

// -----

// Reading x[1] after only the first await of the ring.
exoam.proc @ring_too_early() {
  exoam.alloc barrier @full[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[1]}}
  exoam.check_mutates fully_ordered @x[1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// N = -2 (lag 1): the first await pairs with no arrive (Max = -1), the
// second with the first arrive (Max = 0).
exoam.proc @ring_lag_first_await() {
  exoam.alloc barrier @full[]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -2 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[0]}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

exoam.proc @ring_lag_second_await() {
  exoam.alloc barrier @full[]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @full[] threads gpu[4 (_, 1, 0)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -2 threads gpu[4 (_, 1, 1)]
  exoam.await @full[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -2 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Barriers are per element: an arrive on @bar[0] is not awaited through
// @bar[1].
exoam.proc @other_element() {
  exoam.alloc barrier @bar[2]
  // expected-note @below {{that thread sees it at invisible}}
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @x[0]}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Multicast: an arrive at @bar[0] >> @bar[0 to 1] has home @bar[0] (the
// only common element) but notes the counts of both elements, so an await
// on @bar[1] pairs too. Only the home count increments.
exoam.proc @multicast() {
  exoam.alloc barrier @bar[2]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] threads gpu[4 (_, 1, 2)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
  // @bar[0] was arrived at once and never awaited.
  // expected-error @below {{check_barrier failed on @bar[0]: arrive count 1 differs from await count 0}}
  exoam.check_barrier @bar[0 to 1]
}
