// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard -verify-diagnostics

// Errors of --convert-exogpu-to-standard on IR that the exogpu verifier
// accepts.

// Procs are inlinable programs: a call cycle has no lowering (and would
// not terminate).
exogpu.proc @self(%x: f32[4] @DRAM) {
  // expected-error @below {{recursive call of @self: the sequential lowering needs an acyclic call graph}}
  exogpu.call @self(%x) : f32[4] @DRAM
}

// -----

// The call that closes the cycle is reported.
exogpu.proc @ping(%n: size, %x: f32[%n] @DRAM) {
  exogpu.call @pong[%n](%x) : f32[?] @DRAM
}

exogpu.proc @pong(%n: size, %x: f32[%n] @DRAM) {
  // expected-error @below {{recursive call of @ping: the sequential lowering needs an acyclic call graph}}
  exogpu.call @ping[%n](%x) : f32[?] @DRAM
}

// -----

// A window interval whose end precedes its start (by a constant; with
// constant bounds the verifier refuses it already).
exogpu.proc @reversed(%x: f32[8] @DRAM) {
  exogpu.for %i in seq(0, 2) {
    // expected-error @below {{sequential lowering: window interval 0 has negative extent -2}}
    %w = exogpu.window %x[%i + 4:%i + 2] : f32[8] @DRAM
  }
}
