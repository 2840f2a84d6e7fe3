// Procs that test/Transforms/Scheduling/imported-callee.mlir imports: each
// fails a run-time check for some arguments.

// Needs n < 3.
exogpu.proc @f(%n: size, %x: f32[4] @DRAM) requires %n < 3 {
  exogpu.assign %x[0] = 1.0 : f32[4] @DRAM
}

// Writes x[n], out of bounds once n reaches 4.
exogpu.proc @g(%n: size, %x: f32[4] @DRAM) {
  exogpu.assign %x[%n] = 1.0 : f32[4] @DRAM
}
