// The input of the embedding example (docs/embedding.md): a module of a
// compiler that embeds ExoGPU, with host code in upstream dialects next to a
// kernel written as a sequential exogpu proc and the schedule that makes it
// a CUDA kernel, and a host step that calls the sm90a instruction library
// (imported: the compiler finds it in the installed prefix).
// `embedding-demo kernel.mlir --sizes=N=4096` schedules the kernel, checks
// the synchronization of both procs and canonicalizes the host code.
module attributes {transform.with_named_sequence} {
  exogpu.import "sm90a"

  // Host code: fills an array (upstream func, arith, scf, memref).
  func.func @fill(%x: memref<?xf32>, %value: f32) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %step = arith.muli %c1, %c1 : index
    %n = memref.dim %x, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %step {
      memref.store %value, %x[%i] : memref<?xf32>
    }
    return
  }

  // The kernel as a sequential program: reverses each block of 64 elements.
  exogpu.proc @reverse_blocks(%N: size, %x: f32[%N] @DRAM, %y: f32[%N] @DRAM)
      requires %N mod 64 == 0 {
    exogpu.for %b in seq(0, %N / 64) {
      exogpu.for %t in seq(0, 64) {
        exogpu.assign %y[%b * 64 + %t] = %x[%b * 64 + 63 - %t] : f32[?] @DRAM, f32[?] @DRAM
      }
    }
  }

  // A host step of the library: zero a device buffer on the stream.
  exogpu.proc @clear(%N: size, %C: f32[1, %N] @CudaGmemLinear) {
    exogpu.call @cuda_memset_zero_f32[1, %N](%C[:, :]) : f32[1, ?] @CudaGmemLinear
  }

  // The schedule: one CTA of 64 threads per block, the block staged in
  // shared memory, a CTA barrier between the staging writes and the
  // reversed reads, and one before the next task's staging.
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.exogpu.match iter "b" in %root : (!transform.any_op) -> !transform.any_op
    %kernel = transform.exogpu.wrap_device_function %b tasks 1 params_to "CudaGmemLinear" {blockDim = 64} : (!transform.any_op) -> !transform.any_op
    %t = transform.exogpu.match iter "t" in %root : (!transform.any_op) -> !transform.any_op
    %buf, %load, %store = transform.exogpu.stage_mem %t window "x[b * 64 : b * 64 + 64]" into "buf" memory "CudaSmemLinear" : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.exogpu.set_loop_mode %load "cuda_threads" unit "cuda_thread" : !transform.any_op
    transform.exogpu.set_loop_mode %t "cuda_threads" unit "cuda_thread" : !transform.any_op
    %staged = transform.exogpu.insert_fence %t at "before" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    %done = transform.exogpu.insert_fence %t at "after" "cuda_in_order", "cuda_in_order" : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
