// RUN: exogpu-translate --to-cuda %s | FileCheck %s

// A placeholder stands for one C++ operand wherever the template writes it
// (CudaTemplate.h): the pointer of a window (`x + t * 4`), a register
// pointer (`&v[t]`) and a control value (`N / 2`) are parenthesized where an
// operator around the placeholder would bind into them (a dereference, a
// subscript, a member access, a product), and written as they are where
// the placeholder is a whole operand (an argument, an asm operand, an
// initializer). The old expansion, `*x + t * 4`, read x[0] plus an offset.
// (The template is text for the check, not CUDA to compile.)

exogpu.instr @operand_positions(%n: size, %dst: f32[4] @CudaGmemLinear,
    %src: f32[4] @CudaGmemLinear, %reg: f32[1] @CudaRmem)
    target = cuda, unit = cuda_thread,
    cuda = "consume({dst}, {src});\0Afloat deref = *{src};\0Afloat subscript = {src}[1];\0Afloat member = {dst}->x;\0Aint product = {n} * 2;\0Aconst float *init = {src};\0Afloat reg = *{reg};\0Aint arg = f({n});" {
  exogpu.for %i in seq(0, 4) {
    exogpu.assign %dst[%i] = %src[%i] : f32[4] @CudaGmemLinear, f32[4] @CudaGmemLinear
  }
}

// CHECK-LABEL: positions_kernel(
// CHECK:      consume(y + t * 4, x + t * 4);
// CHECK-NEXT: float deref = *(x + t * 4);
// CHECK-NEXT: float subscript = (x + t * 4)[1];
// CHECK-NEXT: float member = (y + t * 4)->x;
// CHECK-NEXT: int product = (N / 2) * 2;
// CHECK-NEXT: const float *init = x + t * 4;
// CHECK-NEXT: float reg = *(&v[0]);
// CHECK-NEXT: int arg = f(N / 2);
exogpu.proc @positions(%N: size, %x: f32[128] @CudaGmemLinear, %y: f32[128] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 32) {
    exogpu.for %task in cuda_tasks(0, 1) {
      %v = exogpu.alloc f32[32, 1] @CudaRmem
      exogpu.for %t in cuda_threads(0, 32, unit = cuda_thread) {
        exogpu.call @operand_positions[%N / 2](%y[4 * %t:4 * %t + 4], %x[4 * %t:4 * %t + 4], %v[%t, :]) : f32[128] @CudaGmemLinear, f32[128] @CudaGmemLinear, f32[32, 1] @CudaRmem
      }
    }
  }
}
