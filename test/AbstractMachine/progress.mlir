// A long run says where it is: a line on stderr every `progress-seconds`
// (by default every 10 s when stderr is a terminal, never otherwise; 0: at
// every loop iteration, so that this test need not run for 10 s). The lines
// are not diagnostics: -verify-diagnostics sees none, so no verified
// diagnostic depends on how fast the machine is.
// RUN: exogpu-opt %s -exoam-interpret="N=2 progress-seconds=0" -o /dev/null 2>&1 | FileCheck %s
// RUN: exogpu-opt %s -exoam-interpret="N=2 progress-seconds=0" -verify-diagnostics -o /dev/null
// The synchronization check passes the option on.
// RUN: exogpu-opt %exogpu_src_root/examples/vector_add.mlir --exogpu-sync-check="N=256,progress-seconds=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNC
// By default (stderr is not a terminal here) a run says nothing, however
// long it takes.
// RUN: exogpu-opt %exogpu_src_root/examples/vector_add.mlir --exogpu-sync-check="N=256" -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// CHECK:      progress: the abstract machine is still running after {{[0-9]+}} s: the loop at {{.*}}progress.mlir:[[@LINE+6]]:3 is at iteration 0 of 2
// CHECK-NEXT: progress: the abstract machine is still running after {{[0-9]+}} s: the loop at {{.*}}progress.mlir:[[@LINE+5]]:3 is at iteration 1 of 2
// SYNC: progress: the abstract machine is still running after {{[0-9]+}} s: the loop at {{.*}}vector_add.mlir:{{[0-9]+}}:{{[0-9]+}} is at iteration 0 of
// QUIET-NOT: progress

exoam.proc @copy(%N: index) {
  exoam.loop %i in (0, %N) {
    exoam.record_mutate fully_ordered @x[%i] on cuda_in_order_ram_qual threads gpu[8 (%i, 1, 0)]
  }
}
