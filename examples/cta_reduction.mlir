// CTA-wide shared-memory broadcast sum: the "Explicit Synchronization" insets
// of the paper (seeds/002 Sec. 2.1). With blockDim = 128, each thread copies
// one element of gmem into the shared buffer buf[128]; after a CTA-wide
// barrier every thread sums all of buf and writes the sum out.
//  * @cta_sum_fence: the left inset, `Fence(cuda_in_order, cuda_in_order)`
//    (lowers to __syncthreads at CTA scope);
//  * @cta_sum_mbarrier: the right inset, the same fence replaced by the split
//    barrier `Arrive(cuda_in_order) >> bar` ... `Await(bar, cuda_in_order)`
//    on a CudaMbarrier.
// The per-thread accumulator is a distributed register allocation (Sec. 2.1,
// "Distributed Memory": a register-resident temporary used by different
// threads needs one shard per thread): accum: f32[128] @ CudaRmem, indexed by
// the thread iterator and deduced to be distributed over cuda_thread.
// One task per 128-element chunk of gmem; out[task * 128 + tid] receives
// the chunk's sum (every thread of the chunk writes its own copy).

// CHECK-LABEL: exogpu.proc @cta_sum_fence(
exogpu.proc @cta_sum_fence(%N: size, %gmem: f32[%N] @CudaGmemLinear,
                           %out: f32[%N] @CudaGmemLinear)
    requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      // Code at CTA scope.
      // CHECK: %buf = exogpu.alloc f32[128] @CudaSmemLinear
      %buf = exogpu.alloc f32[128] @CudaSmemLinear
      // CHECK: %accum = exogpu.alloc f32[128] @CudaRmem
      %accum = exogpu.alloc f32[128] @CudaRmem
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        // CHECK: exogpu.assign %buf[%tid] = %gmem[%task * 128 + %tid]
        exogpu.assign %buf[%tid] = %gmem[%task * 128 + %tid] : f32[128] @CudaSmemLinear, f32[?] @CudaGmemLinear
      }
      // __syncthreads
      // CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        // Each thread sums up buf[...] in its own shard accum[tid].
        exogpu.assign %accum[%tid] = 0.0 : f32[128] @CudaRmem
        exogpu.for %i in seq(0, 128) {
          // CHECK: exogpu.reduce %accum[%tid] += %buf[%i]
          exogpu.reduce %accum[%tid] += %buf[%i] : f32[128] @CudaRmem, f32[128] @CudaSmemLinear
        }
        // CHECK: exogpu.assign %out[%task * 128 + %tid] = %accum[%tid]
        exogpu.assign %out[%task * 128 + %tid] = %accum[%tid] : f32[?] @CudaGmemLinear, f32[128] @CudaRmem
      }
      // The compiler frees buf at the end of the task, and the next task
      // of a persistent CTA may reuse its shared memory: every thread must
      // be done reading buf first (Sec. 4.2, "Shared Memory Allocations").
      // CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// CHECK-LABEL: exogpu.proc @cta_sum_mbarrier(
exogpu.proc @cta_sum_mbarrier(%N: size, %gmem: f32[%N] @CudaGmemLinear,
                              %out: f32[%N] @CudaGmemLinear)
    requires %N mod 128 == 0 {
  exogpu.device_function(blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, %N / 128) {
      %buf = exogpu.alloc f32[128] @CudaSmemLinear
      %accum = exogpu.alloc f32[128] @CudaRmem
      // CHECK: %bar = exogpu.alloc barrier @CudaMbarrier
      %bar = exogpu.alloc barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %buf[%tid] = %gmem[%task * 128 + %tid] : f32[128] @CudaSmemLinear, f32[?] @CudaGmemLinear
      }
      // The split barrier replaces the fence; independent work could be
      // inserted between the arrive and the await.
      // CHECK: exogpu.arrive(cuda_in_order, 1) >> %bar[] : barrier @CudaMbarrier
      exogpu.arrive(cuda_in_order, 1) >> %bar : barrier @CudaMbarrier
      // CHECK: exogpu.await(%bar[], cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.await(%bar, cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.for %tid in cuda_threads(0, 128, unit = cuda_thread) {
        exogpu.assign %accum[%tid] = 0.0 : f32[128] @CudaRmem
        exogpu.for %i in seq(0, 128) {
          // CHECK: exogpu.reduce %accum[%tid] += %buf[%i]
          exogpu.reduce %accum[%tid] += %buf[%i] : f32[128] @CudaRmem, f32[128] @CudaSmemLinear
        }
        exogpu.assign %out[%task * 128 + %tid] = %accum[%tid] : f32[?] @CudaGmemLinear, f32[128] @CudaRmem
      }
      // The compiler frees buf at the end of the task, and the next task
      // of a persistent CTA may reuse its shared memory: every thread must
      // be done reading buf first (Sec. 4.2, "Shared Memory Allocations").
      // CHECK: exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
