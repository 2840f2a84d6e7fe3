// An accepted program prints unchanged and nothing else.
// RUN: exogpu-opt %s -exoam-interpret="N=4" | FileCheck %s
// RUN: exogpu-opt %s -pass-pipeline="builtin.module(exoam-interpret{N=4})" | FileCheck %s
// RUN: exogpu-opt %s -pass-pipeline="builtin.module(exoam-interpret{args=N=4})" | FileCheck %s

// A malformed binding is rejected.
// RUN: not exogpu-opt %s -exoam-interpret="N=four" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not exogpu-opt %s -exoam-interpret="N=1,N=2" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not exogpu-opt %s -exoam-interpret="N" 2>&1 | FileCheck %s --check-prefix=BAD-N

// A failing check fails the pass.
// RUN: not exogpu-opt %s -exoam-interpret="N=5" 2>&1 | FileCheck %s --check-prefix=FAIL

// BAD: exoam-interpret: expected name=integer, got 'N=four'
// TWICE: exoam-interpret: 'N' is given twice
// BAD-N: exoam-interpret: expected name=integer, got 'N'
// FAIL: error: check_mutates failed on @x[4]

// CHECK-LABEL: exoam.proc @copy(%N: index)
// CHECK-NEXT: exoam.loop
exoam.proc @copy(%N: index) {
  exoam.loop %i in (0, %N) {
    exoam.record_mutate fully_ordered @x[%i] on cuda_in_order_ram_qual threads gpu[8 (%i, 1, 0)]
  }
  exoam.loop %i in (0, %N) {
    exoam.check_mutates fully_ordered @x[%i] on [cuda_in_order_ram_qual] threads gpu[8 (%i, 1, 0)]
    exoam.check_mutates fully_ordered @x[4] on [cuda_in_order_ram_qual] threads gpu[8 (%i, 1, 0)]
  }
}
