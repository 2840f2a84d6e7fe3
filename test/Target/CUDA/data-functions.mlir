// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -c %t.cu -o %t.o %}

// The functions of data expressions (max, exp2, log2) print as CUDA's
// accurate math functions in the expression's precision: fmaxf / exp2f /
// log2f for f32, fmax / exp2 / log2 for f64, __hmax (cuda_fp16.h,
// cuda_bf16.h) and exo::exp2 / exo::log2 (computed in f32 and rounded once,
// runtime.cuh; cuda_fp16's hexp2 is a device-only approximation) for f16
// and bf16, the integer overloads of max for integers; nested as the exogpu
// tree, in device and host code.

// CHECK-LABEL: functions_kernel(
// CHECK: f[t] = exp2f(__fmul_rn(f[t] - fmaxf(f[t], -1e+30f), 0.18033688f));
// CHECK: d[t] = fmax(log2(d[t]), exp2(-d[t]));
// CHECK: h[t] = __hmax(exo::exp2(h[t]), exo::log2(h[t]));
// CHECK: b[t] = exo::exp2(__hmax(b[t], __nv_bfloat16(0.5f)));
// CHECK: n[t] = max(n[t], exo::wrap_mul<int32_t>(exo::wrap_neg<int32_t>(n[t]), 2));
// CHECK: u[t] = max(u[t], uint8_t(7));
// CHECK-LABEL: extern "C" cudaError_t functions(
// CHECK: host[0] = log2f(fmaxf(host[1], 1.0f));
// 16-bit exp2 and log2 at CPU scope (host code: no hexp2).
// CHECK: hh[0] = exo::exp2(hh[1]);
// CHECK: hb[0] = exo::log2(hb[1]);
exogpu.proc @functions(%f: f32[32] @CudaGmemLinear, %d: f64[32] @CudaGmemLinear,
                       %h: f16[32] @CudaGmemLinear, %b: bf16[32] @CudaGmemLinear,
                       %n: i32[32] @CudaGmemLinear, %u: ui8[32] @CudaGmemLinear,
                       %host: f32[2] @DRAM, %hh: f16[2] @DRAM,
                       %hb: bf16[2] @DRAM) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %f[%t] = exp2((%f[%t] - max(%f[%t], -1.0e30)) * 0.18033688) : f32[32] @CudaGmemLinear
        exogpu.assign %d[%t] = max(log2(%d[%t]), exp2(-%d[%t])) : f64[32] @CudaGmemLinear
        exogpu.assign %h[%t] = max(exp2(%h[%t]), log2(%h[%t])) : f16[32] @CudaGmemLinear
        exogpu.assign %b[%t] = exp2(max(%b[%t], 0.5)) : bf16[32] @CudaGmemLinear
        exogpu.assign %n[%t] = max(%n[%t], -%n[%t] * 2) : i32[32] @CudaGmemLinear
        exogpu.assign %u[%t] = max(%u[%t], 7) : ui8[32] @CudaGmemLinear
      }
    }
  }
  exogpu.assign %host[0] = log2(max(%host[1], 1.0)) : f32[2] @DRAM
  exogpu.assign %hh[0] = exp2(%hh[1]) : f16[2] @DRAM
  exogpu.assign %hb[0] = log2(%hb[1]) : bf16[2] @DRAM
}
