// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=bulk-loops=false -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret=replay-remarks=true -o /dev/null 2>&1 | FileCheck %s

// Loops in a steady state (docs/abstract-machine.md "Loops in a steady
// state"): once a watched period of a loop leaves its fixed variables as it
// found them, leaves its moving slabs as the period before left its own and
// changes nothing else, the box engine copies that period's effect, moved
// along, to the following periods while their guards keep their values,
// their slabs hold what the watched one held, and their windows stay within
// the allocation and int64. Verdicts and diagnostics are those of running
// every iteration (the first three RUN lines); the remarks say how many
// iterations ran in bulk.

// The K loop of the sm_80 GEMM (examples/sm80_gemm.mlir) in small: each
// thread copies its row of the A tile into stage k mod 2 of S (cp.async),
// the CTA reads the other stage and accumulates into C, one fence per
// iteration. Iterations 0-3 run (2 and 3 watched), 96 follow in bulk, the
// last runs (its guard differs).
// CHECK: remark: loop: 5 iteration(s) ran, 96 in bulk in a steady state of period 2
exoam.proc @k_loop() {
  exoam.alloc @A[4, 400]
  exoam.alloc @S[2, 4, 4]
  exoam.alloc @C[4]
  exoam.loop %k in (0, 101) {
    exoam.if %k < 100 {
      exoam.loop %t in (0, 4) {
        exoam.check_mutates temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.check_reads temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.clear_reads @S[%k mod 2, %t, 0 to 3]
        exoam.clear_mutates @S[%k mod 2, %t, 0 to 3]
        exoam.record_mutate unordered @S[%k mod 2, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
        exoam.check_mutates fully_ordered @A[%t, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
        exoam.record_read unordered @A[%t, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      }
    }
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
      exoam.record_read fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
      exoam.check_mutates fully_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.check_reads temporally_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.clear_reads @C[0 to 3]
      exoam.clear_mutates @C[0 to 3]
      exoam.record_mutate fully_ordered @C[0 to 3] on cuda_in_order_ram_qual threads gpu[4]
    }
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 399] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// Thread 5 wrote A[2, 250] before the loop: the slab of iteration 62 does
// not hold what the watched slab held, so the bulk stops before its period
// and iteration 62 runs and reports the hazard.
// CHECK: remark: loop: 5 iteration(s) ran, 58 in bulk in a steady state of period 2
exoam.proc @record_ahead() {
  exoam.alloc @A[4, 400]
  exoam.alloc @S[2, 4, 4]
  exoam.alloc @C[4]
  // expected-note @below {{the earlier write is here}}
  exoam.record_mutate unordered @A[2, 250] on Sm80_cp_async_qual threads gpu[8 (_, 1, 5)]
  exoam.loop %k in (0, 101) {
    exoam.if %k < 100 {
      exoam.loop %t in (0, 4) {
        exoam.check_mutates temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.check_reads temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.clear_reads @S[%k mod 2, %t, 0 to 3]
        exoam.clear_mutates @S[%k mod 2, %t, 0 to 3]
        exoam.record_mutate unordered @S[%k mod 2, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
        // expected-error @below {{RAW hazard on @A[2, 250]: this read is not ordered after an earlier write by thread 5}}
        // expected-note @below {{missing synchronization between the two}}
        exoam.check_mutates fully_ordered @A[%t, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
        exoam.record_read unordered @A[%t, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      }
    }
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
      exoam.record_read fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
      exoam.check_mutates fully_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.check_reads temporally_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.clear_reads @C[0 to 3]
      exoam.clear_mutates @C[0 to 3]
      exoam.record_mutate fully_ordered @C[0 to 3] on cuda_in_order_ram_qual threads gpu[4]
    }
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 399] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// The fence is missing from iteration 60 on: the guard `k < 60` keeps its
// value for 28 periods after the watched one, then the iterations run and
// iteration 61 overwrites stage 1 while iteration 60's reads of it are
// unordered.
// CHECK: remark: loop: 6 iteration(s) ran, 56 in bulk in a steady state of period 2
exoam.proc @fence_until_60() {
  exoam.alloc @A[4, 400]
  exoam.alloc @S[2, 4, 4]
  exoam.alloc @C[4]
  exoam.loop %k in (0, 101) {
    exoam.if %k < 100 {
      exoam.loop %t in (0, 4) {
        exoam.check_mutates temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        // expected-error @below {{WAR hazard on @S[1, 0, 0]: this write is not ordered after an earlier read by thread 0}}
        // expected-note @below {{missing synchronization between the two}}
        exoam.check_reads temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.clear_reads @S[%k mod 2, %t, 0 to 3]
        exoam.clear_mutates @S[%k mod 2, %t, 0 to 3]
        exoam.record_mutate unordered @S[%k mod 2, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
        exoam.check_mutates fully_ordered @A[%t, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
        exoam.record_read unordered @A[%t, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      }
    }
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
      // expected-note @below {{the earlier read is here}}
      exoam.record_read fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
      exoam.check_mutates fully_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.check_reads temporally_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.clear_reads @C[0 to 3]
      exoam.clear_mutates @C[0 to 3]
      exoam.record_mutate fully_ordered @C[0 to 3] on cuda_in_order_ram_qual threads gpu[4]
    }
    exoam.if %k < 60 {
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
    }
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 399] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// A is allocated 300 columns wide: the windows of iteration 75 leave it,
// so the bulk stops before and iteration 75 reports the access.
// CHECK: remark: loop: 6 iteration(s) ran, 70 in bulk in a steady state of period 2
exoam.proc @leaves_allocation() {
  exoam.alloc @A[4, 300]
  exoam.alloc @S[2, 4, 4]
  exoam.alloc @C[4]
  exoam.loop %k in (0, 101) {
    exoam.if %k < 100 {
      exoam.loop %t in (0, 4) {
        exoam.check_mutates temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.check_reads temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.clear_reads @S[%k mod 2, %t, 0 to 3]
        exoam.clear_mutates @S[%k mod 2, %t, 0 to 3]
        exoam.record_mutate unordered @S[%k mod 2, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
        // expected-error @below {{out-of-bounds access: @A[0, 300..303] is outside @A, allocated with extents [4, 300]}}
        exoam.check_mutates fully_ordered @A[%t, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
        exoam.record_read unordered @A[%t, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      }
    }
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
      exoam.record_read fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
      exoam.check_mutates fully_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.check_reads temporally_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.clear_reads @C[0 to 3]
      exoam.clear_mutates @C[0 to 3]
      exoam.record_mutate fully_ordered @C[0 to 3] on cuda_in_order_ram_qual threads gpu[4]
    }
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 299] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// The fence comes first: each iteration's fence lifts the records the
// previous iteration left on A, outside the period's own slab. No steady
// state is proved (no remark); the verdict is the same.
// CHECK-NOT: remark
exoam.proc @fence_first() {
  exoam.alloc @A[4, 400]
  exoam.alloc @S[2, 4, 4]
  exoam.alloc @C[4]
  exoam.loop %k in (0, 101) {
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
    exoam.if %k < 100 {
      exoam.loop %t in (0, 4) {
        exoam.check_mutates temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.check_reads temporally_ordered @S[%k mod 2, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
        exoam.clear_reads @S[%k mod 2, %t, 0 to 3]
        exoam.clear_mutates @S[%k mod 2, %t, 0 to 3]
        exoam.record_mutate unordered @S[%k mod 2, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
        exoam.check_mutates fully_ordered @A[%t, %k * 4 to %k * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
        exoam.record_read unordered @A[%t, %k * 4 to %k * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      }
    }
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
      exoam.record_read fully_ordered @S[(%k + 1) mod 2, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
      exoam.check_mutates fully_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.check_reads temporally_ordered @C[0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[4]
      exoam.clear_reads @C[0 to 3]
      exoam.clear_mutates @C[0 to 3]
      exoam.record_mutate fully_ordered @C[0 to 3] on cuda_in_order_ram_qual threads gpu[4]
    }
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 399] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// k * 2^50 overflows int64 at k = 8192: the largest value of the watched
// period and the largest change per period (3 * 2^50) bound the bulk below
// that, and the iterations near it run and report the overflow.
// CHECK: remark: loop: 9 iteration(s) ran, 8184 in bulk in a steady state of period 3
exoam.proc @overflowing_coordinate() {
  exoam.loop %k in (0, 9000) {
    // expected-error @below {{a coordinate of the access to @A overflows int64}}
    exoam.check_mutates fully_ordered @A[0, (%k * 1125899906842624) mod 3] on [cuda_in_order_ram_qual] for read threads gpu[2 (_, 1, 0)]
    exoam.record_read fully_ordered @A[0, (%k * 1125899906842624) mod 3] on cuda_in_order_ram_qual threads gpu[2 (_, 1, 0)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[2]
  }
}

// -----

// Three stages (period 3) and an A window moving down the columns.
// CHECK: remark: loop: 6 iteration(s) ran, 93 in bulk in a steady state of period 3
exoam.proc @period_three_downwards() {
  exoam.alloc @A[4, 400]
  exoam.alloc @S[3, 4, 4]
  exoam.loop %k in (0, 99) {
    exoam.loop %t in (0, 4) {
      exoam.check_mutates temporally_ordered @S[%k mod 3, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
      exoam.check_reads temporally_ordered @S[%k mod 3, %t, 0 to 3] on [Sm80_cp_async_qual] for write threads gpu[4 (%t, 1, 0)]
      exoam.clear_reads @S[%k mod 3, %t, 0 to 3]
      exoam.clear_mutates @S[%k mod 3, %t, 0 to 3]
      exoam.record_mutate unordered @S[%k mod 3, %t, 0 to 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
      exoam.check_mutates fully_ordered @A[%t, (99 - %k) * 4 to (99 - %k) * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[4 (%t, 1, 0)]
      exoam.record_read unordered @A[%t, (99 - %k) * 4 to (99 - %k) * 4 + 3] on Sm80_cp_async_qual threads gpu[4 (%t, 1, 0)]
    }
    exoam.fence pre = qfull(Sm80_generic) full = qfull(Sm80_generic) temp = qtmp(Sm80_generic) threads gpu[4]
    exoam.check_mutates fully_ordered @S[(%k + 2) mod 3, 0 to 3, 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[4]
    exoam.record_read fully_ordered @S[(%k + 2) mod 3, 0 to 3, 0 to 3] on cuda_in_order_ram_qual threads gpu[4]
  }
  exoam.check_reads fully_ordered @A[0 to 3, 0 to 399] on [Sm80_cp_async_qual] for write threads gpu[4 (_, 1, 2)]
}

// -----

// An arrive and an await per iteration: the barrier's counts grow, so no
// period leaves it as it found it (no remark).
exoam.proc @barrier_counts_grow() {
  exoam.alloc barrier @bar[]
  exoam.loop %k in (0, 50) {
    exoam.check_mutates fully_ordered @A[0, %k] on [cuda_in_order_ram_qual] for read threads gpu[2 (_, 1, 0)]
    exoam.record_read fully_ordered @A[0, %k] on cuda_in_order_ram_qual threads gpu[2 (_, 1, 0)]
    exoam.arrive pre = qfull(cuda_in_order) >> @bar[] threads gpu[2 (_, 1, 0)]
    exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[2 (_, 1, 1)]
  }
  exoam.check_barrier @bar[]
}

// -----

// Windows wider than the step: successive periods touch overlapping
// slabs, and the engine does not try (no remark).
// CHECK-NOT: remark
exoam.proc @windows_wider_than_the_step() {
  exoam.loop %k in (0, 50) {
    exoam.check_mutates fully_ordered @A[0, %k * 4 to %k * 4 + 7] on [cuda_in_order_ram_qual] for read threads gpu[2 (_, 1, 0)]
    exoam.record_read unordered @A[0, %k * 4 to %k * 4 + 7] on cuda_in_order_ram_qual threads gpu[2 (_, 1, 0)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[2]
  }
}

// -----

// Iteration 0 does not touch A (its guard is false): the period after it
// writes A outside the regions iteration 0 predicts, so it proves nothing;
// the next one does. The check after the loop finds iteration 24's write
// at A[0, 2] first (the windows move down).
// CHECK: remark: loop: 3 iteration(s) ran, 22 in bulk in a steady state of period 1
exoam.proc @escapes_its_prediction() {
  exoam.loop %k in (0, 25) {
    exoam.if %k > 0 {
      exoam.check_mutates fully_ordered @A[0 to 1, (25 - %k) * 2 to (25 - %k) * 2 + 1] on [Sm80_cp_async_qual] for write threads gpu[2]
      exoam.check_reads fully_ordered @A[0 to 1, (25 - %k) * 2 to (25 - %k) * 2 + 1] on [Sm80_cp_async_qual] for write threads gpu[2]
      exoam.clear_reads @A[0 to 1, (25 - %k) * 2 to (25 - %k) * 2 + 1]
      exoam.clear_mutates @A[0 to 1, (25 - %k) * 2 to (25 - %k) * 2 + 1]
      // expected-note @below {{the mutate was recorded here by {task 0: 0}}}
      exoam.record_mutate temporally_ordered @A[0 to 1, (25 - %k) * 2 to (25 - %k) * 2 + 1] on Sm80_cp_async_qual threads gpu[2]
    }
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[2]
  }
  // expected-error @below {{check_mutates failed on @A[0, 2]}}
  exoam.check_mutates temporally_ordered @A[0 to 1, 0 to 51] on [Sm80_cp_async_qual] threads gpu[2 (_, 1, 1)]
}

// -----

// Each iteration's fences, in the order {2, 3}, {1, 2}, {0, 1}, carry
// thread 0's write of X one pair of threads further per period: X, which the
// loop reads, settles only in iteration 2 (the fixed region differs after
// the watched periods 1 and 2), and the check after the loop needs what
// iteration 2 added.
// CHECK: remark: loop: 4 iteration(s) ran, 36 in bulk in a steady state of period 1
exoam.proc @fixed_region_settles_late() {
  exoam.record_mutate temporally_ordered @X[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.loop %k in (0, 40) {
    exoam.check_mutates temporally_ordered @X[0] on [cuda_in_order_ram_qual] for read threads gpu[4 (_, 1, 0)]
    exoam.check_mutates fully_ordered @A[0, %k] on [cuda_in_order_ram_qual] for read threads gpu[8 (_, 1, 7)]
    exoam.record_read fully_ordered @A[0, %k] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 7)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 2)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 1)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  }
  exoam.check_mutates temporally_ordered @X[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 3)]
}

// -----

// The same with X outside every region (the loop does not access it):
// the lifts of periods 1 and 2 change it, so those periods prove nothing.
// CHECK: remark: loop: 4 iteration(s) ran, 36 in bulk in a steady state of period 1
exoam.proc @lift_outside_the_regions() {
  exoam.record_mutate unordered @X[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.loop %k in (0, 40) {
    exoam.check_mutates fully_ordered @A[0, %k] on [cuda_in_order_ram_qual] for read threads gpu[8 (_, 1, 7)]
    exoam.record_read fully_ordered @A[0, %k] on cuda_in_order_ram_qual threads gpu[8 (_, 1, 7)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 2)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 1)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  }
  exoam.check_mutates temporally_ordered @X[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 3)]
}

// -----

// Only iteration 0 fences all threads: its write of A[0, 0] is complete
// when its period ends, the write of iteration 1 is not (the fence chain
// completes it over the next periods). Iteration 1 leaves its slab unlike
// iteration 0 left its own, and every later period lifts the slab before
// its own: no steady state. The last two writes stay incomplete.
// CHECK-NOT: remark
exoam.proc @slab_left_unlike_the_previous() {
  exoam.loop %k in (0, 40) {
    exoam.check_mutates fully_ordered @A[0, %k] on [cuda_in_order_ram_qual] for write threads gpu[4 (_, 1, 0)]
    exoam.check_reads fully_ordered @A[0, %k] on [cuda_in_order_ram_qual] for write threads gpu[4 (_, 1, 0)]
    exoam.clear_reads @A[0, %k]
    exoam.clear_mutates @A[0, %k]
    // expected-note @below {{the mutate was recorded here by {task 0: 0}}}
    exoam.record_mutate unordered @A[0, %k] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
    exoam.if %k < 1 {
      exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4]
    }
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 2)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 1)]
    exoam.fence pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[4 (_, 2, 0)]
  }
  // expected-error @below {{check_mutates failed on @A[0, 38]}}
  exoam.check_mutates fully_ordered @A[0, 0 to 39] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 3)]
}
