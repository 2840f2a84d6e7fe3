// Random sequences of checked rewrites on small procs: on a copy of each
// proc, --exogpu-test-random-schedule tries random rewrites with random
// targets and parameters (refused ones change nothing); the copy verifies
// after every applied rewrite (a failure is an error) and a remark counts
// them. exogpu-run then compares each copy's sequential meaning with its
// original's on the same pseudo-random inputs (docs/running.md): every
// applied rewrite kept the meaning.
// RUN: exogpu-opt %s --exogpu-test-random-schedule="seed=1 steps=80" -o %t.1.mlir 2>&1 | FileCheck %s
// RUN: exogpu-run %t.1.mlir --proc=matmul_scheduled --compare=matmul --sizes=M=8,N=6,K=5
// RUN: exogpu-run %t.1.mlir --proc=stencil_scheduled --compare=stencil --sizes=N=7
// RUN: exogpu-run %t.1.mlir --proc=scan_scheduled --compare=scan --sizes=N=7
// RUN: exogpu-run %t.1.mlir --proc=guarded_scheduled --compare=guarded --sizes=N=7
// RUN: exogpu-run %t.1.mlir --proc=transpose_add_scheduled --compare=transpose_add --sizes=N=5
// RUN: exogpu-opt %s --exogpu-test-random-schedule="seed=2 steps=80" -o %t.2.mlir 2>&1 | FileCheck %s
// RUN: exogpu-run %t.2.mlir --proc=matmul_scheduled --compare=matmul --sizes=M=8,N=6,K=5
// RUN: exogpu-run %t.2.mlir --proc=stencil_scheduled --compare=stencil --sizes=N=7
// RUN: exogpu-run %t.2.mlir --proc=scan_scheduled --compare=scan --sizes=N=7
// RUN: exogpu-run %t.2.mlir --proc=guarded_scheduled --compare=guarded --sizes=N=7
// RUN: exogpu-run %t.2.mlir --proc=transpose_add_scheduled --compare=transpose_add --sizes=N=5
// CHECK: remark: random schedule of @matmul_scheduled: {{[1-9][0-9]*}} of 80 rewrites applied
// CHECK: remark: random schedule of @stencil_scheduled: {{[1-9][0-9]*}} of 80 rewrites applied
// CHECK: remark: random schedule of @scan_scheduled: {{[1-9][0-9]*}} of 80 rewrites applied
// CHECK: remark: random schedule of @guarded_scheduled: {{[1-9][0-9]*}} of 80 rewrites applied
// CHECK: remark: random schedule of @transpose_add_scheduled: {{[1-9][0-9]*}} of 80 rewrites applied

// A GEMM with its zeroing: reductions commute, so loops reorder freely.
exogpu.proc @matmul(%M: size, %N: size, %K: size, %A: f32[%M, %K] @DRAM, %B: f32[%K, %N] @DRAM, %C: f32[%M, %N] @DRAM) requires %M mod 4 == 0 {
  exogpu.for %i in seq(0, %M) {
    exogpu.for %j in seq(0, %N) {
      exogpu.assign %C[%i, %j] = 0.0 : f32[?, ?] @DRAM
      exogpu.for %k in seq(0, %K) {
        exogpu.reduce %C[%i, %j] += %A[%i, %k] * %B[%k, %j] : f32[?, ?] @DRAM, f32[?, ?] @DRAM, f32[?, ?] @DRAM
      }
    }
  }
}

// A stencil through a temporary: fusion needs the right offsets.
exogpu.proc @stencil(%N: size, %x: f32[%N + 2] @DRAM, %y: f32[%N] @DRAM) {
  %t = exogpu.alloc f32[%N + 1] @DRAM
  exogpu.for %i in seq(0, %N + 1) {
    exogpu.assign %t[%i] = %x[%i] + %x[%i + 1] : f32[?] @DRAM, f32[?] @DRAM
  }
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %y[%i] = %t[%i] * 2.0 - %t[%i + 1] : f32[?] @DRAM, f32[?] @DRAM
  }
}

// A scan: a loop-carried dependence most reorderings must respect.
exogpu.proc @scan(%N: size, %x: f32[%N + 1] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.reduce %x[%i + 1] += %x[%i] : f32[?] @DRAM
  }
}

// Guards over extended ranges (paper Sec. 8): one guard can go, one cannot.
exogpu.proc @guarded(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM) {
  %tmp = exogpu.alloc f32[%N + 2] @DRAM
  exogpu.for %i in seq(0, %N + 2) {
    exogpu.if %i < %N {
      exogpu.assign %tmp[%i] = %x[%i] * 3.0 : f32[?] @DRAM, f32[?] @DRAM
    }
  }
  exogpu.for %j in seq(0, %N + 2) {
    exogpu.if %j < %N {
      exogpu.assign %y[%j] = %tmp[%j] : f32[?] @DRAM, f32[?] @DRAM
    }
  }
}

// A transposed accumulation.
exogpu.proc @transpose_add(%N: size, %a: f32[%N, 4] @DRAM, %b: f32[4, %N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.for %j in seq(0, 4) {
      exogpu.reduce %b[%j, %i] += %a[%i, %j] : f32[4, ?] @DRAM, f32[?, 4] @DRAM
    }
  }
}
