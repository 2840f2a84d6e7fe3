// Procs that copy their input to their output, one per precision: the
// output shows the runner's pcg3d fill of the input (docs/running.md).

exogpu.proc @copy_f32(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : f32[?] @DRAM, f32[?] @DRAM
  }
}

exogpu.proc @copy_f16(%N: size, %x: f16[%N] @DRAM, %y: f16[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : f16[?] @DRAM, f16[?] @DRAM
  }
}

exogpu.proc @copy_bf16(%N: size, %x: bf16[%N] @DRAM, %y: bf16[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : bf16[?] @DRAM, bf16[?] @DRAM
  }
}

exogpu.proc @copy_f64(%N: size, %x: f64[%N] @DRAM, %y: f64[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : f64[?] @DRAM, f64[?] @DRAM
  }
}

exogpu.proc @copy_i8(%N: size, %x: i8[%N] @DRAM, %y: i8[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : i8[?] @DRAM, i8[?] @DRAM
  }
}

exogpu.proc @copy_ui8(%N: size, %x: ui8[%N] @DRAM, %y: ui8[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : ui8[?] @DRAM, ui8[?] @DRAM
  }
}

exogpu.proc @copy_ui16(%N: size, %x: ui16[%N] @DRAM, %y: ui16[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : ui16[?] @DRAM, ui16[?] @DRAM
  }
}

exogpu.proc @copy_i32(%N: size, %x: i32[%N] @DRAM, %y: i32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %x[%i] : i32[?] @DRAM, i32[?] @DRAM
  }
}
