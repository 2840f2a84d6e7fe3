// ExoGPU standard instruction library: sm_80 (Ampere) and later.
//
// Each instruction gives its sequential behavior (the body), its parameters'
// precision, memory type and abstract-machine annotations (seeds/002 Fig. 2
// `Arg`, used by the lowering of Fig. 19-20), the collective unit that must
// execute it, and its CUDA template (placeholder grammar:
// include/ExoGPU/Dialect/ExoGPU/IR/CudaTemplate.h). In a template, `{p}`
// names parameter p: a pointer to the first element of a memory window, or
// the register array of a register parameter's shard; `{p.i}` is element i
// of that shard: for the Sm80_RmemMatrix{A,B,D} tiles, element a_i of the
// PTX ISA fragment ("Matrix Fragments for mma.m16n8k8" / "mma.m16n8k16"),
// the same order the mma operands list them in. Two 16-bit elements travel
// in one .b32 operand (exo::pack_b16x2 / exo::unpack_b16x2 in
// runtime/include/exogpu/runtime.cuh). docs/stdlib.md lists every entry.
// A kernel that calls these instructions imports it: exogpu.import "sm80".

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

// cp.async of 4 bytes (one f32): .ca, since .cg copies only 16 bytes.
exogpu.instr @Sm80_cp_async_f32x1(
    %dst: f32[1] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[1] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.ca.shared.global [%0], [%1], 4;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.assign %dst[0] = %src[0] : f32[1] @CudaSmemLinear, f32[1] @CudaGmemLinear
}

// cp.async of 8 bytes (two f32).
exogpu.instr @Sm80_cp_async_f32x2(
    %dst: f32[2] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f32[2] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.ca.shared.global [%0], [%1], 8;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 2) {
    exogpu.assign %dst[%i] = %src[%i] : f32[2] @CudaSmemLinear, f32[2] @CudaGmemLinear
  }
}

// cp.async of 16 bytes (eight bf16).
exogpu.instr @Sm80_cp_async_bf16x8(
    %dst: bf16[8] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: bf16[8] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %dst[%i] = %src[%i] : bf16[8] @CudaSmemLinear, bf16[8] @CudaGmemLinear
  }
}

// cp.async of 16 bytes (eight f16).
exogpu.instr @Sm80_cp_async_f16x8(
    %dst: f16[8] @CudaSmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]},
    %src: f16[8] @CudaGmemLinear {out_of_order, init = Sm80_cp_async_qual, ext = [Sm80_cp_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.cg.shared.global [%0], [%1], 16;\22 :: \22r\22(exo::smem_address({dst})), \22l\22({src}) : \22memory\22);" {
  exogpu.for %i in seq(0, 8) {
    exogpu.assign %dst[%i] = %src[%i] : f16[8] @CudaSmemLinear, f16[8] @CudaGmemLinear
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
    %src: f32[16, 8] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
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
    %src: f32[8, 8] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
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
    %dst: f32[16, 8] @CudaDeviceVisibleLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; float *p = {dst} + (lane / 4u) * {ldd} + 2u * (lane % 4u); p[0] = {d.0}; p[1] = {d.1}; p[8 * {ldd}] = {d.2}; p[8 * {ldd} + 1] = {d.3}; }" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[16, 8] @CudaDeviceVisibleLinear, f32[16, 8] @Sm80_RmemMatrixD(16, 8)
    }
  }
}

//===----------------------------------------------------------------------===//
// mma.m16n8k16 with bf16 and f16 operands and f32 accumulators.
//
// Fragments (PTX ISA "Matrix Fragments for mma.m16n8k16 with floating point
// type"; g = lane / 4, t = lane % 4):
//   A 16 x 16 (M x K), 8 elements: a_i at row g + 8 * ((i / 2) % 2), column
//     2t + i % 2 + 8 * (i / 4);
//   B 8 x 16 (N x K), 4 elements: b_i at row (n) g, column (k)
//     2t + i % 2 + 8 * (i / 2);
//   D 16 x 8 (M x N), 4 f32: the m16n8k8 layout, so @Sm80_mma_zero_d_tf32 and
//     @Sm80_mma_store_d_tf32 zero and store these accumulators too.
// ldmatrix (PTX ISA "ldmatrix") loads 8 x 8 matrices of 16-bit elements from
// shared memory, lane l giving the address of row l % 8 of matrix l / 8 (rows
// 16-byte aligned); lane l receives row l / 4, columns 2 (l % 4) and
// 2 (l % 4) + 1 of each matrix in one .b32 register (.trans: column l / 4,
// rows 2 (l % 4) and + 1), which are exactly the fragment pairs above.
//===----------------------------------------------------------------------===//

// ldmatrix.x4: the warp loads the 16 x 16 (M x K) A operand from row-major
// shared memory (`lda`: its row stride in elements). Lane l addresses row
// l % 16, columns 8 (l / 16): matrices 0-3 are the quadrants (rows 0-7,
// columns 0-7), (8-15, 0-7), (0-7, 8-15), (8-15, 8-15), i.e. {a_0, a_1} ..
// {a_6, a_7}.
exogpu.instr @Sm80_ldmatrix_a_bf16(
    %lda: size,
    %a: bf16[16, 16] @Sm80_RmemMatrixA(16, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: bf16[16, 16] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1, r2, r3; asm volatile(\22ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\22 : \22=r\22(r0), \22=r\22(r1), \22=r\22(r2), \22=r\22(r3) : \22r\22(exo::smem_address({src} + (lane % 16u) * {lda} + (lane / 16u) * 8u)) : \22memory\22); exo::unpack_b16x2(r0, {a.0}, {a.1}); exo::unpack_b16x2(r1, {a.2}, {a.3}); exo::unpack_b16x2(r2, {a.4}, {a.5}); exo::unpack_b16x2(r3, {a.6}, {a.7}); }" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %a[%m, %k] = %src[%m, %k] : bf16[16, 16] @Sm80_RmemMatrixA(16, 16), bf16[16, 16] @CudaSmemLinear
    }
  }
}

// ldmatrix.x2: the warp loads the 8 x 16 (N x K) B operand from shared
// memory holding it K-major (row n, column k: the .col operand of mma;
// `ldb`: its row stride in elements). Lanes 0-15 address rows l % 8, columns
// 8 ((l / 8) % 2): matrix 0 is columns 0-7 ({b_0, b_1}), matrix 1 columns
// 8-15 ({b_2, b_3}); the addresses of lanes 16-31 are not used.
exogpu.instr @Sm80_ldmatrix_b_bf16(
    %ldb: size,
    %b: bf16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: bf16[8, 16] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile(\22ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\22 : \22=r\22(r0), \22=r\22(r1) : \22r\22(exo::smem_address({src} + (lane % 8u) * {ldb} + ((lane / 8u) % 2u) * 8u)) : \22memory\22); exo::unpack_b16x2(r0, {b.0}, {b.1}); exo::unpack_b16x2(r1, {b.2}, {b.3}); }" {
  exogpu.for %n in seq(0, 8) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %b[%n, %k] = %src[%n, %k] : bf16[8, 16] @Sm80_RmemMatrixB(8, 16), bf16[8, 16] @CudaSmemLinear
    }
  }
}

// ldmatrix.x2.trans: the warp loads the B operand from row-major K x N
// shared memory (row k, column n, as a row-major GEMM stores B; `ldb`: its
// row stride in elements). Lanes 0-15 address rows k = l % 16: matrix 0 is
// rows 0-7 ({b_0, b_1} after the transpose), matrix 1 rows 8-15
// ({b_2, b_3}).
exogpu.instr @Sm80_ldmatrix_trans_b_bf16(
    %ldb: size,
    %b: bf16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: bf16[16, 8] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile(\22ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\22 : \22=r\22(r0), \22=r\22(r1) : \22r\22(exo::smem_address({src} + (lane % 16u) * {ldb})) : \22memory\22); exo::unpack_b16x2(r0, {b.0}, {b.1}); exo::unpack_b16x2(r1, {b.2}, {b.3}); }" {
  exogpu.for %n in seq(0, 8) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %b[%n, %k] = %src[%k, %n] : bf16[8, 16] @Sm80_RmemMatrixB(8, 16), bf16[16, 8] @CudaSmemLinear
    }
  }
}

// D += A * B^T on bf16 tensor cores with f32 accumulation, one warp:
// mma.sync.m16n8k16.row.col.f32.bf16.bf16.f32.
exogpu.instr @Sm80_mma_bf16(
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %a: bf16[16, 16] @Sm80_RmemMatrixA(16, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %b: bf16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "asm volatile(\22mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {d.list}, {%4, %5, %6, %7}, {%8, %9}, {d.list};\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22r\22(exo::pack_b16x2({b.0}, {b.1})), \22r\22(exo::pack_b16x2({b.2}, {b.3})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[16, 16] @DRAM
  %b32 = exogpu.alloc f32[8, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 16) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[16, 16] @DRAM, bf16[16, 16] @Sm80_RmemMatrixA(16, 16)
    }
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[8, 16] @DRAM, bf16[8, 16] @Sm80_RmemMatrixB(8, 16)
    }
  }
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[16, 8] @Sm80_RmemMatrixD(16, 8), f32[16, 16] @DRAM, f32[8, 16] @DRAM
      }
    }
  }
}

// @Sm80_ldmatrix_a_bf16 for f16 elements.
exogpu.instr @Sm80_ldmatrix_a_f16(
    %lda: size,
    %a: f16[16, 16] @Sm80_RmemMatrixA(16, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f16[16, 16] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1, r2, r3; asm volatile(\22ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\22 : \22=r\22(r0), \22=r\22(r1), \22=r\22(r2), \22=r\22(r3) : \22r\22(exo::smem_address({src} + (lane % 16u) * {lda} + (lane / 16u) * 8u)) : \22memory\22); exo::unpack_b16x2(r0, {a.0}, {a.1}); exo::unpack_b16x2(r1, {a.2}, {a.3}); exo::unpack_b16x2(r2, {a.4}, {a.5}); exo::unpack_b16x2(r3, {a.6}, {a.7}); }" {
  exogpu.for %m in seq(0, 16) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %a[%m, %k] = %src[%m, %k] : f16[16, 16] @Sm80_RmemMatrixA(16, 16), f16[16, 16] @CudaSmemLinear
    }
  }
}

// @Sm80_ldmatrix_b_bf16 for f16 elements.
exogpu.instr @Sm80_ldmatrix_b_f16(
    %ldb: size,
    %b: f16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f16[8, 16] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile(\22ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\22 : \22=r\22(r0), \22=r\22(r1) : \22r\22(exo::smem_address({src} + (lane % 8u) * {ldb} + ((lane / 8u) % 2u) * 8u)) : \22memory\22); exo::unpack_b16x2(r0, {b.0}, {b.1}); exo::unpack_b16x2(r1, {b.2}, {b.3}); }" {
  exogpu.for %n in seq(0, 8) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %b[%n, %k] = %src[%n, %k] : f16[8, 16] @Sm80_RmemMatrixB(8, 16), f16[8, 16] @CudaSmemLinear
    }
  }
}

// @Sm80_ldmatrix_trans_b_bf16 for f16 elements.
exogpu.instr @Sm80_ldmatrix_trans_b_f16(
    %ldb: size,
    %b: f16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f16[16, 8] @CudaSmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "{ const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile(\22ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\22 : \22=r\22(r0), \22=r\22(r1) : \22r\22(exo::smem_address({src} + (lane % 16u) * {ldb})) : \22memory\22); exo::unpack_b16x2(r0, {b.0}, {b.1}); exo::unpack_b16x2(r1, {b.2}, {b.3}); }" {
  exogpu.for %n in seq(0, 8) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %b[%n, %k] = %src[%k, %n] : f16[8, 16] @Sm80_RmemMatrixB(8, 16), f16[16, 8] @CudaSmemLinear
    }
  }
}

// D += A * B^T on f16 tensor cores with f32 accumulation, one warp:
// mma.sync.m16n8k16.row.col.f32.f16.f16.f32.
exogpu.instr @Sm80_mma_f16(
    %d: f32[16, 8] @Sm80_RmemMatrixD(16, 8) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %a: f16[16, 16] @Sm80_RmemMatrixA(16, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %b: f16[8, 16] @Sm80_RmemMatrixB(8, 16) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warp,
    cuda = "asm volatile(\22mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {d.list}, {%4, %5, %6, %7}, {%8, %9}, {d.list};\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22r\22(exo::pack_b16x2({b.0}, {b.1})), \22r\22(exo::pack_b16x2({b.2}, {b.3})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[16, 16] @DRAM
  %b32 = exogpu.alloc f32[8, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 16) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[16, 16] @DRAM, f16[16, 16] @Sm80_RmemMatrixA(16, 16)
    }
    exogpu.for %n in seq(0, 8) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[8, 16] @DRAM, f16[8, 16] @Sm80_RmemMatrixB(8, 16)
    }
  }
  exogpu.for %m in seq(0, 16) {
    exogpu.for %n in seq(0, 8) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[16, 8] @Sm80_RmemMatrixD(16, 8), f32[16, 16] @DRAM, f32[8, 16] @DRAM
      }
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

//===----------------------------------------------------------------------===//
// Vectorized global loads into registers, for memory-bound kernels
// (examples/gemv_fast.mlir): one 16-byte load (LDG.E.128) per thread, so a
// warp reads 512 contiguous bytes per instruction. Through the read-only
// (non-coherent) path: only for memory that no thread of the kernel writes
// (the synchronization check does not see the cache). `kernel_read_only`
// says so, and the CUDA translation refuses a kernel that writes the buffer
// it reads this way. The address must be 16-byte aligned. Plain `asm` (not
// volatile, no memory clobber): the compiler may move these loads, to issue
// several before their first use, which read-only data allows.
//===----------------------------------------------------------------------===//

// Four f32 from global memory into registers (ld.global.nc.v4.f32): for
// data reread by other warps of the SM (a vector), which L1 keeps.
exogpu.instr @cuda_ld_global_nc_f32x4(
    %dst: f32[4] @CudaRmem,
    %src: f32[4] @CudaGmemLinear {kernel_read_only})
    target = cuda, unit = cuda_thread,
    cuda = "asm(\22ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\22 : \22=f\22({dst.0}), \22=f\22({dst.1}), \22=f\22({dst.2}), \22=f\22({dst.3}) : \22l\22({src}));" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}

// Four f32 read once (a matrix row streamed through the SM):
// ld.global.nc.L1::no_allocate.v4.f32 leaves L1 to the reread data.
exogpu.instr @cuda_ld_global_stream_f32x4(
    %dst: f32[4] @CudaRmem,
    %src: f32[4] @CudaGmemLinear {kernel_read_only})
    target = cuda, unit = cuda_thread,
    cuda = "asm(\22ld.global.nc.L1::no_allocate.v4.f32 {%0, %1, %2, %3}, [%4];\22 : \22=f\22({dst.0}), \22=f\22({dst.1}), \22=f\22({dst.2}), \22=f\22({dst.3}) : \22l\22({src}));" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaRmem, f32[4] @CudaGmemLinear
  }
}
