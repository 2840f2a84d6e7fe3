// ExoGPU standard instruction library: sm_90a (Hopper) instructions.
//
// Conventions as in sm80.mlir. A tensor-map parameter `{p.map}` is the
// __grid_constant__ CUtensorMap and `{p.c0}`, `{p.c1}` are the window's
// origin coordinates (outermost first; PTX lists them innermost first);
// `{bar}` is the mbarrier the call completes on (`>> bar`). `{d.regs}` lists
// the registers of a wgmma accumulator shard as "+f" asm operands and
// `{d.list}` is their PTX vector. Shared-memory tiles of TMA and wgmma are
// 128-byte swizzled (Sm90_SmemSwizzled(128)): rows of 128 bytes (32 f32 or
// 64 bf16 / f16), so a box's inner extent is 128 bytes. docs/stdlib.md
// lists every entry. A kernel that calls these instructions imports this
// file: exogpu.import "sm90a".

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

// TMA of a 128 x 64 bf16 box (128-byte rows): the A tile (128 rows) or B
// tile (up to 256 rows) of a K = 64 stage of a 16-bit GEMM.
exogpu.instr @Sm90_tma_load_128x64_bf16(
    %dst: bf16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : bf16[128, 64] @Sm90_SmemSwizzled(128), window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64)
    }
  }
}

// TMA of a 256 x 64 bf16 box.
exogpu.instr @Sm90_tma_load_256x64_bf16(
    %dst: bf16[256, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : bf16[256, 64] @Sm90_SmemSwizzled(128), window bf16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64)
    }
  }
}

// TMA of a 128 x 64 f16 box.
exogpu.instr @Sm90_tma_load_128x64_f16(
    %dst: f16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f16[128, 64] @Sm90_SmemSwizzled(128), window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64)
    }
  }
}

// TMA of a 256 x 64 f16 box.
exogpu.instr @Sm90_tma_load_256x64_f16(
    %dst: f16[256, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : f16[256, 64] @Sm90_SmemSwizzled(128), window f16[256, 64] @CudaGmemLinear @Sm90_tensorMap(128, 256, 64)
    }
  }
}

//===----------------------------------------------------------------------===//
// TMA stores and reductions: shared::cta -> global through a tensor map,
// bulk_group completion. One thread issues; the copy reads shared memory and
// writes global memory asynchronously (tma_to_gmem_async_qual), so the
// shared tile must be written before through the async proxy fence
// (Fence(cuda_in_order, cuda_async_proxy): fence.proxy.async) and is free
// again, and the global writes visible, after the issuing thread's
// Arrive(tma_to_gmem_async, 1) >> cg (cp.async.bulk.commit_group) and
// Await(cg, ..., N) (cp.async.bulk.wait_group N).
//===----------------------------------------------------------------------===//

// TMA store of a 128 x 32 f32 box (cp.async.bulk.tensor).
exogpu.instr @Sm90_tma_store_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA store of a 128 x 64 bf16 box.
exogpu.instr @Sm90_tma_store_128x64_bf16(
    %dst: window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: bf16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), bf16[128, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA store of a 128 x 64 f16 box.
exogpu.instr @Sm90_tma_store_128x64_f16(
    %dst: window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), f16[128, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA reduce-add of a 128 x 32 f32 box into global memory
// (cp.reduce.async.bulk.tensor .add: an atomic add per element, hence the
// `atomic` annotation of dst: reduce-adds of different threads or tasks
// into the same elements need no synchronization between them; any other
// access still does, seeds/002 Fig. 19 "Atomic").
exogpu.instr @Sm90_tma_reduce_add_128x32_f32(
    %dst: window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[128, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 32), f32[128, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA reduce-add of a 128 x 64 bf16 box.
exogpu.instr @Sm90_tma_reduce_add_128x64_bf16(
    %dst: window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: bf16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window bf16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), bf16[128, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA reduce-add of a 128 x 64 f16 box.
exogpu.instr @Sm90_tma_reduce_add_128x64_f16(
    %dst: window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f16[128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 128, 64), f16[128, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

//===----------------------------------------------------------------------===//
// wgmma (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"),
// one warpgroup: D (64 x N, f32) += A (64 x K) * B^T (B: N x K), N in {64,
// 128, 256}, K = 8 (tf32) or 16 (bf16, f16). A and B are K-major in
// 128-byte-swizzled shared memory: a window of K columns of a tile with
// 128-byte rows, described by exo::wgmma_desc_sw128 (start address, stride
// byte offset 1024 between 8-row atoms, 128-byte swizzle). The warpgroup
// orders its register accesses before a wgmma with Fence(wgmma_fence_1,
// wgmma_fence_2) (wgmma.fence) and waits for it through a commit group:
// Arrive(wgmma_async, 1) >> cg (wgmma.commit_group), Await(cg, ..., N)
// (wgmma.wait_group N).
//
// The accumulator Sm90_RmemMatrixD(64, N) holds N / 2 f32 per thread
// (PTX ISA "Register Fragments and Shared Memory Matrix Layouts", wgmma D
// fragment): with warp w = (thread % 128) / 32, g = lane / 4, t = lane % 4,
// d_i is at row 16 w + g + 8 ((i / 2) % 2), column 8 (i / 4) + 2 t + i % 2.
//===----------------------------------------------------------------------===//

// Zero a 64 x 64 wgmma accumulator (one warpgroup, in order). The empty asm
// with the registers as operands keeps the zeros ahead of the next
// wgmma.fence: without it the compiler may sink them past the fence, between
// wgmmas, and ptxas then serializes the wgmmas (warning C7519).
exogpu.instr @Sm90_zero_d_m64n64_f32(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 32; ++r) {d}[r] = 0.f; asm volatile(\22\22 : {d.regs});" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// Zero a 64 x 128 wgmma accumulator (one warpgroup, in order).
exogpu.instr @Sm90_zero_d_m64n128_f32(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 64; ++r) {d}[r] = 0.f; asm volatile(\22\22 : {d.regs});" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// Zero a 64 x 256 wgmma accumulator (one warpgroup, in order).
exogpu.instr @Sm90_zero_d_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "for (int r = 0; r < 128; ++r) {d}[r] = 0.f; asm volatile(\22\22 : {d.regs});" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = 0.0 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n64k8 tf32: asynchronous. The
// accumulator is not out of order: wgmma.mma_async instructions of a
// warpgroup access their accumulator registers in issue order (PTX ISA,
// "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"), so consecutive
// wgmmas into one D need no wait; in-order code still does (its timeline is
// wgmma_async_rmem_d_qual, not cuda_in_order_rmem_qual). A and B are read
// out of order through the async proxy (wgmma_async_smem_qual).
exogpu.instr @Sm90_mma_async_tf32_m64n64k8(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {d.list}, %32, %33, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 8] @Sm90_SmemSwizzled(128), f32[64, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n128k8 tf32.
exogpu.instr @Sm90_mma_async_tf32_m64n128k8(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f32[64, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f32[128, 8] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {d.list}, %64, %65, 1, 1, 1; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.for %k in seq(0, 8) {
        exogpu.reduce %d[%m, %n] += %a[%m, %k] * %b[%n, %k] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 8] @Sm90_SmemSwizzled(128), f32[128, 8] @Sm90_SmemSwizzled(128)
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n256k8 tf32.
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

// D += A * B^T with wgmma.mma_async m64n64k16 bf16.
exogpu.instr @Sm90_mma_async_bf16_m64n64k16(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: bf16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {d.list}, %32, %33, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[64, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[64, 16] @DRAM
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n128k16 bf16.
exogpu.instr @Sm90_mma_async_bf16_m64n128k16(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: bf16[128, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {d.list}, %64, %65, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[128, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[128, 16] @DRAM, bf16[128, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[128, 16] @DRAM
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n256k16 bf16.
exogpu.instr @Sm90_mma_async_bf16_m64n256k16(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: bf16[256, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {d.list}, %128, %129, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[256, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[256, 16] @DRAM, bf16[256, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[256, 16] @DRAM
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n64k16 f16.
exogpu.instr @Sm90_mma_async_f16_m64n64k16(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {d.list}, %32, %33, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[64, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[64, 16] @DRAM
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n128k16 f16.
exogpu.instr @Sm90_mma_async_f16_m64n128k16(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f16[128, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {d.list}, %64, %65, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[128, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[128, 16] @DRAM, f16[128, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[128, 16] @DRAM
      }
    }
  }
}

// D += A * B^T with wgmma.mma_async m64n256k16 f16.
exogpu.instr @Sm90_mma_async_f16_m64n256k16(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]},
    %b: f16[256, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {d.list}, %128, %129, 1, 1, 1, 0, 0; }\22 : {d.regs} : \22l\22(exo::wgmma_desc_sw128({a})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[256, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_SmemSwizzled(128)
    }
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[256, 16] @DRAM, f16[256, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[256, 16] @DRAM
      }
    }
  }
}

// Store a 64 x 64 wgmma accumulator to row-major global memory; `ldd` is
// the destination row stride in elements. Thread t of the warpgroup writes
// d_i (r = i) at the row and column of the fragment layout above.
exogpu.instr @Sm90_store_d_m64n64_f32(
    %ldd: size,
    %dst: f32[64, 64] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 32; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 64] @CudaGmemLinear, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// Store a 64 x 128 wgmma accumulator to row-major global memory.
exogpu.instr @Sm90_store_d_m64n128_f32(
    %ldd: size,
    %dst: f32[64, 128] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 64; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 128] @CudaGmemLinear, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// Store a 64 x 256 wgmma accumulator to row-major global memory.
exogpu.instr @Sm90_store_d_m64n256_f32(
    %ldd: size,
    %dst: f32[64, 256] @CudaGmemLinear {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; for (int r = 0; r < 128; r += 4) { const unsigned col = (r / 4) * 8 + 2 * (t % 4u); float *p = {dst} + row * {ldd} + col; p[0] = {d}[r]; p[1] = {d}[r + 1]; p[8 * {ldd}] = {d}[r + 2]; p[8 * {ldd} + 1] = {d}[r + 3]; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %dst[%m, %n] = %d[%m, %n] : f32[64, 256] @CudaGmemLinear, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

//===----------------------------------------------------------------------===//
// GEMM epilogues through shared memory: a warpgroup writes its 64 x 256
// accumulator, one column block at a time, into 128-byte-swizzled tiles of
// 64 rows (the layout a TMA store reads), and one thread stores the tiles to
// global memory, or adds them into it, with TMA boxes of 64 rows
// (examples/gemm_tf32_sm90a.mlir, gemm_bf16_sm90a.mlir,
// gemm_splitk_sm90a.mlir). Column block j of the accumulator is registers
// 16 j .. 16 j + 15 (f32 tiles of 32 columns) or 32 j .. 32 j + 31 (bf16
// tiles of 64 columns): j must be a compile-time constant after unrolling,
// which the translation arranges for a constant seq loop whose calls take
// register operands (docs/cuda-translation.md).
//===----------------------------------------------------------------------===//

// Column block j (columns 32 j .. 32 j + 31) of a 64 x 256 accumulator into
// a 64 x 32 f32 tile, 128-byte swizzled. Thread t of the warpgroup (warp w,
// g = (t % 32) / 4, row = 16 w + g) holds, for q in 0..3, d_{16 j + 4 q},
// d_{16 j + 4 q + 1} at row `row`, columns 8 q + 2 (t % 4) and + 1, and
// d_{16 j + 4 q + 2}, d_{16 j + 4 q + 3} eight rows below: two 8-byte
// stores per q into 16-byte chunk c = (2 q + (t % 4) / 2) XOR (row % 8) of
// the row. 8-byte stores are served per half-warp (rows g = 0..3 or 4..7),
// whose 16 lanes must cover the 8 chunks of a 128-byte row once each: store
// number s (0..3) of a thread takes q = s XOR 2 (g % 2) (the pair of
// registers selected, not indexed, so they stay registers), which makes c a
// bijection of (g, (t % 4) / 2) within each half-warp. No bank conflicts:
// 2 wavefronts per warp store, 16 per warp (utils/smem-banks.py;
// test/StdLib/epilogue-banks.test). The tile's origin must be 1024-byte
// aligned (its first row a multiple of 8 in a swizzled buffer).
exogpu.instr @Sm90_store_d_m64n256_tile64x32_f32(
    %j: index,
    %dst: f32[64, 32] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; const bool odd = (row & 1u) != 0u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int s = 0; s < 4; ++s) { const unsigned q = unsigned(s) ^ (odd ? 2u : 0u); const unsigned offset = (((2u * q + (t % 4u) / 2u) ^ (row % 8u)) << 4) + (t % 2u) * 8u; const float x0 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2)] : {d}[16 * ({j}) + 4 * s]; const float x1 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 1] : {d}[16 * ({j}) + 4 * s + 1]; const float x2 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 2] : {d}[16 * ({j}) + 4 * s + 2]; const float x3 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 3] : {d}[16 * ({j}) + 4 * s + 3]; *reinterpret_cast<float2 *>(base + offset) = make_float2(x0, x1); *reinterpret_cast<float2 *>(base + 1024u + offset) = make_float2(x2, x3); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 32) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 32 + %n] : f32[64, 32] @Sm90_SmemSwizzled(128), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// Column block j (columns 32 j .. 32 j + 31, j < 4) of a 64 x 128 accumulator
// into a 64 x 32 f32 tile, 128-byte swizzled: the registers of the block and
// their places are those of Sm90_store_d_m64n256_tile64x32_f32 (a wgmma
// accumulator's first 64 registers hold its first 128 columns), and so are
// the stores, without bank conflicts.
exogpu.instr @Sm90_store_d_m64n128_tile64x32_f32(
    %j: index,
    %dst: f32[64, 32] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; const bool odd = (row & 1u) != 0u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int s = 0; s < 4; ++s) { const unsigned q = unsigned(s) ^ (odd ? 2u : 0u); const unsigned offset = (((2u * q + (t % 4u) / 2u) ^ (row % 8u)) << 4) + (t % 2u) * 8u; const float x0 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2)] : {d}[16 * ({j}) + 4 * s]; const float x1 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 1] : {d}[16 * ({j}) + 4 * s + 1]; const float x2 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 2] : {d}[16 * ({j}) + 4 * s + 2]; const float x3 = odd ? {d}[16 * ({j}) + 4 * (s ^ 2) + 3] : {d}[16 * ({j}) + 4 * s + 3]; *reinterpret_cast<float2 *>(base + offset) = make_float2(x0, x1); *reinterpret_cast<float2 *>(base + 1024u + offset) = make_float2(x2, x3); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 32) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 32 + %n] : f32[64, 32] @Sm90_SmemSwizzled(128), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// Column block j (columns 64 j .. 64 j + 63) of a 64 x 256 f32 accumulator,
// rounded to bf16 (round to nearest even), into a 64 x 64 bf16 tile,
// 128-byte swizzled. For q in 0..7, d_{32 j + 4 q} and d_{32 j + 4 q + 1}
// (row 16 w + g, columns 8 q + 2 (t % 4) and + 1) travel as one bf16 pair
// into 16-byte chunk q XOR (row % 8), bytes 4 (t % 4); d_{32 j + 4 q + 2},
// d_{32 j + 4 q + 3} eight rows below. No bank conflicts.
exogpu.instr @Sm90_store_d_m64n256_tile64x64_bf16(
    %j: index,
    %dst: bf16[64, 64] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int q = 0; q < 8; ++q) { const unsigned offset = ((q ^ (row % 8u)) << 4) + (t % 4u) * 4u; *reinterpret_cast<__nv_bfloat162 *>(base + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q], {d}[32 * ({j}) + 4 * q + 1]); *reinterpret_cast<__nv_bfloat162 *>(base + 1024u + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q + 2], {d}[32 * ({j}) + 4 * q + 3]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 64 + %n] : bf16[64, 64] @Sm90_SmemSwizzled(128), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// Column block j (columns 64 j .. 64 j + 63, j < 2) of a 64 x 128 f32
// accumulator, rounded to bf16, into a 64 x 64 bf16 tile, 128-byte swizzled:
// the registers of the block and their places are those of
// Sm90_store_d_m64n256_tile64x64_bf16 (a wgmma accumulator's first 64
// registers hold its first 128 columns), and so are the stores, without
// bank conflicts (test/StdLib/epilogue-banks.test).
exogpu.instr @Sm90_store_d_m64n128_tile64x64_bf16(
    %j: index,
    %dst: bf16[64, 64] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int q = 0; q < 8; ++q) { const unsigned offset = ((q ^ (row % 8u)) << 4) + (t % 4u) * 4u; *reinterpret_cast<__nv_bfloat162 *>(base + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q], {d}[32 * ({j}) + 4 * q + 1]); *reinterpret_cast<__nv_bfloat162 *>(base + 1024u + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q + 2], {d}[32 * ({j}) + 4 * q + 3]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 64 + %n] : bf16[64, 64] @Sm90_SmemSwizzled(128), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// TMA store of a 64 x 32 f32 box (the tile of Sm90_store_d_m64n256_tile64x32_f32).
exogpu.instr @Sm90_tma_store_64x32_f32(
    %dst: window f32[64, 32] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: f32[64, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 64) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window f32[64, 32] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[64, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA store of a 64 x 64 bf16 box (the tile of Sm90_store_d_m64n256_tile64x64_bf16).
exogpu.instr @Sm90_tma_store_64x64_bf16(
    %dst: window bf16[64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: bf16[64, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 64) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[%i, %j] : window bf16[64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[64, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA reduce-add of a 64 x 32 f32 box into global memory: split-k partial
// tiles of several tasks add into the same tile of C. The additions are
// atomic per element (`atomic`: concurrent reduce-adds need no
// synchronization between them, other accesses still do).
exogpu.instr @Sm90_tma_reduce_add_64x32_f32(
    %dst: window f32[64, 32] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: f32[64, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 64) {
    exogpu.for %j in seq(0, 32) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window f32[64, 32] @CudaGmemLinear @Sm90_tensorMap(128, 64, 32), f32[64, 32] @Sm90_SmemSwizzled(128)
    }
  }
}

// TMA reduce-add of a 64 x 64 bf16 box (the tile of
// Sm90_store_d_m64n{128,256}_tile64x64_bf16) into global memory, atomic per
// element like the f32 one. Each addition rounds the sum to bf16 (to
// nearest): two addends into a zeroed destination give the same sum in
// either order, three or more may not.
exogpu.instr @Sm90_tma_reduce_add_64x64_bf16(
    %dst: window bf16[64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual], atomic = [tma_to_gmem_async_qual]},
    %src: bf16[64, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%0, {%1, %2}], [%3];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 64) {
    exogpu.for %j in seq(0, 64) {
      exogpu.reduce %dst[%i, %j] += %src[%i, %j] : window bf16[64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 64, 64), bf16[64, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

//===----------------------------------------------------------------------===//
// Split-k operands: a K dimension split into S chunks of KC is the row-major
// view [rows, S, KC] of the same memory; the loads take a box of one chunk
// through a rank-3 tensor map (box 1 in the split dimension) and deliver the
// same 128-byte-swizzled tiles as the 2-D loads.
//===----------------------------------------------------------------------===//

// TMA of a 128 x 1 x 32 f32 box of a rank-3 tensor into a 128 x 32 tile.
exogpu.instr @Sm90_tma_load_3d_128x32_f32(
    %dst: f32[128, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[128, 1, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 1, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c2}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, 0, %j] : f32[128, 32] @Sm90_SmemSwizzled(128), window f32[128, 1, 32] @CudaGmemLinear @Sm90_tensorMap(128, 128, 1, 32)
    }
  }
}

// TMA of a 256 x 1 x 32 f32 box of a rank-3 tensor into a 256 x 32 tile.
exogpu.instr @Sm90_tma_load_3d_256x32_f32(
    %dst: f32[256, 32] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f32[256, 1, 32] @CudaGmemLinear @Sm90_tensorMap(128, 256, 1, 32) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c2}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 256) {
    exogpu.for %j in seq(0, 32) {
      exogpu.assign %dst[%i, %j] = %src[%i, 0, %j] : f32[256, 32] @Sm90_SmemSwizzled(128), window f32[256, 1, 32] @CudaGmemLinear @Sm90_tensorMap(128, 256, 1, 32)
    }
  }
}

//===----------------------------------------------------------------------===//
// Attention (examples/attention_fwd_sm90a.mlir, FlashAttention-3 style).
//
// Row statistics of a wgmma accumulator: thread t of the warpgroup (warp
// w = t / 32, g = (t % 32) / 4) holds elements of rows 16 w + g (slot 0)
// and 16 w + g + 8 (slot 1), so a per-row value of the warpgroup is an
// f32[128, 2] @CudaRmem distributed over the threads (`dist =
// [cuda_thread]`): element [t, r] is thread t's copy of row 16 w + g + 8 r;
// the four threads of a quad (t / 4) hold the same rows. Element d[m, n] of
// the accumulator is held by thread 32 (m / 16) + 4 (m % 8) + (n % 8) / 2 in
// slot (m % 16) / 8. The reductions combine the thread's own N / 4 elements
// of each row and then the quad's with two shuffles (xor 1, xor 2).
//===----------------------------------------------------------------------===//

// m[t, r] = max(m[t, r], max over the columns of row 16 w + g + 8 r of d):
// the running row maximum of online softmax (N = 64).
exogpu.instr @Sm90_row_max_d_m64n64_f32(
    %m: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_m0 = {m.0}, exo_m1 = {m.1}; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 32; exo_i += 4) { exo_m0 = fmaxf(exo_m0, fmaxf({d}[exo_i], {d}[exo_i + 1])); exo_m1 = fmaxf(exo_m1, fmaxf({d}[exo_i + 2], {d}[exo_i + 3])); } exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 1)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 1)); exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 2)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 2)); {m.0} = exo_m0; {m.1} = exo_m1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %m[%t, %r] = max(%m[%t, %r], %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n]) : f32[128, 2] @CudaRmem, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
    }
  }
}

// m[t, r] = max(m[t, r], max over the columns of row 16 w + g + 8 r of d):
// the running row maximum of online softmax (N = 128).
exogpu.instr @Sm90_row_max_d_m64n128_f32(
    %m: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_m0 = {m.0}, exo_m1 = {m.1}; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 64; exo_i += 4) { exo_m0 = fmaxf(exo_m0, fmaxf({d}[exo_i], {d}[exo_i + 1])); exo_m1 = fmaxf(exo_m1, fmaxf({d}[exo_i + 2], {d}[exo_i + 3])); } exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 1)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 1)); exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 2)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 2)); {m.0} = exo_m0; {m.1} = exo_m1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 128) {
        exogpu.assign %m[%t, %r] = max(%m[%t, %r], %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n]) : f32[128, 2] @CudaRmem, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      }
    }
  }
}

// m[t, r] = max(m[t, r], max over the columns of row 16 w + g + 8 r of d):
// the running row maximum of online softmax (N = 256).
exogpu.instr @Sm90_row_max_d_m64n256_f32(
    %m: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_m0 = {m.0}, exo_m1 = {m.1}; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 128; exo_i += 4) { exo_m0 = fmaxf(exo_m0, fmaxf({d}[exo_i], {d}[exo_i + 1])); exo_m1 = fmaxf(exo_m1, fmaxf({d}[exo_i + 2], {d}[exo_i + 3])); } exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 1)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 1)); exo_m0 = fmaxf(exo_m0, __shfl_xor_sync(0xffffffffu, exo_m0, 2)); exo_m1 = fmaxf(exo_m1, __shfl_xor_sync(0xffffffffu, exo_m1, 2)); {m.0} = exo_m0; {m.1} = exo_m1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 256) {
        exogpu.assign %m[%t, %r] = max(%m[%t, %r], %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n]) : f32[128, 2] @CudaRmem, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
    }
  }
}

// l[t, r] += the sum of row 16 w + g + 8 r of d (N = 64).
exogpu.instr @Sm90_row_sum_d_m64n64_f32(
    %l: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_s0 = 0.f, exo_s1 = 0.f; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 32; exo_i += 4) { exo_s0 += {d}[exo_i] + {d}[exo_i + 1]; exo_s1 += {d}[exo_i + 2] + {d}[exo_i + 3]; } exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 1); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 1); exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 2); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 2); {l.0} += exo_s0; {l.1} += exo_s1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.reduce %l[%t, %r] += %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n] : f32[128, 2] @CudaRmem, f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
    }
  }
}

// l[t, r] += the sum of row 16 w + g + 8 r of d (N = 128).
exogpu.instr @Sm90_row_sum_d_m64n128_f32(
    %l: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_s0 = 0.f, exo_s1 = 0.f; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 64; exo_i += 4) { exo_s0 += {d}[exo_i] + {d}[exo_i + 1]; exo_s1 += {d}[exo_i + 2] + {d}[exo_i + 3]; } exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 1); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 1); exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 2); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 2); {l.0} += exo_s0; {l.1} += exo_s1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 128) {
        exogpu.reduce %l[%t, %r] += %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n] : f32[128, 2] @CudaRmem, f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      }
    }
  }
}

// l[t, r] += the sum of row 16 w + g + 8 r of d (N = 256).
exogpu.instr @Sm90_row_sum_d_m64n256_f32(
    %l: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ float exo_s0 = 0.f, exo_s1 = 0.f; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 128; exo_i += 4) { exo_s0 += {d}[exo_i] + {d}[exo_i + 1]; exo_s1 += {d}[exo_i + 2] + {d}[exo_i + 3]; } exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 1); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 1); exo_s0 += __shfl_xor_sync(0xffffffffu, exo_s0, 2); exo_s1 += __shfl_xor_sync(0xffffffffu, exo_s1, 2); {l.0} += exo_s0; {l.1} += exo_s1; }" {
  exogpu.for %t in seq(0, 128) {
    exogpu.for %r in seq(0, 2) {
      exogpu.for %n in seq(0, 256) {
        exogpu.reduce %l[%t, %r] += %d[%t / 32 * 16 + %t mod 32 / 4 + %r * 8, %n] : f32[128, 2] @CudaRmem, f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
    }
  }
}

// d[m, n] = exp2(d[m, n] * scale - bias[row]) with the owning thread's
// scale and row bias: the probabilities of online softmax in base 2 (scale
// = softmax scale * log2(e), bias = row maximum * scale), one FFMA and one
// ex2.approx.ftz per element (N = 64). The approximation's relative error is
// about 2^-22; the meaning is exp2.
exogpu.instr @Sm90_exp2_d_m64n64_f32(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %scale: f32[128] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %bias: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 32; ++exo_i) { const float exo_x = fmaf({d}[exo_i], {scale.0}, -(exo_i % 4 < 2 ? {bias.0} : {bias.1})); asm(\22ex2.approx.ftz.f32 %0, %1;\22 : \22=f\22({d}[exo_i]) : \22f\22(exo_x)); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = exp2(%d[%m, %n] * %scale[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2] - %bias[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8]) : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
    }
  }
}

// d[m, n] = exp2(d[m, n] * scale - bias[row]) with the owning thread's
// scale and row bias: the probabilities of online softmax in base 2 (scale
// = softmax scale * log2(e), bias = row maximum * scale), one FFMA and one
// ex2.approx.ftz per element (N = 128). The approximation's relative error is
// about 2^-22; the meaning is exp2.
exogpu.instr @Sm90_exp2_d_m64n128_f32(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %scale: f32[128] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %bias: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 64; ++exo_i) { const float exo_x = fmaf({d}[exo_i], {scale.0}, -(exo_i % 4 < 2 ? {bias.0} : {bias.1})); asm(\22ex2.approx.ftz.f32 %0, %1;\22 : \22=f\22({d}[exo_i]) : \22f\22(exo_x)); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %d[%m, %n] = exp2(%d[%m, %n] * %scale[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2] - %bias[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8]) : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
    }
  }
}

// d[m, n] = exp2(d[m, n] * scale - bias[row]) with the owning thread's
// scale and row bias: the probabilities of online softmax in base 2 (scale
// = softmax scale * log2(e), bias = row maximum * scale), one FFMA and one
// ex2.approx.ftz per element (N = 256). The approximation's relative error is
// about 2^-22; the meaning is exp2.
exogpu.instr @Sm90_exp2_d_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %scale: f32[128] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %bias: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 128; ++exo_i) { const float exo_x = fmaf({d}[exo_i], {scale.0}, -(exo_i % 4 < 2 ? {bias.0} : {bias.1})); asm(\22ex2.approx.ftz.f32 %0, %1;\22 : \22=f\22({d}[exo_i]) : \22f\22(exo_x)); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = exp2(%d[%m, %n] * %scale[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2] - %bias[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8]) : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[128] @CudaRmem, f32[128, 2] @CudaRmem
    }
  }
}

// d[m, n] = d[m, n] * s[row]: the rescale of the output accumulator by
// the per-row correction of online softmax, or the final 1 / sum (N = 64).
exogpu.instr @Sm90_scale_d_rows_m64n64_f32(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %s: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 32; ++exo_i) {d}[exo_i] *= exo_i % 4 < 2 ? {s.0} : {s.1}; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %d[%m, %n] = %d[%m, %n] * %s[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[128, 2] @CudaRmem
    }
  }
}

// d[m, n] = d[m, n] * s[row]: the rescale of the output accumulator by
// the per-row correction of online softmax, or the final 1 / sum (N = 128).
exogpu.instr @Sm90_scale_d_rows_m64n128_f32(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %s: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 64; ++exo_i) {d}[exo_i] *= exo_i % 4 < 2 ? {s.0} : {s.1}; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %d[%m, %n] = %d[%m, %n] * %s[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[128, 2] @CudaRmem
    }
  }
}

// d[m, n] = d[m, n] * s[row]: the rescale of the output accumulator by
// the per-row correction of online softmax, or the final 1 / sum (N = 256).
exogpu.instr @Sm90_scale_d_rows_m64n256_f32(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %s: f32[128, 2] @CudaRmem {convergent, dist = [cuda_thread], init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 128; ++exo_i) {d}[exo_i] *= exo_i % 4 < 2 ? {s.0} : {s.1}; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %d[%m, %n] = %d[%m, %n] * %s[%m / 16 * 32 + %m mod 8 * 4 + %n mod 8 / 2, %m mod 16 / 8] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[128, 2] @CudaRmem
    }
  }
}

// Causal masking: d[m, n] = -1e30 (exp2 of it, scaled, is 0) where column n
// lies after row m + off (N = 64).
exogpu.instr @Sm90_mask_causal_d_m64n64_f32(
    %off: index,
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const int exo_t = threadIdx.x % 128; const int exo_row = exo_t / 32 * 16 + exo_t % 32 / 4; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 32; ++exo_i) if (8 * (exo_i / 4) + 2 * (exo_t % 4) + exo_i % 2 > exo_row + 8 * ((exo_i / 2) % 2) + {off}) {d}[exo_i] = -1e30f; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.if %n > %m + %off {
        exogpu.assign %d[%m, %n] = -1.0e30 : f32[64, 64] @Sm90_RmemMatrixD(64, 64)
      }
    }
  }
}

// Causal masking: d[m, n] = -1e30 (exp2 of it, scaled, is 0) where column n
// lies after row m + off (N = 128).
exogpu.instr @Sm90_mask_causal_d_m64n128_f32(
    %off: index,
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const int exo_t = threadIdx.x % 128; const int exo_row = exo_t / 32 * 16 + exo_t % 32 / 4; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 64; ++exo_i) if (8 * (exo_i / 4) + 2 * (exo_t % 4) + exo_i % 2 > exo_row + 8 * ((exo_i / 2) % 2) + {off}) {d}[exo_i] = -1e30f; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.if %n > %m + %off {
        exogpu.assign %d[%m, %n] = -1.0e30 : f32[64, 128] @Sm90_RmemMatrixD(64, 128)
      }
    }
  }
}

// Causal masking: d[m, n] = -1e30 (exp2 of it, scaled, is 0) where column n
// lies after row m + off (N = 256).
exogpu.instr @Sm90_mask_causal_d_m64n256_f32(
    %off: index,
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const int exo_t = threadIdx.x % 128; const int exo_row = exo_t / 32 * 16 + exo_t % 32 / 4; _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 128; ++exo_i) if (8 * (exo_i / 4) + 2 * (exo_t % 4) + exo_i % 2 > exo_row + 8 * ((exo_i / 2) % 2) + {off}) {d}[exo_i] = -1e30f; }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.if %n > %m + %off {
        exogpu.assign %d[%m, %n] = -1.0e30 : f32[64, 256] @Sm90_RmemMatrixD(64, 256)
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// wgmma with A from registers (PTX ISA "wgmma.mma_async", register A
// operand): D (64 x N, f32) += A (64 x 16, bf16 / f16) * B. A is an
// Sm90_RmemMatrixA(64) tile, 8 elements per thread in the PTX A fragment:
// a_i at row 16 w + g + 8 ((i / 2) % 2), column 2 (t % 4) + i % 2 +
// 8 (i / 4), two to a .b32 operand (exo::pack_b16x2). A is read
// asynchronously on wgmma_async_rmem_a_qual, so in-order writes before the
// wgmma need wgmma.fence and overwrites after it its wait_group.
// B is K-major (an N x 16 window, as the shared-memory wgmmas' B) or
// N-major: a 16 x N block of a row-major K x N matrix (the V of attention,
// O += P V), in 64-column chunks of 128-byte-swizzled rows, [N / 64, 16,
// 64]; the descriptor's leading byte offset is the distance between the
// chunks ({b.stride0} elements), its stride byte offset 1024 (8 rows), and
// imm-trans-b = 1 (PTX ISA "Shared Memory Matrix Layout", MN-major,
// 128-byte swizzle).
//
// Converting the f32 accumulator D of S = Q K^T to the A operand of the
// next wgmma needs no data movement: columns 16 k .. 16 k + 15 of D are
// d_{8 k} .. d_{8 k + 7}, the A fragment's a_0 .. a_7 in place (FA3).
//===----------------------------------------------------------------------===//

// A = columns 16 k .. 16 k + 15 of D, rounded to bf16 (N = 64).
exogpu.instr @Sm90_convert_d_to_a_m64n64_bf16(
    %k: index,
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __nv_bfloat162 exo_h = __floats2bfloat162_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : bf16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// A = columns 16 k .. 16 k + 15 of D, rounded to bf16 (N = 128).
exogpu.instr @Sm90_convert_d_to_a_m64n128_bf16(
    %k: index,
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __nv_bfloat162 exo_h = __floats2bfloat162_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : bf16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// A = columns 16 k .. 16 k + 15 of D, rounded to bf16 (N = 256).
exogpu.instr @Sm90_convert_d_to_a_m64n256_bf16(
    %k: index,
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __nv_bfloat162 exo_h = __floats2bfloat162_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : bf16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// A = columns 16 k .. 16 k + 15 of D, rounded to f16 (N = 64).
exogpu.instr @Sm90_convert_d_to_a_m64n64_f16(
    %k: index,
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __half2 exo_h = __floats2half2_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : f16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// A = columns 16 k .. 16 k + 15 of D, rounded to f16 (N = 128).
exogpu.instr @Sm90_convert_d_to_a_m64n128_f16(
    %k: index,
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __half2 exo_h = __floats2half2_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : f16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 128] @Sm90_RmemMatrixD(64, 128)
    }
  }
}

// A = columns 16 k .. 16 k + 15 of D, rounded to f16 (N = 256).
exogpu.instr @Sm90_convert_d_to_a_m64n256_f16(
    %k: index,
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { const __half2 exo_h = __floats2half2_rn({d}[8 * ({k}) + exo_i], {d}[8 * ({k}) + exo_i + 1]); {a}[exo_i] = exo_h.x; {a}[exo_i + 1] = exo_h.y; } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %j in seq(0, 16) {
      exogpu.assign %a[%m, %j] = %d[%m, %k * 16 + %j] : f16[64, 16] @Sm90_RmemMatrixA(64), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}

// Keeps an A tile in packed .b32 registers here (CUTLASS's
// warpgroup_fence_operand): an empty asm that reads and writes each pair.
// Call it before the wgmma.fence that precedes a wgmma reading the tile when
// the tile was written before a loop's back edge: the compiler would
// otherwise carry 16-bit halves across it and pack them after the fence,
// and ptxas would inject another fence (warning C7519). The meaning is the
// identity.
exogpu.instr @Sm90_fence_operand_a_bf16(
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { uint32_t exo_p = exo::pack_b16x2({a}[exo_i], {a}[exo_i + 1]); asm volatile(\22\22 : \22+r\22(exo_p)); exo::unpack_b16x2(exo_p, {a}[exo_i], {a}[exo_i + 1]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %a[%m, %k] = %a[%m, %k] : bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
  }
}

// Keeps an A tile in packed .b32 registers here (CUTLASS's
// warpgroup_fence_operand): an empty asm that reads and writes each pair.
// Call it before the wgmma.fence that precedes a wgmma reading the tile when
// the tile was written before a loop's back edge: the compiler would
// otherwise carry 16-bit halves across it and pack them after the fence,
// and ptxas would inject another fence (warning C7519). The meaning is the
// identity.
exogpu.instr @Sm90_fence_operand_a_f16(
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ _Pragma(\22unroll\22) for (int exo_i = 0; exo_i < 8; exo_i += 2) { uint32_t exo_p = exo::pack_b16x2({a}[exo_i], {a}[exo_i + 1]); asm volatile(\22\22 : \22+r\22(exo_p)); exo::unpack_b16x2(exo_p, {a}[exo_i], {a}[exo_i + 1]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %k in seq(0, 16) {
      exogpu.assign %a[%m, %k] = %a[%m, %k] : f16[64, 16] @Sm90_RmemMatrixA(64)
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), bf16, N = 64.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n64k16(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {d.list}, {%32, %33, %34, %35}, %36, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[64, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[64, 16] @DRAM
      }
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), bf16, N = 128.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n128k16(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[128, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {d.list}, {%64, %65, %66, %67}, %68, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[128, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[128, 16] @DRAM, bf16[128, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[128, 16] @DRAM
      }
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), bf16, N = 256.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n256k16(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[256, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {d.list}, {%128, %129, %130, %131}, %132, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[256, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[256, 16] @DRAM, bf16[256, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[256, 16] @DRAM
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 1 chunk(s) of 64
// columns), bf16, N = 64.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n64k16_nmajor(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[1, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {d.list}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[1, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 1) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[1, 16, 64] @DRAM, bf16[1, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 1) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[1, 16, 64] @DRAM
        }
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 2 chunk(s) of 64
// columns), bf16, N = 128.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n128k16_nmajor(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[2, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {d.list}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[2, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[2, 16, 64] @DRAM, bf16[2, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[2, 16, 64] @DRAM
        }
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 4 chunk(s) of 64
// columns), bf16, N = 256.
exogpu.instr @Sm90_mma_async_rs_bf16_m64n256k16_nmajor(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: bf16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: bf16[4, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {d.list}, {%128, %129, %130, %131}, %132, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two bf16 values has at
  // most 16 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[4, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, bf16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 4) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[4, 16, 64] @DRAM, bf16[4, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 4) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[4, 16, 64] @DRAM
        }
      }
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), f16, N = 64.
exogpu.instr @Sm90_mma_async_rs_f16_m64n64k16(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[64, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {d.list}, {%32, %33, %34, %35}, %36, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[64, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[64, 16] @DRAM
      }
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), f16, N = 128.
exogpu.instr @Sm90_mma_async_rs_f16_m64n128k16(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[128, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {d.list}, {%64, %65, %66, %67}, %68, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[128, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 128) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[128, 16] @DRAM, f16[128, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 128) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[128, 16] @DRAM
      }
    }
  }
}

// D += A * B^T, A from registers, B K-major (N x 16), f16, N = 256.
exogpu.instr @Sm90_mma_async_rs_f16_m64n256k16(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[256, 16] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {d.list}, {%128, %129, %130, %131}, %132, 1, 1, 1, 0; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22(exo::wgmma_desc_sw128({b})));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[256, 16] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %n in seq(0, 256) {
      exogpu.assign %b32[%n, %k] = %b[%n, %k] : f32[256, 16] @DRAM, f16[256, 16] @Sm90_SmemSwizzled(128)
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 256) {
      exogpu.for %k in seq(0, 16) {
        exogpu.reduce %d[%m, %n] += %a32[%m, %k] * %b32[%n, %k] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[256, 16] @DRAM
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 1 chunk(s) of 64
// columns), f16, N = 64.
exogpu.instr @Sm90_mma_async_rs_f16_m64n64k16_nmajor(
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[1, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {d.list}, {%32, %33, %34, %35}, %36, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[1, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 1) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[1, 16, 64] @DRAM, f16[1, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 1) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 64] @Sm90_RmemMatrixD(64, 64), f32[64, 16] @DRAM, f32[1, 16, 64] @DRAM
        }
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 2 chunk(s) of 64
// columns), f16, N = 128.
exogpu.instr @Sm90_mma_async_rs_f16_m64n128k16_nmajor(
    %d: f32[64, 128] @Sm90_RmemMatrixD(64, 128) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[2, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {d.list}, {%64, %65, %66, %67}, %68, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[2, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[2, 16, 64] @DRAM, f16[2, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 2) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 128] @Sm90_RmemMatrixD(64, 128), f32[64, 16] @DRAM, f32[2, 16, 64] @DRAM
        }
      }
    }
  }
}

// D += A * B, A from registers, B N-major (16 x N in 4 chunk(s) of 64
// columns), f16, N = 256.
exogpu.instr @Sm90_mma_async_rs_f16_m64n256k16_nmajor(
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = wgmma_async_rmem_d_qual, ext = [wgmma_async_rmem_d_qual]},
    %a: f16[64, 16] @Sm90_RmemMatrixA(64) {convergent, init = wgmma_async_rmem_a_qual, ext = [wgmma_async_rmem_a_qual]},
    %b: f16[4, 16, 64] @Sm90_SmemSwizzled(128) {out_of_order, convergent, init = wgmma_async_smem_qual, ext = [wgmma_async_smem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "asm volatile(\22{ wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {d.list}, {%128, %129, %130, %131}, %132, 1, 1, 1, 1; }\22 : {d.regs} : \22r\22(exo::pack_b16x2({a.0}, {a.1})), \22r\22(exo::pack_b16x2({a.2}, {a.3})), \22r\22(exo::pack_b16x2({a.4}, {a.5})), \22r\22(exo::pack_b16x2({a.6}, {a.7})), \22l\22((exo::wgmma_desc_sw128({b}) & ~(uint64_t(0x3FFF) << 16)) | (uint64_t({b.stride0} * 2 / 16) << 16)));" {
  // The tensor cores multiply exactly (the product of two f16 values has at
  // most 22 significant bits, which f32 holds) and accumulate in f32; the
  // meaning holds the f32 copies of the operands in its own (host) memory.
  %a32 = exogpu.alloc f32[64, 16] @DRAM
  %b32 = exogpu.alloc f32[4, 16, 64] @DRAM
  exogpu.for %k in seq(0, 16) {
    exogpu.for %m in seq(0, 64) {
      exogpu.assign %a32[%m, %k] = %a[%m, %k] : f32[64, 16] @DRAM, f16[64, 16] @Sm90_RmemMatrixA(64)
    }
    exogpu.for %c in seq(0, 4) {
      exogpu.for %n in seq(0, 64) {
        exogpu.assign %b32[%c, %k, %n] = %b[%c, %k, %n] : f32[4, 16, 64] @DRAM, f16[4, 16, 64] @Sm90_SmemSwizzled(128)
      }
    }
  }
  exogpu.for %m in seq(0, 64) {
    exogpu.for %c in seq(0, 4) {
      exogpu.for %n in seq(0, 64) {
        exogpu.for %k in seq(0, 16) {
          exogpu.reduce %d[%m, %c * 64 + %n] += %a32[%m, %k] * %b32[%c, %k, %n] : f32[64, 256] @Sm90_RmemMatrixD(64, 256), f32[64, 16] @DRAM, f32[4, 16, 64] @DRAM
        }
      }
    }
  }
}

//===----------------------------------------------------------------------===//
// Attention tiles in global memory: rank-3 [heads, rows, columns] tensors,
// one head's rows per box.
//===----------------------------------------------------------------------===//

// TMA of a 1 x 128 x 64 bf16 box of a rank-3 tensor into a 128 x 64 tile.
exogpu.instr @Sm90_tma_load_3d_1x128x64_bf16(
    %dst: bf16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window bf16[1, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c2}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[0, %i, %j] : bf16[128, 64] @Sm90_SmemSwizzled(128), window bf16[1, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64)
    }
  }
}

// The same for f16.
exogpu.instr @Sm90_tma_load_3d_1x128x64_f16(
    %dst: f16[128, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]},
    %src: window f16[1, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64) {out_of_order, init = tma_to_smem_async_qual, ext = [tma_to_smem_async_qual]})
    target = cuda, unit = cuda_thread, barrier = @CudaMbarrier,
    cuda = "asm volatile(\22cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5];\22 :: \22r\22(exo::smem_address({dst})), \22l\22(&{src.map}), \22r\22({src.c2}), \22r\22({src.c1}), \22r\22({src.c0}), \22r\22(exo::smem_address({bar})) : \22memory\22);" {
  exogpu.for %i in seq(0, 128) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[%i, %j] = %src[0, %i, %j] : f16[128, 64] @Sm90_SmemSwizzled(128), window f16[1, 128, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 128, 64)
    }
  }
}

// TMA store of a 64 x 64 bf16 tile into a 1 x 64 x 64 box of a rank-3
// tensor.
exogpu.instr @Sm90_tma_store_3d_1x64x64_bf16(
    %dst: window bf16[1, 64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 64, 64) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]},
    %src: bf16[64, 64] @Sm90_SmemSwizzled(128) {out_of_order, init = tma_to_gmem_async_qual, ext = [tma_to_gmem_async_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm volatile(\22cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [%0, {%1, %2, %3}], [%4];\22 :: \22l\22(&{dst.map}), \22r\22({dst.c2}), \22r\22({dst.c1}), \22r\22({dst.c0}), \22r\22(exo::smem_address({src})) : \22memory\22);" {
  exogpu.for %i in seq(0, 64) {
    exogpu.for %j in seq(0, 64) {
      exogpu.assign %dst[0, %i, %j] = %src[%i, %j] : window bf16[1, 64, 64] @CudaGmemLinear @Sm90_tensorMap(128, 1, 64, 64), bf16[64, 64] @Sm90_SmemSwizzled(128)
    }
  }
}

// Column block j of a 64 x 64 f32 accumulator rounded to bf16 into a
// 64 x 64 swizzled tile, as Sm90_store_d_m64n256_tile64x64_bf16.
exogpu.instr @Sm90_store_d_m64n64_tile64x64_bf16(
    %j: index,
    %dst: bf16[64, 64] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 64] @Sm90_RmemMatrixD(64, 64) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int q = 0; q < 8; ++q) { const unsigned offset = ((q ^ (row % 8u)) << 4) + (t % 4u) * 4u; *reinterpret_cast<__nv_bfloat162 *>(base + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q], {d}[32 * ({j}) + 4 * q + 1]); *reinterpret_cast<__nv_bfloat162 *>(base + 1024u + offset) = __floats2bfloat162_rn({d}[32 * ({j}) + 4 * q + 2], {d}[32 * ({j}) + 4 * q + 3]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 64) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 64 + %n] : bf16[64, 64] @Sm90_SmemSwizzled(128), f32[64, 64] @Sm90_RmemMatrixD(64, 64)
    }
  }
}

// dst = 2^src with the GPU's approximation (ex2.approx.ftz.f32: relative
// error about 2^-22, subnormals flushed); the meaning is exp2. One thread.
exogpu.instr @cuda_ex2_approx_f32(
    %dst: f32[1] @CudaRmem {init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]},
    %src: f32[1] @CudaRmem {init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_thread,
    cuda = "asm(\22ex2.approx.ftz.f32 %0, %1;\22 : \22=f\22({dst.0}) : \22f\22({src.0}));" {
  exogpu.assign %dst[0] = exp2(%src[0]) : f32[1] @CudaRmem, f32[1] @CudaRmem
}

//===----------------------------------------------------------------------===//
// Host instructions (target = cpu; any architecture)
//===----------------------------------------------------------------------===//

// Zero an m x n f32 device buffer, ordered on the host function's stream
// (cudaMemsetAsync; cpu_cuda_stream_qual: the launch fence of a later kernel
// on the stream orders it, seeds/002 Fig. 5, 15). The split-k GEMM zeroes C
// before its tasks add their partial tiles into it.
exogpu.instr @cuda_memset_zero_f32(
    %m: size, %n: size,
    %dst: f32[%m, %n] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread,
    cuda = "EXOGPU_TRY(cudaMemsetAsync({dst}, 0, sizeof(float) * size_t({m}) * size_t({n}), stream));" {
  exogpu.for %i in seq(0, %m) {
    exogpu.for %j in seq(0, %n) {
      exogpu.assign %dst[%i, %j] = 0.0 : f32[?, ?] @CudaGmemLinear
    }
  }
}

// Zero an m x n bf16 device buffer on the host function's stream (bf16 zero
// is the all-zero bit pattern). The bf16 GEMM for small shapes zeroes C
// before its tasks add their partial tiles into it.
exogpu.instr @cuda_memset_zero_bf16(
    %m: size, %n: size,
    %dst: bf16[%m, %n] @CudaGmemLinear {init = cpu_cuda_stream_qual, ext = [cpu_cuda_stream_qual]})
    target = cpu, unit = standalone_thread,
    cuda = "EXOGPU_TRY(cudaMemsetAsync({dst}, 0, sizeof(__nv_bfloat16) * size_t({m}) * size_t({n}), stream));" {
  exogpu.for %i in seq(0, %m) {
    exogpu.for %j in seq(0, %n) {
      exogpu.assign %dst[%i, %j] = 0.0 : bf16[?, ?] @CudaGmemLinear
    }
  }
}
