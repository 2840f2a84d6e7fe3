// RUN: exogpu-opt %s --allow-unregistered-dialect -split-input-file --mlir-very-unsafe-disable-verifier-on-parsing --convert-exogpu-to-standard -verify-diagnostics

// The exogpu verifiers reject all of these; --convert-exogpu-to-standard
// rejects them again, with a diagnostic and no crash, for IR built without
// the verifiers.

exogpu.proc @foreign(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: no sequential meaning for this operation}}
  "test.op"() : () -> ()
}

// -----

exogpu.proc @two(%x: f32[4] @DRAM, %y: f32[4] @DRAM) {
}

exogpu.proc @few_data(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: too few data arguments}}
  exogpu.call @two(%x) : f32[4] @DRAM
}

// -----

exogpu.instr @touch2(%x: f32[4] @CudaRmem, %y: f32[4] @CudaRmem)
    target = cuda, unit = cuda_thread, cuda = "" {
}

exogpu.proc @few_instr_data(%x: f32[4] @DRAM) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %r = exogpu.alloc f32[4] @CudaRmem
      // expected-error @below {{sequential lowering: too few data arguments}}
      exogpu.call @touch2(%r) : f32[4] @CudaRmem
    }
  }
}

// -----

exogpu.proc @sized(%n: size, %x: f32[4] @DRAM) {
}

exogpu.proc @few_ctrl(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: too few control arguments}}
  exogpu.call @sized(%x) : f32[4] @DRAM
}

// -----

exogpu.proc @unknown(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: unknown callee @nothing}}
  exogpu.call @nothing(%x) : f32[4] @DRAM
}

// -----

exogpu.proc @eight(%x: f32[8] @DRAM) {
}

exogpu.proc @mismatch(%x: f32[8] @DRAM) {
  // expected-error @below {{sequential lowering: data argument 0 of type 'memref<4xf32, strided<[?], offset: ?>>' cannot be passed as 'memref<8xf32, strided<[?], offset: ?>>'}}
  exogpu.call @eight(%x[0:4]) : f32[8] @DRAM
}

// -----

exogpu.proc @rank(%x: f32[8, 8] @DRAM) {
  // expected-error @below {{sequential lowering: 1 window coordinate(s) for a buffer of rank 2}}
  %w = exogpu.window %x[0:4] : f32[8, 8] @DRAM
}

// -----

exogpu.instr @touch(%x: f32[4] @CudaRmem) target = cuda, unit = cuda_thread,
    cuda = "" {
}

exogpu.proc @barrier_as_data(%x: f32[4] @DRAM) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %bar = exogpu.alloc barrier @CudaMbarrier
      // expected-error @below {{sequential lowering: operand has no lowered value (a barrier used as data?)}}
      exogpu.call @touch(%bar) : barrier @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @no_yield(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: data expression without exogpu.yield}}
  "exogpu.assign"(%x) <{indices = affine_map<() -> (0)>}> ({
  ^bb0:
  }) : (!exogpu.tensor<f32[4] @DRAM>) -> ()
}

// -----

exogpu.proc @not_an_expression(%x: f32[4] @DRAM) {
  "exogpu.assign"(%x) <{indices = affine_map<() -> (0)>}> ({
    // expected-error @below {{sequential lowering: not a data expression}}
    "exogpu.fence"() <{post = #exogpu<sync_tl cuda_in_order>, pre = #exogpu<sync_tl cuda_in_order>}> : () -> ()
  }) : (!exogpu.tensor<f32[4] @DRAM>) -> ()
}

// -----

exogpu.proc @target(%x: f32[4] @DRAM) {
}

exogpu.proc @bad_call_coords(%x: f32[4] @DRAM) {
  // expected-error @below {{coordinate counts exceed the coordinate kinds}}
  "exogpu.call"(%x) <{callee = @target, ctrlArgs = affine_map<() -> ()>, coordKinds = array<i32: 0>, coordCounts = array<i32: 2>, coords = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (!exogpu.tensor<f32[4] @DRAM>) -> ()
}

// -----

exogpu.proc @target2(%x: f32[4] @DRAM, %y: f32[4] @DRAM) {
}

exogpu.proc @few_coord_lists(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: too few coordinate lists}}
  "exogpu.call"(%x, %x) <{callee = @target2, ctrlArgs = affine_map<() -> ()>, coordKinds = array<i32>, coordCounts = array<i32: 0>, coords = affine_map<() -> ()>, operandSegmentSizes = array<i32: 2, 0, 0>}> : (!exogpu.tensor<f32[4] @DRAM>, !exogpu.tensor<f32[4] @DRAM>) -> ()
}

// -----

exogpu.proc @bad_window(%x: f32[4] @DRAM) {
  // expected-error @below {{sequential lowering: malformed window coordinates}}
  %w = "exogpu.window"(%x) <{coordKinds = array<i32: 1>, coords = affine_map<() -> (0)>}> : (!exogpu.tensor<f32[4] @DRAM>) -> !exogpu.window<f32[?] @DRAM>
}

// -----

exogpu.proc @split_missing_dim(%x: f32[8] @DRAM) {
  // expected-error @below {{sequential lowering: cannot split dimension 3 of 'memref<8xf32, strided<[?], offset: ?>>' by 4}}
  %s = "exogpu.split"(%x) <{dim = 3 : i64, factor = 4 : i64}> : (!exogpu.tensor<f32[8] @DRAM>) -> !exogpu.window<f32[2, 4] @DRAM>
}

// -----

exogpu.proc @split_not_multiple(%x: f32[8] @DRAM) {
  // expected-error @below {{sequential lowering: cannot split dimension 0 of 'memref<8xf32, strided<[?], offset: ?>>' by 3}}
  %s = "exogpu.split"(%x) <{dim = 0 : i64, factor = 3 : i64}> : (!exogpu.tensor<f32[8] @DRAM>) -> !exogpu.window<f32[2, 3] @DRAM>
}
