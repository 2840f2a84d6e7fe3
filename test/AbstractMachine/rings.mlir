// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// Barrier elements that are rings of mbarriers (`alloc barrier ... ring R`;
// docs/abstract-machine.md, "Rings"), in AMIR: the rules that need no
// exogpu program to reach them. Thread 0 and thread 1 of a 4-thread task;
// test/SyncCheck/rings.mlir and hangs.mlir have the rules on kernels.

// Numbering of arrives: thread 0 arrives at two elements of one ring
// variable; its second arrive is its arrive 1 on @bar, phase 0 of @bar[1].
exoam.proc @arrives_at_two_elements() {
  exoam.alloc barrier @bar[2] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] threads gpu[4 (_, 1, 0)]
  // expected-error @below {{this arrive signals phase 0 of @bar[1], but thread 0 made 1 arrive(s) on @bar before it}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
}

// -----

// Twin: without `ring`, a barrier has Fig. 22's unbounded phases, counted
// per element.
exoam.proc @arrives_at_two_elements_unbounded() {
  exoam.alloc barrier @bar[2]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 2, 1)]
}

// -----

// A fence orders ring events only if it is a rendezvous of its threads
// (docs/cuda-translation.md: one that orders more than registers). Thread
// 1 waits for phase 0 (no arrive yet); with thread 0 it then passes a
// fence over shared memory, which thread 0 leaves only after thread 1
// reached it: thread 0's arrive never comes.
exoam.proc @hang_through_rendezvous() {
  exoam.alloc barrier @bar[] ring 1
  // expected-error @below {{hang: this await waits for phase 0 of @bar[], which the arrive noted below completes, which waits for this await: the arrive by thread 0 is ordered after thread 1 passed it}}
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  // expected-note @below {{the arrive that completes phase 0 of @bar[], ordered after the await}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
}

// -----

// Twin: a fence over registers only (wgmma_fence_2's sets) has no
// rendezvous: thread 0 does not wait for thread 1.
exoam.proc @no_hang_through_register_fence() {
  exoam.alloc barrier @bar[] ring 1
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.fence pre = qfull(wgmma_fence_2) full = qfull(wgmma_fence_2) temp = qtmp(wgmma_fence_2) threads gpu[4 (_, 2, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
}

// -----

// The completion of an asynchronous call comes after everything its
// issuer passed: thread 1 waits for phase 0 of @a, then issues a copy that
// completes on @b; thread 0 waits for that completion and only then
// arrives at @a.
exoam.proc @hang_through_completion() {
  exoam.alloc barrier @a[] ring 1
  exoam.alloc barrier @b[] ring 1
  // expected-error @below {{hang: this await waits for phase 0 of @a[], which the arrive noted below completes, which waits for this await}}
  exoam.await @a[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.complete >> @b[] threads gpu[4 (_, 1, 1)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @b[] threads gpu[4 (_, 1, 1)]
  exoam.await @b[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
  // expected-note @below {{the arrive that completes phase 0 of @a[], ordered after the await}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @a[] threads gpu[4 (_, 1, 0)]
}

// -----

// Twin: thread 0 arrives at @a before it waits for the completion.
exoam.proc @arrive_before_completion() {
  exoam.alloc barrier @a[] ring 1
  exoam.alloc barrier @b[] ring 1
  exoam.await @a[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.complete >> @b[] threads gpu[4 (_, 1, 1)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @b[] threads gpu[4 (_, 1, 1)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @a[] threads gpu[4 (_, 1, 0)]
  exoam.await @b[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
}

// -----

// On a barrier that is not a ring, `complete` does nothing: the await of
// phase 1 raises the record of phase 0's copy (Fig. 22: every count at most
// Max). On a ring it does not (below).
exoam.proc @completion_unbounded() {
  exoam.alloc barrier @bar[]
  exoam.record_mutate unordered @x[0] on tma_to_smem_async_qual >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 0)]
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
}

// -----

exoam.proc @completion_skipped() {
  exoam.alloc barrier @bar[] ring 2
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate unordered @x[0] on tma_to_smem_async_qual >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{skipped wait: this await waited for phase 1 of @bar[], which does not order the earlier access: it completes in phase 0}}
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 0)]
  // expected-error @below {{check_mutates failed on @x[0]}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 0)]
}

// -----

// A phase that no await waits for and that gets fewer arrivals than the
// ring counts (rule 6(b)): thread 0's arrive reaches both elements (as a
// multicast arrive reaches the element of every CTA of its window), so each
// ring counts 2 arrivals per phase, and thread 1, the home arriver of
// @bar[1], never arrives. Reported at the end of the lifetime, where the
// next task would find the ring in the middle of a phase.
exoam.proc @short_phase_unawaited() {
  exoam.alloc barrier @bar[2] ring 1
  // expected-note @below {{the arrivals of phase 0 come from here}}
  // expected-note @below {{the arrive that sets the ring's arrival count}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  // expected-error @below {{hang: phase 0 of @bar[0] gets 1 of the 2 arrivals its ring counts, so it never completes on the hardware}}
  exoam.check_barrier @bar[0 to 1]
}

// -----

// Twin: the home arriver of each element arrives at both, and each phase
// is awaited.
exoam.proc @every_home_arrives() {
  exoam.alloc barrier @bar[2] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 2)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 3)]
  exoam.check_barrier @bar[0 to 1]
}

// -----

// Counters in step at the end of a lifetime (rule 7): @bar[1] is reached by
// three collectives whose arrives bring 2 arrivals each (windows an exogpu
// multicast, one window shape per statement, does not make), so its phase
// 1 completes with threads 0 and 2 alone, and thread 1, its home arriver,
// arrived once: the translation's counter of thread 1 would start the next
// lifetime of @bar[1] one phase behind its ring.
exoam.proc @home_counter_behind() {
  exoam.alloc barrier @bar[3] ring 2
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[2] >> @bar[1 to 2] threads gpu[4 (_, 1, 2)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[2] >> @bar[1 to 2] threads gpu[4 (_, 1, 2)]
  // expected-error @below {{the arriving threads of @bar[1] made 1 arrive(s) on it, but its ring went through 2 phase(s) (arrives of other CTAs reached it): their counters, which the translation keeps for the next lifetime of @bar[1], would be out of step with its ring}}
  exoam.check_barrier @bar[1]
}

// -----

// Twin: the home arriver of @bar[1] arrives in both phases (windows of two
// elements each, every element the home of one collective).
exoam.proc @home_counter_in_step() {
  exoam.alloc barrier @bar[2] ring 2
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 3)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 3)]
  exoam.check_barrier @bar[1]
}

// -----

// Slot order (rule 4(c)) for a completion: thread 1 waits for phases 0 and
// 1 of a ring of depth 1 before thread 0's copy of phase 0 completes; that
// completion's bytes would count toward the slot's phase 1, which thread
// 1's second wait already used.
exoam.proc @completion_after_later_phase() {
  exoam.alloc barrier @bar[] ring 1
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-note @below {{phase 1 of @bar[] is here}}
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{ring overrun: this asynchronous completion of phase 0 of @bar[] comes after phase 1 used the same ring slot (slot 0 of @bar[]'s ring of 1): on the hardware that later phase's events count toward this one}}
  // expected-note @below {{the CUDA translation makes every mbarrier element of a kernel a ring of 1 + (the sum of the largest await lag of each of its mbarriers) mbarriers}}
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.check_barrier @bar[]
}

// -----

// Twin: on a ring of depth 2 the two phases have slots of their own.
exoam.proc @completion_in_its_slot() {
  exoam.alloc barrier @bar[] ring 2
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.complete >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(tma_to_smem_async) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.check_barrier @bar[]
}

// -----

// Slot order (rule 4(a)) for an arrive that reaches another element:
// thread 0's second arrive brings phase 1 to @bar[1] (ring of depth 1),
// whose phase 0 thread 1's arrive, which thread 0 does not see, still
// needs: the hardware would count it toward phase 0.
exoam.proc @remote_arrive_ahead() {
  exoam.alloc barrier @bar[2] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  // expected-note @below {{this signal of phase 0 is not ordered before it}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-error @below {{ring overrun: this arrive of phase 1 of @bar[1] may run before phase 0, the previous phase of its ring slot (slot 0 of @bar[1]'s ring of 1), completed: the hardware would count it toward phase 0}}
  // expected-note @below {{the CUDA translation makes every mbarrier element}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.check_barrier @bar[0 to 1]
}

// -----

// Twin: threads 0 and 1 meet at a rendezvous after their waits, so each
// arrive of phase 1 comes after both elements' phase 0 completed.
exoam.proc @remote_arrive_after_rendezvous() {
  exoam.alloc barrier @bar[2] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[0] >> @bar[0 to 1] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[1] >> @bar[0 to 1] threads gpu[4 (_, 1, 1)]
  exoam.await @bar[0] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 0)]
  exoam.await @bar[1] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.check_barrier @bar[0 to 1]
}

// -----

// Rule 4(b) at the end of a lifetime: thread 0 signals phase 1 of a ring of
// depth 1 without seeing thread 1 pass its await of phase 0, and no later
// signal of phase 1 sees it before the lifetime ends: that await may pass
// only after phase 1 completed and then waits for phase 2.
exoam.proc @await_overtaken_at_end() {
  exoam.alloc barrier @bar[] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  // expected-error @below {{ring overrun: this await of phase 0 of @bar[] may pass only after phase 1, the next phase of its ring slot (slot 0 of @bar[]'s ring of 1), completed: no signal of that phase is ordered after thread 1 passed it}}
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-note @below {{the last signal of phase 1}}
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  // expected-note @below {{the lifetime of @bar[] ends here}}
  // expected-note @below {{the CUDA translation makes every mbarrier element}}
  exoam.check_barrier @bar[]
}

// -----

// Twin: thread 1 and thread 0 meet at a rendezvous after thread 1's first
// await, before phase 1 is signaled.
exoam.proc @await_passed_before_next_phase() {
  exoam.alloc barrier @bar[] ring 1
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = -1 threads gpu[4 (_, 1, 1)]
  exoam.check_barrier @bar[]
}
