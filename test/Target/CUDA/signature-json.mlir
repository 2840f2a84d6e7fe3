// RUN: exogpu-translate --to-signature-json %s | FileCheck %s
// RUN: exogpu-translate --to-signature-json %s | %python -m json.tool > /dev/null
// RUN: exogpu-translate --to-signature-json %exogpu_src_root/examples/gemm_splitk_sm90a.mlir | FileCheck %s --check-prefix=SPLITK

// The machine-readable host API (include/ExoGPU/Target/CUDA/SignatureJson.h,
// docs/python.md "The signature"): per proc its C declaration, every
// parameter's kind, and for data parameters the element type, the extents
// as expression trees and as text, the memory, whether it lives on the host
// and the access mode; the `requires` clause as text and in disjunctive
// normal form; the files the module imports (none here; the split-k GEMM
// imports the sm90a library).

// CHECK-LABEL: "format": 1,
// CHECK-NEXT:  "imports": [],
// CHECK-NEXT:  "procs": [

// Every parameter kind; extents with every operator; every access mode;
// host memory; a memory with arguments (a parameter the proc never
// accesses is read-only); a condition with every atom kind.
// CHECK:       "name": "shapes",
// CHECK-NEXT:  "location": "signature-json.mlir:{{[0-9]+}}",
// CHECK-NEXT:  "declaration": "cudaError_t shapes(cudaStream_t stream, int64_t M, int64_t N, int64_t i, bool flag, const float *A, const __nv_bfloat16 *B, int32_t *h, uint8_t *u, const float *s)",
// CHECK-NEXT:  "params": [
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "M",
// CHECK-NEXT:      "kind": "size"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "N",
// CHECK-NEXT:      "kind": "size"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "i",
// CHECK-NEXT:      "kind": "index"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "flag",
// CHECK-NEXT:      "kind": "bool"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "A",
// CHECK-NEXT:      "kind": "data",
// CHECK-NEXT:      "dtype": "f32",
// CHECK-NEXT:      "shape": [
// CHECK-NEXT:        [
// CHECK-NEXT:          "floordiv",
// CHECK-NEXT:          "M",
// CHECK-NEXT:          128
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "+",
// CHECK-NEXT:          [
// CHECK-NEXT:            "*",
// CHECK-NEXT:            "N",
// CHECK-NEXT:            2
// CHECK-NEXT:          ],
// CHECK-NEXT:          1
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
// CHECK-NEXT:      "shape_text": [
// CHECK-NEXT:        "M / 128",
// CHECK-NEXT:        "N * 2 + 1"
// CHECK-NEXT:      ],
// CHECK-NEXT:      "memory": "CudaGmemLinear",
// CHECK-NEXT:      "host": false,
// CHECK-NEXT:      "access": "read"
// CHECK-NEXT:    },
// CHECK-NEXT:    {
// CHECK-NEXT:      "name": "B",
// CHECK-NEXT:      "kind": "data",
// CHECK-NEXT:      "dtype": "bf16",
// CHECK-NEXT:      "shape": [
// CHECK-NEXT:        [
// CHECK-NEXT:          "+",
// CHECK-NEXT:          "N",
// CHECK-NEXT:          -1
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          "mod",
// CHECK-NEXT:          "M",
// CHECK-NEXT:          4
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
// CHECK-NEXT:      "shape_text": [
// CHECK-NEXT:        "N - 1",
// CHECK-NEXT:        "M mod 4"
// CHECK-NEXT:      ],
// CHECK:           "name": "h",
// CHECK-NEXT:      "kind": "data",
// CHECK-NEXT:      "dtype": "i32",
// CHECK:           "memory": "DRAM",
// CHECK-NEXT:      "host": true,
// CHECK-NEXT:      "access": "read_write"
// CHECK:           "name": "u",
// CHECK-NEXT:      "kind": "data",
// CHECK-NEXT:      "dtype": "ui8",
// CHECK-NEXT:      "shape": [
// CHECK-NEXT:        4
// CHECK-NEXT:      ],
// CHECK:           "access": "write"
// CHECK:           "name": "s",
// CHECK:           "memory": "Sm90_SmemSwizzled(128)",
// CHECK-NEXT:      "host": false,
// CHECK-NEXT:      "access": "read"
// CHECK:       "requires": {
// CHECK-NEXT:    "text": "M mod 128 == 0 and N >= 2 or flag or i < 3 and true or false",
// CHECK-NEXT:    "dnf": [
// CHECK-NEXT:      [
// CHECK-NEXT:        [
// CHECK-NEXT:          "==",
// CHECK-NEXT:          [
// CHECK-NEXT:            "mod",
// CHECK-NEXT:            "M",
// CHECK-NEXT:            128
// CHECK-NEXT:          ],
// CHECK-NEXT:          0
// CHECK-NEXT:        ],
// CHECK-NEXT:        [
// CHECK-NEXT:          ">=",
// CHECK-NEXT:          "N",
// CHECK-NEXT:          2
// CHECK-NEXT:        ]
// CHECK-NEXT:      ],
// CHECK-NEXT:      [
// CHECK-NEXT:        "flag"
// CHECK-NEXT:      ],
// CHECK-NEXT:      [
// CHECK-NEXT:        [
// CHECK-NEXT:          "<",
// CHECK-NEXT:          "i",
// CHECK-NEXT:          3
// CHECK-NEXT:        ],
// CHECK-NEXT:        true
// CHECK-NEXT:      ],
// CHECK-NEXT:      [
// CHECK-NEXT:        false
// CHECK-NEXT:      ]
// CHECK-NEXT:    ]
// CHECK-NEXT:  }
exogpu.proc @shapes(%M: size, %N: size, %i: index, %flag: bool,
                    %A: f32[%M / 128, 2 * %N + 1] @CudaGmemLinear,
                    %B: bf16[%N - 1, %M mod 4] @CudaGmemLinear,
                    %h: i32[%N] @DRAM, %u: ui8[4] @CudaGmemLinear,
                    %s: f32[64, 32] @Sm90_SmemSwizzled(128))
    requires %M mod 128 == 0 and %N >= 2 or %flag or %i < 3 and true or false {
  exogpu.for %j in seq(0, %N) {
    exogpu.reduce %h[%j] += 1 : i32[?] @DRAM
  }
  exogpu.device_function(blockDim = 1) {
    exogpu.for %t in cuda_tasks(0, 1) {
      exogpu.for %k in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.assign %u[0] = 7 : ui8[4] @CudaGmemLinear
      }
    }
  }
}

// A proc without `requires`, whose callee's writes count as its own; the
// relations <= and > as written.
// CHECK:       "name": "no_requires",
// CHECK:       "access": "write"
// CHECK:       "requires": null
exogpu.proc @no_requires(%N: size, %out: i32[%N] @DRAM) {
  exogpu.call @fill[%N](%out) : i32[?] @DRAM
}

// CHECK:       "name": "fill",
// CHECK:       "text": "N <= 64 and N > 0"
exogpu.proc @fill(%N: size, %out: i32[%N] @DRAM) requires %N <= 64 and %N > 0 {
  exogpu.for %j in seq(0, %N) {
    exogpu.assign %out[%j] = 1 : i32[?] @DRAM
  }
}

// The split-k GEMM adds its partial sums into C: C is read and written.
// SPLITK:      "imports": [
// SPLITK-NEXT:   "{{.*}}/stdlib/sm90a.mlir"
// SPLITK-NEXT: ],
// SPLITK: "declaration": "cudaError_t gemm_splitk_sm90a(cudaStream_t stream, int64_t M, int64_t N, int64_t S, int64_t KC, const float *A, const float *B, float *C)",
// SPLITK: "name": "C",
// SPLITK: "access": "read_write"
// SPLITK: "text": "M mod 256 == 0 and N mod 256 == 0 and KC mod 32 == 0",
