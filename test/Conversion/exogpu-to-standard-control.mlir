// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard --cse | FileCheck %s

// The sequential meaning of control (--convert-exogpu-to-standard; seeds/002
// Sec. 2.3): procs become functions whose precondition and dynamic
// parameter extents are asserted on entry; every loop mode is an scf.for in
// order; control expressions are 64-bit arith whose overflow fails an
// assertion (docs/running.md "Arithmetic"), with affine.apply for floor
// division and non-negative remainder; conditions are arith.cmpi in disjunctive normal
// form; device_function and warps bodies are inlined; fence, arrive, await
// and barrier allocations vanish. (--cse folds the repeated constants.)

// CHECK-LABEL: func.func @loops(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[X:[a-zA-Z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>>) {
// CHECK:         %[[MOD:[a-zA-Z0-9_]+]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[PRE:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[MOD]], %[[C0]] : index
// CHECK-NEXT:    cf.assert %[[PRE]], "precondition of @loops does not hold: N mod 64 == 0\0ALocation: loc({{.*}})"
// CHECK-NEXT:    %[[DIM:[a-zA-Z0-9_]+]] = memref.dim %[[X]], %[[C0]]
// CHECK-NEXT:    %[[SAME:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[DIM]], %[[N]] : index
// CHECK-NEXT:    cf.assert %[[SAME]], "@loops: extent 0 of x is not N\0ALocation: loc({{.*}})"
// CHECK-NEXT:    %[[TASKS:[a-zA-Z0-9_]+]] = affine.apply #{{.*}}(%[[N]])
// CHECK-NEXT:    %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %[[TASK:[a-zA-Z0-9_]+]] = %[[C0]] to %[[TASKS]] step %[[C1]] {
// CHECK-NEXT:      %[[C64:[a-zA-Z0-9_]+]] = arith.constant 64 : index
// CHECK-NEXT:      scf.for %[[T:[a-zA-Z0-9_]+]] = %[[C0]] to %[[C64]] step %[[C1]] {
// CHECK-NEXT:        %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:        scf.for %{{.*}} = %[[C1]] to %[[C3]] step %[[C1]] {
// task * 64 as a 128-bit product whose high half must be the sign of the
// low half; + t, whose sign may differ from both operands' only on overflow.
// CHECK-NEXT:          %[[C64I:[a-zA-Z0-9_]+]] = arith.index_cast %[[C64]] : index to i64
// CHECK-NEXT:          %[[TASKI:[a-zA-Z0-9_]+]] = arith.index_cast %[[TASK]] : index to i64
// CHECK-NEXT:          %[[LOW:[a-zA-Z0-9_]+]], %[[HIGH:[a-zA-Z0-9_]+]] = arith.mulsi_extended %[[TASKI]], %[[C64I]] : i64
// CHECK-NEXT:          %[[C63:[a-zA-Z0-9_]+]] = arith.constant 63 : i64
// CHECK-NEXT:          %[[SIGN:[a-zA-Z0-9_]+]] = arith.shrsi %[[LOW]], %[[C63]] : i64
// CHECK-NEXT:          %[[FITS:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[HIGH]], %[[SIGN]] : i64
// CHECK-NEXT:          %[[PRODUCT:[a-zA-Z0-9_]+]] = arith.index_cast %[[LOW]] : i64 to index
// CHECK-NEXT:          %[[I:[a-zA-Z0-9_]+]] = arith.addi %[[PRODUCT]], %[[T]] : index
// CHECK-NEXT:          %[[XR:[a-zA-Z0-9_]+]] = arith.xori %[[T]], %[[I]] : index
// CHECK-NEXT:          %[[XL:[a-zA-Z0-9_]+]] = arith.xori %[[PRODUCT]], %[[I]] : index
// CHECK-NEXT:          %[[SIGNS:[a-zA-Z0-9_]+]] = arith.andi %[[XL]], %[[XR]] : index
// CHECK-NEXT:          %[[NOCARRY:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[SIGNS]], %[[C0]] : index
// CHECK-NEXT:          %[[VALID:[a-zA-Z0-9_]+]] = arith.andi %[[FITS]], %[[NOCARRY]] : i1
// CHECK-NEXT:          cf.assert %[[VALID]], "a control value overflows 64 bits\0ALocation: loc({{.*}})"
// CHECK-NEXT:          %[[ONE:[a-zA-Z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:          memref.store %[[ONE]], %[[X]][%[[I]]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
exogpu.proc @loops(%N: size, %x: f32[%N] @CudaGmemLinear)
    requires %N mod 64 == 0 {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, %N / 64) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.for %j in seq(1, 3) {
          exogpu.assign %x[%task * 64 + %t] = 1.0 : f32[?] @CudaGmemLinear
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// `/` and `mod` of control expressions are floor division and the
// non-negative remainder: the affine maps' floordiv and mod.

// CHECK-DAG: #[[MOD4:.*]] = affine_map<(d0) -> (d0 mod 4)>
// CHECK-DAG: #[[DIV2:.*]] = affine_map<(d0) -> (d0 floordiv 2)>
// CHECK-LABEL: func.func @guards(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[I:[a-zA-Z0-9_]+]]: index, %[[FLAG:[a-zA-Z0-9_]+]]: i1,
// CHECK:         %[[LT:[a-zA-Z0-9_]+]] = arith.cmpi slt, %[[I]], %[[N]] : index
// CHECK-NEXT:    %[[AND:[a-zA-Z0-9_]+]] = arith.andi %[[LT]], %[[FLAG]] : i1
// CHECK-NEXT:    %[[MOD:[a-zA-Z0-9_]+]] = affine.apply #[[MOD4]](%[[I]])
// CHECK-NEXT:    %[[C3:[a-zA-Z0-9_]+]] = arith.constant 3 : index
// CHECK-NEXT:    %[[EQ:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[MOD]], %[[C3]] : index
// CHECK-NEXT:    %[[OR:[a-zA-Z0-9_]+]] = arith.ori %[[AND]], %[[EQ]] : i1
// CHECK-NEXT:    scf.if %[[OR]] {
// CHECK-NEXT:      affine.apply #[[DIV2]](%[[I]])
// CHECK:         }
// CHECK-NEXT:    %[[GE:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[I]], %{{.*}} : index
// CHECK-NEXT:    %[[C7:[a-zA-Z0-9_]+]] = arith.constant 7 : index
// CHECK-NEXT:    %[[LE:[a-zA-Z0-9_]+]] = arith.cmpi sle, %[[I]], %[[C7]] : index
// CHECK-NEXT:    %[[BOTH:[a-zA-Z0-9_]+]] = arith.andi %[[GE]], %[[LE]] : i1
// CHECK-NEXT:    %[[C9:[a-zA-Z0-9_]+]] = arith.constant 9 : index
// CHECK-NEXT:    %[[GT:[a-zA-Z0-9_]+]] = arith.cmpi sgt, %[[I]], %[[C9]] : index
// CHECK-NEXT:    %[[EITHER:[a-zA-Z0-9_]+]] = arith.ori %[[BOTH]], %[[GT]] : i1
// CHECK-NEXT:    scf.if %[[EITHER]] {
exogpu.proc @guards(%N: size, %i: index, %flag: bool, %x: f32[%N] @DRAM) {
  exogpu.if %i < %N and %flag or %i mod 4 == 3 {
    exogpu.assign %x[%i / 2] = 2.0 : f32[?] @DRAM
  }
  exogpu.if %i >= 0 and %i <= 7 or %i > 9 {
    exogpu.assign %x[0] = 3.0 : f32[?] @DRAM
  }
}

// -----

// Constant conditions fold to constants; the scf.if stays for upstream
// canonicalization.

// CHECK-LABEL: func.func @constant_guard(
// CHECK:         %[[FALSE:[a-zA-Z0-9_]+]] = arith.constant false
// CHECK-NEXT:    scf.if %[[FALSE]] {
exogpu.proc @constant_guard(%x: f32[4] @DRAM) {
  exogpu.if 1 > 2 or false {
    exogpu.assign %x[0] = 2.0 : f32[4] @DRAM
  }
}

// -----

// Warp specialization runs every warps block in order; the mbarrier
// allocation, arrive and await have no sequential meaning.

// CHECK-LABEL: func.func @warps(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<128xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:    %[[C0:[a-zA-Z0-9_]+]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:[a-zA-Z0-9_]+]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %{{.*}} = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:        %[[ONE:[a-zA-Z0-9_]+]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:        memref.store %[[ONE]], %[[X]][%[[C0]]]
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.for %{{.*}} = %[[C0]] to %[[C1]] step %[[C1]] {
// CHECK-NEXT:        %[[TWO:[a-zA-Z0-9_]+]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:        memref.store %[[TWO]], %[[X]][%[[C1]]]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return
exogpu.proc @warps(%x: f32[128] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 40, 0), "consumer" = (4, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.warps "producer" {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %x[0] = 1.0 : f32[128] @CudaGmemLinear
          exogpu.arrive(cuda_in_order, 1) >> %bar[0] : barrier[2] @CudaMbarrier
        }
      }
      exogpu.warps "consumer" {
        exogpu.await(%bar[0], cuda_in_order, 0) : barrier[2] @CudaMbarrier
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.assign %x[1] = 2.0 : f32[128] @CudaGmemLinear
        }
      }
      exogpu.free %bar : barrier[2] @CudaMbarrier
    }
  }
}
