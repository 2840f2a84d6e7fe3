// Sm90_store_d_m64n256_tile64x32_f32 as it was at commit c2842a3: its
// 8-byte stores covered 4 of the 8 chunks of a row per half-warp.
exogpu.instr @Sm90_store_d_m64n256_tile64x32_f32(
    %j: index,
    %dst: f32[64, 32] @Sm90_SmemSwizzled(128) {init = cuda_in_order_ram_qual, ext = [cuda_in_order_ram_qual]},
    %d: f32[64, 256] @Sm90_RmemMatrixD(64, 256) {convergent, init = cuda_in_order_rmem_qual, ext = [cuda_in_order_rmem_qual]})
    target = cuda, unit = cuda_warpgroup,
    cuda = "{ const unsigned t = threadIdx.x % 128u; const unsigned row = (t / 32u) * 16u + (t % 32u) / 4u; char *const base = reinterpret_cast<char *>({dst}) + row * 128u; for (int q = 0; q < 4; ++q) { const unsigned offset = (((2u * q + (t % 4u) / 2u) ^ (row % 8u)) << 4) + (t % 2u) * 8u; *reinterpret_cast<float2 *>(base + offset) = make_float2({d}[16 * ({j}) + 4 * q], {d}[16 * ({j}) + 4 * q + 1]); *reinterpret_cast<float2 *>(base + 1024u + offset) = make_float2({d}[16 * ({j}) + 4 * q + 2], {d}[16 * ({j}) + 4 * q + 3]); } }" {
  exogpu.for %m in seq(0, 64) {
    exogpu.for %n in seq(0, 32) {
      exogpu.assign %dst[%m, %n] = %d[%m, %j * 32 + %n] : f32[64, 32] @Sm90_SmemSwizzled(128), f32[64, 256] @Sm90_RmemMatrixD(64, 256)
    }
  }
}
