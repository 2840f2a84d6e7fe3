// Named warps must name a warp group of the warp config. The verifier
// rejects this too; the analysis checks it again for IR built without
// verification.
// RUN: exogpu-opt %s --mlir-very-unsafe-disable-verifier-on-parsing --exogpu-collective-analysis -verify-diagnostics

exogpu.proc @unknown_warp_name() {
  exogpu.device_function(warps = ["producer" = (1, 40, 0), "consumer" = (4, 0, 232)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      // expected-error @+1 {{names warp group 'unused', which the device_function's warp config does not define}}
      exogpu.warps "unused" {
      }
    }
  }
}
