// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check -verify-diagnostics -o /dev/null
// RUN: exogpu-opt %s -split-input-file --exogpu-sync-check=engine=reference -verify-diagnostics -o /dev/null

// CPU and GPU (paper seeds/002 Fig. 5 device_function: the launch and the
// completion of a kernel are stream-ordered fences on cuda_stream_sync;
// Fig. 15: cpu_in_order_qual for ordinary host accesses,
// cpu_cuda_stream_qual for stream-ordered CUDA API calls). A kernel is
// launched asynchronously: host code after it is ordered after the kernel
// only through the stream, so a plain (not stream-ordered) host access to
// the kernel's memory races with it, while a stream-ordered copy (a
// cudaMemcpy on the kernel's stream) does not. Two kernels on the stream
// run in order. Each bug is followed by its corrected twin.

// Host reads the kernel's output with plain host loads (a CPU instruction
// whose parameter keeps the default cpu_in_order_qual, e.g. through mapped
// memory right after the launch, without a stream synchronization). The
// kernel's exit fence makes its writes visible on the stream timelines
// (cuda_stream_sync), not on cpu_in_order_qual.
exogpu.instr @host_copy_from_device(%dst: f32[64] @DRAM, %src: f32[64] @CudaGmemLinear)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = %src[%i] : f32[64] @DRAM, f32[64] @CudaGmemLinear
  }
}

exogpu.proc @host_read_unsynchronized(%r: f32[64] @DRAM) {
  %g = exogpu.alloc f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier write is here}}
        exogpu.assign %g[%tid] = 2.0 : f32[64] @CudaGmemLinear
      }
    }
  }
  // expected-error @below {{RAW hazard on @g[0]: this read is not ordered after an earlier write by thread 0 of another task on cuda_in_order_ram_qual}}
  // expected-note @below {{missing synchronization}}
  exogpu.call @host_copy_from_device(%r, %g) : f32[64] @DRAM, f32[64] @CudaGmemLinear
}

// -----

// Twin: a stream-ordered copy (cudaMemcpy device to host): the device-side
// parameter is on cpu_cuda_stream_qual, which the kernel's exit fence
// covers in full.
exogpu.instr @cuda_memcpy_d2h(%dst: f32[64] @DRAM, %src: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = %src[%i] : f32[64] @DRAM, f32[64] @CudaGmemLinear
  }
}

exogpu.proc @host_read_stream_ordered(%r: f32[64] @DRAM) {
  %g = exogpu.alloc f32[64] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %g[%tid] = 2.0 : f32[64] @CudaGmemLinear
      }
    }
  }
  exogpu.call @cuda_memcpy_d2h(%r, %g) : f32[64] @DRAM, f32[64] @CudaGmemLinear
}

// -----

// Host overwrites the kernel's input with plain host stores after the
// launch: the kernel may still be reading it (a WAR; the write needs the
// reads temporally ordered on cpu_in_order_qual).
exogpu.instr @host_copy_to_device(%dst: f32[64] @CudaGmemLinear, %src: f32[64] @DRAM)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = %src[%i] : f32[64] @CudaGmemLinear, f32[64] @DRAM
  }
}

exogpu.proc @host_write_unsynchronized(%g: f32[64] @CudaGmemLinear, %o: f32[64] @CudaGmemLinear, %h: f32[64] @DRAM) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-note @below {{the earlier read is here}}
        exogpu.assign %o[%tid] = %g[63 - %tid] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
  // expected-error @below {{WAR hazard on @g[0]: this write is not ordered after an earlier read by thread 63 of another task on cuda_in_order_ram_qual; thread 0 of all threads sees it at invisible on [cpu_in_order_qual], not temporally_ordered}}
  // expected-note @below {{missing synchronization}}
  exogpu.call @host_copy_to_device(%g, %h) : f32[64] @CudaGmemLinear, f32[64] @DRAM
}

// -----

// Twin: a stream-ordered copy (cudaMemcpy host to device) runs after the
// kernel on the stream.
exogpu.instr @cuda_memcpy_h2d(%dst: f32[64] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]}, %src: f32[64] @DRAM)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, 64) {
    exogpu.assign %dst[%i] = %src[%i] : f32[64] @CudaGmemLinear, f32[64] @DRAM
  }
}

exogpu.proc @host_write_stream_ordered(%g: f32[64] @CudaGmemLinear, %o: f32[64] @CudaGmemLinear, %h: f32[64] @DRAM) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %o[%tid] = %g[63 - %tid] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
  exogpu.call @cuda_memcpy_h2d(%g, %h) : f32[64] @CudaGmemLinear, f32[64] @DRAM
}

// -----

// Tasks of one kernel are not ordered with each other (there is no
// grid-wide barrier): each task reads the half of t the other task writes.
// In sequential order the first task (task 1 in the messages: the abstract
// machine numbers tasks from 1, task 0 being the host) reads t[127] before
// the second writes it, so the race shows as a WAR at the second task's
// write.
exogpu.proc @one_kernel_two_phases(%x: f32[128] @CudaGmemLinear, %y: f32[128] @CudaGmemLinear) {
  %t = exogpu.alloc f32[128] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        // expected-error @below {{WAR hazard on @t[64]: this write is not ordered after an earlier read by thread 63 of another task on cuda_in_order_ram_qual; thread 0}}
        // expected-note @below {{missing synchronization}}
        exogpu.assign %t[%task * 64 + %tid] = %x[%task * 64 + %tid] * 2.0 : f32[128] @CudaGmemLinear, f32[128] @CudaGmemLinear
        // expected-note @below {{the earlier read is here}}
        exogpu.assign %y[%task * 64 + %tid] = %t[127 - %task * 64 - %tid] : f32[128] @CudaGmemLinear, f32[128] @CudaGmemLinear
      }
    }
  }
}

// -----

// Twin (a passing sanity case of stream order): the second phase is a
// second kernel; the first kernel's exit fence and the second's launch
// fence (Fig. 5, cuda_stream_sync) order every access of the first kernel
// before every access of the second.
exogpu.proc @two_kernels_in_sequence(%x: f32[128] @CudaGmemLinear, %y: f32[128] @CudaGmemLinear) {
  %t = exogpu.alloc f32[128] @CudaGmemLinear
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %t[%task * 64 + %tid] = %x[%task * 64 + %tid] * 2.0 : f32[128] @CudaGmemLinear, f32[128] @CudaGmemLinear
      }
    }
  }
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 2) {
      exogpu.for %tid in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %y[%task * 64 + %tid] = %t[127 - %task * 64 - %tid] : f32[128] @CudaGmemLinear, f32[128] @CudaGmemLinear
      }
    }
  }
}
