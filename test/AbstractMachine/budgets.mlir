// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret=max-steps=100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret=max-steps=5 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAP
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret="engine=reference,max-memory=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=HEAP

// Work that cannot finish is refused (docs/abstract-machine.md "Inputs the
// check refuses, and long runs"; RunBudget.h). A run may take max-steps
// steps (a statement run, a task replayed, a batch of iterations applied at
// once; 10^9 by default): once a loop's remaining iterations run one by one
// (after the first, and after the tries at running them in bulk or in a
// steady state), a loop whose remaining iterations would take the run past
// it, at the steps its last iteration took, is refused at the loop with the
// estimate; a run that takes more anyway stops at the statement. The heap
// may grow to max-memory MiB (4096 by default), measured every 16384 to 2^20
// steps (the farther from max-memory, the fewer measurements)
// (the reference engine's estimate of an allocation: reference-limits.mlir).

// 2^62 iterations whose barrier counts grow: each runs one by one (the box
// engine watches four periods first). Refused at once, with the estimate.
exoam.proc @unending_loop() {
  exoam.alloc barrier @bar[]
  // STEPS: budgets.mlir:[[@LINE+2]]:3: error: this loop has {{[0-9]+}} iterations left, which run one by one; at 2 steps each (as its last one), the abstract machine would take about {{[0-9]+}} steps in all, more than max-steps=100
  // expected-error @below {{iterations left, which run one by one; at 2 steps each (as its last one), the abstract machine would take about}}
  exoam.loop %i in (0, 4611686018427387904) {
    exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[8]
    exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[8]
  }
}

// -----

// 60 such iterations (about 120 steps) pass by default; max-steps=100
// refuses them, after the iterations that ran.
exoam.proc @sixty_iterations() {
  exoam.alloc barrier @bar[]
  // STEPS: budgets.mlir:[[@LINE+1]]:3: error: this loop has {{[0-9]+}} iterations left, which run one by one; at 2 steps each (as its last one), the abstract machine would take about {{[0-9]+}} steps in all, more than max-steps=100; raise max-steps or check smaller sizes
  exoam.loop %i in (0, 60) {
    exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[8]
    exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[8]
  }
}

// -----

// Statements outside loops with iterations left are not estimated ahead:
// max-steps=5 stops the run at the 6th step.
exoam.proc @straight_line() {
  exoam.alloc barrier @bar[]
  exoam.loop %i in (0, 1) {
    exoam.loop %j in (0, 1) {
      exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[8]
      exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[8]
    }
  }
  // CAP: budgets.mlir:[[@LINE+1]]:3: error: the abstract machine has run 6 steps (statements, replayed tasks, iterations run in bulk), more than max-steps=5; raise max-steps or check smaller sizes
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) threads gpu[8]
}

// -----

// The heap is measured at the first step and 16384 steps later (it is close
// to max-memory=2): the reference engine's 16384 elements (one state, which
// they share) take about 25 MiB with the rest of the heap.
// HEAP: error: the abstract machine's state has grown to {{[0-9]+}} MiB of heap, more than max-memory=2 (MiB); raise max-memory or check smaller sizes
exoam.proc @many_elements() {
  exoam.loop %i in (0, 40000) {
    exoam.record_mutate fully_ordered @x[%i] on cuda_in_order_ram_qual threads gpu[4]
  }
}
