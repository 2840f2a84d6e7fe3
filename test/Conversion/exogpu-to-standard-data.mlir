// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-standard --cse | FileCheck %s

// The sequential meaning of data (--convert-exogpu-to-standard): data
// parameters are strided memrefs, allocations memref.alloca (static shapes,
// within the function's 1 MiB stack budget, in the entry block) or
// memref.alloc freed at the end of the allocating block, windows
// rank-reducing memref.subview, statements loads, arith in the
// expression's precision and a store.

// A static allocation inside loops is one stack slot of the function; a
// large one (2 MiB) or a dynamic one is a heap allocation freed at the end
// of its block, after checking that its extents are not negative.

// CHECK-LABEL: func.func @allocs(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[X:[a-zA-Z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:    %[[TILE:[a-zA-Z0-9_]+]] = memref.alloca() : memref<32x16xf32>
// CHECK:         cf.assert
// CHECK-NEXT:    %[[BIG:[a-zA-Z0-9_]+]] = memref.alloc() : memref<1024x512xf32>
// CHECK-NEXT:    %[[NONNEG:[a-zA-Z0-9_]+]] = arith.cmpi sge, %[[N]], %{{.*}} : index
// CHECK-NEXT:    cf.assert %[[NONNEG]], "extent 0 of dyn is negative\0ALocation: loc({{.*}})"
// CHECK-NEXT:    %[[DYN:[a-zA-Z0-9_]+]] = memref.alloc(%[[N]]) : memref<?x16xf32>
// CHECK:         scf.for
// CHECK:           scf.for %[[T:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:        %[[V:[a-zA-Z0-9_]+]] = memref.load %[[X]][%[[T]]]
// CHECK-NEXT:        memref.store %[[V]], %[[TILE]][%[[T]], %{{.*}}] : memref<32x16xf32>
// CHECK:         %[[W:[a-zA-Z0-9_]+]] = memref.load %[[DYN]]
// CHECK-NEXT:    memref.store %[[W]], %[[BIG]]
// CHECK-NEXT:    memref.dealloc %[[DYN]] : memref<?x16xf32>
// CHECK-NEXT:    memref.dealloc %[[BIG]] : memref<1024x512xf32>
// CHECK-NEXT:    return
exogpu.proc @allocs(%N: size, %x: f32[%N] @CudaGmemLinear) {
  %big = exogpu.alloc f32[1024, 512] @DRAM
  %dyn = exogpu.alloc f32[%N, 16] @DRAM
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %tile = exogpu.alloc f32[32, 16] @CudaSmemLinear
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %tile[%t, 0] = %x[%t] : f32[32, 16] @CudaSmemLinear, f32[?] @CudaGmemLinear
      }
      exogpu.free %bar : barrier @CudaMbarrier
    }
  }
  exogpu.assign %big[0, 0] = %dyn[0, 0] : f32[1024, 512] @DRAM, f32[?, 16] @DRAM
}

// -----

// Windows: a point coordinate drops its dimension, an interval keeps
// hi - lo (static when constant), `:` the whole dimension; windows of
// windows compose; a special window (TMA tensor map) is a plain view.

// CHECK-LABEL: func.func @windows(
// CHECK-SAME:      %{{.*}}: index, %[[A:[a-zA-Z0-9_]+]]: memref<?x64xf32, strided<[?, ?], offset: ?>>, %[[B:[a-zA-Z0-9_]+]]: memref<?x64xf32, strided<[?, ?], offset: ?>>, %[[I:[a-zA-Z0-9_]+]]: index) {
// CHECK:         %[[ROW:[a-zA-Z0-9_]+]] = memref.subview %[[B]][%[[I]], 0] [1, 64] [1, 1] : memref<?x64xf32, strided<[?, ?], offset: ?>> to memref<64xf32, strided<[?], offset: ?>>
// i * 16, checked against overflow.
// CHECK:         %[[LOW:[a-zA-Z0-9_]+]], %{{.*}} = arith.mulsi_extended
// CHECK:         %[[LO:[a-zA-Z0-9_]+]] = arith.index_cast %[[LOW]] : i64 to index
// CHECK-NEXT:    cf.assert %{{.*}}, "a control value overflows 64 bits
// CHECK-NEXT:    %[[TILE:[a-zA-Z0-9_]+]] = memref.subview %[[B]][%[[LO]], 8] [16, 32] [1, 1] : memref<?x64xf32, strided<[?, ?], offset: ?>> to memref<16x32xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[COL:[a-zA-Z0-9_]+]] = memref.subview %[[TILE]][0, 3] [16, 1] [1, 1] : memref<16x32xf32, strided<[?, ?], offset: ?>> to memref<16xf32, strided<[?], offset: ?>>
// CHECK:         %[[V:[a-zA-Z0-9_]+]] = memref.load %[[COL]][%{{.*}}] : memref<16xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    memref.store %[[V]], %[[ROW]][%{{.*}}] : memref<64xf32, strided<[?], offset: ?>>
// CHECK:         scf.for
// CHECK:           scf.for %[[T:[a-zA-Z0-9_]+]] =
// CHECK-NEXT:        %[[M:[a-zA-Z0-9_]+]] = memref.load %[[A]][%[[T]], %{{.*}}] : memref<?x64xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:        memref.store %[[M]], %[[A]][%[[T]], %{{.*}}]
exogpu.proc @windows(%M: size, %A: f32[%M, 64] @CudaGmemLinear,
                     %B: f32[%M, 64] @DRAM, %i: index) {
  %row = exogpu.window %B[%i, :] : f32[?, 64] @DRAM
  %tile = exogpu.window %B[%i * 16:%i * 16 + 16, 8:40] : f32[?, 64] @DRAM
  %col = exogpu.window %tile[:, 3] : window f32[16, 32] @DRAM
  %map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 16, 32) : f32[?, 64] @CudaGmemLinear
  exogpu.assign %row[1] = %col[2] : window f32[64] @DRAM, window f32[16] @DRAM
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %A[%t, 0] = %map[%t, 1] : f32[?, 64] @CudaGmemLinear, window f32[?, 64] @CudaGmemLinear @Sm90_tensorMap(128, 16, 32)
      }
    }
  }
}

// -----

// A window with a dynamic interval keeps a dynamic extent.

// CHECK-LABEL: func.func @dynamic_window(
// CHECK-SAME:      %[[N:[a-zA-Z0-9_]+]]: index, %[[X:[a-zA-Z0-9_]+]]: memref<?xf32, strided<[?], offset: ?>>) {
// CHECK:         %[[SIZE:[a-zA-Z0-9_]+]] = arith.addi %[[N]], %{{.*}} : index
// CHECK:         cf.assert %{{.*}}, "a control value overflows 64 bits
// CHECK-NEXT:    memref.subview %[[X]][1] [%[[SIZE]]] [1] : memref<?xf32, strided<[?], offset: ?>> to memref<?xf32, strided<[?], offset: ?>>
exogpu.proc @dynamic_window(%N: size, %x: f32[%N] @DRAM) {
  %tail = exogpu.window %x[1:%N] : f32[?] @DRAM
  exogpu.assign %tail[0] = 1.0 : window f32[?] @DRAM
}

// -----

// Arithmetic in the expression's precision, one rounding per operation; ui8
// and ui16 are i8 and i16 with unsigned operations; integer division never
// traps (x / 0 = -1, INT_MIN / -1 wraps); `x += e` adds in x's precision.

// CHECK-LABEL: func.func @precisions(
// CHECK-SAME:      %[[H:[a-zA-Z0-9_]+]]: memref<4xf16, {{.*}}>, %[[B:[a-zA-Z0-9_]+]]: memref<4xbf16, {{.*}}>, %[[D:[a-zA-Z0-9_]+]]: memref<4xf64, {{.*}}>, %[[S:[a-zA-Z0-9_]+]]: memref<4xi8, {{.*}}>, %[[U:[a-zA-Z0-9_]+]]: memref<4xi8, {{.*}}>, %[[W:[a-zA-Z0-9_]+]]: memref<4xi16, {{.*}}>, %[[I:[a-zA-Z0-9_]+]]: memref<4xi32, {{.*}}>) {
// CHECK:         %[[MUL:[a-zA-Z0-9_]+]] = arith.mulf %{{.*}}, %{{.*}} : f16
// CHECK:         %[[SUB:[a-zA-Z0-9_]+]] = arith.subf %[[MUL]], %{{.*}} : f16
// CHECK-NEXT:    memref.store %[[SUB]], %[[H]]
// CHECK:         %[[QUO:[a-zA-Z0-9_]+]] = arith.divf %{{.*}}, %{{.*}} : bf16
// CHECK-NEXT:    %[[OLD:[a-zA-Z0-9_]+]] = memref.load %[[B]]
// CHECK-NEXT:    %[[SUM:[a-zA-Z0-9_]+]] = arith.addf %[[OLD]], %[[QUO]] : bf16
// CHECK-NEXT:    memref.store %[[SUM]], %[[B]]
// CHECK:         arith.negf %{{.*}} : f64
// CHECK:         %[[L:[a-zA-Z0-9_]+]] = memref.load %[[S]][%{{.*}}]
// CHECK-NEXT:    %[[R:[a-zA-Z0-9_]+]] = memref.load %[[S]][%{{.*}}]
// CHECK-NEXT:    %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0 : i8
// CHECK-NEXT:    %[[ONE:[a-zA-Z0-9_]+]] = arith.constant 1 : i8
// CHECK-NEXT:    %[[MINUS1:[a-zA-Z0-9_-]+]] = arith.constant -1 : i8
// CHECK-NEXT:    %[[ISZERO:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[R]], %[[ZERO]] : i8
// CHECK-NEXT:    %[[ISM1:[a-zA-Z0-9_]+]] = arith.cmpi eq, %[[R]], %[[MINUS1]] : i8
// CHECK-NEXT:    %[[SPECIAL:[a-zA-Z0-9_]+]] = arith.ori %[[ISZERO]], %[[ISM1]] : i1
// CHECK-NEXT:    %[[DIVISOR:[a-zA-Z0-9_]+]] = arith.select %[[SPECIAL]], %[[ONE]], %[[R]] : i8
// CHECK-NEXT:    %[[Q:[a-zA-Z0-9_]+]] = arith.divsi %[[L]], %[[DIVISOR]] : i8
// CHECK-NEXT:    %[[NEG:[a-zA-Z0-9_]+]] = arith.subi %[[ZERO]], %[[L]] : i8
// CHECK-NEXT:    %[[Q2:[a-zA-Z0-9_]+]] = arith.select %[[ISM1]], %[[NEG]], %[[Q]] : i8
// CHECK-NEXT:    %[[Q3:[a-zA-Z0-9_]+]] = arith.select %[[ISZERO]], %[[MINUS1]], %[[Q2]] : i8
// CHECK-NEXT:    memref.store %[[Q3]], %[[S]]
// CHECK:         %[[UQ:[a-zA-Z0-9_]+]] = arith.divui %{{.*}}, %{{.*}} : i8
// CHECK-NEXT:    %[[UQ2:[a-zA-Z0-9_]+]] = arith.select %{{.*}}, %[[MINUS1]], %[[UQ]] : i8
// CHECK-NEXT:    %[[C200:[a-zA-Z0-9_-]+]] = arith.constant -56 : i8
// CHECK-NEXT:    %[[US:[a-zA-Z0-9_]+]] = arith.addi %[[UQ2]], %[[C200]] : i8
// CHECK-NEXT:    memref.store %[[US]], %[[U]]
// CHECK:         %[[Z16:[a-zA-Z0-9_]+]] = arith.constant 0 : i16
// CHECK-NEXT:    arith.subi %[[Z16]], %{{.*}} : i16
// CHECK:         arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         arith.addi %{{.*}}, %{{.*}} : i32
exogpu.proc @precisions(%h: f16[4] @DRAM, %b: bf16[4] @DRAM, %d: f64[4] @DRAM,
                        %s: i8[4] @DRAM, %u: ui8[4] @DRAM, %w: ui16[4] @DRAM,
                        %n: i32[4] @DRAM) {
  exogpu.assign %h[0] = %h[1] * %h[2] - %h[3] : f16[4] @DRAM
  exogpu.reduce %b[0] += %b[1] / %b[2] : bf16[4] @DRAM
  exogpu.assign %d[0] = -%d[1] : f64[4] @DRAM
  exogpu.assign %s[0] = %s[1] / %s[2] : i8[4] @DRAM
  exogpu.assign %u[0] = %u[1] / %u[2] + 200 : ui8[4] @DRAM
  exogpu.assign %w[0] = -%w[1] : ui16[4] @DRAM
  exogpu.reduce %n[0] += %n[1] * 3 : i32[4] @DRAM
}

// -----

// Functions: max is maxNum on floats (a NaN operand loses, as CUDA's fmaxf)
// and signed or unsigned by the precision on integers; exp2 and log2 are
// math.exp2 and math.log2, computed in f32 for 16-bit floats and rounded
// once.

// CHECK-LABEL: func.func @functions(
// CHECK:         arith.maxnumf %{{.*}}, %{{.*}} : f32
// CHECK:         %[[E:[a-zA-Z0-9_]+]] = math.exp2 %{{.*}} : f32
// CHECK-NEXT:    %[[L:[a-zA-Z0-9_]+]] = math.log2 %[[E]] : f32
// CHECK:         %[[B32:[a-zA-Z0-9_]+]] = arith.extf %{{.*}} : bf16 to f32
// CHECK-NEXT:    %[[BE:[a-zA-Z0-9_]+]] = math.exp2 %[[B32]] : f32
// CHECK-NEXT:    arith.truncf %[[BE]] : f32 to bf16
// CHECK:         %[[H32:[a-zA-Z0-9_]+]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    %[[HL:[a-zA-Z0-9_]+]] = math.log2 %[[H32]] : f32
// CHECK-NEXT:    arith.truncf %[[HL]] : f32 to f16
// CHECK:         arith.maxsi %{{.*}}, %{{.*}} : i8
// CHECK:         arith.maxui %{{.*}}, %{{.*}} : i8
// CHECK:         arith.maxnumf %{{.*}}, %{{.*}} : f64
exogpu.proc @functions(%f: f32[4] @DRAM, %b: bf16[4] @DRAM, %h: f16[4] @DRAM,
                       %s: i8[4] @DRAM, %u: ui8[4] @DRAM, %d: f64[4] @DRAM) {
  exogpu.assign %f[0] = max(%f[1], %f[2]) : f32[4] @DRAM
  exogpu.assign %f[3] = log2(exp2(%f[0])) : f32[4] @DRAM
  exogpu.assign %b[0] = exp2(%b[1]) : bf16[4] @DRAM
  exogpu.assign %h[0] = log2(%h[1]) : f16[4] @DRAM
  exogpu.assign %s[0] = max(%s[1], %s[2]) : i8[4] @DRAM
  exogpu.assign %u[0] = max(%u[1], %u[2]) : ui8[4] @DRAM
  exogpu.assign %d[0] = max(%d[1], 0.5) : f64[4] @DRAM
}

// -----

// The implicit conversion at a write: floats round to nearest (f16 <-> bf16
// through f32), integers to floats and back by the source's / target's
// signedness, floats to integers truncate and saturate (NaN is 0; the
// unselected conversion of an out-of-range value is poison, which select
// drops), integers extend by the source's signedness or wrap; i8 and ui8
// share their bits. A reduction converts the value, then adds.

// CHECK-LABEL: func.func @conversions(
// CHECK:         arith.extf %{{.*}} : f16 to f32
// CHECK:         arith.truncf %{{.*}} : f64 to f16
// CHECK:         %[[WIDE:[a-zA-Z0-9_]+]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT:    arith.truncf %[[WIDE]] : f32 to bf16
// CHECK:         arith.uitofp %{{.*}} : i8 to f32
// CHECK:         arith.sitofp %{{.*}} : i8 to f32
// CHECK:         %[[FU:[a-zA-Z0-9_]+]] = memref.load
// CHECK-DAG:     %[[ZERO:[a-zA-Z0-9_]+]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:     %[[RANGE:[a-zA-Z0-9_]+]] = arith.constant 2.560000e+02 : f32
// CHECK-DAG:     %[[MIN:[a-zA-Z0-9_-]+]] = arith.constant 0 : i8
// CHECK-DAG:     %[[MAX:[a-zA-Z0-9_-]+]] = arith.constant -1 : i8
// CHECK:         %[[CONV:[a-zA-Z0-9_]+]] = arith.fptoui %[[FU]] : f32 to i8
// CHECK-NEXT:    %[[BELOW:[a-zA-Z0-9_]+]] = arith.cmpf ole, %[[FU]], %[[ZERO]] : f32
// CHECK-NEXT:    %[[ABOVE:[a-zA-Z0-9_]+]] = arith.cmpf oge, %[[FU]], %[[RANGE]] : f32
// CHECK-NEXT:    %[[NAN:[a-zA-Z0-9_]+]] = arith.cmpf uno, %[[FU]], %[[FU]] : f32
// CHECK-NEXT:    %[[S1:[a-zA-Z0-9_]+]] = arith.select %[[BELOW]], %[[MIN]], %[[CONV]] : i8
// CHECK-NEXT:    %[[S2:[a-zA-Z0-9_]+]] = arith.select %[[ABOVE]], %[[MAX]], %[[S1]] : i8
// CHECK-NEXT:    arith.select %[[NAN]], %[[MIN]], %[[S2]] : i8
// CHECK:         arith.extui %{{.*}} : i8 to i32
// CHECK:         arith.extsi %{{.*}} : i8 to i32
// CHECK:         arith.trunci %{{.*}} : i32 to i8
// CHECK:         %[[BITS:[a-zA-Z0-9_]+]] = memref.load %{{.*}} : memref<4xi8,
// CHECK-NEXT:    memref.store %[[BITS]], %{{.*}} : memref<4xi8,
// CHECK:         %[[F:[a-zA-Z0-9_]+]] = arith.extf %{{.*}} : f32 to f64
// CHECK-NEXT:    %[[OLD:[a-zA-Z0-9_]+]] = memref.load
// CHECK-NEXT:    arith.addf %[[OLD]], %[[F]] : f64
exogpu.proc @conversions(%h: f16[4] @DRAM, %b: bf16[4] @DRAM, %f: f32[4] @DRAM,
                         %d: f64[4] @DRAM, %s: i8[4] @DRAM, %u: ui8[4] @DRAM,
                         %n: i32[4] @DRAM) {
  exogpu.assign %f[0] = %h[0] : f32[4] @DRAM, f16[4] @DRAM
  exogpu.assign %h[1] = %d[0] : f16[4] @DRAM, f64[4] @DRAM
  exogpu.assign %b[0] = %h[2] : bf16[4] @DRAM, f16[4] @DRAM
  exogpu.assign %f[1] = %u[0] : f32[4] @DRAM, ui8[4] @DRAM
  exogpu.assign %f[2] = %s[0] : f32[4] @DRAM, i8[4] @DRAM
  exogpu.assign %u[1] = %f[3] : ui8[4] @DRAM, f32[4] @DRAM
  exogpu.assign %n[0] = %u[2] : i32[4] @DRAM, ui8[4] @DRAM
  exogpu.assign %n[1] = %s[2] : i32[4] @DRAM, i8[4] @DRAM
  exogpu.assign %s[3] = %n[2] : i8[4] @DRAM, i32[4] @DRAM
  exogpu.assign %u[3] = %s[1] : ui8[4] @DRAM, i8[4] @DRAM
  exogpu.reduce %d[1] += %f[0] : f64[4] @DRAM, f32[4] @DRAM
}
