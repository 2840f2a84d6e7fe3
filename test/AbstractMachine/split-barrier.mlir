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
// only common element) and notes both elements at the home's count, so an
// await on @bar[1] pairs too. Only the home count increments.
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

// -----

// A multicast arrive notes every barrier it reaches at its home's count
// (the index of the arrive among its arriver's), whichever arriver runs
// first. "CTA" 0 (thread 0) and "CTA" 1 (thread 2) each write, then arrive
// at their own barrier and the other's; thread 1 of CTA 0 waits for its
// barrier's phase 0 and reads both writes. (Noting @bar[0] at its current
// count, CTA 1's arrive would note phase 1 there, after CTA 0's arrive.)
exoam.proc @multicast_phase_of_home() {
  exoam.alloc barrier @bar[2]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate fully_ordered @x[1] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 2)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 2)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @x[0 to 1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 3)]
  exoam.check_mutates fully_ordered @x[0 to 1] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 3)]
  exoam.check_barrier @bar[0 to 1]
}

// -----

// An element that multicast arrives reach without being their home counts
// the phases they started: @bar[1] is awaited once after one arrive of
// home @bar[0], so its counts balance (phases 1, awaits 1).
exoam.proc @multicast_phases_of_other_element() {
  exoam.alloc barrier @bar[2]
  exoam.record_mutate fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 2)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 2)]
  exoam.check_barrier @bar[0 to 1]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 2)]
  // expected-error @below {{check_barrier failed on @bar[1]: arrive count 1 differs from await count 2}}
  exoam.check_barrier @bar[0 to 1]
}

// -----

// A record with a home barrier notes its barriers at the home's count: the
// multicast TMA of CTA 1 (thread 2) into CTA 0's shard belongs to the phase
// of CTA 1's barrier, 0, although CTA 0 already arrived at its own.
exoam.proc @record_home() {
  exoam.alloc barrier @bar[2]
  exoam.arrive pre = [] >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.record_mutate unordered @s[0] on tma_to_smem_async_qual >> @bar[0] home @bar[1] threads gpu[4 (_, 1, 2)]
  exoam.arrive pre = [] >> @bar[1] threads gpu[4 (_, 1, 2)]
  exoam.await @bar[0] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.check_mutates fully_ordered @s[0] on [tma_to_smem_async_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Without the home, CTA 1's record notes @bar[0] at phase 1, which CTA 0's
// await does not pair with.
exoam.proc @record_without_home() {
  exoam.alloc barrier @bar[2]
  exoam.arrive pre = [] >> @bar[0] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{the mutate was recorded here by {task 0: 2}}}
  exoam.record_mutate unordered @s[0] on tma_to_smem_async_qual >> @bar[0] threads gpu[4 (_, 1, 2)]
  exoam.arrive pre = [] >> @bar[1] threads gpu[4 (_, 1, 2)]
  exoam.await @bar[0] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @s[0]}}
  exoam.check_mutates fully_ordered @s[0] on [tma_to_smem_async_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// A TMA load completes only on the mbarrier it names: its issuer's arrive
// at another barrier (here, an expect-tx arrive at @bar[1]) does not
// witness it while it is in flight (decision (j)). The await on @bar[1]
// orders nothing of it.
exoam.proc @tma_not_witnessed_in_flight() {
  exoam.alloc barrier @bar[2]
  // expected-note @below {{the mutate was recorded here by {task 0: 0}}}
  exoam.record_mutate unordered @s[0] on tma_to_smem_async_qual >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.arrive pre = qfull(tma_to_smem_async) >> @bar[1] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) n = 0 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{check_mutates failed on @s[0]}}
  exoam.check_mutates fully_ordered @s[0] on [tma_to_smem_async_qual] threads gpu[4 (_, 1, 1)]
}

// -----

// Once a thread waited for the TMA on its mbarrier, it sees it temporally
// ordered or above, and its arrives witness it as usual: thread 1 passes
// it on to thread 3 through @bar[1].
exoam.proc @tma_witnessed_after_wait() {
  exoam.alloc barrier @bar[2]
  exoam.record_mutate unordered @s[0] on tma_to_smem_async_qual >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.arrive pre = [] >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[0] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.arrive pre = qfull(cuda_generic_and_async) >> @bar[1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[1] full = qfull(cuda_async_proxy) temp = qtmp(cuda_async_proxy) n = 0 threads gpu[4 (_, 1, 3)]
  exoam.check_mutates fully_ordered @s[0] on [tma_to_smem_async_qual] threads gpu[4 (_, 1, 3)]
}

// -----

// An `own` await (a commit group's wait) raises a record only for the
// awaiting threads that issued it: threads 0 and 1 each issue a cp.async
// into s[0] (a record group of two members in the box engine), both commit
// and wait; thread 0 then sees its own copy, not thread 1's.
exoam.proc @own_await() {
  exoam.alloc barrier @cg[]
  // expected-note @below {{the mutate was recorded here by {task 0: 1}}}
  exoam.record_mutate unordered @s[0] on Sm80_cp_async_qual threads gpu[4 (_, 2, 0)]
  exoam.arrive pre = qfull(Sm80_cp_async) >> @cg[] threads gpu[4 (_, 2, 0)]
  exoam.await own @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 2, 0)]
  // expected-error @below {{check_mutates failed on @s[0]: a mutate recorded on Sm80_cp_async_qual is not visible at fully_ordered on any of [cuda_in_order_ram_qual] to thread (task 0, thread 0)}}
  exoam.check_mutates fully_ordered @s[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
}
