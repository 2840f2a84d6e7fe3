// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard --cse | FileCheck %s
// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard --mlir-print-debuginfo | FileCheck %s --check-prefix=LOC

// Calls (--convert-exogpu-to-standard): an instruction call means the
// instruction's body on the actual control arguments and argument windows,
// inlined in place with call-site locations; the completion barrier
// (`>> z`) has no sequential meaning; a proc call is a func.call whose
// window arguments are cast to the callee's strided parameter types.

// CHECK-LABEL: func.func @use_instr(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[X:[a-zA-Z0-9_]+]]: memref<?x4xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = memref.alloca() : memref<2x4xf32>
// CHECK:         scf.for %[[TASK:[a-zA-Z0-9_]+]] =
// CHECK:           scf.for %[[T:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:        %[[DST:[a-zA-Z0-9_]+]] = memref.subview %[[R]][1, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: 4>>
// CHECK:             %[[ROW:[a-zA-Z0-9_]+]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:             cf.assert %{{.*}}, "a control value overflows 64 bits
// CHECK-NEXT:        %[[SRC:[a-zA-Z0-9_]+]] = memref.subview %[[X]][%[[ROW]], 0] [1, 4] [1, 1] : memref<?x4xf32, strided<[?, ?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
// The control argument s = t + 1.
// CHECK-NEXT:        %[[S:[a-zA-Z0-9_]+]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:             cf.assert %{{.*}}, "a control value overflows 64 bits
// CHECK-NEXT:        %[[NEG:[a-zA-Z0-9_]+]] = arith.constant true
// CHECK-NEXT:        %[[C4:[a-zA-Z0-9_]+]] = arith.constant 4 : index
// CHECK-NEXT:        scf.for %[[I:[a-zA-Z0-9_]+]] = %{{.*}} to %[[C4]]
// CHECK-NEXT:          scf.if %[[NEG]] {
// CHECK-NEXT:            %[[SUM:[a-zA-Z0-9_]+]] = arith.addi %[[I]], %[[S]] : index
// CHECK:                 %[[J:[a-zA-Z0-9_]+]] = affine.apply #{{.*}}(%[[SUM]])
// CHECK-NEXT:            cf.assert %{{.*}}, "a control value overflows 64 bits
// CHECK-NEXT:            %[[V:[a-zA-Z0-9_]+]] = memref.load %[[SRC]][%[[J]]]
// CHECK-NEXT:            %[[MINUS:[a-zA-Z0-9_]+]] = arith.negf %[[V]] : f32
// CHECK-NEXT:            memref.store %[[MINUS]], %[[DST]][%[[I]]]
// The body's statements carry the call site.
// LOC: arith.negf {{.*}} loc([[NEGLOC:#loc[0-9]+]])
// LOC-DAG: [[NEGLOC]] = loc(callsite([[BODY:#loc[0-9]+]] at [[CALL:#loc[0-9]+]]))
// LOC-DAG: [[BODY]] = loc("{{.*}}exogpu-to-standard-calls.mlir":[[@LINE+7]]:
// LOC-DAG: [[CALL]] = loc("{{.*}}exogpu-to-standard-calls.mlir":[[@LINE+17]]:
exogpu.instr @scale4(%s: index, %neg: bool, %dst: f32[4] @CudaRmem,
                     %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread, cuda = "" {
  exogpu.for %i in seq(0, 4) {
    exogpu.if %neg {
      exogpu.assign %dst[%i] = -%src[(%i + %s) mod 4] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
    }
  }
}

exogpu.proc @use_instr(%N: size, %x: f32[%N, 4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N / 32) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        %r = exogpu.alloc f32[2, 4] @CudaRmem
        // A bool parameter is true when its (index) argument is not 0.
        exogpu.call @scale4[%t + 1, 1](%r[1, :], %x[%task * 32 + %t, :]) : f32[2, 4] @CudaRmem, f32[?, 4] @CudaGmemLinear
      }
    }
  }
}

// -----

// An instruction completing on a barrier: the barrier argument vanishes.

// CHECK-LABEL: func.func @with_barrier(
// CHECK-SAME:      %[[X:[a-zA-Z0-9_]+]]: memref<32xf32, strided<[?], offset: ?>>) {
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK:             scf.for %[[I:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:          %[[V:[a-zA-Z0-9_]+]] = memref.load %[[X]][%[[I]]]
// CHECK-NEXT:          memref.store %[[V]], %{{.*}}[%[[I]]] : memref<32xf32>
exogpu.instr @copy32(%dst: f32[32] @CudaSmemLinear {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
                     %src: f32[32] @CudaGmemLinear {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[%i] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
  }
}

exogpu.proc @with_barrier(%x: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[32] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @copy32(%s, %x) >> %bar : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear, barrier @CudaMbarrier
        exogpu.arrive(tma_to_smem_async, 1) >> %bar : barrier @CudaMbarrier
      }
    }
  }
}

// -----

// A proc call passes index control arguments and memref windows; the
// callee asserts its precondition and its parameters' dynamic extents.

// CHECK-LABEL: func.func @callee(
// CHECK-SAME:      %[[K:[a-zA-Z0-9_]+]]: index, %[[V:[a-zA-Z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>>, %[[W:[a-zA-Z0-9_]+]]: memref<8xf32, strided<[?], offset: ?>>) {
// CHECK:         cf.assert %{{.*}}, "precondition of @callee does not hold: K > 1\0ALocation: loc({{.*}})"
// CHECK:         cf.assert %{{.*}}, "@callee: extent 0 of v is not K\0ALocation: loc({{.*}})"
// CHECK-LABEL: func.func @caller(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[A:[a-zA-Z0-9_]+]]: memref<?x8xf32, strided<[?, ?], offset: ?>>) {
// CHECK:         %[[DIM:[a-zA-Z0-9_]+]] = memref.dim %[[A]]
// CHECK:         %[[LOCAL:[a-zA-Z0-9_]+]] = memref.alloc(%[[N]]) : memref<?x8xf32>
// CHECK:         scf.for %[[I:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:      %[[COL:[a-zA-Z0-9_]+]] = memref.subview %[[A]][0, 3] [%[[DIM]], 1] [1, 1] : memref<?x8xf32, strided<[?, ?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT:      %[[ROW:[a-zA-Z0-9_]+]] = memref.subview %[[LOCAL]][%[[I]], 0] [1, 8] [1, 1] : memref<?x8xf32> to memref<8xf32, strided<[1], offset: ?>>
// CHECK:           %[[K2:[a-zA-Z0-9_]+]] = arith.index_cast %{{.*}} : i64 to index
// CHECK-NEXT:      cf.assert %{{.*}}, "a control value overflows 64 bits
// A size argument is not negative.
// CHECK-NEXT:      %[[POS:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[K2]], %{{.*}} : index
// CHECK-NEXT:      cf.assert %[[POS]], "@callee: size K is negative\0ALocation: loc({{.*}})"
// CHECK-NEXT:      %[[CAST:[a-zA-Z0-9_]+]] = memref.cast %[[ROW]] : memref<8xf32, strided<[1], offset: ?>> to memref<8xf32, strided<[?], offset: ?>>
// The call site checks the callee's precondition and the arguments' extents
// too, so that a failure points at the call.
// CHECK-NEXT:      %[[GT:[a-zA-Z0-9_]+]] = arith.cmpi sgt, %[[K2]], %{{.*}} : index
// CHECK-NEXT:      cf.assert %[[GT]], "precondition of @callee does not hold: K > 1\0ALocation: loc({{.*}}exogpu-to-standard-calls.mlir{{.*}}:[[@LINE+13]]:{{.*}})"
// CHECK-NEXT:      %[[LEN:[a-zA-Z0-9_]+]] = memref.dim %[[COL]], %{{.*}}
// CHECK-NEXT:      %[[EQ:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[LEN]], %[[K2]] : index
// CHECK-NEXT:      cf.assert %[[EQ]], "@callee: extent 0 of v is not K\0ALocation: loc({{.*}}:[[@LINE+10]]:{{.*}})"
// CHECK-NEXT:      func.call @callee(%[[K2]], %[[COL]], %[[CAST]])
exogpu.proc @callee(%K: size, %v: f32[%K] @DRAM, %w: f32[8] @DRAM)
    requires %K > 1 {
  exogpu.assign %v[0] = %w[7] : f32[?] @DRAM, f32[8] @DRAM
}

exogpu.proc @caller(%N: size, %A: f32[%N, 8] @DRAM) {
  %local = exogpu.alloc f32[%N, 8] @DRAM
  exogpu.for %i in seq(0, %N) {
    exogpu.call @callee[%N * 2](%A[:, 3], %local[%i, :]) : f32[?, 8] @DRAM, f32[?, 8] @DRAM
  }
}
