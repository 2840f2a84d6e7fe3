// RUN: exogpu-opt %s -split-input-file --convert-exogpu-to-exoam | FileCheck %s
// RUN: exogpu-opt %s -split-input-file --exogpu-insert-frees --convert-exogpu-to-exoam | FileCheck %s --check-prefix=FREES

// The translation T_s of GPU IR to abstract machine IR, rule by rule
// (seeds/002 Fig. 5, with T_e of Fig. 17, the helpers of Fig. 18 and the
// argument conversion T_arg of Fig. 19-20). Each split checks the exact
// statements one rule produces.
//
// Where the kernel's launch fences are not the point of a split, the checks
// skip them; @device_function checks them in full. Timeline sets are the
// table of Fig. 16 (lib/Dialect/ExoAM/IR/SyncTimelines.cpp): for instance
// T_qfull(cuda_in_order) = {cuda_in_order_rmem_qual, cuda_in_order_ram_qual}.

// for y in seq(lo, hi) do s  ->  for y in loop(lo, hi) do T_s(s), at CPU
// scope: accesses on cpu_in_order_qual (T_qin), `threads cpu`.

// CHECK-LABEL: exoam.proc @seq_loop(%N: index) {
// CHECK-NEXT:    exoam.alloc @A[%N]
// CHECK-NEXT:    exoam.loop %[[I:[a-zA-Z0-9_]+]] in (%N / 2, %N) {
// CHECK-NEXT:      exoam.check_reads temporally_ordered @A[%[[I]]] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @A[%[[I]]] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.clear_reads @A[%[[I]]]
// CHECK-NEXT:      exoam.clear_mutates @A[%[[I]]]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @A[%[[I]]] on cpu_in_order_qual threads cpu
// CHECK-NEXT:    }
// CHECK-NEXT:  }
exogpu.proc @seq_loop(%N: size, %A: f32[%N] @DRAM) {
  exogpu.for %i in seq(%N / 2, %N) {
    exogpu.assign %A[%i] = 1.0 : f32[?] @DRAM
  }
}

// -----

// cuda_tasks: loop(lo, hi) do (IncTaskID; T_s(s)); cuda_threads: a plain
// loop (the iterator selects the threads through the thread mapping).

// CHECK-LABEL: exoam.proc @cuda_tasks_loop(%N: index) {
// CHECK-NEXT:    exoam.alloc @G[%N]
// CHECK-NEXT:    exoam.check_condition %N mod 32 == 0, "the precondition of @cuda_tasks_loop (requires N mod 32 == 0)"
// CHECK-NEXT:    exoam.fence
// CHECK-NEXT:    exoam.loop %[[TASK:[a-zA-Z0-9_]+]] in (0, %N / 32) {
// CHECK-NEXT:      exoam.inc_task_id
// CHECK-NEXT:      exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 32) {
// CHECK-NEXT:        exoam.check_reads temporally_ordered @G[%[[TASK]] * 32 + %[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates temporally_ordered @G[%[[TASK]] * 32 + %[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.clear_reads @G[%[[TASK]] * 32 + %[[T]]]
// CHECK-NEXT:        exoam.clear_mutates @G[%[[TASK]] * 32 + %[[T]]]
// CHECK-NEXT:        exoam.record_mutate fully_ordered @G[%[[TASK]] * 32 + %[[T]]] on cuda_in_order_ram_qual threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    exoam.fence
// CHECK-NEXT:  }
exogpu.proc @cuda_tasks_loop(%N: size, %G: f32[%N] @CudaGmemLinear) requires %N mod 32 == 0 {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, %N / 32) {
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.assign %G[%task * 32 + %t] = 0.0 : f32[?] @CudaGmemLinear
      }
    }
  }
}

// -----

// if b then s  ->  if b then T_s(s), the condition over the same values.

// CHECK-LABEL: exoam.proc @guard(%N: index, %b: i1) {
// CHECK:         exoam.inc_task_id
// CHECK-NEXT:    exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.if %[[T]] < 16 and %b or %[[T]] == %N {
// CHECK-NEXT:        exoam.check_reads temporally_ordered @G[%[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK:             exoam.record_mutate fully_ordered @G[%[[T]]] on cuda_in_order_ram_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
exogpu.proc @guard(%N: size, %b: bool, %G: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.if %t < 16 and %b or %t == %N {
          exogpu.assign %G[%t] = 0.0 : f32[64] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// with CudaWarps(...) do s  ->  if true then T_s(s). The thread mapping of
// the statements inside selects the warps: 9 warps (288 threads) per CTA,
// "consumer"(4, 8) are warps 5..8, i.e. threads 160..287 (box 128 at
// offset 160), then the cuda_threads iterator inside them.

// CHECK-LABEL: exoam.proc @warps_block() {
// CHECK:         exoam.inc_task_id
// CHECK-NEXT:    exoam.if true {
// CHECK-NEXT:      exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 128) {
// CHECK-NEXT:        exoam.check_reads temporally_ordered @G[%[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[288 (_, 128, 160) (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates temporally_ordered @G[%[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[288 (_, 128, 160) (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.clear_reads @G[%[[T]]]
// CHECK-NEXT:        exoam.clear_mutates @G[%[[T]]]
// CHECK-NEXT:        exoam.record_mutate fully_ordered @G[%[[T]]] on cuda_in_order_ram_qual threads gpu[288 (_, 128, 160) (%[[T]], 1, 0)]
// CHECK-NEXT:      }
// CHECK-NEXT:    }
exogpu.proc @warps_block(%G: f32[384] @CudaGmemLinear) {
  exogpu.device_function(warps = ["producer" = (1, 0, 0), "consumer" = (8, 0, 0)]) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.warps "consumer"(4, 8) {
        exogpu.for %t in cuda_threads(0, 128, unit = cuda_thread) {
          exogpu.assign %G[%t] = 0.0 : f32[384] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// with CudaDeviceFunction do s  ->
//   Fence(true, Qcs u {cpu_in_order_qual}, Qcs, Tcs); T_s(s);
//   Fence(true, Qcs, Qcs, Tcs)
// with Qcs = T_qfull(cuda_stream_sync), Tcs = T_qtmp(cuda_stream_sync):
// every CUDA-side timeline (cuda_stream_sync has no temporal-only
// entries, so Tcs = Qcs). Both fences are CPU statements.

// CHECK-LABEL: exoam.proc @device_function() {
// CHECK-NEXT:    exoam.alloc @G[32]
// CHECK-NEXT:    exoam.fence transitive pre = [cpu_in_order_qual, cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] full = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] threads cpu
// CHECK-NEXT:    exoam.loop %{{.*}} in (0, 1) {
// CHECK-NEXT:      exoam.inc_task_id
// CHECK-NEXT:    }
// CHECK-NEXT:    exoam.fence transitive pre = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] full = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual] threads cpu
// CHECK-NEXT:  }
exogpu.proc @device_function(%G: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
    }
  }
}

// -----

// x[c*] = e: for each distinct read of T_ex(e), CheckMutates and
// RecordRead(fully_ordered, T_qin); then for the target CheckReads and
// CheckMutates (temporally_ordered for `=`), ClearReads, ClearMutates and
// RecordMutate(fully_ordered, T_qin). The read checks are fully_ordered (a
// read needs the earlier writes visible, as a read-only instruction
// argument in Fig. 19); Fig. 5 writes tau_pre for them
// (docs/abstract-machine.md, decision (a)).

// CHECK-LABEL: exoam.proc @assign() {
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.loop %[[J:[a-zA-Z0-9_]+]] in (0, 8) {
// CHECK-NEXT:        exoam.check_mutates fully_ordered @y[%[[I]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.record_read fully_ordered @y[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates fully_ordered @z[%[[J]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.record_read fully_ordered @z[%[[J]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.check_reads temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:        exoam.clear_reads @x[%[[I]]]
// CHECK-NEXT:        exoam.clear_mutates @x[%[[I]]]
// CHECK-NEXT:        exoam.record_mutate fully_ordered @x[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      }
exogpu.proc @assign(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear, %z: f32[8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.for %j in seq(0, 8) {
          exogpu.assign %x[%i] = %y[%i] + %z[%j] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear, f32[8] @CudaGmemLinear
        }
      }
    }
  }
}

// -----

// x[c*] += e: the same, with tau_pre = fully_ordered for the target (the
// old value is read).

// CHECK-LABEL: exoam.proc @reduce() {
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates fully_ordered @y[-%[[I]] + 63] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @y[-%[[I]] + 63] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads fully_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @x[%[[I]]]
// CHECK-NEXT:      exoam.clear_mutates @x[%[[I]]]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @x[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:    }
exogpu.proc @reduce(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.reduce %x[%i] += %y[63 - %i] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}

// -----

// T_e is a set: y[i] read three times is one access; y[63 - i] is another.

// CHECK-LABEL: exoam.proc @repeated_read() {
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates fully_ordered @y[%[[I]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @y[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @y[-%[[I]] + 63] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @y[-%[[I]] + 63] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
exogpu.proc @repeated_read(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %x[%i] = %y[%i] * %y[%i] + %y[%i] - %y[63 - %i] : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}

// -----

// T_ex reads through the functions of data expressions as through + and *:
// the reads under max, exp2 and log2 are the statement's reads.

// CHECK-LABEL: exoam.proc @functions() {
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates fully_ordered @y[%[[I]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @y[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @z[%[[I]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @z[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @y[-%[[I]] + 63] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @y[-%[[I]] + 63] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
exogpu.proc @functions(%x: f32[64] @CudaGmemLinear, %y: f32[64] @CudaGmemLinear, %z: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %x[%i] = max(exp2(%y[%i]), log2(%z[%i])) + exp2(%y[63 - %i]) : f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear, f32[64] @CudaGmemLinear
      }
    }
  }
}

// -----

// T_ex drops sync-exempt memories: the read of the CudaGridConstant c
// produces neither a check nor a record (its allocation is still an
// Alloc).

// CHECK-LABEL: exoam.proc @grid_constant() {
// CHECK-NEXT:    exoam.alloc @x[64]
// CHECK-NEXT:    exoam.alloc @c[4]
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_reads temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @x[%[[I]]]
// CHECK-NEXT:      exoam.clear_mutates @x[%[[I]]]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @x[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:    }
// CHECK-NOT:     @c[
exogpu.proc @grid_constant(%x: f32[64] @CudaGmemLinear) {
  %c = exogpu.alloc f32[4] @CudaGridConstant
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %x[%i] = %c[%i mod 4] : f32[64] @CudaGmemLinear, f32[4] @CudaGridConstant
      }
    }
  }
}

// -----

// Arrive and Await on sync-exempt barriers (CudaCommitGroup,
// CudaClusterSync) record no read of the barrier; the Arrive and Await
// themselves remain (they use T_e, not T_ex). A commit group's await is
// `own`: a wait_group covers only the waiting collective's own groups. Their
// frees (from --exogpu-insert-frees) only check the barrier (T_smem is
// empty).

// CHECK-LABEL: exoam.proc @exempt_barriers() {
// CHECK:         exoam.alloc barrier @cg[]{{$}}
// CHECK-NEXT:    exoam.alloc barrier @cs[]{{$}}
// CHECK-NEXT:    exoam.arrive pre = [Sm80_cp_async_qual] >> @cg[] threads gpu[2, 64]
// CHECK-NEXT:    exoam.await own @cg[] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] n = 0 threads gpu[2, 64]
// CHECK-NEXT:    exoam.arrive transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] >> @cs[] threads gpu[2, 64]
// CHECK-NEXT:    exoam.await @cs[] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] temp = [{{.*}}] n = 0 threads gpu[2, 64]
// CHECK-NEXT:  }

// FREES-LABEL: exoam.proc @exempt_barriers() {
// FREES:         exoam.await @cs[]
// FREES-NEXT:    exoam.check_barrier @cs[]
// FREES-NEXT:    exoam.check_barrier @cg[]
// FREES-NEXT:  }
exogpu.proc @exempt_barriers() {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %cg = exogpu.alloc barrier @CudaCommitGroup
      %cs = exogpu.alloc barrier @CudaClusterSync
      exogpu.arrive(Sm80_cp_async, 1) >> %cg : barrier @CudaCommitGroup
      exogpu.await(%cg, cuda_in_order, 0) : barrier @CudaCommitGroup
      exogpu.arrive(cuda_in_order, 1) >> %cs : barrier @CudaClusterSync
      exogpu.await(%cs, cuda_in_order, 0) : barrier @CudaClusterSync
    }
  }
}

// -----

// T_qin of register memory is cuda_in_order_rmem_qual; the free of
// registers translates to nothing (T_smem is empty), without error.

// CHECK-LABEL: exoam.proc @registers() {
// CHECK:         exoam.alloc @r[64]
// CHECK-NEXT:    exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates fully_ordered @x[%[[I]]] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @x[%[[I]]] on cuda_in_order_ram_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @r[%[[I]]] on [cuda_in_order_rmem_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @r[%[[I]]] on [cuda_in_order_rmem_qual] for write threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @r[%[[I]]]
// CHECK-NEXT:      exoam.clear_mutates @r[%[[I]]]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @r[%[[I]]] on cuda_in_order_rmem_qual threads gpu[64 (%[[I]], 1, 0)]
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NEXT:  exoam.fence
exogpu.proc @registers(%x: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %r = exogpu.alloc f32[64] @CudaRmem
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %r[%i] = %x[%i] : f32[64] @CudaRmem, f32[64] @CudaGmemLinear
      }
      exogpu.free %r : f32[64] @CudaRmem
    }
  }
}

// -----

// A CPU-scope statement: T_qin = cpu_in_order_qual, `threads cpu`.

// CHECK-LABEL: exoam.proc @cpu_scope(%N: index) {
// CHECK-NEXT:    exoam.alloc @A[%N]
// CHECK-NEXT:    exoam.alloc @B[%N]
// CHECK-NEXT:    exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, %N) {
// CHECK-NEXT:      exoam.check_mutates fully_ordered @B[%N - %[[I]] - 1] on [cpu_in_order_qual] for read threads cpu
// CHECK-NEXT:      exoam.record_read fully_ordered @B[%N - %[[I]] - 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:      exoam.check_reads temporally_ordered @A[%[[I]]] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @A[%[[I]]] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.clear_reads @A[%[[I]]]
// CHECK-NEXT:      exoam.clear_mutates @A[%[[I]]]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @A[%[[I]]] on cpu_in_order_qual threads cpu
// CHECK-NEXT:    }
// CHECK-NEXT:  }
exogpu.proc @cpu_scope(%N: size, %A: f32[%N] @DRAM, %B: f32[%N] @DRAM) {
  exogpu.for %i in seq(0, %N) {
    exogpu.assign %A[%i] = %B[%N - 1 - %i] : f32[?] @DRAM, f32[?] @DRAM
  }
}

// -----

// Thread mapping in a 2-CTA cluster: one tiling dimension per level (CTA
// pitch 128, warp pitch 32, thread pitch 1), each with its iterator.

// CHECK-LABEL: exoam.proc @cluster_mapping() {
// CHECK:         exoam.loop %[[CTA:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.loop %[[W:[a-zA-Z0-9_]+]] in (0, 4) {
// CHECK-NEXT:        exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 32) {
// CHECK-NEXT:          exoam.check_reads temporally_ordered @G[%[[CTA]], %[[W]] * 32 + %[[T]]] on [cuda_in_order_ram_qual] for write threads gpu[2 (%[[CTA]], 128, 0), 4 (%[[W]], 32, 0), 32 (%[[T]], 1, 0)]
exogpu.proc @cluster_mapping(%G: f32[2, 128] @CudaGmemLinear) {
  exogpu.device_function(clusterDim = 2, blockDim = 128) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %w in cuda_threads(0, 4, unit = cuda_warp) {
          exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
            exogpu.assign %G[%cta, %w * 32 + %t] = 0.0 : f32[2, 128] @CudaGmemLinear
          }
        }
      }
    }
  }
}

// -----

// x : tau[c*] @ pi  ->  Alloc(x[c*]); z : tau_z[c*] @ pi_z  ->  Alloc(z[c*])
// (a barrier allocation is marked `barrier`).

// CHECK-LABEL: exoam.proc @allocs(%N: index) {
// CHECK-NEXT:    exoam.alloc @h[16, %N]
// CHECK-NEXT:    exoam.fence
// CHECK-NEXT:    exoam.loop
// CHECK-NEXT:      exoam.inc_task_id
// CHECK-NEXT:      exoam.alloc @s[2, 32]
// CHECK-NEXT:      exoam.alloc barrier @bar[2] ring 1
// CHECK-NEXT:      exoam.alloc barrier @one[] ring 1
// CHECK-NEXT:    }
exogpu.proc @allocs(%N: size) {
  %h = exogpu.alloc f32[16, %N] @DRAM
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[2, 32] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      %one = exogpu.alloc barrier @CudaMbarrier
    }
  }
}

// -----

// The elements of a CudaMbarrier are rings of mbarriers, as deep as the CUDA
// translation makes them (ExoGPU/Analysis/MbarrierRing.h): 1 + the sum of
// the largest lag (~N of an await with N < 0) of each mbarrier of the
// kernel, here 1 + 2 + 1 (`empty`'s lag 2, `full`'s lag 0, `other`'s lag 1,
// its await with N >= 0 lags 0). Commit groups are no rings.

// CHECK-LABEL: exoam.proc @ring_depth() {
// CHECK:         exoam.alloc barrier @full[] ring 4
// CHECK-NEXT:    exoam.alloc barrier @empty[] ring 4
// CHECK-NEXT:    exoam.alloc barrier @other[] ring 4
// CHECK-NEXT:    exoam.alloc barrier @cg[]{{$}}
exogpu.proc @ring_depth() {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %full = exogpu.alloc barrier @CudaMbarrier
      %empty = exogpu.alloc barrier @CudaMbarrier
      %other = exogpu.alloc barrier @CudaMbarrier
      %cg = exogpu.alloc barrier @CudaCommitGroup
      exogpu.await(%full, cuda_in_order, -1) : barrier @CudaMbarrier
      exogpu.await(%empty, cuda_in_order, -2) : barrier @CudaMbarrier
      exogpu.await(%empty, cuda_in_order, -3) : barrier @CudaMbarrier
      exogpu.await(%other, cuda_in_order, -2) : barrier @CudaMbarrier
      exogpu.await(%other, cuda_in_order, 0) : barrier @CudaMbarrier
      exogpu.await(%cg, Sm80_cp_async, 4) : barrier @CudaCommitGroup
    }
  }
}

// -----

// free x (shared memory): CheckReads and CheckMutates(temporally_ordered)
// of the whole variable on T_qin, by the freeing collective (the CTA).
// free z (mbarrier, shared memory too): CheckBarrier first. free of
// registers: nothing.

// CHECK-LABEL: exoam.proc @frees() {
// CHECK:         exoam.alloc @r[64]
// CHECK-NEXT:    exoam.check_barrier @bar[0 to 1]
// CHECK-NEXT:    exoam.check_reads temporally_ordered @bar[0 to 1] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT:    exoam.check_mutates temporally_ordered @bar[0 to 1] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT:    exoam.check_reads temporally_ordered @s[0 to 1, 0 to 31] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT:    exoam.check_mutates temporally_ordered @s[0 to 1, 0 to 31] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT:  }
exogpu.proc @frees() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[2, 32] @CudaSmemLinear
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      %r = exogpu.alloc f32[64] @CudaRmem
      exogpu.free %r : f32[64] @CudaRmem
      exogpu.free %bar : barrier[2] @CudaMbarrier
      exogpu.free %s : f32[2, 32] @CudaSmemLinear
    }
  }
}

// -----

// The pass translates only the frees that are written; with
// --exogpu-insert-frees first, the compiler's free of s at the end of the
// task body is translated too.

// CHECK-LABEL: exoam.proc @inserted_frees() {
// CHECK:         exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] {{.*}} threads gpu[64]
// CHECK-NEXT:  }

// FREES-LABEL: exoam.proc @inserted_frees() {
// FREES:         exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] {{.*}} threads gpu[64]
// FREES-NEXT:    exoam.check_reads temporally_ordered @s[0 to 63] on [cuda_in_order_ram_qual] for free threads gpu[64]
// FREES-NEXT:    exoam.check_mutates temporally_ordered @s[0 to 63] on [cuda_in_order_ram_qual] for free threads gpu[64]
// FREES-NEXT:  }
exogpu.proc @inserted_frees(%g: f32[64] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[64] @CudaSmemLinear
      exogpu.for %i in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.assign %s[%i] = %g[%i] : f32[64] @CudaSmemLinear, f32[64] @CudaGmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// -----

// Fence(pre, post)  ->  Fence(T_tr(pre), T_qfull(pre), T_qfull(post),
// T_qtmp(post)), with the thread mapping of the fencing collective (the CTA,
// or one warp).

// CHECK-LABEL: exoam.proc @fences() {
// CHECK:         exoam.inc_task_id
// CHECK-NEXT:    exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads gpu[64]
// CHECK-NEXT:    exoam.fence pre = [] full = [] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads gpu[64]
// CHECK-NEXT:    exoam.fence pre = [Sm80_cp_async_qual] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads gpu[64]
// CHECK-NEXT:    exoam.fence pre = [cuda_in_order_rmem_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] full = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] temp = [wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual] threads gpu[64]
// CHECK-NEXT:    exoam.loop %[[W:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] full = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] temp = [{{.*}}] threads gpu[2 (%[[W]], 32, 0), 32]
// CHECK-NEXT:    }
exogpu.proc @fences() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.fence(cuda_in_order, cuda_in_order)
      exogpu.fence(cuda_temporal, cuda_temporal)
      exogpu.fence(Sm80_cp_async, Sm80_generic)
      exogpu.fence(wgmma_fence_1, wgmma_fence_2)
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.fence(cuda_in_order, cuda_in_order)
      }
    }
  }
}

// -----

// Arrive(tau_s, n) >> e_z*: RecordRead(fully_ordered, T_qarr(tau_s)) of
// each non-exempt barrier access, then Arrive(T_tr, T_qfull, T_e(e_z*))
// with every access (multicast). T_qarr is Sm80_cp_async_qual when tau_s
// holds it in full, else the in-order timeline of the barrier's (shared)
// memory (docs/abstract-machine.md, decision (h)).

// CHECK-LABEL: exoam.proc @arrive_multicast() {
// CHECK:         exoam.alloc barrier @z[2]
// CHECK-NEXT:    exoam.loop %[[CTA:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.record_read fully_ordered @z[%[[CTA]]] on cuda_in_order_ram_qual threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:      exoam.record_read fully_ordered @z[0 to 1] on cuda_in_order_ram_qual threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:      exoam.arrive transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] >> @z[%[[CTA]]] >> @z[0 to 1] threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:      exoam.record_read fully_ordered @z[%[[CTA]]] on Sm80_cp_async_qual threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:      exoam.arrive pre = [Sm80_cp_async_qual] >> @z[%[[CTA]]] threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:    }
exogpu.proc @arrive_multicast() {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.arrive(cuda_in_order, 1) >> %z[%cta] >> %z[:] : barrier[2] @CudaMbarrier
        exogpu.arrive(Sm80_cp_async, 1) >> %z[%cta] : barrier[2] @CudaMbarrier
      }
    }
  }
}

// -----

// Await(e_z, tau_s, n): RecordRead(fully_ordered, T_qin) of the barrier,
// then Await(T_e(e_z), T_qfull(tau_s), T_qtmp(tau_s), n).

// CHECK-LABEL: exoam.proc @await() {
// CHECK:         exoam.loop %[[CTA:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.record_read fully_ordered @z[%[[CTA]]] on cuda_in_order_ram_qual threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:      exoam.await @z[%[[CTA]]] full = [tma_to_smem_async_qual] temp = [tma_to_smem_async_qual] n = -3 threads gpu[2 (%[[CTA]], 64, 0), 64]
// CHECK-NEXT:    }
exogpu.proc @await() {
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %z = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.await(%z[%cta], tma_to_smem_async, -3) : barrier[2] @CudaMbarrier
      }
    }
  }
}

// -----

// Instruction calls, T_arg by access mode (Fig. 19), one argument after the
// other. Defaults (docs/abstract-machine.md, decision (c)): T_init is the
// in-order timeline of the parameter's memory, T_ext is {T_init}; not out
// of order, not convergent.
// copy4: dst write-only (CheckMutates temporally_ordered), src read-only.
// accum4: acc read-write (CheckMutates fully_ordered). atomic_add: dst
// atomic (CheckMutates atomic_only, no ClearMutates, RecordMutate with the
// atomic set).

exogpu.instr @copy4(%dst: f32[4] @CudaGmemLinear, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaGmemLinear, f32[4] @CudaGmemLinear
  }
}

exogpu.instr @accum4(%acc: f32[4] @CudaRmem, %src: f32[4] @CudaGmemLinear)
    target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.reduce %acc[%i] += %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}

exogpu.instr @atomic_add(%dst: f32[1] @CudaGmemLinear {atomic = [cuda_in_order_ram_qual]}, %src: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread {
  exogpu.reduce %dst[0] += %src[0] : f32[1] @CudaGmemLinear, f32[1] @CudaRmem
}

// Instruction definitions are dropped.
// CHECK-NOT:     exogpu.
// CHECK-LABEL: exoam.proc @access_modes() {
// CHECK:         exoam.alloc @r[64, 4]
// CHECK-NEXT:    exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @H[%[[T]], 0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @H[%[[T]], 0 to 3] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @H[%[[T]], 0 to 3]
// CHECK-NEXT:      exoam.clear_mutates @H[%[[T]], 0 to 3]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @H[%[[T]], 0 to 3] on cuda_in_order_ram_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @G[%[[T]], 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @G[%[[T]], 0 to 3] on cuda_in_order_ram_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @r[%[[T]], 0 to 3] on [cuda_in_order_rmem_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @r[%[[T]], 0 to 3] on [cuda_in_order_rmem_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @r[%[[T]], 0 to 3]
// CHECK-NEXT:      exoam.clear_mutates @r[%[[T]], 0 to 3]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @r[%[[T]], 0 to 3] on cuda_in_order_rmem_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @G[%[[T]], 0 to 3] on [cuda_in_order_ram_qual] for read threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @G[%[[T]], 0 to 3] on cuda_in_order_ram_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates atomic_only @S[0 to 0] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @S[0 to 0] on [cuda_in_order_ram_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @S[0 to 0]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @S[0 to 0] on cuda_in_order_ram_qual atomic = [cuda_in_order_ram_qual] threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @r[%[[T]], 0 to 0] on [cuda_in_order_rmem_qual] for read threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.record_read fully_ordered @r[%[[T]], 0 to 0] on cuda_in_order_rmem_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:    }
exogpu.proc @access_modes(%G: f32[64, 4] @CudaGmemLinear, %H: f32[64, 4] @CudaGmemLinear, %S: f32[1] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %r = exogpu.alloc f32[64, 4] @CudaRmem
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @copy4(%H[%t, :], %G[%t, :]) : f32[64, 4] @CudaGmemLinear, f32[64, 4] @CudaGmemLinear
        exogpu.call @accum4(%r[%t, :], %G[%t, :]) : f32[64, 4] @CudaRmem, f32[64, 4] @CudaGmemLinear
        exogpu.call @atomic_add(%S[0:1], %r[%t, 0:1]) : f32[1] @CudaGmemLinear, f32[64, 4] @CudaRmem
      }
    }
  }
}

// -----

// out_of_order parameters record at tau_post = unordered; init and ext
// come from the parameter's annotations (cp.async, stdlib/sm80.mlir).

exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

// CHECK-LABEL: exoam.proc @out_of_order() {
// CHECK:         exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 64) {
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @s[%[[T]] * 4 to %[[T]] * 4 + 3] on [Sm80_cp_async_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @s[%[[T]] * 4 to %[[T]] * 4 + 3] on [Sm80_cp_async_qual] for write threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @s[%[[T]] * 4 to %[[T]] * 4 + 3]
// CHECK-NEXT:      exoam.clear_mutates @s[%[[T]] * 4 to %[[T]] * 4 + 3]
// CHECK-NEXT:      exoam.record_mutate unordered @s[%[[T]] * 4 to %[[T]] * 4 + 3] on Sm80_cp_async_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @G[%[[T]] * 4 to %[[T]] * 4 + 3] on [Sm80_cp_async_qual] for read threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:      exoam.record_read unordered @G[%[[T]] * 4 to %[[T]] * 4 + 3] on Sm80_cp_async_qual threads gpu[64 (%[[T]], 1, 0)]
// CHECK-NEXT:    }
exogpu.proc @out_of_order(%G: f32[256] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %s = exogpu.alloc f32[256] @CudaSmemLinear
      exogpu.for %t in cuda_threads(0, 64, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%s[%t * 4:%t * 4 + 4], %G[%t * 4:%t * 4 + 4]) : f32[256] @CudaSmemLinear, f32[256] @CudaGmemLinear
      }
    }
  }
}

// -----

// A convergent parameter (T_cvg) marks its checks and records convergent
// (stdlib/sm80.mlir, executed by a warp).

exogpu.instr @Sm80_mma_zero_d_tf32(
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[16, 8] @Sm80_RmemMatrixD(16, 8)
    }
  }
}

// CHECK-LABEL: exoam.proc @convergent() {
// CHECK:         exoam.loop %[[W:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.check_mutates temporally_ordered convergent @d[%[[W]], 0 to 15, 0 to 7] on [cuda_in_order_rmem_qual] for write threads gpu[2 (%[[W]], 32, 0), 32]
// CHECK-NEXT:      exoam.check_reads temporally_ordered convergent @d[%[[W]], 0 to 15, 0 to 7] on [cuda_in_order_rmem_qual] for write threads gpu[2 (%[[W]], 32, 0), 32]
// CHECK-NEXT:      exoam.clear_reads @d[%[[W]], 0 to 15, 0 to 7]
// CHECK-NEXT:      exoam.clear_mutates @d[%[[W]], 0 to 15, 0 to 7]
// CHECK-NEXT:      exoam.record_mutate fully_ordered convergent @d[%[[W]], 0 to 15, 0 to 7] on cuda_in_order_rmem_qual threads gpu[2 (%[[W]], 32, 0), 32]
// CHECK-NEXT:    }
exogpu.proc @convergent() {
  exogpu.device_function(blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %d = exogpu.alloc f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
      exogpu.for %w in cuda_threads(0, 2, unit = cuda_warp) {
        exogpu.call @Sm80_mma_zero_d_tf32(%d[%w, :, :]) : f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
      }
    }
  }
}

// -----

// g(...) >> e_z: a RecordRead of the (non-exempt) barrier first, on T_qin
// and observing no arrive counts (docs/abstract-machine.md, decision (b)),
// then each argument's record carries T_e(e_z) (`>> @bar[1]`). The
// tensor-map window of A is inlined into the access of A.

exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

// CHECK-LABEL: exoam.proc @call_barrier() {
// CHECK:         exoam.loop %[[TASK:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.inc_task_id
// CHECK-NEXT:      exoam.alloc @S[128, 32]
// CHECK-NEXT:      exoam.alloc barrier @bar[2]
// CHECK-NEXT:      exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 1) {
// CHECK-NEXT:        exoam.record_read fully_ordered @bar[1] on cuda_in_order_ram_qual threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates temporally_ordered @S[0 to 127, 0 to 31] on [tma_to_smem_async_qual] for write threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_reads temporally_ordered @S[0 to 127, 0 to 31] on [tma_to_smem_async_qual] for write threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.clear_reads @S[0 to 127, 0 to 31]
// CHECK-NEXT:        exoam.clear_mutates @S[0 to 127, 0 to 31]
// CHECK-NEXT:        exoam.record_mutate unordered @S[0 to 127, 0 to 31] on tma_to_smem_async_qual >> @bar[1] threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates fully_ordered @A[%[[TASK]] * 128 to %[[TASK]] * 128 + 127, 0 to 31] on [tma_to_smem_async_qual] for read threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.record_read unordered @A[%[[TASK]] * 128 to %[[TASK]] * 128 + 127, 0 to 31] on tma_to_smem_async_qual >> @bar[1] threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.complete >> @bar[1] threads gpu[32 (%[[T]], 1, 0)]
// CHECK-NEXT:      }
exogpu.proc @call_barrier(%A: f32[256, 32] @CudaGmemLinear) {
  %A_map = exogpu.window %A[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 2) {
      %S = exogpu.alloc f32[128, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
        exogpu.call @Sm90_tma_load_128x32_f32(%S[:, :], %A_map[%task * 128:%task * 128 + 128, :]) >> %bar[1] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
      }
    }
  }
}

// -----

// A multicast completion (barrier_dist = [cuda_cta_in_cluster], `>> bar[:]`)
// records each destination CTA's shard as observing that CTA's barrier
// only, and every record observes at the count of the issuing CTA's
// barrier (`home`): the CTA of the issuing thread, %cta. A parameter that
// is not distributed (the source) observes every barrier.

exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster] {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// CHECK-LABEL: exoam.proc @multicast_completion() {
// CHECK:         exoam.loop %[[CTA:[a-zA-Z0-9_]+]] in (0, 2) {
// CHECK-NEXT:      exoam.loop %[[T:[a-zA-Z0-9_]+]] in (0, 1) {
// CHECK-NEXT:        exoam.record_read fully_ordered @bar[0 to 1] on cuda_in_order_ram_qual threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK:             exoam.clear_mutates @S[0 to 1, %[[CTA]] * 128 to %[[CTA]] * 128 + 127, 0 to 31]
// CHECK-NEXT:        exoam.record_mutate unordered @S[0, %[[CTA]] * 128 to %[[CTA]] * 128 + 127, 0 to 31] on tma_to_smem_async_qual >> @bar[0] home @bar[%[[CTA]]] threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.record_mutate unordered @S[1, %[[CTA]] * 128 to %[[CTA]] * 128 + 127, 0 to 31] on tma_to_smem_async_qual >> @bar[1] home @bar[%[[CTA]]] threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.check_mutates fully_ordered @G[%[[CTA]] * 128 to %[[CTA]] * 128 + 127, 0 to 31] on [tma_to_smem_async_qual] for read threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.record_read unordered @G[%[[CTA]] * 128 to %[[CTA]] * 128 + 127, 0 to 31] on tma_to_smem_async_qual >> @bar[0 to 1] home @bar[%[[CTA]]] threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK-NEXT:        exoam.complete >> @bar[0 to 1] home @bar[%[[CTA]]] threads gpu[2 (%[[CTA]], 64, 0), 64 (%[[T]], 1, 0)]
// CHECK-NEXT:      }
exogpu.proc @multicast_completion(%G: f32[256, 32] @CudaGmemLinear) {
  %G_map = exogpu.window %G[:, :] @Sm90_tensorMap(128, 128, 32) : f32[256, 32] @CudaGmemLinear
  exogpu.device_function(clusterDim = 2, blockDim = 64) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S = exogpu.alloc f32[2, 256, 32] @Sm90_SmemSwizzled(128)
      %bar = exogpu.alloc barrier[2] @CudaMbarrier
      exogpu.for %cta in cuda_threads(0, 2, unit = cuda_cta_in_cluster) {
        exogpu.for %t in cuda_threads(0, 1, unit = cuda_thread) {
          exogpu.call @Sm90_tma_multicast_load_128x32_f32(%S[:, %cta * 128:%cta * 128 + 128, :], %G_map[%cta * 128:%cta * 128 + 128, :]) >> %bar[:] : f32[2, 256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), barrier[2] @CudaMbarrier
        }
      }
    }
  }
}

// -----

// Window statements are inlined (Sec. 5.2 preprocessing (i)): w[1, 2] is
// A[i * 4 + 1, 2]. The window only checks that it lies within A, and an
// access through it that it lies within the window. Data parameters are
// allocated at the proc's entry (the machine learns their extents), and the
// proc's precondition is checked there.

// CHECK-LABEL: exoam.proc @window(%N: index) {
// CHECK-NEXT:    exoam.alloc @A[%N, 8]
// CHECK-NEXT:    exoam.check_condition %N mod 4 == 0, "the precondition of @window (requires N mod 4 == 0)"
// CHECK:         exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 8) {
// CHECK-NEXT:      exoam.check_bounds @A[%[[I]] * 4 to %[[I]] * 4 + 3, 0 to 7] within @A[0 to %N - 1, 0 to 7]
// CHECK-NEXT:      exoam.check_bounds @A[%[[I]] * 4 + 1, 2] within @A[%[[I]] * 4 to %[[I]] * 4 + 3, 0 to 7]
// CHECK-NEXT:      exoam.check_reads temporally_ordered @A[%[[I]] * 4 + 1, 2] on [cuda_in_order_ram_qual] for write threads gpu[32 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @A[%[[I]] * 4 + 1, 2] on [cuda_in_order_ram_qual] for write threads gpu[32 (%[[I]], 1, 0)]
// CHECK-NEXT:      exoam.clear_reads @A[%[[I]] * 4 + 1, 2]
// CHECK-NEXT:      exoam.clear_mutates @A[%[[I]] * 4 + 1, 2]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @A[%[[I]] * 4 + 1, 2] on cuda_in_order_ram_qual threads gpu[32 (%[[I]], 1, 0)]
// CHECK-NEXT:    }
exogpu.proc @window(%N: size, %A: f32[%N, 8] @CudaGmemLinear) requires %N mod 4 == 0 {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %i in cuda_threads(0, 8, unit = cuda_thread) {
        %w = exogpu.window %A[%i * 4:%i * 4 + 4, :] : f32[?, 8] @CudaGmemLinear
        exogpu.assign %w[1, 2] = 0.0 : window f32[4, 8] @CudaGmemLinear
      }
    }
  }
}

// -----

// A proc call at CPU scope is inlined (Sec. 5.2 preprocessing (ii)): the
// callee's control parameters become the caller's expressions (n -> M,
// k -> i + 1) and its buffers windows of the arguments (x -> X[i, :],
// y -> Y), checked to lie within them. The callee is translated on its own
// as well. A CPU instruction's parameters default to cpu_in_order_qual.

exogpu.instr @host_copy(%n: size, %dst: f32[%n] @DRAM, %src: f32[%n] @DRAM)
    target = cpu, unit = standalone_thread {
  exogpu.for %i in seq(0, %n) {
    exogpu.assign %dst[%i] = %src[%i] : f32[?] @DRAM, f32[?] @DRAM
  }
}

exogpu.proc @callee(%n: size, %k: index, %x: f32[%n] @DRAM, %y: f32[8, %n] @DRAM) {
  exogpu.assign %x[%k] = %y[%k mod 8, %k] : f32[?] @DRAM, f32[8, ?] @DRAM
  exogpu.call @host_copy[%n](%x, %y[2, :]) : f32[?] @DRAM, f32[8, ?] @DRAM
}

// CHECK-LABEL: exoam.proc @callee(%n: index, %k: index) {
// CHECK-NEXT:    exoam.alloc @x[%n]
// CHECK-NEXT:    exoam.alloc @y[8, %n]
// CHECK-NEXT:    exoam.check_mutates fully_ordered @y[%k mod 8, %k] on [cpu_in_order_qual] for read threads cpu
// CHECK:         exoam.record_mutate fully_ordered @x[%k] on cpu_in_order_qual threads cpu
// CHECK-NEXT:    exoam.check_mutates temporally_ordered @x[0 to %n - 1] on [cpu_in_order_qual] for write threads cpu
// CHECK:         exoam.record_read fully_ordered @y[2, 0 to %n - 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:  }

// CHECK-LABEL: exoam.proc @caller(%M: index) {
// CHECK-NEXT:    exoam.alloc @X[16, %M]
// CHECK-NEXT:    exoam.alloc @Y[8, %M]
// CHECK-NEXT:    exoam.loop %[[I:[a-zA-Z0-9_]+]] in (0, 16) {
// CHECK-NEXT:      exoam.check_bounds @X[%[[I]], 0 to %M - 1] within @X[0 to 15, 0 to %M - 1]
// CHECK-NEXT:      exoam.check_bounds @X[%[[I]], %[[I]] + 1] within @X[%[[I]], 0 to %M - 1]
// CHECK-NEXT:      exoam.check_mutates fully_ordered @Y[(%[[I]] + 1) mod 8, %[[I]] + 1] on [cpu_in_order_qual] for read threads cpu
// CHECK-NEXT:      exoam.record_read fully_ordered @Y[(%[[I]] + 1) mod 8, %[[I]] + 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:      exoam.check_reads temporally_ordered @X[%[[I]], %[[I]] + 1] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @X[%[[I]], %[[I]] + 1] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.clear_reads @X[%[[I]], %[[I]] + 1]
// CHECK-NEXT:      exoam.clear_mutates @X[%[[I]], %[[I]] + 1]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @X[%[[I]], %[[I]] + 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:      exoam.check_mutates temporally_ordered @X[%[[I]], 0 to %M - 1] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.check_reads temporally_ordered @X[%[[I]], 0 to %M - 1] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT:      exoam.clear_reads @X[%[[I]], 0 to %M - 1]
// CHECK-NEXT:      exoam.clear_mutates @X[%[[I]], 0 to %M - 1]
// CHECK-NEXT:      exoam.record_mutate fully_ordered @X[%[[I]], 0 to %M - 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:      exoam.check_mutates fully_ordered @Y[2, 0 to %M - 1] on [cpu_in_order_qual] for read threads cpu
// CHECK-NEXT:      exoam.record_read fully_ordered @Y[2, 0 to %M - 1] on cpu_in_order_qual threads cpu
// CHECK-NEXT:    }
// CHECK-NEXT:  }
exogpu.proc @caller(%M: size, %X: f32[16, %M] @DRAM, %Y: f32[8, %M] @DRAM) {
  exogpu.for %i in seq(0, 16) {
    exogpu.call @callee[%M, %i + 1](%X[%i, :], %Y) : f32[16, ?] @DRAM, f32[8, ?] @DRAM
  }
}

// -----

// An allocation whose extents depend on a size carries the hardware limit
// of its memory (the verifier checks constant extents; the machine checks
// these once the sizes are known): at most 3719168 bytes of shared memory,
// 929792 floats.

// CHECK-LABEL: exoam.proc @sized_shared(%N: index) {
// CHECK:         exoam.alloc @dynamic[%N, 8] capacity 929792 "3719168 bytes of shared memory (227 KiB in each CTA of a cluster of 16)"
// CHECK-NEXT:    exoam.alloc @static[8]{{$}}
exogpu.proc @sized_shared(%N: size, %g: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %dynamic = exogpu.alloc f32[%N, 8] @CudaSmemLinear
      %static = exogpu.alloc f32[8] @CudaSmemLinear
    }
  }
}
