// The arithmetic of docs/running.md "Arithmetic" in host code (@host_arithmetic,
// CPU scope) and in a kernel (@device_arithmetic): the emitted CUDA must compute
// what the meaning computes, bit for bit (host-arithmetic.test,
// device-arithmetic.test).

exogpu.proc @host_arithmetic(%f: f32[8] @DRAM, %s: i8[4] @DRAM, %w: ui16[2] @DRAM,
                              %u: ui8[2] @DRAM, %n: i32[4] @DRAM, %h: f16[2] @DRAM) {
  // -(-e) is not a pre-decrement.
  exogpu.assign %f[0] = 1.5 : f32[8] @DRAM
  exogpu.assign %f[1] = -(-%f[0]) : f32[8] @DRAM
  exogpu.assign %f[2] = -(-2.0) * %f[0] : f32[8] @DRAM
  // x * x - z is not contracted into an FMA: with x = 1 + 2^-12 and
  // z = 1 + 2^-11 the product rounds to z and the difference is 0 (an FMA
  // gives 2^-24).
  exogpu.assign %f[3] = 1.000244140625 : f32[8] @DRAM
  exogpu.assign %f[4] = 1.00048828125 : f32[8] @DRAM
  exogpu.assign %f[5] = %f[3] * %f[3] - %f[4] : f32[8] @DRAM
  exogpu.reduce %f[6] += %f[3] * %f[3] : f32[8] @DRAM
  // Floats convert to integers truncated and saturated, NaN to 0.
  exogpu.assign %f[7] = 0.0 / 0.0 : f32[8] @DRAM
  exogpu.assign %s[2] = %f[0] * 1000.0 : i8[4] @DRAM, f32[8] @DRAM
  exogpu.assign %s[3] = %f[7] : i8[4] @DRAM, f32[8] @DRAM
  // (A NaN's sign and payload are unspecified: not compared.)
  exogpu.assign %f[7] = 0.0 : f32[8] @DRAM
  exogpu.assign %n[2] = -%f[0] * 3.0e9 : i32[4] @DRAM, f32[8] @DRAM
  // Each integer operation wraps in its own width.
  exogpu.assign %s[0] = 100 : i8[4] @DRAM
  exogpu.assign %s[1] = (%s[0] + %s[0]) / 2 : i8[4] @DRAM
  exogpu.assign %w[0] = 60000 : ui16[2] @DRAM
  exogpu.assign %w[1] = (%w[0] + %w[0]) / 2 : ui16[2] @DRAM
  exogpu.assign %u[0] = 200 : ui8[2] @DRAM
  exogpu.assign %u[1] = %u[0] * %u[0] / 3 : ui8[2] @DRAM
  // 2147483648 is INT32_MIN in i32; INT32_MIN / -1 wraps; x / 0 is -1.
  exogpu.assign %n[0] = 2147483647 : i32[4] @DRAM
  exogpu.assign %n[1] = (%n[0] + 2147483648) / -1 : i32[4] @DRAM
  exogpu.assign %n[3] = %n[0] / 0 : i32[4] @DRAM
  // 16-bit exp2 and log2, computed in f32 and rounded once.
  exogpu.assign %h[0] = 0.5 : f16[2] @DRAM
  exogpu.assign %h[1] = exp2(%h[0]) + log2(3.0) : f16[2] @DRAM
}

exogpu.proc @device_arithmetic(%f: f32[8] @CudaGmemLinear, %s: i8[4] @CudaGmemLinear,
                                %w: ui16[2] @CudaGmemLinear, %u: ui8[2] @CudaGmemLinear,
                                %n: i32[4] @CudaGmemLinear, %h: f16[2] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        // -(-e) is not a pre-decrement.
        exogpu.assign %f[0] = 1.5 : f32[8] @CudaGmemLinear
        exogpu.assign %f[1] = -(-%f[0]) : f32[8] @CudaGmemLinear
        exogpu.assign %f[2] = -(-2.0) * %f[0] : f32[8] @CudaGmemLinear
        // x * x - z is not contracted into an FMA: with x = 1 + 2^-12 and
        // z = 1 + 2^-11 the product rounds to z and the difference is 0 (an FMA
        // gives 2^-24).
        exogpu.assign %f[3] = 1.000244140625 : f32[8] @CudaGmemLinear
        exogpu.assign %f[4] = 1.00048828125 : f32[8] @CudaGmemLinear
        exogpu.assign %f[5] = %f[3] * %f[3] - %f[4] : f32[8] @CudaGmemLinear
        exogpu.reduce %f[6] += %f[3] * %f[3] : f32[8] @CudaGmemLinear
        // Floats convert to integers truncated and saturated, NaN to 0.
        exogpu.assign %f[7] = 0.0 / 0.0 : f32[8] @CudaGmemLinear
        exogpu.assign %s[2] = %f[0] * 1000.0 : i8[4] @CudaGmemLinear, f32[8] @CudaGmemLinear
        exogpu.assign %s[3] = %f[7] : i8[4] @CudaGmemLinear, f32[8] @CudaGmemLinear
        // (A NaN's sign and payload are unspecified: not compared.)
        exogpu.assign %f[7] = 0.0 : f32[8] @CudaGmemLinear
        exogpu.assign %n[2] = -%f[0] * 3.0e9 : i32[4] @CudaGmemLinear, f32[8] @CudaGmemLinear
        // Each integer operation wraps in its own width.
        exogpu.assign %s[0] = 100 : i8[4] @CudaGmemLinear
        exogpu.assign %s[1] = (%s[0] + %s[0]) / 2 : i8[4] @CudaGmemLinear
        exogpu.assign %w[0] = 60000 : ui16[2] @CudaGmemLinear
        exogpu.assign %w[1] = (%w[0] + %w[0]) / 2 : ui16[2] @CudaGmemLinear
        exogpu.assign %u[0] = 200 : ui8[2] @CudaGmemLinear
        exogpu.assign %u[1] = %u[0] * %u[0] / 3 : ui8[2] @CudaGmemLinear
        // 2147483648 is INT32_MIN in i32; INT32_MIN / -1 wraps; x / 0 is -1.
        exogpu.assign %n[0] = 2147483647 : i32[4] @CudaGmemLinear
        exogpu.assign %n[1] = (%n[0] + 2147483648) / -1 : i32[4] @CudaGmemLinear
        exogpu.assign %n[3] = %n[0] / 0 : i32[4] @CudaGmemLinear
        // 16-bit exp2 and log2, computed in f32 and rounded once.
        exogpu.assign %h[0] = 0.5 : f16[2] @CudaGmemLinear
        exogpu.assign %h[1] = exp2(%h[0]) + log2(3.0) : f16[2] @CudaGmemLinear
      }
    }
  }
}
