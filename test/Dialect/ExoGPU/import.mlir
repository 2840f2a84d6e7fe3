// RUN: exogpu-opt %s | FileCheck %s
// RUN: exogpu-opt %s | exogpu-opt -I %S | FileCheck %s
// RUN: exogpu-opt %s --mlir-print-op-generic | exogpu-opt -I %S | FileCheck %s
// RUN: exogpu-opt %s --exogpu-link-imports | FileCheck %s --check-prefix=LINKED
// RUN: exogpu-opt %s --exogpu-link-imports | exogpu-opt --exogpu-link-imports | FileCheck %s --check-prefix=LINKED
// RUN: exogpu-run %s --proc=quadruple --compare=quadruple_ref | FileCheck %s --check-prefix=MEANING
// RUN: cat %S/Inputs/imports/scale.mlir %s | exogpu-opt -I %S | FileCheck %s --check-prefix=CAT
//
// `exogpu.import` (docs/design/exogpu-dialect.md "Imports"): the module
// calls @twice of Inputs/imports/twice.mlir (a file next to it) and, through
// that file's own import, @scale4 of Inputs/imports/scale.mlir; it also
// imports also_twice.mlir, which imports scale.mlir again (a diamond: one
// @scale4). The module prints as written, in the custom and the generic
// form, and re-reads from stdin with -I (relative imports resolve against
// the importing file's folder, for stdin the current one, then -I).

exogpu.import "Inputs/imports/twice.mlir"
exogpu.import "Inputs/imports/also_twice"

// CHECK:      exogpu.import "Inputs/imports/twice.mlir"
// CHECK-NEXT: exogpu.import "Inputs/imports/also_twice"
// CHECK-LABEL: exogpu.proc @quadruple(
// CHECK-NEXT:   %t = exogpu.alloc f32[4] @DRAM
// CHECK-NEXT:   exogpu.call @twice(%t[:], %x[:])
// CHECK-NEXT:   exogpu.call @scale4(%y[:], %t[:])
// CHECK-NOT: exogpu.instr
exogpu.proc @quadruple(%y: f32[4] @DRAM, %x: f32[4] @DRAM) {
  %t = exogpu.alloc f32[4] @DRAM
  exogpu.call @twice(%t[:], %x[:]) : f32[4] @DRAM, f32[4] @DRAM
  exogpu.call @scale4(%y[:], %t[:]) : f32[4] @DRAM, f32[4] @DRAM
}

// Linking copies each definition once, where the import stood, a library
// after the libraries it imports (the order `cat` would give), and drops
// the imports.
// LINKED-NOT: exogpu.import
// LINKED:     exogpu.instr @scale4(
// LINKED-NOT: exogpu.instr @scale4(
// LINKED:     exogpu.proc @twice(
// LINKED:     exogpu.proc @also_twice(
// LINKED:     exogpu.proc @quadruple(
// LINKED-NOT: exogpu.import

// The meaning of the program (exogpu-run links it): 4 x.
// MEANING: @quadruple vs @quadruple_ref
// MEANING: y: {{.*}}: ok
exogpu.proc @quadruple_ref(%y: f32[4] @DRAM, %x: f32[4] @DRAM) {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %y[%i] = %x[%i] * 4.0 : f32[4] @DRAM, f32[4] @DRAM
  }
}

// The old form, the library prepended to the module that also imports it:
// the same definition twice is not a clash, and the module's copy stays.
// CAT: exogpu.instr @scale4(
// CAT: exogpu.import "Inputs/imports/twice.mlir"
// CAT: exogpu.proc @quadruple(
