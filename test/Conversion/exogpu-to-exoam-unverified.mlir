// RUN: exogpu-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --convert-exogpu-to-exoam -verify-diagnostics

// The exogpu.call verifier rejects proc calls inside a device_function
// ("procs are called only at CPU scope"); the translation rejects them again
// for IR built without the verifier (it inlines only calls at CPU scope,
// seeds/002 Sec. 5.2 preprocessing (ii)).

exogpu.proc @helper(%n: size, %x: f32[%n] @CudaGmemLinear) {
}

exogpu.proc @kernel(%x: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{sync check: calls of procs inside a device_function are not supported; inline @helper into the device function first}}
      exogpu.call @helper[64](%x) : f32[64] @CudaGmemLinear
    }
  }
}
