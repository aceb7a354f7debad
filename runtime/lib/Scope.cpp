//===- Scope.cpp - Driver calls with context and error handling ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The primary contexts and hidetRuntimeInit (the error state is in
// Errors.cpp).
//
//===----------------------------------------------------------------------===//

#include "Scope.h"

#include <atomic>
#include <mutex>

using namespace hidet::runtime;

namespace {

// Primary contexts, retained once per device and never released: modules
// loaded into them live until the process ends.
std::atomic<CUcontext> primaryContexts[kMaxDevices];
std::mutex contextMutex;
bool driverInitialized = false;
CUresult driverInitResult = CUDA_SUCCESS;

} // namespace

thread_local int32_t hidet::runtime::defaultDevice = 0;

bool Scope::getPrimaryContext(CUcontext &context) {
  int32_t device = defaultDevice;
  if (device < 0 || device >= kMaxDevices) {
    fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
         "device %d is out of range (at most %d devices)", device, kMaxDevices);
    return false;
  }
  context = primaryContexts[device].load(std::memory_order_acquire);
  if (context)
    return true;
  std::lock_guard<std::mutex> lock(contextMutex);
  context = primaryContexts[device].load(std::memory_order_relaxed);
  if (context)
    return true;
  if (!driverInitialized) {
    driverInitResult = cu->cuInit(0);
    driverInitialized = true;
  }
  if (!check(driverInitResult, "cuInit"))
    return false;
  auto describe = [device](Detail &detail) { detail("device %d", device); };
  CUdevice handle = 0;
  if (!check(cu->cuDeviceGet(&handle, device), "cuDeviceGet", describe) ||
      !check(cu->cuDevicePrimaryCtxRetain(&context, handle),
             "cuDevicePrimaryCtxRetain", describe))
    return false;
  primaryContexts[device].store(context, std::memory_order_release);
  return true;
}

//===----------------------------------------------------------------------===//
// Runtime state
//===----------------------------------------------------------------------===//

extern "C" int hidetRuntimeInit(void) {
  Scope scope("hidetRuntimeInit");
  return scope.getStatus();
}
