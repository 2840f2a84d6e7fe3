// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// `convergent` (Fig. 7, t = true: one thread's synchronization stands for
// its unit's) only where the hardware makes one access for the unit:
// registers and collective async-proxy accesses (docs/abstract-machine.md,
// decision (k)). The rule looks at the parameter's memory as well as its
// timeline: a warp's per-lane store to shared memory and its reversed load,
// both declared convergent on the register timeline, used to be accepted
// with no fence between (each lane's access was one record of the warp,
// seen by the warp on that timeline).

// expected-error @below {{parameter 0 is convergent but its accesses (cuda_in_order_rmem_qual on CudaSmemLinear) are made by each thread on its own; only registers and collective async-proxy accesses (wgmma, TMA) may be convergent}}
exogpu.instr @store_row(%dst: f32[32] @CudaSmemLinear {convergent, init = cuda_in_order_rmem_qual}, %src: f32[32] @CudaGmemLinear)
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[%i] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
  }
}

// expected-error @below {{parameter 1 is convergent but its accesses (cuda_in_order_rmem_qual on CudaSmemLinear) are made by each thread on its own}}
exogpu.instr @load_reversed(%dst: f32[32] @CudaGmemLinear, %src: f32[32] @CudaSmemLinear {convergent, init = cuda_in_order_rmem_qual})
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[31 - threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[31 - %i] : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
  }
}

exogpu.proc @reverse_convergent(%g: f32[32] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[32] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        exogpu.call @store_row(%buf[:], %g[:]) : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
        exogpu.call @load_reversed(%out[:], %buf[:]) : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Without `convergent`, each lane's store is its own access, which the
// other lanes' reversed loads need a fence after.

exogpu.instr @store_row(%dst: f32[32] @CudaSmemLinear, %src: f32[32] @CudaGmemLinear)
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[%i] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
  }
}

exogpu.instr @load_reversed(%dst: f32[32] @CudaGmemLinear, %src: f32[32] @CudaSmemLinear)
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[31 - threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[31 - %i] : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
  }
}

exogpu.proc @reverse_unfenced(%g: f32[32] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[32] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        // expected-note @below {{the earlier write is here}}
        exogpu.call @store_row(%buf[:], %g[:]) : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
        // expected-error @below {{RAW hazard on @buf[0]: this read is not ordered after an earlier write by thread 0 on cuda_in_order_ram_qual; thread 1 of threads 0..31 sees it at invisible}}
        // expected-note @below {{missing synchronization}}
        exogpu.call @load_reversed(%out[:], %buf[:]) : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Twin: the warp's fence between the two, accepted.

exogpu.instr @store_row(%dst: f32[32] @CudaSmemLinear, %src: f32[32] @CudaGmemLinear)
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[%i] : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
  }
}

exogpu.instr @load_reversed(%dst: f32[32] @CudaGmemLinear, %src: f32[32] @CudaSmemLinear)
    target = cuda, unit = cuda_warp,
    cuda = "{dst}[threadIdx.x % 32] = {src}[31 - threadIdx.x % 32];" {
  exogpu.for %i in seq(0, 32) {
    exogpu.assign %dst[%i] = %src[31 - %i] : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
  }
}

exogpu.proc @reverse_fenced(%g: f32[32] @CudaGmemLinear, %out: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %buf = exogpu.alloc f32[32] @CudaSmemLinear
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        exogpu.call @store_row(%buf[:], %g[:]) : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
        exogpu.fence(cuda_in_order, cuda_in_order)
        exogpu.call @load_reversed(%out[:], %buf[:]) : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
