// RUN: exogpu-opt %s -split-input-file -exoam-interpret=replay-remarks=true -verify-diagnostics -o /dev/null

// Loops in a steady state whose slabs hold one state each copy that state
// to all the slabs ahead at once (docs/abstract-machine.md "Loops in a
// steady state"): a trillion iterations take two. Only the box engine runs
// here; test/AbstractMachine/steady-state.mlir compares the engines on the
// same mechanism at sizes the reference engine can run.

exoam.proc @trillion() {
  // expected-remark @below {{loop: 2 iteration(s) ran, 999999999998 in bulk in a steady state of period 1}}
  exoam.loop %k in (0, 1000000000000) {
    exoam.check_mutates fully_ordered @A[0, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (_, 1, 0)]
    exoam.record_read unordered @A[0, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
  }
  exoam.check_reads fully_ordered @A[0, 0 to 3999999999999] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// The same loop with one element ahead written by a thread outside the
// fences: the slabs up to it are copied at once, the one holding it runs
// and reports, 2^39 iterations in.
exoam.proc @trillion_with_a_record_ahead() {
  // expected-note @below {{the earlier write is here}}
  exoam.record_mutate unordered @A[0, 2199023255554] on Sm80_cp_async_qual threads gpu[8 (_, 1, 7)]
  // expected-remark @below {{loop: 3 iteration(s) ran, 549755813886 in bulk in a steady state of period 1}}
  exoam.loop %k in (0, 1000000000000) {
    // expected-error @below {{RAW hazard on @A[0, 2199023255554]}}
    // expected-note @below {{missing synchronization}}
    exoam.check_mutates fully_ordered @A[0, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (_, 1, 0)]
    exoam.record_read unordered @A[0, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (_, 1, 0)]
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
  }
}
