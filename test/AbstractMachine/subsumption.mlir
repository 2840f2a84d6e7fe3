// RUN: not exogpu-opt %s -exoam-interpret -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BOX
// RUN: not exogpu-opt %s -exoam-interpret=engine=reference -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,REF

// Where the engines may report different records (docs/abstract-machine.md
// "Record subsumption"): both reads of x[0] are by thread 0 on the same
// timeline, and the first, ordered for thread 1 by the await, is at least
// as visible as the second. The box engine drops the first when it records
// the second; every later verdict is the same (a check the first fails the
// second fails too), but a check that both fail reports the second in the
// box engine and the first in the reference. Here thread 2 sees neither.

exoam.proc @both_reads_unordered_for_thread_2() {
  exoam.alloc barrier @bar[]
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.arrive transitive pre = qfull(cuda_in_order) >> @bar[] threads gpu[4 (_, 1, 0)]
  exoam.await @bar[] full = qfull(cuda_in_order) temp = qtmp(cuda_in_order) n = 0 threads gpu[4 (_, 1, 1)]
  exoam.record_read fully_ordered @x[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.check_reads temporally_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4 (_, 1, 2)]
}

// CHECK: subsumption.mlir:18:3: error: check_reads failed on @x[0]: a read recorded on cuda_in_order_ram_qual is not visible at temporally_ordered on any of [cuda_in_order_ram_qual] to thread (task 0, thread 2)
// BOX: subsumption.mlir:17:3: note: the read was recorded here by {task 0: 0}; that thread sees it at invisible
// REF: subsumption.mlir:14:3: note: the read was recorded here by {task 0: 0}; that thread sees it at invisible
