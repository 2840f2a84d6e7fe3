// Every verifier rule and parser diagnostic of the exogpu dialect, one split each.
// RUN: exogpu-opt %s -split-input-file -verify-diagnostics

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{unknown loop mode 'par' (expected seq, cuda_tasks or cuda_threads)}}
  exogpu.for %i in par(0, %N) {
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{only cuda_threads loops take a collective unit}}
  exogpu.for %i in seq(0, %N, unit = cuda_thread) {
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{only cuda_threads loops take a collective unit}}
      exogpu.for %j in cuda_tasks(0, 2, unit = cuda_warp) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{cuda_tasks loops may only form the single child nest of a device_function (Sec. 3.4)}}
  exogpu.for %i in cuda_tasks(0, %N) {
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{cuda_tasks loops may only form the single child nest of a device_function}}
        exogpu.for %j in cuda_tasks(0, 2) {
        }
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{a cuda_tasks loop must be the only statement of its parent}}
      exogpu.for %j in cuda_tasks(0, 2) {
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{only seq loops are allowed at CPU scope}}
  exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cuda_threads loops need a collective unit (unit = ...)}}
      exogpu.for %t in cuda_threads(0, 32) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cuda_threads loops must have lo = 0}}
      exogpu.for %t in cuda_threads(1, 32, unit = cuda_thread) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cuda_threads loops must have a positive constant hi}}
      exogpu.for %t in cuda_threads(0, %N, unit = cuda_thread) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cuda_threads loops must have a positive constant hi}}
      exogpu.for %t in cuda_threads(0, 0, unit = cuda_thread) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %M: size) {
  // expected-error @+1 {{control expressions are quasi-affine: one side of '*' must be a constant}}
  exogpu.for %i in seq(0, %N * %M) {
  }
}

// -----

exogpu.proc @p(%N: size, %M: size) {
  // expected-error @+1 {{control expressions divide only by positive constants}}
  exogpu.for %i in seq(0, %N / 0) {
  }
}

// -----

exogpu.proc @p(%N: size, %M: size) {
  // expected-error @+1 {{control expressions divide only by positive constants}}
  exogpu.for %i in seq(0, %N mod -2) {
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{expected a control expression (integer, SSA name, '-' or '(')}}
  exogpu.for %i in seq(0, +) {
  }
}

// -----

exogpu.proc @p(%N: size, %b: bool) {
  // expected-error @+1 {{'%b' is used both as a boolean and as an integer control value}}
  exogpu.if %b and %N + %b == 0 {
  }
}

// -----

// expected-error @+1 {{'%M' is not a parameter declared before this use}}
exogpu.proc @p(%N: size, %A: f32[%M] @DRAM, %M: size) {
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{expected a relation ('==', '<', '<=', '>' }}
  exogpu.if %N + 1 {
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{unknown device_function parameter 'gridDim'}}
  exogpu.device_function(gridDim = 4) {
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{needs exactly one of blockDim and a warp config}}
  exogpu.device_function(clusterDim = 2) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{needs exactly one of blockDim and a warp config}}
  exogpu.device_function(blockDim = 32, warps = ["a" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{clusterDim must be at most 16, got 17}}
  exogpu.device_function(clusterDim = 17, blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group name 'a' is used twice}}
  exogpu.device_function(warps = ["a" = (1, 0, 0), "a" = (2, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{blockDim must be in [1, 1024], got 2048}}
  exogpu.device_function(blockDim = 2048) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{blockDim must be in [1, 1024], got 1056}}
  exogpu.device_function(warps = ["a" = (33, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{body must be a single nest of cuda_tasks loops (Sec. 3.4)}}
  exogpu.device_function(blockDim = 32) {
    exogpu.for %i in seq(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{body must be a single nest of cuda_tasks loops (Sec. 3.4)}}
  exogpu.device_function(blockDim = 32) {
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{device functions cannot be nested}}
      exogpu.device_function(blockDim = 32) {
        exogpu.for %t2 in cuda_tasks(0, 1) {
        }
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group 'a' needs at least one warp}}
  exogpu.device_function(warps = ["a" = (0, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group 'a' cannot both decrease and increase its registers}}
  exogpu.device_function(warps = ["a" = (1, 40, 232)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group 'a': setmaxnreg register count must be a multiple of 8 in [24, 256], got 42}}
  exogpu.device_function(warps = ["a" = (1, 42, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group 'a': setmaxnreg register count must be a multiple of 8 in [24, 256], got 264}}
  exogpu.device_function(warps = ["a" = (1, 0, 264)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warp group needs a name}}
  exogpu.device_function(warps = ["" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{warp range [2, 2) must satisfy 0 <= lo < hi}}
      exogpu.warps(2, 2) {
      }
    }
  }
}

// -----

// A negative range whose bounds are in order (lo and hi are read as signed).
exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{warp range [-2, -1) must satisfy 0 <= lo < hi}}
      exogpu.warps(-2, -1) {
      }
    }
  }
}

// -----

// A loop missing its mode inside a device function (generic form): the
// loop's own verifier reports it, before the device function looks at its
// body.
"exogpu.proc"() <{argExtents = [affine_map<(d0) -> ()>], argKinds = array<i32: 0>, argNames = ["N"], sym_name = "p"}> ({
^bb0(%arg0: index):
  "exogpu.device_function"() <{blockDim = 128 : i64, clusterDim = 1 : i64}> ({
    // expected-error @+1 {{'exogpu.for' op requires attribute 'mode'}}
    "exogpu.for"(%arg0) <{bounds = affine_map<(d0) -> (0, d0)>, iterName = "task"}> ({
    ^bb0(%arg1: index):
    }) : (index) -> ()
  }) : () -> ()
}) : () -> ()

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{names warp group 'consumer', which the device_function's warp config does not define}}
      exogpu.warps "consumer" {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{names warp group 'consumer', which the device_function's warp config does not define}}
      exogpu.warps "consumer" {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{warp range [0, 2) exceeds the 1 warp(s) of group 'producer'}}
      exogpu.warps "producer"(0, 2) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.warps "producer" {
        // expected-error @+1 {{named warps blocks cannot be nested in another named warps block}}
        exogpu.warps "consumer" {
        }
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{numbered warps blocks in a device_function with a warp config must be nested in a named warps block}}
      exogpu.warps(0, 1) {
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{warps blocks are only allowed inside the cuda_tasks nest of a device_function}}
  exogpu.warps(0, 1) {
  }
}

// -----

// expected-error @+1 {{unknown memory type 'CudaTmem'}}
exogpu.proc @p(%A: f32[4] @CudaTmem) {
}

// -----

// expected-error @+1 {{memory Sm80_RmemMatrixD takes 2 parameter(s), got 1}}
exogpu.proc @p(%A: f32[4] @Sm80_RmemMatrixD(16)) {
}

// -----

// expected-error @+1 {{memory CudaRmem takes 0 parameter(s), got 1}}
exogpu.proc @p(%A: f32[4] @CudaRmem(4)) {
}

// -----

// expected-error @+1 {{memory Sm90_RmemMatrixD parameters must be positive}}
exogpu.proc @p(%A: f32[4] @Sm90_RmemMatrixD(0, 256)) {
}

// -----

// expected-error @+1 {{Sm90_SmemSwizzled takes a swizzle of 32, 64 or 128 bytes, got 16}}
exogpu.proc @p(%A: f32[4] @Sm90_SmemSwizzled(16)) {
}

// -----

// expected-error @+1 {{buffer precision must be one of f16, bf16, f32, f64, i8, ui8, ui16, i32; got 'i64'}}
exogpu.proc @p(%A: i64[4] @DRAM) {
}

// -----

// expected-error @+1 {{buffer extents must be positive, got 0}}
exogpu.proc @p(%A: f32[0] @DRAM) {
}

// -----

exogpu.proc @p() attributes {x = #exogpu.unit<2 * cuda_quadpair>} {
  // expected-error @-1 {{collective unit cuda_quadpair cannot be scaled (Fig. 11)}}
}

// -----

// expected-error @+1 {{collective unit scale must be positive, got 0}}
exogpu.proc @p() attributes {x = #exogpu.unit<0 * cuda_warp>} {
}

// -----

// expected-error @+1 {{collective unit cuda_threads_strided takes 2 parameter(s), got 1}}
exogpu.proc @p() attributes {x = #exogpu.unit<cuda_threads_strided(4)>} {
}

// -----

// expected-error @+1 {{collective unit parameters must be positive}}
exogpu.proc @p() attributes {x = #exogpu.unit<cuda_warp_in_cluster_strided(0)>} {
}

// -----

// expected-error @+1 {{unknown collective unit 'cuda_block'}}
exogpu.proc @p() attributes {x = #exogpu.unit<cuda_block>} {
}

// -----

// expected-error @+1 {{unknown special window 'Sm100_tensorMap' (Fig. 14 defines Sm90_tensorMap)}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm100_tensorMap(0, 8)>} {
}

// -----

// expected-error @+1 {{expected @Sm90_tensorMap(...)}}
exogpu.proc @p() attributes {x = #exogpu.special_window<128>} {
}

// -----

// expected-error @+1 {{Sm90_tensorMap needs a swizzle and a box}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm90_tensorMap()>} {
}

// -----

// expected-error @+1 {{Sm90_tensorMap swizzle must be 0, 32, 64 or 128, got 16}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm90_tensorMap(16, 8)>} {
}

// -----

// expected-error @+1 {{Sm90_tensorMap box must have 1 to 5 dimensions}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm90_tensorMap(128)>} {
}

// -----

// expected-error @+1 {{Sm90_tensorMap box must have 1 to 5 dimensions}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm90_tensorMap(0, 1, 1, 1, 1, 1, 1)>} {
}

// -----

// expected-error @+1 {{Sm90_tensorMap box extents must be in [1, 256], got 512}}
exogpu.proc @p() attributes {x = #exogpu.special_window<@Sm90_tensorMap(0, 512)>} {
}

// -----

// expected-error @+1 {{unknown qualitative timeline 'tma_qual'}}
exogpu.proc @p() attributes {x = #exogpu.arg<init = tma_qual>} {
}

// -----

// expected-error @+1 {{unknown instruction parameter annotation 'volatile'}}
exogpu.proc @p() attributes {x = #exogpu.arg<volatile = [cuda_warp]>} {
}

// -----

// expected-error @+1 {{unknown barrier mechanism 'CudaNamedBarrier'}}
exogpu.proc @p() attributes {x = !exogpu.barrier<@CudaNamedBarrier>} {
}

// -----

// expected-error @+1 {{barrier array extents must be positive constants}}
exogpu.proc @p() attributes {x = !exogpu.barrier<[0] @CudaMbarrier>} {
}

// -----

// expected-error @+1 {{only CudaMbarrier barriers can be explicitly guarded (Fig. 10 barrier(z))}}
exogpu.proc @p() attributes {x = !exogpu.barrier<@CudaCommitGroup guarded>} {
}

// -----

// expected-error @+1 {{malformed condition: 'or' must separate atoms}}
exogpu.proc @p() attributes {x = #exogpu.cond<() -> (), [8]>} {
}

// -----

// expected-error @+1 {{invalid condition atom kind 42}}
exogpu.proc @p() attributes {x = #exogpu.cond<() -> (), [42]>} {
}

// -----

// expected-error @+1 {{condition atoms need more expressions than the map has}}
exogpu.proc @p() attributes {x = #exogpu.cond<(d0) -> (d0), [0]>} {
}

// -----

// expected-error @+1 {{condition must end with an atom}}
exogpu.proc @p() attributes {x = #exogpu.cond<(d0, d1) -> (d0, d1), [0, 8]>} {
}

// -----

// expected-error @+1 {{condition map has unused expressions}}
exogpu.proc @p() attributes {x = #exogpu.cond<(d0) -> (d0, d0, d0), [0]>} {
}

// -----

// expected-error @+1 {{boolean condition atom must be an operand}}
exogpu.proc @p() attributes {x = #exogpu.cond<(d0) -> (d0 + 1), [5]>} {
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{expected 1 type(s), one per distinct buffer or barrier named, got 2}}
        exogpu.assign %A[%t] = 1.0 : f32[16] @CudaGmemLinear, f32[16] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{'exogpu.assign' op destination has rank 1 but 2 indices}}
        exogpu.assign %A[%t, 0] = 1.0 : f32[16] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{reads a buffer of rank 1 with 0 indices}}
        exogpu.assign %A[%t] = %A[] : f32[16] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{expected a point index here, not a window}}
        exogpu.assign %A[0:4] = 1.0 : f32[16] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{expected a point index here, not a window}}
        exogpu.assign %A[:] = 1.0 : f32[16] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear, %B: i32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{floating-point literal used at integer precision 'i32'}}
        exogpu.assign %B[%t] = 1.5 : i32[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear, %B: f16[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{operands of a data operation must have one precision, got 'f32' and 'f16'}}
        exogpu.assign %A[%t] = %A[%t] + %B[%t] : f32[16] @CudaGmemLinear, f16[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear, %B: f16[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{operands of a data operation must have one precision, got 'f16' and 'f32'}}
        exogpu.assign %A[%t] = max(%B[%t], %A[%t]) : f32[16] @CudaGmemLinear, f16[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %B: i32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{'exogpu.exp2' op takes a floating-point operand, got 'i32'}}
        exogpu.assign %B[%t] = exp2(%B[%t]) : i32[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %B: ui8[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{'exogpu.log2' op takes a floating-point operand, got 'ui8'}}
        exogpu.assign %B[%t] = log2(%B[%t] + 1) : ui8[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{expected ','}}
        exogpu.assign %A[%t] = max(%A[%t]) : f32[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{expected ')'}}
        exogpu.assign %A[%t] = exp2(%A[%t], %A[%t]) : f32[32] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        %z = exogpu.alloc barrier @CudaMbarrier
        // expected-error @+1 {{only data buffers can be read in a data expression}}
        exogpu.assign %A[%t] = %z[] : f32[16] @CudaGmemLinear, barrier @CudaMbarrier
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        %z = exogpu.alloc barrier @CudaMbarrier
        // expected-error @+1 {{the destination must be a data buffer}}
        exogpu.assign %z[] = 1.0 : barrier @CudaMbarrier
      }
    }
  }
}

// -----

exogpu.proc @p(%A: f32[16] @CudaGmemLinear) {
  // expected-error @+1 {{CPU code cannot access CudaGmemLinear directly; access it inside a device_function}}
  exogpu.assign %A[0] = 1.0 : f32[16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16] @DRAM, %B: f32[16] @CudaGmemLinear) {
  // expected-error @+1 {{CPU code cannot access CudaGmemLinear directly}}
  exogpu.assign %A[0] = %B[0] : f32[16] @DRAM, f32[16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear, %H: f32[32] @DRAM) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{CUDA code cannot access host memory (DRAM)}}
        exogpu.reduce %H[%t] += 1.0 : f32[32] @DRAM
      }
    }
  }
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  %w = exogpu.window %A[0:16, 0:16] @Sm90_tensorMap(128, 16, 16) : f32[16, 16] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{cannot write through a special window}}
        exogpu.assign %w[0, %t] = 1.0 : window f32[16, 16] @CudaGmemLinear @Sm90_tensorMap(128, 16, 16)
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{CudaDeviceBarrier is the base type of barriers (Fig. 13); allocate a concrete mechanism}}
        %z = exogpu.alloc barrier @CudaDeviceBarrier
      }
    }
  }
}

// -----

exogpu.proc @p() {
  // expected-error @+1 {{barriers are allocated in CUDA scope}}
  %z = exogpu.alloc barrier[2] @CudaMbarrier
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{CudaSmemAtomicity16B is a base memory type (Fig. 12) and cannot be allocated}}
        %s = exogpu.alloc f32[4] @CudaSmemAtomicity16B
      }
    }
  }
}


// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{CudaGmemLinear is allocated in CPU scope, outside device_function}}
        %s = exogpu.alloc f32[4] @CudaGmemLinear
      }
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        // expected-error @+1 {{DRAM is allocated in CPU scope, outside device_function}}
        %s = exogpu.alloc f32[4] @DRAM
      }
    }
  }
}

// -----

exogpu.proc @p() {
  // expected-error @+1 {{CudaSmemLinear is allocated in CUDA scope, inside a device_function}}
  %s = exogpu.alloc f32[4] @CudaSmemLinear
}

// -----

exogpu.proc @p() {
  // expected-error @+1 {{CudaRmem is allocated in CUDA scope, inside a device_function}}
  %s = exogpu.alloc f32 @CudaRmem
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{control expressions are quasi-affine: one side of '*' must be a constant}}
  %s = exogpu.alloc f32[%N * %N] @DRAM
}

// -----

exogpu.proc @p() {
  // expected-error @+1 {{buffer extents must be positive, got 0}}
  %s = exogpu.alloc f32[0] @DRAM
}

// -----

exogpu.proc @p(%N: size) {
  // expected-error @+1 {{buffer extents must be positive, got -4}}
  %s = exogpu.alloc f32[4 - 8] @DRAM
}

// -----

exogpu.proc @p(%A: f32[16] @DRAM) {
  // expected-error @+1 {{frees only values produced by exogpu.alloc}}
  exogpu.free %A : f32[16] @DRAM
}

// -----

exogpu.proc @p(%N: size) {
  %s = exogpu.alloc f32[4] @DRAM
  exogpu.for %i in seq(0, %N) {
    // expected-error @+1 {{must be in the block of its allocation}}
    exogpu.free %s : f32[4] @DRAM
  }
}

// -----

exogpu.proc @p() {
  %s = exogpu.alloc f32[4] @DRAM
  // expected-error @+1 {{allocation is freed twice}}
  exogpu.free %s : f32[4] @DRAM
  exogpu.free %s : f32[4] @DRAM
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  %w = exogpu.window %A[0:16, 0:16] @Sm90_tensorMap(128, 16, 16) : f32[16, 16] @CudaGmemLinear
  // expected-error @+1 {{cannot take a window of a special window}}
  %v = exogpu.window %w[0:8, :] : window f32[16, 16] @CudaGmemLinear @Sm90_tensorMap(128, 16, 16)
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear, %B: f32[16, 16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{tensor maps are built in CPU scope, outside device_function}}
      %w = exogpu.window %B[0:16, 0:16] @Sm90_tensorMap(128, 16, 16) : f32[16, 16] @CudaGmemLinear
    }
  }
}

// -----

exogpu.proc @p(%A: f32[16, 16] @DRAM) {
  // expected-error @+1 {{Sm90_tensorMap windows are taken of CudaGmemLinear buffers}}
  %w = exogpu.window %A[0:16, 0:16] @Sm90_tensorMap(128, 16, 16) : f32[16, 16] @DRAM
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  // expected-error @+1 {{Sm90_tensorMap box has 1 dimension(s), the window has 2}}
  %w = exogpu.window %A[0:16, 0:16] @Sm90_tensorMap(128, 16) : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  // expected-error @+1 {{window has 1 coordinate(s) for a buffer of rank 2}}
  %w = exogpu.window %A[0:16] : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  // expected-error @+1 {{expected a buffer or barrier name}}
  %w = exogpu.window 3 : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p() {
  // expected-error @+1 {{synchronization statements are only allowed inside the cuda_tasks nest of a device_function}}
  exogpu.fence(cuda_in_order, cuda_in_order)
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{unknown sync timeline 'cuda_sync' (Fig. 16)}}
      exogpu.fence(cuda_sync, cuda_in_order)
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cpu_in_order is a host timeline; device synchronization uses CUDA timelines (Fig. 16)}}
      exogpu.fence(cpu_in_order, cuda_in_order)
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{cuda_stream_sync is a host timeline}}
      exogpu.fence(cuda_in_order, cuda_stream_sync)
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{empty_sync_tl orders nothing}}
      exogpu.fence(empty_sync_tl, cuda_in_order)
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{multicast arrive (>> z1 >> z2) needs CudaMbarrier barriers}}
      exogpu.arrive(Sm80_cp_async, 1) >> %cg >> %cg : barrier @CudaCommitGroup
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{arrive count must be at least 1, got 0}}
      exogpu.arrive(cuda_in_order, 0) >> %z[0] : barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{CudaClusterSync arrives take N = 1, got 2}}
      exogpu.arrive(cuda_in_order, 2) >> %cs : barrier @CudaClusterSync
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{CudaCommitGroup arrives commit async work: the timeline must be Sm80_cp_async, tma_to_gmem_async or wgmma_async, got cuda_in_order}}
      exogpu.arrive(cuda_in_order, 1) >> %cg : barrier @CudaCommitGroup
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{barrier access has 2 coordinate(s) for a buffer of rank 1}}
      exogpu.arrive(cuda_in_order, 1) >> %z[0, 1] : barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{CudaCommitGroup awaits take N >= 0 (wait_group N), got -1}}
      exogpu.await(%cg, Sm80_cp_async, -1) : barrier @CudaCommitGroup
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{CudaMbarrier awaits take N = 0 or a ring lag N < 0; an mbarrier cannot wait for an older phase, got 1}}
      exogpu.await(%z[0], cuda_in_order, 1) : barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{CudaClusterSync awaits take N = 0, got -1}}
      exogpu.await(%cs, cuda_in_order, -1) : barrier @CudaClusterSync
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{barrier access has 2 coordinate(s) for a buffer of rank 1}}
      exogpu.await(%z[0, 0], cuda_in_order, 0) : barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @p(%N: size, %A: f32[16] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      // expected-error @+1 {{cpu_in_order is a host timeline}}
      exogpu.await(%z[0], cpu_in_order, 0) : barrier[2] @CudaMbarrier
    }
  }
}

// -----

// expected-error @+1 {{only special windows (@Sm90_tensorMap) are window parameters; use a tensor}}
exogpu.proc @p(%w: window f32[16] @CudaGmemLinear) {
}

// -----

// expected-error @+1 {{only data parameters carry instruction annotations}}
exogpu.instr @i(%n: size {out_of_order}) target = cuda, unit = cuda_thread {
}

// -----

// expected-error @+1 {{preconditions may only use control parameters}}
exogpu.proc @p(%N: size, %A: f32[4] @DRAM) requires %A == 0 {
}

// -----

// expected-error @+1 {{target must be cpu or cuda}}
exogpu.instr @i() target = rocm, unit = cuda_thread {
}

// -----

// expected-error @+1 {{unknown barrier mechanism 'CudaNamedBarrier'}}
exogpu.instr @i() target = cuda, unit = cuda_thread, barrier = @CudaNamedBarrier {
}

// -----

// expected-error @+1 {{unknown instruction property 'ptx' (expected target, unit, barrier, barrier_dist or cuda)}}
exogpu.instr @i() target = cuda, unit = cuda_thread, ptx = "nop;" {
}

// -----

// expected-error @+1 {{an instruction needs a target and a collective unit}}
exogpu.instr @i() target = cuda {
}

// -----

// expected-error @+1 {{parameter 0 distributes 2 dimension(s) but has rank 1}}
exogpu.instr @i(%x: f32[32] @CudaRmem {dist = [cuda_thread, cuda_thread]}) target = cuda, unit = cuda_warp {
}

// -----

// A warp's stores to shared memory are made by each lane on its own: one
// lane's synchronization cannot stand for the others'.
// expected-error @+1 {{parameter 0 is convergent but its accesses (cuda_in_order_ram_qual on CudaSmemLinear) are made by each thread on its own; only registers and collective async-proxy accesses (wgmma, TMA) may be convergent}}
exogpu.instr @i(%x: f32[32] @CudaSmemLinear {convergent}) target = cuda, unit = cuda_warp {
}

// -----

// expected-error @+1 {{parameter 1 is convergent but its accesses (Sm80_cp_async_qual on CudaGmemLinear) are made by each thread on its own}}
exogpu.instr @i(%x: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %y: f32[4] @CudaGmemLinear {out_of_order, convergent, init = Sm80_cp_async_qual}) target = cuda, unit = cuda_warp {
}

// -----

// The rule looks at the memory as well as the timeline: a store to shared
// memory stays a per-thread access when its `init` names a register
// timeline (or a wgmma register timeline).
// expected-error @+1 {{parameter 0 is convergent but its accesses (cuda_in_order_rmem_qual on CudaSmemLinear) are made by each thread on its own}}
exogpu.instr @i(%x: f32[32] @CudaSmemLinear {convergent, init = cuda_in_order_rmem_qual}) target = cuda, unit = cuda_warp {
}

// -----

// kernel_read_only is the precondition of a non-coherent global load: on
// shared memory it means nothing. (roundtrip.mlir's @nc_load is the twin.)
// expected-error @+1 {{parameter 0 is kernel_read_only but lives in CudaSmemLinear; only global memory is read through the non-coherent path}}
exogpu.instr @i(%x: f32[4] @CudaSmemLinear {kernel_read_only}) target = cuda, unit = cuda_thread {
}

// -----

// An instruction that writes a parameter cannot ask that the kernel never
// write it.
// expected-error @+1 {{parameter 0 is kernel_read_only but the instruction's body writes it}}
exogpu.instr @i(%x: f32[4] @CudaGmemLinear {kernel_read_only}) target = cuda, unit = cuda_thread {
  exogpu.assign %x[0] = 1.0 : f32[4] @CudaGmemLinear
}

// -----

// expected-error @+1 {{parameter 0 is convergent but its accesses (wgmma_async_rmem_a_qual on CudaGmemLinear) are made by each thread on its own}}
exogpu.instr @i(%x: f32[32] @CudaGmemLinear {convergent, init = wgmma_async_rmem_a_qual}) target = cuda, unit = cuda_warp {
}

// -----

// expected-error @+1 {{barrier_dist needs a barrier mechanism}}
exogpu.instr @i() target = cuda, unit = cuda_thread, barrier_dist = [cuda_cta_in_cluster] {
}

// -----

// expected-error @+1 {{CudaDeviceBarrier is abstract (Fig. 13)}}
exogpu.instr @i() target = cuda, unit = cuda_thread, barrier = @CudaDeviceBarrier {
}

// -----

// expected-error @+1 {{CPU instructions run as a standalone_thread}}
exogpu.instr @i() target = cpu, unit = cuda_thread {
}

// -----

// expected-error @+1 {{extents of data parameter 1 may only use size parameters}}
exogpu.proc @p(%i: index, %A: f32[%i] @DRAM) {
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{procs are called only at CPU scope; inside a device_function call instructions}}
      exogpu.call @callee[64](%G) : f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 1 has precision 'i32', parameter requires 'f32'}}
      exogpu.call @copy4(%s[0:4], %I[0:4]) : f32[16] @CudaSmemLinear, i32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 0 is in memory CudaGmemLinear, parameter requires CudaSmemLinear}}
      exogpu.call @copy4(%G[0:4], %G[4:8]) : f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 1 is in memory CudaGmemLinear, parameter requires CudaBasicSmem}}
      exogpu.call @copy_any(%s[0:4], %G[4:8]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 1 has extent 8 where the parameter has 4}}
      exogpu.call @copy4(%s[0:4], %G[0:8]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear, %B: f32[4, 4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 1 is a window of 2 dimension(s), parameter has 1}}
      exogpu.call @copy4(%s[0:4], %B) : f32[16] @CudaSmemLinear, f32[4, 4] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{passes 1 data argument(s), @copy4 takes 2}}
      exogpu.call @copy4(%s[0:4]) : f32[16] @CudaSmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{passes 1 control argument(s), @copy4 takes 0}}
      exogpu.call @copy4[4](%s[0:4], %G[0:4]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{@tma completes through a CudaMbarrier: end the call with '>> barrier'}}
      exogpu.call @tma(%s, %G) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{@copy4 takes no trailing barrier}}
      exogpu.call @copy4(%s[0:4], %G[0:4]) >> %z[0] : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear, barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{@tma needs a CudaMbarrier barrier, got CudaCommitGroup}}
      exogpu.call @tma(%s, %G) >> %cg : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear, barrier @CudaCommitGroup
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{data argument 1 must be a special window}}
      exogpu.call @tma(%s, %G[0:16]) >> %z[0] : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear, barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{CPU instruction @host cannot be called in CUDA scope}}
      exogpu.call @host[8](%H) : f32[8] @DRAM
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{'nothing' does not name an exogpu.proc or exogpu.instr}}
      exogpu.call @nothing(%G) : f32[64] @CudaGmemLinear
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%N: size, %G: f32[64] @CudaGmemLinear, %H: f32[8] @DRAM, %I: i32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %s = exogpu.alloc f32[16] @CudaSmemLinear
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      // expected-error @+1 {{barrier argument has 2 coordinate(s) for a buffer of rank 1}}
      exogpu.call @tma(%s, %G) >> %z[0, 0] : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear, barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%G: f32[64] @CudaGmemLinear, %s: f32[16] @CudaSmemLinear) {
  // expected-error @+1 {{CUDA instruction @copy4 must be called inside the cuda_tasks nest of a device_function}}
  exogpu.call @copy4(%s[0:4], %G[0:4]) : f32[16] @CudaSmemLinear, f32[64] @CudaGmemLinear
}

// -----

exogpu.instr @copy4(%dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual}, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @copy_any(%dst: f32[4] @CudaBasicSmem, %src: f32[4] @CudaBasicSmem)
    target = cuda, unit = cuda_thread {
}
exogpu.instr @tma(%dst: f32[16] @CudaSmemLinear, %src: window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16))
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
}
exogpu.instr @host(%n: size, %x: f32[%n] @DRAM) target = cpu, unit = standalone_thread {
}
exogpu.proc @callee(%n: size, %x: f32[%n] @CudaGmemLinear) {
}
exogpu.proc @p(%G: f32[64, 16] @CudaGmemLinear) {
  %w = exogpu.window %G[0:16, 0] @Sm90_tensorMap(0, 16) : f32[64, 16] @CudaGmemLinear
  // expected-error @+1 {{data argument 0 is a special window, the parameter is a tensor}}
  exogpu.call @callee[16](%w) : window f32[16] @CudaGmemLinear @Sm90_tensorMap(0, 16)
}

// -----

exogpu.proc @p(%N: size) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      %a = exogpu.alloc barrier[2] @CudaMbarrier
      %b = exogpu.alloc barrier[2] @CudaClusterSync
      // expected-error @+1 {{all barriers of a multicast arrive must use one mechanism}}
      exogpu.arrive(cuda_in_order, 1) >> %a[0] >> %b[0] : barrier[2] @CudaMbarrier, barrier[2] @CudaClusterSync
    }
  }
}

// -----

exogpu.proc @p(%N: size, %h: f32[%N] @DRAM) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N) {
      // expected-error @+1 {{CUDA code cannot access host memory (DRAM)}}
      exogpu.assign %h[%task] = 0.0 : f32[?] @DRAM
    }
  }
}

// -----

exogpu.proc @p(%N: size, %g: f32[%N] @CudaGmemLinear, %h: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    // expected-error @+1 {{CPU code cannot access CudaGmemLinear directly; access it inside a device_function}}
    exogpu.assign %h[%i] = %g[%i] : f32[?] @DRAM, f32[?] @CudaGmemLinear
  }
}

// -----

// Proc bodies hold only exogpu statements (Fig. 2).
exogpu.proc @foreign_op() {
  // expected-error @below {{'builtin.module' op is not an exogpu statement; proc and instruction bodies hold only exogpu operations}}
  builtin.module {
  }
}

// -----

// CUDA templates (CudaTemplate.h): every placeholder names a parameter and a
// field that parameter has.
// An unclosed placeholder.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst' is not closed by}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({dst);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// A placeholder with an empty field.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst.' has an empty field}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({dst.});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// A placeholder naming no parameter.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{out}' names no parameter of the instruction}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({out});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// {bar} without a barrier mechanism.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{bar}' needs a barrier mechanism (`barrier = @...`)}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({bar});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// {bar} takes no field.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{bar.x}' takes no field}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, cuda = "x({bar.x});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// A control parameter has no fields.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{n.0}' names a control parameter, which has no fields}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({n.0});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// A tensor-map parameter has .map and .cN.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{map.c2}' must be `.map` or `.c0` .. `.c1` for a tensor-map parameter}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({map.c2});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// regs and list name registers.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst.regs}' needs a register parameter}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({dst.regs});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// An unknown field.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst.first}' has an unknown field (expected an element number, `strideN`, `regs` or `list`)}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({dst.first});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// strideN names a memory dimension of the parameter: not registers, not
// past its rank.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst.stride0}' needs a shared or global memory parameter}}
exogpu.instr @t(%dst: f32[4] @CudaRmem, %src: f32[4, 4] @CudaSmemLinear) target = cuda, unit = cuda_thread, cuda = "x({dst.stride0});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i, 0] : f32[4] @CudaRmem, f32[4, 4] @CudaSmemLinear
  }
}

// -----

// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{src.stride2}' is past the 2 non-distributed dimension(s) of the parameter}}
exogpu.instr @t(%dst: f32[4] @CudaRmem, %src: f32[4, 4] @CudaSmemLinear) target = cuda, unit = cuda_thread, cuda = "x({src.stride2});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i, 0] : f32[4] @CudaRmem, f32[4, 4] @CudaSmemLinear
  }
}

// -----

// An element past the parameter's.
// expected-error @below {{'exogpu.instr' op CUDA template: placeholder '{dst.4}' is past the 4 element(s) of the parameter}}
exogpu.instr @t(%n: index, %dst: f32[4] @CudaSmemLinear, %map: window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)) target = cuda, unit = cuda_thread, cuda = "x({dst.4});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %map[%i, 0] : f32[4] @CudaSmemLinear, window f32[8, 4] @CudaGmemLinear @Sm90_tensorMap(0, 8, 4)
  }
}

// -----

// Allocations must fit the hardware (227 KiB of shared memory and 256 KiB
// of registers per CTA, in each CTA of a cluster of at most 16): a product
// of extents that overflows int64 is too large as well.
exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{allocates more than 3719168 bytes of shared memory (227 KiB in each CTA of a cluster of 16)}}
      %s = exogpu.alloc f32[2147483647, 2147483647] @CudaSmemLinear
    }
  }
}

// -----

exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{allocates more than 4194304 bytes of registers (the register file of an SM in each CTA of a cluster of 16)}}
      %r = exogpu.alloc f32[1048577] @CudaRmem
    }
  }
}

// -----

exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{allocates more than 464896 barrier elements}}
      %b = exogpu.alloc barrier[2147483647, 2147483647] @CudaMbarrier
    }
  }
}

// -----

// An assignment's expression region ends with exogpu.yield, not another
// dialect's terminator (checked after the region's statements verified;
// generic form, since the custom form always builds the yield).
"exogpu.proc"() <{argExtents = [affine_map<(d0) -> (4)>], argKinds = array<i32: 3>, argNames = ["A"], sym_name = "no_yield"}> ({
^bb0(%A: !exogpu.tensor<f32[4] @DRAM>):
  // expected-error @below {{'exogpu.assign' op expression region must end with exogpu.yield}}
  "exogpu.assign"(%A) <{indices = affine_map<() -> (0)>}> ({
    %0 = "exogpu.constant"() <{value = 1.000000e+00 : f32}> : () -> f32
    "transform.yield"() : () -> ()
  }) : (!exogpu.tensor<f32[4] @DRAM>) -> ()
}) : () -> ()

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  // expected-error @+1 {{split dim 2 by 4: the dimension must be one of the buffer's 2 and the factor positive}}
  %s = exogpu.split %A dim 2 by 4 : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  // expected-error @+1 {{split dim 0 by 0: the dimension must be one of the buffer's 2 and the factor positive}}
  %s = exogpu.split %A dim 0 by 0 : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      // expected-error @+1 {{splits a data buffer}}
      %s = exogpu.split %z dim 0 by 2 : barrier[2] @CudaMbarrier
    }
  }
}

// -----

exogpu.proc @p(%A: f32[16, 12] @CudaGmemLinear) {
  // expected-error @+1 {{dimension 1 has extent 12, not a multiple of the split factor 8}}
  %s = exogpu.split %A dim 1 by 8 : f32[16, 12] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  %w = exogpu.window %A[:, :] @Sm90_tensorMap(128, 16, 16) : f32[16, 16] @CudaGmemLinear
  // expected-error @+1 {{cannot split a special window; split the buffer and take the special window of the split}}
  %s = exogpu.split %w dim 0 by 4 : window f32[16, 16] @CudaGmemLinear @Sm90_tensorMap(128, 16, 16)
}

// -----

exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %r = exogpu.alloc f32[8] @CudaRmem
      // expected-error @+1 {{cannot split a buffer in CudaRmem: only memories laid out as plain row-major arrays are split}}
      %s = exogpu.split %r dim 0 by 4 : f32[8] @CudaRmem
    }
  }
}

// -----

exogpu.proc @p() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %b = exogpu.alloc f32[64, 32] @Sm90_SmemSwizzled(128)
      // expected-error @+1 {{cannot split a buffer in Sm90_SmemSwizzled: only memories laid out as plain row-major arrays are split}}
      %s = exogpu.split %b dim 0 by 8 : f32[64, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// -----

"exogpu.proc"() <{argExtents = [affine_map<(d0) -> (16, 16)>], argKinds = array<i32: 3>, argNames = ["A"], sym_name = "bad_split_type"}> ({
^bb0(%A: !exogpu.tensor<f32[16, 16] @CudaGmemLinear>):
  // expected-error @below {{'exogpu.split' op result type must be '!exogpu.window<f32[4, 4, 16] @CudaGmemLinear>'}}
  %s = "exogpu.split"(%A) <{dim = 0 : i64, factor = 4 : i64}> : (!exogpu.tensor<f32[16, 16] @CudaGmemLinear>) -> !exogpu.window<f32[16, 16] @CudaGmemLinear>
}) : () -> ()

// -----

"exogpu.proc"() <{argExtents = [affine_map<(d0) -> (16, 16)>], argKinds = array<i32: 3>, argNames = ["A"], sym_name = "bad_split_dim"}> ({
^bb0(%A: !exogpu.tensor<f32[16, 16] @CudaGmemLinear>):
  // expected-error @below {{'exogpu.split' op splits dimension 3 of a buffer of rank 2}}
  %s = "exogpu.split"(%A) <{dim = 3 : i64, factor = 4 : i64}> : (!exogpu.tensor<f32[16, 16] @CudaGmemLinear>) -> !exogpu.window<f32[16, 16] @CudaGmemLinear>
}) : () -> ()

// -----

"exogpu.proc"() <{argExtents = [affine_map<(d0) -> (16, 16)>], argKinds = array<i32: 3>, argNames = ["A"], sym_name = "bad_split_factor"}> ({
^bb0(%A: !exogpu.tensor<f32[16, 16] @CudaGmemLinear>):
  // expected-error @below {{'exogpu.split' op split factor -2 is not positive}}
  %s = "exogpu.split"(%A) <{dim = 0 : i64, factor = -2 : i64}> : (!exogpu.tensor<f32[16, 16] @CudaGmemLinear>) -> !exogpu.window<f32[16, 16] @CudaGmemLinear>
}) : () -> ()

// -----

// Constant window coordinates lie within static extents, even in code that
// never runs (a window becomes a memref.subview, which MLIR checks
// likewise); each refused window has an accepted twin (%ok). Dynamic
// extents are checked where the sizes are known.
exogpu.proc @p(%A: f32[16, 16] @CudaGmemLinear) {
  %ok = exogpu.window %A[0:16, 15] : f32[16, 16] @CudaGmemLinear
  // expected-error @+1 {{'exogpu.window' op window index 16 is outside dimension 1 of extent 16}}
  %w = exogpu.window %A[0:16, 16] : f32[16, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%N: size, %A: f32[%N, 16] @CudaGmemLinear) {
  %ok = exogpu.window %A[0:%N, 0:16] : f32[?, 16] @CudaGmemLinear
  // expected-error @+1 {{'exogpu.window' op window upper bound 20 is outside dimension 1 of extent 16}}
  %w = exogpu.window %A[:, 4:20] : f32[?, 16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16] @CudaGmemLinear) {
  %ok = exogpu.window %A[15:16] : f32[16] @CudaGmemLinear
  // expected-error @+1 {{'exogpu.window' op window lower bound 16 is outside dimension 0 of extent 16}}
  %w = exogpu.window %A[16:16] : f32[16] @CudaGmemLinear
}

// -----

exogpu.proc @p(%N: size, %A: f32[%N] @CudaGmemLinear) {
  %ok = exogpu.window %A[0:%N] : f32[?] @CudaGmemLinear
  // expected-error @+1 {{'exogpu.window' op window lower bound -1 is outside dimension 0}}
  %w = exogpu.window %A[-1:8] : f32[?] @CudaGmemLinear
}

// -----

exogpu.proc @p(%A: f32[16] @CudaGmemLinear) {
  %ok = exogpu.window %A[4:4] : f32[16] @CudaGmemLinear
  // expected-error @+1 {{'exogpu.window' op window interval 4:2 of dimension 0 has a negative extent}}
  %w = exogpu.window %A[4:2] : f32[16] @CudaGmemLinear
}

// -----

exogpu.proc @callee(%x: f32[8] @DRAM) {
}
exogpu.proc @p(%y: f32[4] @DRAM, %z: f32[16] @DRAM) {
  exogpu.for %i in seq(0, 0) {
    exogpu.call @callee(%z[8:16]) : f32[16] @DRAM
    // expected-error @+1 {{'exogpu.call' op data argument window upper bound 8 is outside dimension 0 of extent 4}}
    exogpu.call @callee(%y[0:8]) : f32[4] @DRAM
  }
}
