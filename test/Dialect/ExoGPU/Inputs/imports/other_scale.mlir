// A different @scale4 (y = 3 x): importing it next to scale.mlir clashes.
exogpu.instr @scale4(%y: f32[4] @DRAM, %x: f32[4] @DRAM)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %y[%i] = %x[%i] * 3.0 : f32[4] @DRAM, f32[4] @DRAM
  }
}
