//===- CudaDriver.h - CUDA driver API opened at run time --------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The runtime opens libcuda.so.1 with dlopen instead of linking it: a link
// dependency would make libhidet_runtime.so, and every runner linked to it,
// fail in the dynamic loader on a machine without the NVIDIA driver, where
// the runner must instead say "no CUDA device available" and exit with a
// status that lets scripts skip. The table below is filled with dlsym.
//
// Symbol names come from cuda.h itself: it maps API names to versioned ABI
// symbols with macros (cuMemAlloc -> cuMemAlloc_v2), and the list is expanded
// after those macros, so each slot has the prototype and the symbol name that
// the header we compile against means.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_CUDADRIVER_H
#define HIDET_RUNTIME_LIB_CUDADRIVER_H

#include <cuda.h>

namespace hidet::runtime {

// Entry points every driver new enough for the generated code has.
#define HIDET_CUDA_REQUIRED_FUNCTIONS(X)                                       \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuCtxPushCurrent)                                                          \
  X(cuCtxPopCurrent)                                                           \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadData)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleUnload)                                                            \
  X(cuModuleGetFunction)                                                       \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventSynchronize)                                                        \
  X(cuEventRecord)                                                             \
  X(cuEventElapsedTime)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemAllocManaged)                                                         \
  X(cuMemFree)                                                                 \
  X(cuMemcpyAsync)                                                             \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD16Async)                                                          \
  X(cuMemsetD32Async)                                                          \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)                                                       \
  X(cuPointerGetAttribute)                                                     \
  X(cuStreamBeginCapture)                                                      \
  X(cuStreamEndCapture)                                                        \
  X(cuGraphInstantiateWithFlags)                                               \
  X(cuGraphLaunch)                                                             \
  X(cuGraphExecDestroy)                                                        \
  X(cuGraphDestroy)

// Entry points added in CUDA 12 (Hopper clusters and TMA in 12.0, kernel
// names for profiles in 12.3). An older driver
// still runs code that does not use them; using them reports an error.
#define HIDET_CUDA_OPTIONAL_FUNCTIONS(X)                                       \
  X(cuLaunchKernelEx)                                                          \
  X(cuTensorMapEncodeTiled)                                                    \
  X(cuFuncGetName)

struct CudaDriver {
#define HIDET_CUDA_DECLARE_SLOT(fn) decltype(&::fn) fn = nullptr;
  HIDET_CUDA_REQUIRED_FUNCTIONS(HIDET_CUDA_DECLARE_SLOT)
  HIDET_CUDA_OPTIONAL_FUNCTIONS(HIDET_CUDA_DECLARE_SLOT)
#undef HIDET_CUDA_DECLARE_SLOT
};

/// Returns the driver table, opening libcuda.so.1 on the first call (thread
/// safe; the outcome is final). On failure returns null and sets `status` to
/// a HIDET_RUNTIME_ERROR_* code and `reason` to a static description.
const CudaDriver *getCudaDriver(int &status, const char *&reason);

} // namespace hidet::runtime

#endif // HIDET_RUNTIME_LIB_CUDADRIVER_H
