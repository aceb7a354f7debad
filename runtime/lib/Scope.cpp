//===- Scope.cpp - Driver calls with context and error handling ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The error state, the primary contexts, and the runtime's error functions
// of hidet/Runtime.h.
//
//===----------------------------------------------------------------------===//

#include "Scope.h"

#include <atomic>
#include <cstring>
#include <mutex>

using namespace hidet::runtime;

namespace {

//===----------------------------------------------------------------------===//
// Error state
//===----------------------------------------------------------------------===//

// Plain storage only: libraries call in from global destructors at exit,
// possibly after this file's destructors would have run.
std::mutex errorMutex;
int recordedCode = HIDET_RUNTIME_OK;
char recordedMessage[4096];
std::atomic<bool> printErrors{true};

void recordErrorV(int code, const char *format, va_list args) {
  char message[sizeof(recordedMessage)];
  std::vsnprintf(message, sizeof(message), format, args);
  if (printErrors.load(std::memory_order_relaxed))
    std::fprintf(stderr, "hidet-runtime: %s\n", message);
  std::lock_guard<std::mutex> lock(errorMutex);
  if (recordedCode != HIDET_RUNTIME_OK)
    return;
  recordedCode = code;
  std::memcpy(recordedMessage, message, sizeof(message));
}

// Primary contexts, retained once per device and never released: modules
// loaded into them live until the process ends.
std::atomic<CUcontext> primaryContexts[kMaxDevices];
std::mutex contextMutex;
bool driverInitialized = false;
CUresult driverInitResult = CUDA_SUCCESS;

} // namespace

thread_local int32_t hidet::runtime::defaultDevice = 0;

void hidet::runtime::recordError(int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordErrorV(code, format, args);
  va_end(args);
}

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
// Runtime state and errors
//===----------------------------------------------------------------------===//

extern "C" int hidetRuntimeInit(void) {
  Scope scope("hidetRuntimeInit");
  return scope.getStatus();
}

extern "C" int hidetRuntimeLastError(const char **message) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (message)
    *message = recordedCode == HIDET_RUNTIME_OK ? "" : recordedMessage;
  return recordedCode;
}

extern "C" void hidetRuntimeClearError(void) {
  std::lock_guard<std::mutex> lock(errorMutex);
  recordedCode = HIDET_RUNTIME_OK;
  recordedMessage[0] = '\0';
}

extern "C" int hidetRuntimeSetErrorPrinting(int enabled) {
  return printErrors.exchange(enabled != 0);
}
