// RUN: exogpu-translate --to-cuda %s | FileCheck %s
// RUN: exogpu-opt %s --exogpu-sync-check -o /dev/null
// RUN: %if nvcc %{ exogpu-translate --to-cuda %s -o %t.cu && %nvcc -arch=sm_80 -Werror all-warnings -Xptxas -v -c %t.cu -o %t.o 2>&1 | FileCheck %s --check-prefix=PTXAS %}
exogpu.import "sm80"

// Every instruction of stdlib/sm80.mlir, called from small kernels that pass
// the collective analysis, the distributed memory deduction and the
// synchronization check: each template's expansion, and ptxas on every
// kernel (no spills, no stack frame).

// PTXAS-COUNT-4: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

// cp.async of 4, 8 and 16 bytes (.ca below 16 bytes, .cg for 16), each
// thread waiting for its own commit group before it reads its copies.
// CHECK-LABEL: {{^}}cp_async_sizes_kernel(
// CHECK: call @Sm80_cp_async_f32x1(S1[t:t + 1], X1[t:t + 1])
// CHECK-NEXT: asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(exo::smem_address(S1 + t)), "l"(X1 + t) : "memory");
// CHECK: call @Sm80_cp_async_f32x2(S2[t * 2:t * 2 + 2], X2[t * 2:t * 2 + 2])
// CHECK-NEXT: asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(exo::smem_address(S2 + t * 2)), "l"(X2 + t * 2) : "memory");
// CHECK: call @Sm80_cp_async_f32x4(S4[t * 4:t * 4 + 4], X4[t * 4:t * 4 + 4])
// CHECK-NEXT: asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"((unsigned)__cvta_generic_to_shared(S4 + t * 4)), "l"(X4 + t * 4) : "memory");
// CHECK: call @Sm80_cp_async_bf16x8(Sb[t * 8:t * 8 + 8], Xb[t * 8:t * 8 + 8])
// CHECK-NEXT: asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(exo::smem_address(Sb + t * 8)), "l"(Xb + t * 8) : "memory");
// CHECK: call @Sm80_cp_async_f16x8(Sh[t * 8:t * 8 + 8], Xh[t * 8:t * 8 + 8])
// CHECK-NEXT: asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(exo::smem_address(Sh + t * 8)), "l"(Xh + t * 8) : "memory");
// CHECK: asm volatile("cp.async.commit_group;" ::: "memory");
// CHECK: asm volatile("cp.async.wait_group 0;" ::: "memory");
exogpu.proc @cp_async_sizes(%X1: f32[32] @CudaGmemLinear, %X2: f32[64] @CudaGmemLinear, %X4: f32[128] @CudaGmemLinear, %Xb: bf16[256] @CudaGmemLinear, %Xh: f16[256] @CudaGmemLinear, %Y: f32[32] @CudaGmemLinear, %Yb: bf16[32] @CudaGmemLinear, %Yh: f16[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %S1 = exogpu.alloc f32[32] @CudaSmemLinear
      %S2 = exogpu.alloc f32[64] @CudaSmemLinear
      %S4 = exogpu.alloc f32[128] @CudaSmemLinear
      %Sb = exogpu.alloc bf16[256] @CudaSmemLinear
      %Sh = exogpu.alloc f16[256] @CudaSmemLinear
      %cg = exogpu.alloc barrier[32] @CudaCommitGroup
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x1(%S1[%t:%t + 1], %X1[%t:%t + 1]) : f32[32] @CudaSmemLinear, f32[32] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_f32x2(%S2[%t * 2:%t * 2 + 2], %X2[%t * 2:%t * 2 + 2]) : f32[64] @CudaSmemLinear, f32[64] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_f32x4(%S4[%t * 4:%t * 4 + 4], %X4[%t * 4:%t * 4 + 4]) : f32[128] @CudaSmemLinear, f32[128] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_bf16x8(%Sb[%t * 8:%t * 8 + 8], %Xb[%t * 8:%t * 8 + 8]) : bf16[256] @CudaSmemLinear, bf16[256] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_f16x8(%Sh[%t * 8:%t * 8 + 8], %Xh[%t * 8:%t * 8 + 8]) : f16[256] @CudaSmemLinear, f16[256] @CudaGmemLinear
        exogpu.arrive(Sm80_cp_async, 1) >> %cg[%t] : barrier[32] @CudaCommitGroup
        exogpu.await(%cg[%t], cuda_in_order, 0) : barrier[32] @CudaCommitGroup
        exogpu.assign %Y[%t] = %S1[%t] + %S2[%t * 2 + 1] + %S4[%t * 4 + 3] : f32[32] @CudaGmemLinear, f32[32] @CudaSmemLinear, f32[64] @CudaSmemLinear, f32[128] @CudaSmemLinear
        exogpu.assign %Yb[%t] = %Sb[%t * 8 + 7] : bf16[32] @CudaGmemLinear, bf16[256] @CudaSmemLinear
        exogpu.assign %Yh[%t] = %Sh[%t * 8 + 7] : f16[32] @CudaGmemLinear, f16[256] @CudaSmemLinear
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// mma.m16n8k16 with bf16 operands: ldmatrix.x4 of the A operand from a
// row-major 16 x 16 tile, ldmatrix.x2 of B from a K-major 8 x 16 tile and
// ldmatrix.x2.trans of B from a row-major 16 x 8 (K x N) tile; 16-bit
// fragment elements are unpacked from and packed into .b32 registers in
// fragment order.
// CHECK-LABEL: {{^}}mma_bf16_kernel(
// CHECK: __nv_bfloat16 a[8];
// CHECK: __nv_bfloat16 b[2][4];
// CHECK: float d[2][4];
// CHECK: call @Sm80_ldmatrix_a_bf16[16](a[:, :], As[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1, r2, r3; asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(exo::smem_address(As + (lane % 16u) * 16 + (lane / 16u) * 8u)) : "memory"); exo::unpack_b16x2(r0, a[0], a[1]); exo::unpack_b16x2(r1, a[2], a[3]); exo::unpack_b16x2(r2, a[4], a[5]); exo::unpack_b16x2(r3, a[6], a[7]); }
// CHECK: call @Sm80_ldmatrix_b_bf16[16](b[0, :, :], Bs[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(exo::smem_address(Bs + (lane % 8u) * 16 + ((lane / 8u) % 2u) * 8u)) : "memory"); exo::unpack_b16x2(r0, b[0][0], b[0][1]); exo::unpack_b16x2(r1, b[0][2], b[0][3]); }
// CHECK: call @Sm80_ldmatrix_trans_b_bf16[8](b[1, :, :], Bts[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(exo::smem_address(Bts + (lane % 16u) * 8)) : "memory"); exo::unpack_b16x2(r0, b[1][0], b[1][1]); exo::unpack_b16x2(r1, b[1][2], b[1][3]); }
// CHECK: call @Sm80_mma_zero_d_tf32(d[j, :, :])
// CHECK-NEXT: d[j][0] = 0.f; d[j][1] = 0.f; d[j][2] = 0.f; d[j][3] = 0.f;
// CHECK-NEXT: // {{.*}} call @Sm80_mma_bf16(d[j, :, :], a[:, :], b[j, :, :])
// CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};" : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3]) : "r"(exo::pack_b16x2(a[0], a[1])), "r"(exo::pack_b16x2(a[2], a[3])), "r"(exo::pack_b16x2(a[4], a[5])), "r"(exo::pack_b16x2(a[6], a[7])), "r"(exo::pack_b16x2(b[j][0], b[j][1])), "r"(exo::pack_b16x2(b[j][2], b[j][3])));
// CHECK: call @Sm80_mma_store_d_tf32[8](C[:, :], d[0, :, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; float *p = C + (lane / 4u) * 8 + 2u * (lane % 4u); p[0] = d[0][0]; p[1] = d[0][1]; p[8 * 8] = d[0][2]; p[8 * 8 + 1] = d[0][3]; }
exogpu.proc @mma_bf16(%A: bf16[16, 16] @CudaGmemLinear, %B: bf16[8, 16] @CudaGmemLinear, %Bt: bf16[16, 8] @CudaGmemLinear, %C: f32[16, 8] @CudaGmemLinear, %Ct: f32[16, 8] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %As = exogpu.alloc bf16[16, 16] @CudaSmemLinear
      %Bs = exogpu.alloc bf16[8, 16] @CudaSmemLinear
      %Bts = exogpu.alloc bf16[16, 8] @CudaSmemLinear
      exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_bf16x8(%As[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8], %A[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8]) : bf16[16, 16] @CudaSmemLinear, bf16[16, 16] @CudaGmemLinear
      }
      exogpu.for %i in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_bf16x8(%Bs[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8], %B[%i / 2, (%i mod 2) * 8:(%i mod 2) * 8 + 8]) : bf16[8, 16] @CudaSmemLinear, bf16[8, 16] @CudaGmemLinear
        exogpu.call @Sm80_cp_async_bf16x8(%Bts[%i, :], %Bt[%i, :]) : bf16[16, 8] @CudaSmemLinear, bf16[16, 8] @CudaGmemLinear
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        %a = exogpu.alloc bf16[16, 16] @Sm80_RmemMatrixA(16, 16)
        %b = exogpu.alloc bf16[2, 8, 16] @Sm80_RmemMatrixB(8, 16)
        %d = exogpu.alloc f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_ldmatrix_a_bf16[16](%a[:, :], %As[:, :]) : bf16[16, 16] @Sm80_RmemMatrixA(16, 16), bf16[16, 16] @CudaSmemLinear
        exogpu.call @Sm80_ldmatrix_b_bf16[16](%b[0, :, :], %Bs[:, :]) : bf16[2, 8, 16] @Sm80_RmemMatrixB(8, 16), bf16[8, 16] @CudaSmemLinear
        exogpu.call @Sm80_ldmatrix_trans_b_bf16[8](%b[1, :, :], %Bts[:, :]) : bf16[2, 8, 16] @Sm80_RmemMatrixB(8, 16), bf16[16, 8] @CudaSmemLinear
        exogpu.for %j in seq(0, 2) {
          exogpu.call @Sm80_mma_zero_d_tf32(%d[%j, :, :]) : f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
          exogpu.call @Sm80_mma_bf16(%d[%j, :, :], %a[:, :], %b[%j, :, :]) : f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8), bf16[16, 16] @Sm80_RmemMatrixA(16, 16), bf16[2, 8, 16] @Sm80_RmemMatrixB(8, 16)
        }
        exogpu.call @Sm80_mma_store_d_tf32[8](%C[:, :], %d[0, :, :]) : f32[16, 8] @CudaGmemLinear, f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_mma_store_d_tf32[8](%Ct[:, :], %d[1, :, :]) : f32[16, 8] @CudaGmemLinear, f32[2, 16, 8] @Sm80_RmemMatrixD(16, 8)
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}

// mma.m16n8k16 with f16 operands: ldmatrix.x4 of the A operand from a
// row-major 16 x 16 tile, ldmatrix.x2 of B from a K-major 8 x 16 tile and
// ldmatrix.x2.trans of B from a row-major 16 x 8 (K x N) tile; 16-bit
// fragment elements are unpacked from and packed into .b32 registers in
// fragment order.
// CHECK-LABEL: {{^}}mma_f16_kernel(
// CHECK: __half a[8];
// CHECK: __half b[2][4];
// CHECK: float d[2][4];
// CHECK: call @Sm80_ldmatrix_a_f16[16](a[:, :], As[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1, r2, r3; asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(exo::smem_address(As + (lane % 16u) * 16 + (lane / 16u) * 8u)) : "memory"); exo::unpack_b16x2(r0, a[0], a[1]); exo::unpack_b16x2(r1, a[2], a[3]); exo::unpack_b16x2(r2, a[4], a[5]); exo::unpack_b16x2(r3, a[6], a[7]); }
// CHECK: call @Sm80_ldmatrix_b_f16[16](b[0, :, :], Bs[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(exo::smem_address(Bs + (lane % 8u) * 16 + ((lane / 8u) % 2u) * 8u)) : "memory"); exo::unpack_b16x2(r0, b[0][0], b[0][1]); exo::unpack_b16x2(r1, b[0][2], b[0][3]); }
// CHECK: call @Sm80_ldmatrix_trans_b_f16[8](b[1, :, :], Bts[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; uint32_t r0, r1; asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(exo::smem_address(Bts + (lane % 16u) * 8)) : "memory"); exo::unpack_b16x2(r0, b[1][0], b[1][1]); exo::unpack_b16x2(r1, b[1][2], b[1][3]); }
// CHECK: call @Sm80_mma_zero_d_tf32(d[j, :, :])
// CHECK-NEXT: d[j][0] = 0.f; d[j][1] = 0.f; d[j][2] = 0.f; d[j][3] = 0.f;
// CHECK-NEXT: // {{.*}} call @Sm80_mma_f16(d[j, :, :], a[:, :], b[j, :, :])
// CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};" : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3]) : "r"(exo::pack_b16x2(a[0], a[1])), "r"(exo::pack_b16x2(a[2], a[3])), "r"(exo::pack_b16x2(a[4], a[5])), "r"(exo::pack_b16x2(a[6], a[7])), "r"(exo::pack_b16x2(b[j][0], b[j][1])), "r"(exo::pack_b16x2(b[j][2], b[j][3])));
// CHECK: call @Sm80_mma_store_d_tf32[8](C[:, :], d[0, :, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; float *p = C + (lane / 4u) * 8 + 2u * (lane % 4u); p[0] = d[0][0]; p[1] = d[0][1]; p[8 * 8] = d[0][2]; p[8 * 8 + 1] = d[0][3]; }
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

// The tf32 path (mma.m16n8k8 with scalar fragment loads) and the warp
// shuffle.
// CHECK-LABEL: {{^}}mma_tf32_shfl_kernel(
// CHECK: call @Sm80_mma_load_a_tf32[8](a[:, :], As[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; const float *p = As + (lane / 4u) * 8 + lane % 4u; a[0] = p[0]; a[1] = p[8 * 8]; a[2] = p[4]; a[3] = p[8 * 8 + 4]; }
// CHECK: call @Sm80_mma_load_b_tf32[8](b[:, :], Bs[:, :])
// CHECK-NEXT: { const unsigned lane = threadIdx.x % 32u; const float *p = Bs + (lane % 4u) * 8 + lane / 4u; b[0] = p[0]; b[1] = p[4 * 8]; }
// CHECK: call @Sm80_mma_tf32(d[:, :], a[:, :], b[:, :])
// CHECK-NEXT: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};" : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(__float_as_uint(a[0])), "r"(__float_as_uint(a[1])), "r"(__float_as_uint(a[2])), "r"(__float_as_uint(a[3])), "r"(__float_as_uint(b[0])), "r"(__float_as_uint(b[1])));
// CHECK: call @cuda_shfl_down_f32[1](s[:], v[:])
// CHECK-NEXT: s = __shfl_down_sync(0xffffffffu, v, 1);
exogpu.proc @mma_tf32_shfl(%A: f32[16, 8] @CudaGmemLinear, %B: f32[8, 8] @CudaGmemLinear, %C: f32[16, 8] @CudaGmemLinear, %x: f32[32] @CudaGmemLinear, %y: f32[32] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %As = exogpu.alloc f32[16, 8] @CudaSmemLinear
      %Bs = exogpu.alloc f32[8, 8] @CudaSmemLinear
      exogpu.for %i in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%As[%i / 2, (%i mod 2) * 4:(%i mod 2) * 4 + 4], %A[%i / 2, (%i mod 2) * 4:(%i mod 2) * 4 + 4]) : f32[16, 8] @CudaSmemLinear, f32[16, 8] @CudaGmemLinear
      }
      exogpu.for %i in cuda_threads(0, 16, unit = cuda_thread) {
        exogpu.call @Sm80_cp_async_f32x4(%Bs[%i / 2, (%i mod 2) * 4:(%i mod 2) * 4 + 4], %B[%i / 2, (%i mod 2) * 4:(%i mod 2) * 4 + 4]) : f32[8, 8] @CudaSmemLinear, f32[8, 8] @CudaGmemLinear
      }
      exogpu.fence(Sm80_generic, cuda_in_order)
      exogpu.for %w in cuda_threads(0, 1, unit = cuda_warp) {
        %a = exogpu.alloc f32[16, 8] @Sm80_RmemMatrixA(16, 8)
        %b = exogpu.alloc f32[8, 8] @Sm80_RmemMatrixB(8, 8)
        %d = exogpu.alloc f32[16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_mma_zero_d_tf32(%d[:, :]) : f32[16, 8] @Sm80_RmemMatrixD(16, 8)
        exogpu.call @Sm80_mma_load_a_tf32[8](%a[:, :], %As[:, :]) : f32[16, 8] @Sm80_RmemMatrixA(16, 8), f32[16, 8] @CudaSmemLinear
        exogpu.call @Sm80_mma_load_b_tf32[8](%b[:, :], %Bs[:, :]) : f32[8, 8] @Sm80_RmemMatrixB(8, 8), f32[8, 8] @CudaSmemLinear
        exogpu.call @Sm80_mma_tf32(%d[:, :], %a[:, :], %b[:, :]) : f32[16, 8] @Sm80_RmemMatrixD(16, 8), f32[16, 8] @Sm80_RmemMatrixA(16, 8), f32[8, 8] @Sm80_RmemMatrixB(8, 8)
        exogpu.call @Sm80_mma_store_d_tf32[8](%C[:, :], %d[:, :]) : f32[16, 8] @CudaGmemLinear, f32[16, 8] @Sm80_RmemMatrixD(16, 8)
        %v = exogpu.alloc f32[32] @CudaRmem
        %s = exogpu.alloc f32[32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %v[%lane] = %x[%lane] : f32[32] @CudaRmem, f32[32] @CudaGmemLinear
        }
        exogpu.call @cuda_shfl_down_f32[1](%s[:], %v[:]) : f32[32] @CudaRmem, f32[32] @CudaRmem
        exogpu.for %lane in cuda_threads(0, 32, unit = cuda_thread) {
          exogpu.assign %y[%lane] = %s[%lane] : f32[32] @CudaGmemLinear, f32[32] @CudaRmem
        }
      }
      exogpu.fence(cuda_in_order, cuda_in_order)
    }
  }
}
