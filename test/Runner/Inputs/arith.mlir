// Arithmetic in each precision as the runner computes it: one rounding per
// operation in the expression's precision, wrapping integers, division
// that never traps (docs/running.md).

exogpu.proc @integers(%u: ui8[2] @DRAM, %s: i8[3] @DRAM, %w: ui16[1] @DRAM,
                      %n: i32[1] @DRAM) {
  // 300 wraps to 44 in ui8; x / 0 is all ones.
  exogpu.assign %u[0] = 200 + 100 : ui8[2] @DRAM
  exogpu.assign %u[1] = 7 / 0 : ui8[2] @DRAM
  // Signed division truncates toward zero; INT_MIN / -1 wraps.
  exogpu.assign %s[0] = -7 / 2 : i8[3] @DRAM
  exogpu.assign %s[1] = (-127 - 1) / -1 : i8[3] @DRAM
  exogpu.assign %s[2] = 7 / 0 : i8[3] @DRAM
  exogpu.assign %w[0] = 0 - 1 : ui16[1] @DRAM
  exogpu.assign %n[0] = 2147483647 + 1 : i32[1] @DRAM
}

exogpu.proc @floats(%b: bf16[1] @DRAM, %h: f16[1] @DRAM, %f: f32[3] @DRAM,
                    %d: f64[1] @DRAM) {
  // 1 + 2^-8 rounds to 1 in bf16 (8 significant bits), 1 + 2^-11 to 1 in
  // f16 (11 bits); f32 and f64 keep them.
  exogpu.assign %b[0] = 1.0 + 0.00390625 : bf16[1] @DRAM
  exogpu.assign %h[0] = 1.0 + 0.00048828125 : f16[1] @DRAM
  exogpu.assign %f[0] = 1.0 + 0.00048828125 : f32[3] @DRAM
  exogpu.assign %d[0] = 1.0 + 0.00048828125 : f64[1] @DRAM
  // Conversions at the write: bf16 to f32 is exact, f32 to f16 rounds.
  exogpu.assign %f[1] = %b[0] : f32[3] @DRAM, bf16[1] @DRAM
  exogpu.assign %f[2] = 1.0 / 3.0 : f32[3] @DRAM
}

exogpu.proc @conversions(%u: ui8[1] @DRAM, %s: i8[1] @DRAM, %f: f32[3] @DRAM,
                         %t: i8[1] @DRAM) {
  // An unsigned byte converts to 255, a signed one to -1; a float to an
  // integer truncates toward zero.
  exogpu.assign %u[0] = 255 : ui8[1] @DRAM
  exogpu.assign %s[0] = -1 : i8[1] @DRAM
  exogpu.assign %f[0] = %u[0] : f32[3] @DRAM, ui8[1] @DRAM
  exogpu.assign %f[1] = %s[0] : f32[3] @DRAM, i8[1] @DRAM
  exogpu.assign %f[2] = -2.75 : f32[3] @DRAM
  exogpu.assign %t[0] = %f[2] : i8[1] @DRAM, f32[3] @DRAM
}

exogpu.proc @functions(%f: f32[4] @DRAM, %b: bf16[1] @DRAM, %h: f16[1] @DRAM,
                       %s: i8[1] @DRAM, %u: ui8[1] @DRAM) {
  // Exact powers of two; max is maxNum (a NaN operand loses); the softmax
  // sentinel -1e30 underflows to 0.
  exogpu.assign %f[0] = exp2(3.0) : f32[4] @DRAM
  exogpu.assign %f[1] = log2(0.125) : f32[4] @DRAM
  exogpu.assign %f[2] = max(0.0 / 0.0, 2.0) : f32[4] @DRAM
  exogpu.assign %f[3] = exp2(-1.0e30) : f32[4] @DRAM
  // One rounding in the expression's precision: 2^0.5 = 1.41421... is
  // 1.4140625 in bf16, log2(3) = 1.58496... is 1.5849609375 in f16.
  exogpu.assign %b[0] = exp2(0.5) : bf16[1] @DRAM
  exogpu.assign %h[0] = log2(3.0) : f16[1] @DRAM
  // Integers compare by their precision's signedness: 200 is the larger
  // ui8, -3 the larger i8.
  exogpu.assign %s[0] = max(-5, -3) : i8[1] @DRAM
  exogpu.assign %u[0] = max(200, 7) : ui8[1] @DRAM
}

exogpu.proc @saturation(%f: f32[5] @DRAM, %s: i8[3] @DRAM, %u: ui8[1] @DRAM,
                        %n: i32[1] @DRAM) {
  // A float converts to an integer precision truncated toward zero and
  // saturated at its range; NaN converts to 0 (PTX cvt.rzi).
  exogpu.assign %f[0] = 300.0 : f32[5] @DRAM
  exogpu.assign %f[1] = -300.0 : f32[5] @DRAM
  exogpu.assign %f[2] = 0.0 / 0.0 : f32[5] @DRAM
  exogpu.assign %f[3] = -1.5 : f32[5] @DRAM
  exogpu.assign %f[4] = 1.0e10 : f32[5] @DRAM
  exogpu.assign %s[0] = %f[0] : i8[3] @DRAM, f32[5] @DRAM
  exogpu.assign %s[1] = %f[1] : i8[3] @DRAM, f32[5] @DRAM
  exogpu.assign %s[2] = %f[2] : i8[3] @DRAM, f32[5] @DRAM
  exogpu.assign %u[0] = %f[3] : ui8[1] @DRAM, f32[5] @DRAM
  exogpu.assign %n[0] = %f[4] : i32[1] @DRAM, f32[5] @DRAM
}

exogpu.proc @narrow(%a: i8[2] @DRAM, %b: i8[1] @DRAM, %w: ui16[2] @DRAM,
                    %v: ui16[1] @DRAM) {
  // Each operation wraps in its own width: (100 + 100) / 2 is -56 / 2 in
  // i8, (60000 + 60000) / 2 is 54464 / 2 in ui16.
  exogpu.assign %a[0] = 100 : i8[2] @DRAM
  exogpu.assign %a[1] = 100 : i8[2] @DRAM
  exogpu.assign %b[0] = (%a[0] + %a[1]) / 2 : i8[1] @DRAM, i8[2] @DRAM
  exogpu.assign %w[0] = 60000 : ui16[2] @DRAM
  exogpu.assign %w[1] = 60000 : ui16[2] @DRAM
  exogpu.assign %v[0] = (%w[0] + %w[1]) / 2 : ui16[1] @DRAM, ui16[2] @DRAM
}

exogpu.proc @bf16_rounding(%b: bf16[1] @DRAM, %s: i8[1] @DRAM, %f: f32[1] @DRAM) {
  // -0.150390625 + 100 is 99.849609375: 100 in bf16 (8 significant bits).
  // Each operation rounds to bf16, so (b + 100) - 100 is 0 and the sum
  // converts to the i8 100 (without the rounding: -0.150390625 and 99).
  exogpu.assign %b[0] = -0.150390625 : bf16[1] @DRAM
  exogpu.assign %f[0] = %b[0] + 100.0 - 100.0 : f32[1] @DRAM, bf16[1] @DRAM
  exogpu.assign %s[0] = %b[0] + 100.0 : i8[1] @DRAM, bf16[1] @DRAM
}
