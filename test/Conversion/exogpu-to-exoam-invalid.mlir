// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-exoam -verify-diagnostics

// Errors of --convert-exogpu-to-exoam on IR that the exogpu verifier
// accepts. The translation's other errors guard against IR built without
// the verifier; the one for a proc call inside a device_function is
// checked in exogpu-to-exoam-unverified.mlir.

// A proc call at CPU scope is inlined (seeds/002 Sec. 5.2 preprocessing
// (ii)); a recursive call cannot be.
exogpu.proc @self(%x: f32[4] @DRAM) {
  // expected-error @below {{sync check: recursive call of @self cannot be inlined}}
  exogpu.call @self(%x) : f32[4] @DRAM
}

// -----

// Mutual recursion: each proc is translated on its own, so each reports
// the call that closes its cycle.
exogpu.proc @ping(%n: size, %x: f32[%n] @DRAM) {
  // expected-error @below {{sync check: recursive call of @pong cannot be inlined}}
  exogpu.call @pong[%n](%x) : f32[?] @DRAM
}

exogpu.proc @pong(%n: size, %x: f32[%n] @DRAM) {
  // expected-error @below {{sync check: recursive call of @ping cannot be inlined}}
  exogpu.call @ping[%n](%x) : f32[?] @DRAM
}

// -----

// The pass runs the collective analysis first and reports its errors: a
// cuda_threads loop cannot create threads.
exogpu.proc @too_many_threads(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @below {{cuda_threads loop asks for 128 x cuda_thread = 128 threads, more than the collective of its scope (64 threads) provides: the scope's collective has room for 64 unit(s) along the subdivided dimension, but 128 are needed}}
      exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %x[%t] = 0.0 : f32[128] @CudaGmemLinear
      }
    }
  }
}
