// Options of --exogpu-sync-check (and the engine option of
// --exoam-interpret). A program that passes prints unchanged; a failure
// fails the pass.

// By default every proc that no proc calls is checked: @good, @bad and
// @caller, not @shifted (only called). With N = 128 only @bad fails;
// without values both @good and @bad (and not @shifted) ask for theirs.
// RUN: not exogpu-opt %s --exogpu-sync-check="N=128" 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: not exogpu-opt %s --exogpu-sync-check 2>&1 | FileCheck %s --check-prefix=UNBOUND

// proc=NAME checks that proc alone, called or not.
// RUN: exogpu-opt %s --exogpu-sync-check="proc=good N=128" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: exogpu-opt %s -pass-pipeline="builtin.module(exogpu-sync-check{proc=good args=N=128})" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=bad N=128" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=bad N=128 engine=reference" 2>&1 | FileCheck %s --check-prefix=BAD
// With one task @bad has no second writer.
// RUN: exogpu-opt %s --exogpu-sync-check="proc=bad N=64" 2>&1 | FileCheck %s --check-prefix=PASS
// @caller inlines @shifted with k = 0, which passes; @shifted on its own
// with k = 1 races.
// RUN: exogpu-opt %s --exogpu-sync-check="proc=caller" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: exogpu-opt %s --exogpu-sync-check="proc=shifted k=0" 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=shifted k=1" 2>&1 | FileCheck %s --check-prefix=SHIFTED

// Option errors.
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=nosuch N=128" 2>&1 | FileCheck %s --check-prefix=NO-PROC
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good" 2>&1 | FileCheck %s --check-prefix=NO-VALUE
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N=four" 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N" 2>&1 | FileCheck %s --check-prefix=MALFORMED-N
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N=128 engine=bogus" 2>&1 | FileCheck %s --check-prefix=ENGINE
// RUN: not exogpu-opt %s -exoam-interpret=engine=bogus 2>&1 | FileCheck %s --check-prefix=INTERPRET-ENGINE
// A size is never negative; true and false are values of bool parameters;
// a name no checked proc has is a mistake (here a misspelt N).
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N=-64" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N=true" 2>&1 | FileCheck %s --check-prefix=BOOL-SIZE
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=good N=64 n=64" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not exogpu-opt %s --exogpu-sync-check="proc=shifted k=false" 2>&1 | FileCheck %s --check-prefix=BOOL-INDEX

// DEFAULT-NOT: error
// DEFAULT: error: WAW hazard on @x[0]: this write is not ordered after an earlier write by thread 0 of another task on cuda_in_order_ram_qual; thread 0
// DEFAULT-NEXT: exogpu.assign %x[%t] = 1.0
// DEFAULT-NOT: error

// UNBOUND: error: exogpu-sync-check: no value for parameter 'N' (pass N=...)
// UNBOUND-NEXT: exogpu.proc @good(
// UNBOUND: error: exogpu-sync-check: no value for parameter 'N' (pass N=...)
// UNBOUND-NEXT: exogpu.proc @bad(
// UNBOUND-NOT: error

// PASS-NOT: error
// PASS: exogpu.proc @good(
// PASS: exogpu.proc @bad(
// PASS: exogpu.proc @shifted(
// PASS: exogpu.proc @caller(
// PASS-NOT: error

// BAD: error: WAW hazard on @x[0]
// BAD-NEXT: exogpu.assign %x[%t] = 1.0
// BAD-NOT: error

// SHIFTED: error: WAR hazard on @x[1]: this write is not ordered after an earlier read by thread 0 on cuda_in_order_ram_qual; thread 1
// SHIFTED-NEXT: exogpu.reduce %x[%t] += %x[%t + %k]
// SHIFTED-NOT: error

// NO-PROC: error: exogpu-sync-check: no proc named 'nosuch'
// NO-VALUE: error: exogpu-sync-check: no value for parameter 'N' (pass N=...)
// MALFORMED: error: exogpu-sync-check: expected name=integer, got 'N=four'
// MALFORMED-N: error: exogpu-sync-check: expected name=integer, got 'N'
// ENGINE: error: exogpu-sync-check: unknown engine 'bogus' (expected box or reference)
// INTERPRET-ENGINE: error: exoam-interpret: unknown engine 'bogus' (expected box or reference)
// NEGATIVE: error: exogpu-sync-check: size parameter 'N' must not be negative, got -64
// BOOL-SIZE: error: exogpu-sync-check: parameter 'N' takes an integer, not true
// UNKNOWN: error: exogpu-sync-check: no proc it checks has a parameter named 'n'
// BOOL-INDEX: error: exogpu-sync-check: parameter 'k' takes an integer, not false

// Each thread adds into its own element of its task's block.
exogpu.proc @good(%N: size, %x: f32[%N] @CudaGmemLinear) requires %N mod 64 == 0 {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, %N / 64) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.reduce %x[%task * 64 + %t] += 1.0 : f32[?] @CudaGmemLinear
      }
    }
  }
}

// Every task writes x[0..63]: tasks are not ordered with each other.
exogpu.proc @bad(%N: size, %x: f32[%N] @CudaGmemLinear) requires %N mod 64 == 0 {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, %N / 64) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %x[%t] = 1.0 : f32[?] @CudaGmemLinear
      }
    }
  }
}

// Thread t reads x[t + k], which thread t + k writes: a race unless k = 0.
exogpu.proc @shifted(%k: index, %x: f32[65] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.reduce %x[%t] += %x[%t + %k] : f32[65] @CudaGmemLinear
      }
    }
  }
}

exogpu.proc @caller(%x: f32[65] @CudaGmemLinear) {
  exogpu.call @shifted[0](%x) : f32[65] @CudaGmemLinear
}
