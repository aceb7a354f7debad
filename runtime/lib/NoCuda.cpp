//===- NoCuda.cpp - The runtime's GPU entry points without CUDA -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Where no CUDA toolkit provides cuda.h (a machine without one, such as a
// fresh Debian with only its main archive), libhidet_runtime is built from
// this file instead of the driver-facing ones (CudaDriver, Scope, Runtime,
// Memory, TensorMaps), with Model.cpp and Errors.cpp as always. CPU
// libraries then run through the model API and hidet-run as anywhere else;
// every entry point that needs a GPU records HIDET_RUNTIME_ERROR_NO_DRIVER
// with kNoCudaReason and fails as it would on a machine without the NVIDIA
// driver, so runners report "no CUDA device" (hidet-run's exit status 3).
//
// The build with CUDA also builds this variant (libhidet_runtime_nocuda.so)
// so that it keeps compiling, and the lit tests check that it exports the
// same C API and runs CPU libraries (test/Runtime/no-cuda-runtime.test).
//
//===----------------------------------------------------------------------===//

#include "hidet/Runtime.h"

#include "CallState.h"
#include "Errors.h"

#include <atomic>

using namespace hidet::runtime;

thread_local CallState *hidet::runtime::activeCall = nullptr;

namespace {

std::atomic<hidetStream_t> overrideStream{nullptr};

/// Records why `function` cannot run; returns the status it fails with.
int failNoCuda(const char *function) {
  recordError(HIDET_RUNTIME_ERROR_NO_DRIVER, "%s: %s", function, kNoCudaReason);
  return HIDET_RUNTIME_ERROR_NO_DRIVER;
}

} // namespace

//===----------------------------------------------------------------------===//
// Runtime state, streams, events and memory
//===----------------------------------------------------------------------===//

extern "C" int hidetRuntimeInit(void) { return failNoCuda("hidetRuntimeInit"); }

extern "C" int hidetRuntimeDeviceName(char *buf, size_t size) {
  if (buf && size)
    buf[0] = '\0';
  return failNoCuda("hidetRuntimeDeviceName");
}

extern "C" void hidetRuntimeSetStream(hidetStream_t stream) {
  overrideStream.store(stream);
}

extern "C" hidetStream_t hidetRuntimeGetStream(void) {
  return overrideStream.load();
}

extern "C" hidetEvent_t hidetRuntimeRecordBeforeSync(hidetEvent_t) {
  return nullptr;
}

extern "C" hidetStream_t hidetStreamCreate(void) {
  failNoCuda("hidetStreamCreate");
  return nullptr;
}

extern "C" int hidetStreamDestroy(hidetStream_t stream) {
  return stream ? failNoCuda("hidetStreamDestroy") : HIDET_RUNTIME_OK;
}

extern "C" int hidetStreamSynchronize(hidetStream_t) {
  return failNoCuda("hidetStreamSynchronize");
}

extern "C" hidetEvent_t hidetEventCreate(void) {
  failNoCuda("hidetEventCreate");
  return nullptr;
}

extern "C" int hidetEventDestroy(hidetEvent_t event) {
  return event ? failNoCuda("hidetEventDestroy") : HIDET_RUNTIME_OK;
}

extern "C" int hidetEventRecord(hidetEvent_t, hidetStream_t) {
  return failNoCuda("hidetEventRecord");
}

extern "C" int hidetEventSynchronize(hidetEvent_t) {
  return failNoCuda("hidetEventSynchronize");
}

extern "C" int hidetEventElapsedMs(hidetEvent_t, hidetEvent_t, float *) {
  return failNoCuda("hidetEventElapsedMs");
}

extern "C" void *hidetMalloc(size_t) {
  failNoCuda("hidetMalloc");
  return nullptr;
}

extern "C" int hidetFree(void *devicePtr) {
  return devicePtr ? failNoCuda("hidetFree") : HIDET_RUNTIME_OK;
}

extern "C" int hidetMemcpyHtoD(void *, const void *, size_t) {
  return failNoCuda("hidetMemcpyHtoD");
}

extern "C" int hidetMemcpyDtoH(void *, const void *, size_t) {
  return failNoCuda("hidetMemcpyDtoH");
}

extern "C" int hidetMemsetD8(void *, unsigned char, size_t) {
  return failNoCuda("hidetMemsetD8");
}

extern "C" int hidetDeviceSynchronize(void) {
  return failNoCuda("hidetDeviceSynchronize");
}

extern "C" void hidetRuntimeReleaseCachedMemory(void) {}

//===----------------------------------------------------------------------===//
// The mgpu* ABI of compiled GPU libraries
//===----------------------------------------------------------------------===//

extern "C" hidetModule_t mgpuModuleLoad(const void *, uint64_t) {
  failNoCuda("mgpuModuleLoad");
  return nullptr;
}

extern "C" hidetModule_t mgpuModuleLoadJIT(const void *, int32_t) {
  failNoCuda("mgpuModuleLoadJIT");
  return nullptr;
}

extern "C" void mgpuModuleUnload(hidetModule_t) {}

extern "C" hidetFunction_t mgpuModuleGetFunction(hidetModule_t, const char *) {
  failNoCuda("mgpuModuleGetFunction");
  return nullptr;
}

extern "C" void mgpuLaunchKernel(hidetFunction_t, int64_t, int64_t, int64_t,
                                 int64_t, int64_t, int64_t, int32_t,
                                 hidetStream_t, void **, void **, int64_t) {
  failNoCuda("mgpuLaunchKernel");
}

extern "C" void mgpuLaunchClusterKernel(hidetFunction_t, int64_t, int64_t,
                                        int64_t, int64_t, int64_t, int64_t,
                                        int64_t, int64_t, int64_t, int32_t,
                                        hidetStream_t, void **, void **) {
  failNoCuda("mgpuLaunchClusterKernel");
}

extern "C" hidetStream_t mgpuStreamCreate(void) {
  failNoCuda("mgpuStreamCreate");
  return nullptr;
}

extern "C" void mgpuStreamDestroy(hidetStream_t) {}

extern "C" void mgpuStreamSynchronize(hidetStream_t) {
  failNoCuda("mgpuStreamSynchronize");
}

extern "C" void mgpuStreamWaitEvent(hidetStream_t, hidetEvent_t) {
  failNoCuda("mgpuStreamWaitEvent");
}

extern "C" hidetEvent_t mgpuEventCreate(void) {
  failNoCuda("mgpuEventCreate");
  return nullptr;
}

extern "C" void mgpuEventDestroy(hidetEvent_t) {}

extern "C" void mgpuEventSynchronize(hidetEvent_t) {
  failNoCuda("mgpuEventSynchronize");
}

extern "C" void mgpuEventRecord(hidetEvent_t, hidetStream_t) {
  failNoCuda("mgpuEventRecord");
}

extern "C" void *mgpuMemAlloc(uint64_t, hidetStream_t, bool) {
  failNoCuda("mgpuMemAlloc");
  return nullptr;
}

extern "C" void mgpuMemFree(void *, hidetStream_t) {}

extern "C" void mgpuMemcpy(void *, void *, uint64_t, hidetStream_t) {
  failNoCuda("mgpuMemcpy");
}

extern "C" void mgpuMemset32(void *, uint32_t, uint64_t, hidetStream_t) {
  failNoCuda("mgpuMemset32");
}

extern "C" void mgpuMemset16(void *, uint16_t, uint64_t, hidetStream_t) {
  failNoCuda("mgpuMemset16");
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t, void *, int64_t) {
  failNoCuda("mgpuMemHostRegisterMemRef");
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t, void *, int64_t) {}

extern "C" void mgpuMemHostRegister(void *, uint64_t) {
  failNoCuda("mgpuMemHostRegister");
}

extern "C" void mgpuMemHostUnregister(void *) {}

extern "C" void mgpuSetDefaultDevice(int32_t) {}

extern "C" void *mgpuTensorMapEncodeTiledMemref(int64_t, void *, int64_t,
                                                int64_t, int64_t, int64_t,
                                                int64_t, int64_t *) {
  failNoCuda("mgpuTensorMapEncodeTiledMemref");
  return nullptr;
}
