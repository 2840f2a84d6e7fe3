// RUN: exogpu-opt %s -split-input-file -verify-diagnostics
//
// Every error of `exogpu.import` (docs/design/exogpu-dialect.md "Imports"),
// reported at the import: a file not found (with every folder searched), a
// symbol the module or an earlier import defines differently, an import
// outside a module's top level, an empty name; and a call of an
// instruction nothing defines or imports. Import cycles and libraries that
// do not verify: import-errors.test.

// expected-error-re @below {{'exogpu.import' op cannot find 'nonexistent' (looked for nonexistent.mlir in: {{.*}}test/Dialect/ExoGPU, {{.*}}share/exogpu/stdlib)}}
exogpu.import "nonexistent"

// -----

// A relative path is looked up in the same folders.
// expected-error-re @below {{cannot find 'Inputs/imports/none.mlir' (looked for Inputs/imports/none.mlir in: {{.*}})}}
exogpu.import "Inputs/imports/none.mlir"

// -----

// An absolute path is the one file.
// expected-error @below {{cannot find '/nonexistent/scale.mlir' (no file /nonexistent/scale.mlir)}}
exogpu.import "/nonexistent/scale.mlir"

// -----

// The module defines @scale4 differently (y = x instead of y = 2 x).
// expected-error-re @below {{brings '@scale4' of {{.*}}Inputs/imports/scale.mlir, which this module also defines differently}}
exogpu.import "Inputs/imports/twice.mlir"
// expected-note @below {{the module's definition}}
exogpu.instr @scale4(%y: f32[4] @DRAM, %x: f32[4] @DRAM)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %y[%i] = %x[%i] : f32[4] @DRAM, f32[4] @DRAM
  }
}

// -----

// Two imports bring different definitions of @scale4.
// expected-note @below {{the earlier import}}
exogpu.import "Inputs/imports/scale.mlir"
// expected-error-re @below {{brings '@scale4' of {{.*}}other_scale.mlir, which an earlier import also brings, defined differently in {{.*}}Inputs/imports/scale.mlir}}
exogpu.import "Inputs/imports/other_scale.mlir"

// -----

exogpu.proc @p() {
  // expected-error @below {{'exogpu.import' op expects parent op 'builtin.module'}}
  exogpu.import "Inputs/imports/scale.mlir"
}

// -----

// expected-error @below {{'exogpu.import' op names no file}}
exogpu.import ""

// -----

// Nothing defines or imports the instruction: the error says where it could
// come from.
exogpu.proc @p(%y: f32[4] @DRAM, %x: f32[4] @DRAM) {
  // expected-error @below {{'Sm80_cp_async_f32x4' does not name an exogpu.proc or exogpu.instr of this module or of the files it imports (exogpu.import)}}
  exogpu.call @Sm80_cp_async_f32x4(%y[:], %x[:]) : f32[4] @DRAM, f32[4] @DRAM
}
