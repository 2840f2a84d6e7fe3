// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard --cse | FileCheck %s

// The sequential meaning of exogpu.split: a memref.expand_shape of the
// source's memref (strided parameters, subviews and plain allocations
// alike), whose output shape divides the split extent by the factor. A
// dynamic extent is first asserted to be a multiple of the factor (the
// verifier checks a static one).

// CHECK-LABEL: func.func @split_param(
// CHECK-SAME:      %[[M:[a-zA-Z0-9_]+]]: index, %[[K:[a-zA-Z0-9_]+]]: index, %[[A:[a-zA-Z0-9_]+]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[C:[a-zA-Z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>>) {
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[ROWS:.*]] = memref.dim %[[A]], %[[C0]]
// CHECK-DAG:     %[[COLS:.*]] = memref.dim %[[A]], %[[C1]]
// CHECK:         %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[REM:.*]] = arith.remui %[[COLS]], %[[C4]] : index
// CHECK-NEXT:    %[[DIVIDES:.*]] = arith.cmpi eq, %[[REM]], %[[C0]] : index
// CHECK-NEXT:    cf.assert %[[DIVIDES]], "extent of dimension 1 is not a multiple of the split factor 4\0ALocation: loc({{.*}}:[[@LINE+8]]:15)"
// CHECK-NEXT:    %[[OUTER:.*]] = arith.divui %[[COLS]], %[[C4]] : index
// CHECK-NEXT:    %[[CHUNKS:.*]] = memref.expand_shape %[[A]] {{\[\[}}0], [1, 2]] output_shape [%[[ROWS]], %[[OUTER]], 4] : memref<?x?xf32, strided<[?, ?], offset: ?>> into memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
// CHECK:         scf.for %[[M_IV:.*]] = %[[C0]] to %[[M]]
// CHECK:           scf.for %[[S_IV:.*]] = %[[C0]] to
// CHECK:             scf.for %[[K_IV:.*]] = %[[C0]] to %[[C4]]
// CHECK-NEXT:          memref.load %[[CHUNKS]][%[[M_IV]], %[[S_IV]], %[[K_IV]]] : memref<?x?x4xf32, strided<[?, ?, ?], offset: ?>>
exogpu.proc @split_param(%M: size, %K: size, %A: f32[%M, %K] @DRAM, %C: f32[%M] @DRAM) {
  %A_chunks = exogpu.split %A dim 1 by 4 : f32[?, ?] @DRAM
  exogpu.for %m in seq(0, %M) {
    exogpu.for %s in seq(0, %K / 4) {
      exogpu.for %k in seq(0, 4) {
        exogpu.reduce %C[%m] += %A_chunks[%m, %s, %k] : f32[?] @DRAM, window f32[?, ?, 4] @DRAM
      }
    }
  }
}

// -----

// Static extents: no assertion, a static output shape; a split of a
// window (a strided subview), of an allocation (identity layout) and of a
// split.

// CHECK-LABEL: func.func @split_static(
// CHECK-SAME:      %[[B:[a-zA-Z0-9_]+]]: memref<8x12xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NOT:     cf.assert
// CHECK-DAG:     %[[T:.*]] = memref.alloca() : memref<6x8xf32>
// CHECK-DAG:     %[[ROWS:.*]] = memref.subview %[[B]][2, 0] [4, 12] [1, 1]
// CHECK:         %[[S:.*]] = memref.expand_shape %[[ROWS]] {{\[\[}}0], [1, 2]] output_shape [4, 4, 3] : memref<4x12xf32, strided<[?, ?], offset: ?>> into memref<4x4x3xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:    %[[U:.*]] = memref.expand_shape %[[T]] {{\[\[}}0, 1], [2]] output_shape [3, 2, 8] : memref<6x8xf32> into memref<3x2x8xf32>
// CHECK-NEXT:    %[[V:.*]] = memref.expand_shape %[[U]] {{\[\[}}0], [1], [2, 3]] output_shape [3, 2, 4, 2] : memref<3x2x8xf32> into memref<3x2x4x2xf32>
// CHECK:         %[[X:.*]] = memref.load %[[V]][
// CHECK-NEXT:    memref.store %[[X]], %[[S]][
exogpu.proc @split_static(%B: f32[8, 12] @DRAM) {
  %rows = exogpu.window %B[2:6, :] : f32[8, 12] @DRAM
  %s = exogpu.split %rows dim 1 by 3 : window f32[4, 12] @DRAM
  %t = exogpu.alloc f32[6, 8] @DRAM
  %u = exogpu.split %t dim 0 by 2 : f32[6, 8] @DRAM
  %v = exogpu.split %u dim 2 by 2 : window f32[3, 2, 8] @DRAM
  exogpu.assign %s[1, 2, 0] = %v[2, 1, 3, 1] : window f32[4, 4, 3] @DRAM, window f32[3, 2, 4, 2] @DRAM
}
