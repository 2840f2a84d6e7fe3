// ExoGPU standard instruction library: sm_90a (Hopper) instructions.
//
// Conventions as in sm80.mlir. A tensor-map parameter `{p.map}` is the
// __grid_constant__ CUtensorMap and `{p.c0}`, `{p.c1}` are the window's
// origin coordinates (innermost first in PTX); `{bar}` is the shared-memory
// address of the mbarrier the call arrives at (`>> bar`). `{d.regs}` lists
// the registers of a wgmma accumulator shard as "+f" asm operands.
// Prepend this file to a kernel that calls these instructions.

// TMA: one thread copies a 128 x 32 f32 box from global memory (through a
// 128-byte-swizzled tensor map) to shared memory; the copy completes on an
// mbarrier (complete_tx), asynchronously and out of order.
exogpu.instr @Sm90_tma_load_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
    }
  }
}

// TMA multicast: one thread copies a 128 x 32 box into the shared memory of
// both CTAs of a 2-CTA cluster, arriving at each CTA's mbarrier.
exogpu.instr @Sm90_tma_multicast_load_128x32_f32(
    %dst: f32[2, 128, 32] @Sm90_SmemSwizzled(128) {out_of_order, dist = [cuda_cta_in_cluster], init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier, barrier_dist = [cuda_cta_in_cluster],
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})), \22h\22((unsigned short)0x3) : \22memory\22);" {
  exogpu.for %c in seq(0, 2) {
    exogpu.for %i in seq(0, 128) {
      exogpu.for %j in seq(0, 32) {
        exogpu.assign %dst[%c, %i, %j] = %src[%i, %j] : f32[2, 128, 32] @Sm90_SmemSwizzled(128), window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32)
      }
    }
  }
}

// TMA for a 256 x 32 box (the B tile of a 128 x 256 CTA tile).
exogpu.instr @Sm90_tma_load_256x32_f32(
    %dst: f32[256, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 256, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22((unsigned)__cvta_generic_to_shared({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22((unsigned)__cvta_generic_to_shared({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f32[256, 32] @Sm90_SmemSwizzled(128), window f32[256, 32] @CudaGmemLinear @Sm90_tensorMap(128, 256, 32)
    }
  }
}

// Zero a 64 x 256 wgmma accumulator (one warpgroup, in order).
exogpu.instr @Sm90_zero_d_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 128; ++r) {d}[r] = 0.f;" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n256k8 tf32, A and B in 128-byte
// swizzled shared memory: asynchronous; the warpgroup waits through a
// wgmma commit group (Arrive(wgmma_async) >> cg; Await(cg, ...)). The
// accumulator is not out of order: wgmma.mma_async instructions of a
// warpgroup access their accumulator registers in issue order (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"), so consecutive
// wgmmas into one D need no wait; in-order code still does (its timeline is
// wgmma_async_rmem_d_qual, not cuda_in_order_rmem_qual).
exogpu.instr @Sm90_mma_async_tf32_m64n256k8(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[256, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {d.list}, %128, %129, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 8] @Sm90_SmemSwizzled(128), f32[256, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// Store a 64 x 256 wgmma accumulator to row-major global memory; `ldd` is
// the destination row stride in elements.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {convergent, init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}
