// Conversions to f16 and bf16 at the write, each rounded once to nearest,
// ties to even, as the GPU's cvt.rn rounds (docs/running.md).

exogpu.proc @to_bf16(%f: f32[6] @DRAM, %d: f64[1] @DRAM, %b: bf16[7] @DRAM) {
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: to the even 1 (0x3f80).
  exogpu.assign %f[0] = 1.00390625 : f32[6] @DRAM
  // 1 + 3 * 2^-8 is halfway between 1 + 2^-7 and 1 + 2^-6: up (0x3f82).
  exogpu.assign %f[1] = 1.01171875 : f32[6] @DRAM
  // Just above halfway: up (0x3f81).
  exogpu.assign %f[2] = 1.00390720367431640625 : f32[6] @DRAM
  // Beyond the largest bf16 (0x7f7f) by more than half an ulp: infinity.
  exogpu.assign %f[3] = 3.4e38 : f32[6] @DRAM
  // Half the smallest subnormal (2^-134): to zero; three halves: to two
  // subnormal ulps (0x0002).
  exogpu.assign %f[4] = exp2(-134.0) : f32[6] @DRAM
  exogpu.assign %f[5] = exp2(-134.0) * 3.0 : f32[6] @DRAM
  // 1 + 2^-8 + 2^-30 in f64 rounds once, up (0x3f81); through f32 it would
  // round twice and end at 1 (0x3f80).
  exogpu.assign %d[0] = 1.00390625 + 0.000000000931322574615478515625 : f64[1] @DRAM
  exogpu.assign %b[0] = %f[0] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[1] = %f[1] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[2] = %f[2] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[3] = %f[3] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[4] = %f[4] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[5] = %f[5] : bf16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %b[6] = %d[0] : bf16[7] @DRAM, f64[1] @DRAM
}

exogpu.proc @to_f16(%f: f32[6] @DRAM, %d: f64[1] @DRAM, %h: f16[7] @DRAM) {
  // 1 + 2^-11: to the even 1 (0x3c00); 1 + 3 * 2^-11: up (0x3c02).
  exogpu.assign %f[0] = 1.00048828125 : f32[6] @DRAM
  exogpu.assign %f[1] = 1.00146484375 : f32[6] @DRAM
  // 65520 is halfway between the largest f16, 65504 (0x7bff), and 65536:
  // to the even one, infinity (0x7c00); 65519 stays finite (0x7bff).
  exogpu.assign %f[2] = 65520.0 : f32[6] @DRAM
  exogpu.assign %f[3] = 65519.0 : f32[6] @DRAM
  // Half the smallest subnormal (2^-25): to zero; three halves: 0x0002.
  exogpu.assign %f[4] = exp2(-25.0) : f32[6] @DRAM
  exogpu.assign %f[5] = exp2(-25.0) * 3.0 : f32[6] @DRAM
  // 1 + 2^-11 + 2^-40 in f64 rounds once, up (0x3c01).
  exogpu.assign %d[0] = 1.00048828125 + 0.0000000000009094947017729282379150390625 : f64[1] @DRAM
  exogpu.assign %h[0] = %f[0] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[1] = %f[1] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[2] = %f[2] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[3] = %f[3] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[4] = %f[4] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[5] = %f[5] : f16[7] @DRAM, f32[6] @DRAM
  exogpu.assign %h[6] = %d[0] : f16[7] @DRAM, f64[1] @DRAM
}

exogpu.proc @narrow_arithmetic(%b: bf16[3] @DRAM, %h: f16[3] @DRAM, %f: f32[2] @DRAM) {
  // Arithmetic, exp2 and conversions between the narrow formats.
  exogpu.assign %b[0] = 1.0 + 0.00390625 : bf16[3] @DRAM
  exogpu.assign %b[1] = exp2(0.5) : bf16[3] @DRAM
  exogpu.assign %h[0] = log2(3.0) : f16[3] @DRAM
  exogpu.assign %h[1] = %b[1] : f16[3] @DRAM, bf16[3] @DRAM
  exogpu.assign %b[2] = %h[0] : bf16[3] @DRAM, f16[3] @DRAM
  exogpu.assign %h[2] = %h[0] * %h[1] : f16[3] @DRAM
  exogpu.assign %f[0] = %b[2] : f32[2] @DRAM, bf16[3] @DRAM
  exogpu.assign %f[1] = %h[2] : f32[2] @DRAM, f16[3] @DRAM
}
