// The reference engine keeps every element apart: it refuses a window of
// more than 2^24 elements instead of filling memory, and an allocation
// whose elements' states could take more than max-memory (about 1 KiB
// each; 4096 MiB by default); the box engine keeps boxes and checks them.
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOX
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret="engine=reference,max-memory=1024" -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not exogpu-opt %s -split-input-file -exoam-interpret="engine=reference,max-memory=8192" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAISED

// BOX: error: check_reads failed on @x[0]
// The box engine watches the outer loop for a steady state, running the
// inner one one by one meanwhile: too many steps (RunBudget).
// BOX: error: this loop has 4294967294 iterations left, which run one by one

// (A variable never allocated: hand-written AMIR.)
exoam.proc @huge_window() {
  // expected-error @below {{the reference engine walks every element, and @x[0..9223372036854775806] has more than 16777216; use engine=box}}
  exoam.record_read fully_ordered @x[0 to 9223372036854775806] on cuda_in_order_ram_qual threads gpu[4]
  exoam.check_reads temporally_ordered @x[0 to 9223372036854775806] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// 64 x 2^32 elements (issue 21: the reference engine ran out of memory on
// the accesses that followed, "LLVM ERROR: out of memory").
exoam.proc @huge_allocation() {
  // expected-error @below {{the reference engine keeps a state per element it touches: with this allocation of 274877906944 elements, the variables have 274877906944, whose states could take about 268435456 MiB, more than max-memory=4096 (MiB); use engine=box or raise max-memory}}
  exoam.alloc @x[64, 4294967296]
  exoam.loop %i in (0, 64) {
    exoam.loop %j in (0, 4294967296) {
      exoam.record_mutate fully_ordered @x[%i, %j] on cuda_in_order_ram_qual threads gpu[4]
    }
  }
}

// -----

// 2^23 elements: about 8192 MiB of states, refused by default (and with
// max-memory=1024); max-memory=8192 lets the reference engine run it.
// SMALL: error: the reference engine keeps a state per element it touches: with this allocation of 8388608 elements, the variables have 8388608, whose states could take about 8192 MiB, more than max-memory=1024 (MiB); use engine=box or raise max-memory
// RAISED-NOT: it touches: with this allocation of 8388608
exoam.proc @large_allocation() {
  // expected-error @below {{with this allocation of 8388608 elements, the variables have 8388608, whose states could take about 8192 MiB, more than max-memory=4096 (MiB)}}
  exoam.alloc @x[64, 131072]
  exoam.record_mutate fully_ordered @x[0 to 63, 0] on cuda_in_order_ram_qual threads gpu[4]
}
