// RUN: exogpu-opt %s -split-input-file -exoam-interpret -verify-diagnostics
// RUN: exogpu-opt %s -split-input-file -exoam-interpret=engine=reference -verify-diagnostics

// CPU-scoped statements (seeds/002 Def. 5.2) run on all global threads. The
// kernel launch of a device function is bracketed by cuda_stream_sync fences
// (Fig. 5): Fence(true, Qcs + {cpu_in_order_qual}, Qcs, Tcs) before and
// Fence(true, Qcs, Qcs, Tcs) after, at CPU scope.

// Sequential CPU code needs no synchronization: the CPU's record is one
// record seen by all of G (see docs/abstract-machine.md).
exoam.proc @cpu_sequential() {
  exoam.record_mutate fully_ordered @x[0] on cpu_in_order_qual threads cpu
  exoam.check_mutates fully_ordered @x[0] on [cpu_in_order_qual] threads cpu
}

// -----

// A kernel reads what the CPU wrote before the launch fence...
exoam.proc @kernel_reads_cpu_data() {
  exoam.record_mutate fully_ordered @x[0] on cpu_in_order_qual threads cpu
  exoam.fence transitive pre = [cpu_in_order_qual, cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// ...which must hold cpu_in_order_qual in its pre set: cuda_stream_sync's
// full set does not.
exoam.proc @launch_fence_without_cpu() {
  // expected-note @below {{the mutate was recorded here by all threads; that thread sees it at invisible on [cuda_in_order_ram_qual]}}
  exoam.record_mutate fully_ordered @x[0] on cpu_in_order_qual threads cpu
  exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  // expected-error @below {{a mutate recorded on cpu_in_order_qual is not visible at fully_ordered on any of [cuda_in_order_ram_qual] to thread (task 0, thread 0)}}
  exoam.check_mutates fully_ordered @x[0] on [cuda_in_order_ram_qual] threads gpu[4]
}

// -----

// After the kernel, the exit fence does not make GPU writes visible to the
// CPU timeline: the CPU has to synchronize with the stream.
exoam.proc @cpu_reads_without_stream_sync() {
  // expected-note @below {{the mutate was recorded here by {task 0: 0}; that thread sees it at invisible on [cpu_in_order_qual]}}
  exoam.record_mutate fully_ordered @y[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  // expected-error @below {{a mutate recorded on cuda_in_order_ram_qual is not visible at fully_ordered on any of [cpu_in_order_qual] to thread (task 0, thread 0) of the checking threads all threads}}
  exoam.check_mutates fully_ordered @y[0] on [cpu_in_order_qual] threads cpu
}

// -----

// The twin: Fence(cuda_stream_sync, cpu_in_order), i.e.
// cudaStreamSynchronize.
exoam.proc @cpu_reads_after_stream_sync() {
  exoam.record_mutate fully_ordered @y[0] on cuda_in_order_ram_qual threads gpu[4 (_, 1, 0)]
  exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cuda_stream_sync) temp = qtmp(cuda_stream_sync) threads cpu
  exoam.fence transitive pre = qfull(cuda_stream_sync) full = qfull(cpu_in_order) temp = qtmp(cpu_in_order) threads cpu
  exoam.check_mutates fully_ordered @y[0] on [cpu_in_order_qual] threads cpu
}
