// Another file that imports scale.mlir: importing it and twice.mlir makes a
// diamond, which loads scale.mlir once.
exogpu.import "scale"

exogpu.proc @also_twice(%y: f32[4] @DRAM, %x: f32[4] @DRAM) {
  exogpu.call @scale4(%y[:], %x[:]) : f32[4] @DRAM, f32[4] @DRAM
}
