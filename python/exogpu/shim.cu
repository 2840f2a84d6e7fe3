// Part of ExoGPU: the helpers the `exogpu` Python package compiles into
// every kernel library next to the translated kernel (python/exogpu/build.py).
// They use the library's own CUDA runtime (nvcc links it statically), which
// shares the driver's per-thread current context with the caller's runtime
// (PyTorch's, CuPy's), so the caller's current device is the library's.

#include <cuda_runtime.h>

extern "C" {

/// cudaGetErrorName and cudaGetErrorString of a host function's result.
const char *exogpu_py_error_name(int error) {
  return cudaGetErrorName(static_cast<cudaError_t>(error));
}
const char *exogpu_py_error_string(int error) {
  return cudaGetErrorString(static_cast<cudaError_t>(error));
}

/// The calling thread's current device, and making another one current.
int exogpu_py_get_device(int *device) { return cudaGetDevice(device); }
int exogpu_py_set_device(int device) { return cudaSetDevice(device); }

/// Makes `consumer` wait for the work enqueued on `producer` so far (the
/// stream a __cuda_array_interface__ names).
int exogpu_py_stream_wait(cudaStream_t consumer, cudaStream_t producer) {
  cudaEvent_t event;
  cudaError_t error = cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  if (error != cudaSuccess)
    return error;
  error = cudaEventRecord(event, producer);
  if (error == cudaSuccess)
    error = cudaStreamWaitEvent(consumer, event, 0);
  cudaError_t destroyed = cudaEventDestroy(event);
  return error != cudaSuccess ? error : destroyed;
}

} // extern "C"
