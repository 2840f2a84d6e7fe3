"""Prints a chain of LENGTH procs, each calling the previous one at CPU
scope, the first launching a kernel (three bodies deep: the device function,
the task loop and the thread loop), each call under NEST sequential loops:
call_chain.py LENGTH [NEST]. The last proc is the one nothing calls."""
import sys

length = int(sys.argv[1])
nest = int(sys.argv[2]) if len(sys.argv) > 2 else 0
print("""exogpu.proc @p0(%x: f32[4] @CudaGmemLinear) {
  exogpu.device_function(blockDim = 4) {
    exogpu.for %task in cuda_tasks(0, 1) {
      exogpu.for %t in cuda_threads(0, 4, unit = cuda_thread) {
        exogpu.assign %x[%t] = 1.0 : f32[4] @CudaGmemLinear
      }
    }
  }
}""")
for i in range(1, length):
    loops = "".join(f"exogpu.for %i{d} in seq(0, 1) {{ " for d in range(nest))
    print(f"exogpu.proc @p{i}(%x: f32[4] @CudaGmemLinear) {{ {loops}"
          f"exogpu.call @p{i - 1}(%x) : f32[4] @CudaGmemLinear "
          + "} " * nest + "}")
