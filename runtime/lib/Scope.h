//===- Scope.h - Driver calls with context and error handling --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The runtime's internal frame for driver calls: every entry point makes a
// Scope, which loads the driver, makes the default device's primary context
// current, and turns each failed driver call into one printed and recorded
// error (hidetRuntimeLastError).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_SCOPE_H
#define HIDET_RUNTIME_LIB_SCOPE_H

#include "CudaDriver.h"
#include "Errors.h"

#include "hidet/Runtime.h"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string_view>

namespace hidet::runtime {

/// A fixed-size text that printf-style pieces are appended to, truncating;
/// error paths should not allocate.
template <size_t N> class DetailText {
public:
  __attribute__((format(printf, 2, 3))) DetailText &
  operator()(const char *format, ...) {
    if (length + 1 >= N)
      return *this;
    va_list args;
    va_start(args, format);
    int written = std::vsnprintf(buffer + length, N - length, format, args);
    va_end(args);
    if (written > 0)
      length = std::min(N - 1, length + static_cast<size_t>(written));
    return *this;
  }
  const char *c_str() const { return buffer; }

private:
  char buffer[N] = {};
  size_t length = 0;
};

using Detail = DetailText<3072>;

constexpr int kMaxDevices = 64;

// Set by mgpuSetDefaultDevice; per thread, as in MLIR's own wrappers.
extern thread_local int32_t defaultDevice;

/// One runtime entry point's use of the driver. Construction loads the
/// driver and pushes the primary context of the thread's default device;
/// destruction pops it. Failures are recorded under the entry point's name.
class Scope {
public:
  /// With `quietAtExit`, CUDA_ERROR_DEINITIALIZED is not reported: cleanup
  /// run by global destructors may find the driver already shut down.
  explicit Scope(const char *where, bool quietAtExit = false)
      : where(where), quietAtExit(quietAtExit) {
    const char *reason = nullptr;
    cu = getCudaDriver(status, reason);
    if (!cu) {
      recordError(status, "%s: CUDA driver not available: %s", where, reason);
      return;
    }
    CUcontext context = nullptr;
    if (!getPrimaryContext(context) ||
        !check(cu->cuCtxPushCurrent(context), "cuCtxPushCurrent"))
      return;
    pushed = true;
  }

  ~Scope() {
    if (pushed)
      check(cu->cuCtxPopCurrent(nullptr), "cuCtxPopCurrent");
  }

  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;

  /// Whether the context is current and driver calls can be made.
  explicit operator bool() const { return pushed; }

  /// Records `result` if it is an error; returns whether it was a success.
  /// `call` is the call's source text, of which the callee is reported.
  bool check(CUresult result, std::string_view call) {
    return check(result, call, [](Detail &) {});
  }

  /// As above; on failure `describe` appends details (kernel names, sizes,
  /// JIT logs), so that the success path formats nothing.
  template <typename Describe>
  bool check(CUresult result, std::string_view call, Describe &&describe) {
    if (result == CUDA_SUCCESS)
      return true;
    status = result;
    if (quietAtExit && result == CUDA_ERROR_DEINITIALIZED)
      return false;
    std::string_view callee = call.substr(0, call.find('('));
    const char *name = nullptr, *text = nullptr;
    if (cu->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
      name = "unrecognized CUDA error";
    if (cu->cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
      text = "no description";
    Detail detail;
    describe(detail);
    recordError(result, "%s: %.*s failed with %s (%d: %s)%s%s", where,
                static_cast<int>(callee.size()), callee.data(), name,
                static_cast<int>(result), text, detail.c_str()[0] ? "; " : "",
                detail.c_str());
    return false;
  }

  /// Records an error that is not a driver result.
  __attribute__((format(printf, 3, 4))) void fail(int code, const char *format,
                                                  ...) {
    status = code;
    char message[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(message, sizeof(message), format, args);
    va_end(args);
    recordError(code, "%s: %s", where, message);
  }

  /// 0, or the status of this scope's failure.
  int getStatus() const { return status; }

  const CudaDriver *cu = nullptr;

private:
  bool getPrimaryContext(CUcontext &context);

  const char *where;
  bool quietAtExit;
  bool pushed = false;
  int status = HIDET_RUNTIME_OK;
};

} // namespace hidet::runtime

// Calls a driver function through the scope's table (under the versioned
// name cuda.h maps it to) and checks the result.
#define HIDET_CU(scope, call, ...)                                             \
  (scope).check((scope).cu->call, #call, ##__VA_ARGS__)

#endif // HIDET_RUNTIME_LIB_SCOPE_H
