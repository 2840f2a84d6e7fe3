// A long run says where it is: a remark every `progress-seconds` (10 by
// default; 0 remarks at every loop iteration, so that this test need not run
// for 10 s). A short run at the default says nothing.
// RUN: exogpu-opt %s -exoam-interpret="N=2 progress-seconds=0" -verify-diagnostics -o /dev/null
// The synchronization check passes the option on.
// RUN: exogpu-opt %exogpu_src_root/examples/vector_add.mlir --exogpu-sync-check="N=256,progress-seconds=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: exogpu-opt %exogpu_src_root/examples/vector_add.mlir --exogpu-sync-check="N=256" -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// QUIET-NOT: remark
// SYNC: remark: the abstract machine is still running after {{[0-9]+}} s: this loop is at iteration 0 of

exoam.proc @copy(%N: index) {
  // expected-remark@+2 {{the abstract machine is still running after 0 s: this loop is at iteration 0 of 2}}
  // expected-remark@+1 {{the abstract machine is still running after 0 s: this loop is at iteration 1 of 2}}
  exoam.loop %i in (0, %N) {
    exoam.record_mutate fully_ordered @x[%i] on cuda_in_order_ram_qual threads gpu[8 (%i, 1, 0)]
  }
}
