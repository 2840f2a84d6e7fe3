// @mma_f16 of test/Target/CUDA/stdlib-sm80.mlir: C = A * B^T, Ct = A * Bt.
exogpu.import "sm80"

exogpu.proc @mma_f16(%A: f16[16, 16] @CudaGmemLinear, %B: f16[8, 16] @CudaGmemLinear, %Bt: f16[16, 8] @CudaGmemLinear, %C: f32[16, 8] @CudaGmemLinear, %Ct: f32[16, 8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %As = exogpu.alloc f16[16, 16] @CudaSmemLinear
      %Bs = exogpu.alloc f16[8, 16] @CudaSmemLinear
      %Bts = exogpu.alloc f16[16, 8] @CudaSmemLinear
      exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f16x8(%As[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8], %A[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8]) : f16[16, 16] @CudaSmemLinear, f16[16, 16] @CudaGmemLinear
      }
      exogpu.for %i in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f16x8(%Bs[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8], %B[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8]) : f16[8, 16] @CudaSmemLinear, f16[8, 16] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_f16x8(%Bts[%i, :], %Bt[%i, :]) : f16[16, 8] @CudaSmemLinear, f16[16, 8] @CudaGmemLinear
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        %a = exogpu.alloc f16[16, 16] @Sm80_RmemMatrixA(16, 16)
        %b = exogpu.alloc f16[2, 8, 16] @Sm80_RmemMatrixB(8, 16)
        %d = exogpu.alloc f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_ldmatrix_a_f16[16](%a[:, :], %As[:, :]) : f16[16, 16] @Sm80_RmemMatrixA(16, 16), f16[16, 16] @CudaSmemLinear
        exogpu.call @Sm80_ldmatrix_b_f16[16](%b[0, :, :], %Bs[:, :]) : f16[2, 8, 16] @Sm80_RmemMatrixB(8, 16), f16[8, 16] @CudaSmemLinear
        exogpu.call @Sm80_ldmatrix_trans_b_f16[8](%b[1, :, :], %Bts[:, :]) : f16[2, 8, 16] @Sm80_RmemMatrixB(8, 16), f16[16, 8] @CudaSmemLinear
        exogpu.for %j in seq(0, 2) {
          exogpu.call @Sm80_mma_zero_d_tf32(%d[%j, :, :]) : f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
          exogpu.call @Sm80_mma_f16(%d[%j, :, :], %a[:, :], %b[%j, :, :]) : f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8), f16[16, 16] @Sm80_RmemMatrixA(16, 16), f16[2, 8, 16] @Sm80_RmemMatrixB(8, 16)
        }
        exogpu.call @Sm80_mma_store_d_tf32[8](%C[:, :], %d[0, :, :]) : f32[16, 8] @CudaGmemLinear, f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_mma_store_d_tf32[8](%Ct[:, :], %d[1, :, :]) : f32[16, 8] @CudaGmemLinear, f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
