// The reference engine keeps every element apart: it refuses a window of
// more than 2^24 elements instead of filling memory; the box engine keeps
// boxes and checks it.
// RUN: exogpu-opt %s -exoam-interpret=engine=reference -verify-diagnostics -o /dev/null
// RUN: not exogpu-opt %s -exoam-interpret -o /dev/null 2>&1 | FileCheck %s --check-prefix=BOX

// BOX: error: check_reads failed on @x[0]

exoam.proc @huge_window() {
  exoam.alloc @x[9223372036854775807]
  // expected-error @below {{the reference engine walks every element, and @x[0..9223372036854775806] has more than 16777216; use engine=box}}
  exoam.record_read fully_ordered @x[0 to 9223372036854775806] on cuda_in_order_ram_qual threads gpu[4]
  exoam.check_reads temporally_ordered @x[0 to 9223372036854775806] on [cuda_in_order_ram_qual] threads gpu[4]
}
