// ExoGPU standard instruction library: sm_80 (Ampere) and later.
//
// Each instruction gives its sequential behavior (the body), its parameters'
// precision, memory type and abstract-machine annotations (seeds/002 Fig. 2
// `Arg`, used by the lowering of Fig. 19-20), the collective unit that must
// execute it, and its CUDA template. In a template, `{p}` names parameter p:
// a pointer to the first element of a memory window, or the register array
// of a register parameter's shard; `{p.i}` is register i of that shard.
// Prepend this file to a kernel that calls these instructions.

// cp.async: one thread copies 16 bytes from global to shared memory, out of
// order; completion is waited for through the Sm80_cp_async timeline (a
// commit group, an mbarrier or a fence).
exogpu.instr @Sm80_cp_async_f32x4(
    %dst: f32[4] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[4] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaSmemLinear, f32[4] @CudaGmemLinear
  }
}

// Zero a 16 x 8 warp MMA accumulator tile.
exogpu.instr @Sm80_mma_zero_d_tf32(
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{d.0} = 0.f; {d.1} = 0.f; {d.2} = 0.f; {d.3} = 0.f;" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[16, 8] @Sm80_RmemMatrixD(16, 8)
    }
  }
}

// Load the 16 x 8 (M x K) A operand of mma.m16n8k8 from row-major shared
// memory; `lda` is the row stride of the source in elements.
exogpu.instr @Sm80_mma_load_a_tf32(
    %lda: size,
    %a: f32[16, 8] @Sm80_RmemMatrixA(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f32[16, 8] @CudaSmemLinear {convergent, init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; const float *p = {src} + (lane / 4u) * {lda} + lane % 4u; {a.0} = p[0]; {a.1} = p[8 * {lda}]; {a.2} = p[4]; {a.3} = p[8 * {lda} + 4]; }" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %k in seq(0, 8) {
      exogpu.assign %a[%m, %k] = %src[%m, %k] : f32[16, 8] @Sm80_RmemMatrixA(16, 8), f32[16, 8] @CudaSmemLinear
    }
  }
}

// Load the 8 x 8 (N x K) B operand of mma.m16n8k8 from shared memory stored
// K-major (row k, column n); `ldb` is its row stride in elements.
exogpu.instr @Sm80_mma_load_b_tf32(
    %ldb: size,
    %b: f32[8, 8] @Sm80_RmemMatrixB(8, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f32[8, 8] @CudaSmemLinear {convergent, init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; const float *p = {src} + (lane % 4u) * {ldb} + lane / 4u; {b.0} = p[0]; {b.1} = p[4 * {ldb}]; }" {
  exogpu.for %n in seq(0, 8) {
    exogpu.for %k in seq(0, 8) {
      exogpu.assign %b[%n, %k] = %src[%k, %n] : f32[8, 8] @Sm80_RmemMatrixB(8, 8), f32[8, 8] @CudaSmemLinear
    }
  }
}

// D += A * B^T on tf32 tensor cores, one warp: mma.sync.m16n8k8.
exogpu.instr @Sm80_mma_tf32(
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %a: f32[16, 8] @Sm80_RmemMatrixA(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %b: f32[8, 8] @Sm80_RmemMatrixB(8, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "asm volatile(\22mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\22 : \22+f\22({d.0}), \22+f\22({d.1}), \22+f\22({d.2}), \22+f\22({d.3}) : \22r\22(__float_as_uint({a.0})), \22r\22(__float_as_uint({a.1})), \22r\22(__float_as_uint({a.2})), \22r\22(__float_as_uint({a.3})), \22r\22(__float_as_uint({b.0})), \22r\22(__float_as_uint({b.1})));" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[16, 8] @Sm80_RmemMatrixD(16, 8), f32[16, 8] @Sm80_RmemMatrixA(16, 8), f32[8, 8] @Sm80_RmemMatrixB(8, 8)
      }
    }
  }
}

// Store a 16 x 8 accumulator tile to row-major global or shared memory;
// `ldd` is the row stride of the destination in elements.
exogpu.instr @Sm80_mma_store_d_tf32(
    %ldd: size,
    %dst: f32[16, 8] @CudaDeviceVisibleLinear {convergent, init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; float *p = {dst} + (lane / 4u) * {ldd} + 2u * (lane % 4u); p[0] = {d.0}; p[1] = {d.1}; p[8 * {ldd}] = {d.2}; p[8 * {ldd} + 1] = {d.3}; }" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[16, 8] @CudaDeviceVisibleLinear, f32[16, 8] @Sm80_RmemMatrixD(16, 8)
    }
  }
}

// Warp shuffle down: lane i receives lane i + delta's value, or keeps its
// own when i + delta leaves the warp (shfl.sync.down.b32).
exogpu.instr @cuda_shfl_down_f32(
    %delta: index,
    %dst: f32[32] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f32[32] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{dst.0} = __shfl_down_sync(0xffffffffu, {src.0}, {delta});" {
  exogpu.for %i in seq(0, 32) {
    exogpu.if %i + %delta < 32 {
      exogpu.assign %dst[%i] = %src[%i + %delta] : f32[32] @CudaRmem, f32[32] @CudaRmem
    }
    exogpu.if %i + %delta >= 32 {
      exogpu.assign %dst[%i] = %src[%i] : f32[32] @CudaRmem, f32[32] @CudaRmem
    }
  }
}
