// The naive twin of examples/vector_add.mlir: Z = X + Y element by element,
// one CPU loop. `exogpu-run --proc=vector_add --compare=vector_add_ref`
// checks that the kernel's sequential meaning equals it (docs/running.md).
// Host memory (DRAM): CPU code cannot access device memory, and memory
// types do not change values.

exogpu.proc @vector_add_ref(%N: size, %X: f32[%N] @DRAM, %Y: f32[%N] @DRAM,
                            %Z: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %Z[%i] = %X[%i] + %Y[%i] : f32[?] @DRAM, f32[?] @DRAM, f32[?] @DRAM
  }
}
