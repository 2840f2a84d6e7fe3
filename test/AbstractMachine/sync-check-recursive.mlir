// When every proc is called by another (recursion), no proc is a root to
// start the check from: an error rather than a check of nothing.
// RUN: not exogpu-opt %s --exogpu-sync-check 2>&1 | FileCheck %s
// Naming a proc checks it, and its recursive call is reported.
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=ping" 2>&1 | FileCheck %s --check-prefix=NAMED

// CHECK: error: exogpu-sync-check: every proc is called by another (a recursive call?): nothing to check; name one with proc=NAME
// NAMED: error: sync check: recursive call of @ping cannot be inlined

exogpu.proc @ping(%x: f32[4] @DRAM) {
  exogpu.call @pong(%x) : f32[4] @DRAM
}
exogpu.proc @pong(%x: f32[4] @DRAM) {
  exogpu.call @ping(%x) : f32[4] @DRAM
}
