// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// CheckBarrier (seeds/002 Fig. 7): the arrive and await counts of every
// element must agree, as at the free of a barrier (Fig. 5).

// Two arrives; one await with n = 1 sets w = max(0, Max + 1) = 1.
exoam.proc @mismatch() {
  exoam.alloc barrier @cg[]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 1 threads gpu[4 (_, 1, 0)]
  // expected-error @below {{check_barrier failed on @cg[]: arrive count 2 differs from await count 1}}
  exoam.check_barrier @cg[]
}

// -----

// The twin: a final wait_group 0 sets w = max(1, 1 + 1) = 2.
exoam.proc @matched() {
  exoam.alloc barrier @cg[]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @cg[] threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 1 threads gpu[4 (_, 1, 0)]
  exoam.await @cg[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 0)]
  exoam.check_barrier @cg[]
}

// -----

// An await ahead of its arrive (n < 0 counts awaits): (0, 1).
exoam.proc @await_without_arrive() {
  exoam.alloc barrier @ring[4]
  exoam.await @ring[3] full = [] temp = [] n = -1 threads gpu[4]
  // expected-error @below {{check_barrier failed on @ring[3]: arrive count 0 differs from await count 1}}
  exoam.check_barrier @ring[0 to 3]
}

// -----

// Alloc resets the counts (Fig. 22 ALLOC).
exoam.proc @realloc() {
  exoam.alloc barrier @ring[4]
  exoam.await @ring[3] full = [] temp = [] n = -1 threads gpu[4]
  exoam.alloc barrier @ring[4]
  exoam.check_barrier @ring[0 to 3]
}
