//===- Errors.cpp - The runtime's recorded error --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The error state and the error functions of hidet/Runtime.h.
//
//===----------------------------------------------------------------------===//

#include "Errors.h"

#include "hidet/Runtime.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <mutex>

using namespace hidet::runtime;

namespace {

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

} // namespace

void hidet::runtime::recordError(int code, const char *format, ...) {
  va_list args;
  va_start(args, format);
  recordErrorV(code, format, args);
  va_end(args);
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
