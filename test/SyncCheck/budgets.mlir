// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,BOX
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,REF
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check=max-steps=1000 -o /dev/null 2>&1 | FileCheck %s --check-prefix=STEPS
// RUN: not exogpu-opt %s -split-input-file --exogpu-sync-check="engine=reference,max-memory=268435456" -o /dev/null 2>&1 | FileCheck %s --check-prefix=RAISED

// The check refuses work that cannot finish, at the statement, with the
// estimate (max-steps, max-memory; docs/abstract-machine.md "Inputs the
// check refuses, and long runs"), where it ran until killed or out of
// memory (issue 21). (FileCheck rather than -verify-diagnostics: the
// engines refuse different programs.)

// A host loop of 2^62 kernel launches: after two, the check estimates the
// rest and refuses it (both engines; the default max-steps is 10^9).
// CHECK: budgets.mlir:[[@LINE+2]]:3: error: this loop has 4611686018427387902 iterations left, which run one by one; at {{[0-9]+}} steps each (as its last one), the abstract machine would take more than 2^64 steps in all, more than max-steps=1000000000; raise max-steps or check smaller sizes
exogpu.proc @launches(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 4611686018427387904) {
    exogpu.device_function(blockDim = 64) {
      exogpu.for %task in cuda_tasks(0, 1) {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %y[%t] = %x[%t] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// Three launches (about 450 steps each) pass by default; max-steps=1000
// refuses the third.
// STEPS: budgets.mlir:[[@LINE+2]]:3: error: this loop has 1 iteration left, which run one by one; at {{[0-9]+}} steps each (as its last one), the abstract machine would take about {{[0-9]+}} steps in all, more than max-steps=1000; raise max-steps or check smaller sizes
exogpu.proc @three_launches(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.for %it in seq(0, 3) {
    exogpu.device_function(blockDim = 64) {
      exogpu.for %task in cuda_tasks(0, 1) {
        exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
          exogpu.assign %y[%t] = %x[%t] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// A buffer of 64 x 2^32 elements: the reference engine, which keeps a state
// per element it touches, refuses it (the kernel's accesses ran it out of
// memory: "LLVM ERROR: out of memory"); the box engine, which shares states,
// checks it. max-memory=268435456 (MiB) lets the reference engine try.
// REF: budgets.mlir:[[@LINE+3]]:1: error: the reference engine keeps a state per element it touches: with this allocation of 274877906944 elements, the variables have 274877906944, whose states could take about 268435456 MiB, more than max-memory=4096 (MiB); use engine=box or raise max-memory
// BOX-NOT: error
// RAISED-NOT: it touches
exogpu.proc @huge_buffer(%x: f32[64, 4294967296] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %x[%t, 0] = 1.0 : f32[64, 4294967296] @CudaGmemLinear
      }
    }
  }
}
