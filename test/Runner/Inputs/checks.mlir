// Procs whose meaning fails a run-time check at some sizes.

exogpu.proc @callee(%K: size, %v: f32[%K] @DRAM) requires %K > 4 {
  exogpu.assign %v[0] = 1.0 : f32[?] @DRAM
}

// A call that violates the callee's precondition when N <= 4.
exogpu.proc @violates(%N: size, %A: f32[%N] @DRAM) {
  exogpu.call @callee[%N](%A) : f32[?] @DRAM
}

// A call whose window is shorter than the callee's extent K.
exogpu.proc @short_window(%N: size, %A: f32[%N] @DRAM) requires %N > 8 {
  exogpu.call @callee[%N](%A[0:8]) : f32[?] @DRAM
}

// An allocation of N - 10 elements.
exogpu.proc @negative_extent(%N: size, %A: f32[%N] @DRAM) {
  %tmp = exogpu.alloc f32[%N - 10] @DRAM
  exogpu.assign %A[0] = 1.0 : f32[?] @DRAM
}

// A call whose size argument N - 10 is negative when N < 10.
exogpu.proc @sized(%K: size, %v: f32[4] @DRAM) {
  exogpu.assign %v[0] = 1.0 : f32[4] @DRAM
}
exogpu.proc @negative_size(%N: size, %A: f32[%N] @DRAM) requires %N >= 4 {
  exogpu.call @sized[%N - 10](%A[0:4]) : f32[?] @DRAM
}

// An index 4 * j that overflows 64 bits when j >= 2^61 (wrapped, 4 * 2^62
// would be 0: in bounds).
exogpu.proc @overflow(%j: index, %A: f32[8] @DRAM) {
  exogpu.assign %A[4 * %j] = 1.0 : f32[8] @DRAM
}
