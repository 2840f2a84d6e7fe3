// RUN: exogpu-opt %s | exogpu-opt | FileCheck %s
// RUN: exogpu-opt %s -mlir-print-op-generic | exogpu-opt | FileCheck %s

// Every AMIR statement of seeds/002 Fig. 4 prints back as it was written.

// CHECK-LABEL: exoam.proc @statements(%M: index, %flag: i1) {
exoam.proc @statements(%M: index, %flag: i1) {
  // CHECK-NEXT: exoam.loop %[[TASK:[a-z0-9_]+]] in (0, %M / 128) {
  exoam.loop %task in (0, %M / 128) {
    // CHECK-NEXT: exoam.inc_task_id
    exoam.inc_task_id
    // CHECK-NEXT: exoam.alloc @acc[128, %M mod 4 + 1]
    exoam.alloc @acc[128, %M mod 4 + 1]
    // CHECK-NEXT: exoam.alloc @scalar[]
    exoam.alloc @scalar[]
    // CHECK-NEXT: exoam.alloc barrier @bar[2, 4]{{$}}
    exoam.alloc barrier @bar[2, 4]
    // CHECK-NEXT: exoam.alloc barrier @ring[2] ring 5
    exoam.alloc barrier @ring[2] ring 5
    // CHECK-NEXT: exoam.alloc @tile[%M, 64] capacity 929792 "3719168 bytes of shared memory"
    exoam.alloc @tile[%M, 64] capacity 929792 "3719168 bytes of shared memory"
    // Constant extents at exactly the capacity verify (one more is rejected
    // in invalid.mlir).
    // CHECK-NEXT: exoam.alloc @full[32, 32] capacity 1024 "4096 bytes of shared memory"
    exoam.alloc @full[32, 32] capacity 1024 "4096 bytes of shared memory"
    // CHECK-NEXT: exoam.loop %[[T:[a-z0-9_]+]] in (0, 128) {
    exoam.loop %t in (0, 128) {
      // CHECK-NEXT: exoam.check_reads temporally_ordered @acc[%[[T]], 0 to %M mod 4] on [cuda_in_order_rmem_qual] threads gpu[128 (%[[T]], 1, 0)]
      exoam.check_reads temporally_ordered @acc[%t, 0 to %M mod 4] on [cuda_in_order_rmem_qual] threads gpu[128 (%t, 1, 0)]
      // CHECK-NEXT: exoam.check_mutates atomic_only convergent @acc[%[[T]], 0] on [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] threads gpu[4 (%[[T]], 1, 0), 32]
      exoam.check_mutates atomic_only convergent @acc[%t, 0] on [cuda_in_order_ram_qual, cuda_in_order_rmem_qual] threads gpu[4 (%t, 1, 0), 32]
      // CHECK-NEXT: exoam.clear_reads @acc[%[[T]], 0 to 3]
      exoam.clear_reads @acc[%t, 0 to 3]
      // CHECK-NEXT: exoam.clear_mutates @acc[%[[T]], 0 to 3]
      exoam.clear_mutates @acc[%t, 0 to 3]
      // CHECK-NEXT: exoam.record_mutate fully_ordered @acc[%[[T]], 0] on cuda_in_order_rmem_qual threads gpu[128 (%[[T]], 1, 0)]
      exoam.record_mutate fully_ordered @acc[%t, 0] on cuda_in_order_rmem_qual threads gpu[128 (%t, 1, 0)]
      // CHECK-NEXT: exoam.record_read unordered convergent @scalar[] on wgmma_async_smem_qual atomic = [tma_to_gmem_async_qual] >> @bar[%[[TASK]] mod 2, 0] >> @bar[0, 1 to 3] threads gpu[2 (_, 1, 1), 64 (%[[T]], 32, 0)]
      exoam.record_read unordered convergent @scalar[] on wgmma_async_smem_qual atomic = [tma_to_gmem_async_qual] >> @bar[%task mod 2, 0] >> @bar[0, 1 to 3] threads gpu[2 (_, 1, 1), 64 (%t, 32, 0)]
      // CHECK-NEXT: exoam.record_mutate unordered @acc[%[[T]], 1] on tma_to_smem_async_qual >> @bar[1, 0] home @bar[%[[TASK]] mod 2, 0] threads gpu[128 (%[[T]], 1, 0)]
      exoam.record_mutate unordered @acc[%t, 1] on tma_to_smem_async_qual >> @bar[1, 0] home @bar[%task mod 2, 0] threads gpu[128 (%t, 1, 0)]
      // CHECK-NEXT: exoam.if %[[T]] < 5 and %flag or %[[T]] * 2 >= %M {
      exoam.if %t < 5 and %flag or %t * 2 >= %M {
        // CHECK-NEXT: exoam.record_read invisible @acc[%[[T]], 1] on cpu_in_order_qual threads cpu
        exoam.record_read invisible @acc[%t, 1] on cpu_in_order_qual threads cpu
      }
    }
    // CHECK: exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] full = [Sm80_cp_async_qual] temp = [] threads gpu[256]
    exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] full = [Sm80_cp_async_qual] temp = [] threads gpu[256]
    // CHECK-NEXT: exoam.fence pre = [Sm80_cp_async_qual] full = [cuda_in_order_ram_qual] temp = [cuda_in_order_ram_qual] threads gpu[8 (_, 2, 4), 32]
    exoam.fence pre = [Sm80_cp_async_qual] full = [cuda_in_order_ram_qual] temp = [cuda_in_order_ram_qual] threads gpu[8 (_, 2, 4), 32]
    // CHECK-NEXT: exoam.arrive transitive pre = [cuda_in_order_ram_qual] >> @bar[0, 0] threads gpu[256 (_, 32, 0)]
    exoam.arrive transitive pre = [cuda_in_order_ram_qual] >> @bar[0, 0] threads gpu[256 (_, 32, 0)]
    // CHECK-NEXT: exoam.arrive pre = [] >> @bar[1, 0] >> @bar[0 to 1, 0] threads cpu
    exoam.arrive pre = [] >> @bar[1, 0] >> @bar[0 to 1, 0] threads cpu
    // CHECK-NEXT: exoam.await @bar[%[[TASK]] mod 2, 0] full = [cuda_in_order_ram_qual] temp = [] n = -3 threads gpu[256]
    exoam.await @bar[%task mod 2, 0] full = [cuda_in_order_ram_qual] temp = [] n = -3 threads gpu[256]
    // CHECK-NEXT: exoam.await @bar[1, 0] full = [] temp = [] n = 2 threads gpu[256]
    exoam.await @bar[1, 0] full = [] temp = [] n = 2 threads gpu[256]
    // CHECK-NEXT: exoam.await own @bar[1, 0] full = [] temp = [] n = 0 threads gpu[256]
    exoam.await own @bar[1, 0] full = [] temp = [] n = 0 threads gpu[256]
    // CHECK-NEXT: exoam.complete >> @ring[%[[TASK]] mod 2] threads gpu[256 (_, 32, 0)]
    exoam.complete >> @ring[%task mod 2] threads gpu[256 (_, 32, 0)]
    // CHECK-NEXT: exoam.complete >> @ring[0 to 1] home @ring[1] threads gpu[256]
    exoam.complete >> @ring[0 to 1] home @ring[1] threads gpu[256]
    // CHECK-NEXT: exoam.check_barrier @bar[0 to 1, 0 to 3]
    exoam.check_barrier @bar[0 to 1, 0 to 3]
    // CHECK-NEXT: exoam.check_condition %[[TASK]] < %M and %flag or %M mod 4 == 0, "a precondition"
    exoam.check_condition %task < %M and %flag or %M mod 4 == 0, "a precondition"
    // CHECK-NEXT: exoam.check_bounds @acc[%[[TASK]], 1] within @acc[0 to 127, 0 to %M - 1]
    exoam.check_bounds @acc[%task, 1] within @acc[0 to 127, 0 to %M - 1]
  }
}

// Timeline sets may be written as the sets of a sync timeline (Fig. 18
// T_qfull, T_qtmp); they print as the list. The whole table of Fig. 16 is
// checked in sync-timelines.mlir.

// CHECK-LABEL: exoam.proc @sugar()
// CHECK-NEXT: exoam.fence transitive pre = [cuda_in_order_rmem_qual, cuda_in_order_ram_qual] full = [Sm80_cp_async_qual] temp = [cpu_cuda_stream_qual, cuda_in_order_rmem_qual, cuda_in_order_ram_qual, Sm80_cp_async_qual, tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_rmem_a_qual, wgmma_async_rmem_d_qual, wgmma_async_smem_qual, wgmma_zero_qual] threads cpu
// CHECK-NEXT: exoam.check_reads fully_ordered @x[] on [tma_to_smem_async_qual, tma_to_gmem_async_qual, wgmma_async_smem_qual] threads cpu
exoam.proc @sugar() {
  exoam.fence transitive pre = qfull(cuda_in_order) full = qfull(Sm80_cp_async) temp = qtmp(cuda_temporal) threads cpu
  exoam.check_reads fully_ordered @x[] on qfull(cuda_async_proxy) threads cpu
}

// A check may name the access it guards (`for read`, `for write`,
// `for free`); the purpose prints back, with convergent and in generic form.

// CHECK-LABEL: exoam.proc @purposes(%N: index) {
// CHECK-NEXT: exoam.check_mutates fully_ordered @y[%N] on [cuda_in_order_ram_qual] for read threads gpu[64]
// CHECK-NEXT: exoam.check_reads temporally_ordered convergent @x[0 to 31] on [cuda_in_order_rmem_qual, tma_to_smem_async_qual] for write threads gpu[2 (_, 32, 0), 32]
// CHECK-NEXT: exoam.check_mutates temporally_ordered @x[0 to 31] on [cpu_in_order_qual] for write threads cpu
// CHECK-NEXT: exoam.check_reads temporally_ordered @s[] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT: exoam.check_mutates temporally_ordered @s[] on [cuda_in_order_ram_qual] for free threads gpu[64]
// CHECK-NEXT: exoam.check_reads fully_ordered @y[%N] on [cuda_in_order_ram_qual] threads gpu[64]
// CHECK-NEXT: }
exoam.proc @purposes(%N: index) {
  exoam.check_mutates fully_ordered @y[%N] on [cuda_in_order_ram_qual] for read threads gpu[64]
  exoam.check_reads temporally_ordered convergent @x[0 to 31] on [cuda_in_order_rmem_qual, tma_to_smem_async_qual] for write threads gpu[2 (_, 32, 0), 32]
  exoam.check_mutates temporally_ordered @x[0 to 31] on [cpu_in_order_qual] for write threads cpu
  exoam.check_reads temporally_ordered @s[] on [cuda_in_order_ram_qual] for free threads gpu[64]
  exoam.check_mutates temporally_ordered @s[] on [cuda_in_order_ram_qual] for free threads gpu[64]
  exoam.check_reads fully_ordered @y[%N] on [cuda_in_order_ram_qual] threads gpu[64]
}

// Discardable attributes survive; loops and guards take them after
// `attributes`.

// CHECK-LABEL: exoam.proc @attrs() attributes {note = "kept"}
// CHECK-NEXT: exoam.loop %{{.*}} in (0, 4) attributes {unrolled = false}
// CHECK: exoam.if true attributes {hint}
// CHECK: exoam.inc_task_id {why = 1 : i64}
// CHECK: exoam.clear_reads @x[0] {why = 2 : i64}
exoam.proc @attrs() attributes {note = "kept"} {
  exoam.loop %i in (0, 4) attributes {unrolled = false} {
    exoam.if true attributes {hint} {
      exoam.inc_task_id {why = 1}
      exoam.clear_reads @x[0] {why = 2}
    }
  }
}
