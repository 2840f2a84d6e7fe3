// A file of procs that calls the instruction of scale.mlir (imported from
// this file's folder).
exogpu.import "scale.mlir"

exogpu.proc @twice(%y: f32[4] @DRAM, %x: f32[4] @DRAM) {
  exogpu.call @scale4(%y[:], %x[:]) : f32[4] @DRAM, f32[4] @DRAM
}
