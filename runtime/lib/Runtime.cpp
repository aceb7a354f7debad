//===- Runtime.cpp - Hidet GPU runtime over the CUDA driver API -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Implements hidet/Runtime.h: the mgpu* functions that MLIR 22's host code
// calls for modules, launches, streams and events, and the runner helpers
// (memory in Memory.cpp, TMA descriptors in TensorMaps.cpp). Every call goes
// through a Scope, which loads the driver, makes the default device's
// primary context current, and turns each failed driver call into one
// printed and recorded error.
//
//===----------------------------------------------------------------------===//

#include "hidet/Runtime.h"

#include "CallState.h"
#include "MemRefView.h"
#include "Scope.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cinttypes>
#include <climits>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <map>
#include <mutex>
#include <string_view>
#include <utility>

using namespace hidet::runtime;

namespace {

// The process-wide stream of hidetRuntimeSetStream.
std::atomic<CUstream> overrideStream{nullptr};

/// Whether `stream` is the one of the model run on this thread.
bool isCallStream(hidetStream_t stream) {
  return activeCall && stream == activeCall->stream;
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Dynamic shared memory beyond what a function allows by default (about
/// 48 KiB, less its static shared memory) needs a per-function opt-in. The
/// function's current allowance is asked for rather than assumed, so the
/// opt-in happens exactly when the launch would otherwise fail.
bool prepareSharedMemory(Scope &scope, CUfunction function, int32_t smemBytes) {
  if (smemBytes <= 0)
    return true;
  int allowed = 0;
  if (!HIDET_CU(scope,
                cuFuncGetAttribute(
                    &allowed, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    function)))
    return false;
  if (smemBytes <= allowed)
    return true;
  CUdevice device = 0;
  int maxOptIn = 0, staticBytes = 0;
  if (!HIDET_CU(scope, cuDeviceGet(&device, defaultDevice)) ||
      !HIDET_CU(scope,
                cuDeviceGetAttribute(
                    &maxOptIn,
                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                    device)) ||
      !HIDET_CU(scope, cuFuncGetAttribute(&staticBytes,
                                          CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                                          function)))
    return false;
  if (staticBytes + smemBytes > maxOptIn) {
    scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
               "the kernel asks for %d bytes of dynamic shared memory (and has "
               "%d of static) but the device allows at most %d per block",
               smemBytes, staticBytes, maxOptIn);
    return false;
  }
  return HIDET_CU(
      scope, cuFuncSetAttribute(function,
                                CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                smemBytes));
}

/// While it lives, a launch on `stream` in a profiled model run (CallState)
/// is bracketed by a pair of events: the first is recorded when it is made,
/// the second when it is destroyed, after the launch. The run's owner reads
/// and destroys them.
class ProfiledLaunch {
public:
  ProfiledLaunch(Scope &scope, CUfunction function, CUstream stream)
      : scope(scope), stream(stream) {
    std::vector<LaunchEvents> *profile =
        activeCall ? activeCall->profile : nullptr;
    if (!profile)
      return;
    // Recorded first, so that the owner destroys what was created even
    // when a later step fails.
    profile->push_back({function, nullptr, nullptr});
    events = &profile->back();
    if (!HIDET_CU(scope, cuEventCreate(&events->start, CU_EVENT_DEFAULT)) ||
        !HIDET_CU(scope, cuEventCreate(&events->end, CU_EVENT_DEFAULT)) ||
        !HIDET_CU(scope, cuEventRecord(events->start, stream)))
      events = nullptr;
  }
  ~ProfiledLaunch() {
    if (events)
      HIDET_CU(scope, cuEventRecord(events->end, stream));
  }
  ProfiledLaunch(const ProfiledLaunch &) = delete;
  ProfiledLaunch &operator=(const ProfiledLaunch &) = delete;

private:
  Scope &scope;
  CUstream stream;
  LaunchEvents *events = nullptr;
};

/// Launch dimensions are i64 in the IR and 32-bit for the driver: reject
/// rather than truncate.
bool checkLaunch(Scope &scope, CUfunction function,
                 std::initializer_list<int64_t> dims) {
  if (!function) {
    scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
               "no kernel to launch (its mgpuModuleGetFunction failed)");
    return false;
  }
  for (int64_t dim : dims) {
    if (dim < 1 || dim > static_cast<int64_t>(UINT32_MAX)) {
      scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                 "launch dimension %" PRId64 " is outside [1, 2^32)", dim);
      return false;
    }
  }
  return true;
}

} // namespace

//===----------------------------------------------------------------------===//
// Runtime state
//===----------------------------------------------------------------------===//

extern "C" int hidetRuntimeDeviceName(char *buf, size_t size) {
  Scope scope("hidetRuntimeDeviceName");
  if (!scope)
    return scope.getStatus();
  if (!buf || size == 0) {
    scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT, "empty output buffer");
    return scope.getStatus();
  }
  CUdevice device = 0;
  if (HIDET_CU(scope, cuDeviceGet(&device, defaultDevice)))
    HIDET_CU(scope, cuDeviceGetName(
                        buf, static_cast<int>(std::min<size_t>(size, INT_MAX)),
                        device));
  return scope.getStatus();
}

extern "C" void hidetRuntimeSetStream(hidetStream_t stream) {
  overrideStream.store(stream);
}

extern "C" hidetStream_t hidetRuntimeGetStream(void) {
  return overrideStream.load();
}

//===----------------------------------------------------------------------===//
// Runner helpers
//===----------------------------------------------------------------------===//

extern "C" hidetStream_t hidetStreamCreate(void) {
  Scope scope("hidetStreamCreate");
  CUstream stream = nullptr;
  if (scope)
    HIDET_CU(scope, cuStreamCreate(&stream, CU_STREAM_DEFAULT));
  return stream;
}

extern "C" int hidetStreamDestroy(hidetStream_t stream) {
  if (!stream)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetStreamDestroy");
  if (scope)
    HIDET_CU(scope, cuStreamDestroy(stream));
  return scope.getStatus();
}

extern "C" int hidetStreamSynchronize(hidetStream_t stream) {
  Scope scope("hidetStreamSynchronize");
  if (scope)
    HIDET_CU(scope, cuStreamSynchronize(stream));
  return scope.getStatus();
}

extern "C" hidetEvent_t hidetEventCreate(void) {
  Scope scope("hidetEventCreate");
  CUevent event = nullptr;
  if (scope)
    HIDET_CU(scope, cuEventCreate(&event, CU_EVENT_DEFAULT));
  return event;
}

extern "C" int hidetEventDestroy(hidetEvent_t event) {
  if (!event)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetEventDestroy");
  if (scope)
    HIDET_CU(scope, cuEventDestroy(event));
  return scope.getStatus();
}

extern "C" int hidetEventRecord(hidetEvent_t event, hidetStream_t stream) {
  Scope scope("hidetEventRecord");
  if (scope)
    HIDET_CU(scope, cuEventRecord(event, stream));
  return scope.getStatus();
}

extern "C" int hidetEventSynchronize(hidetEvent_t event) {
  Scope scope("hidetEventSynchronize");
  if (scope)
    HIDET_CU(scope, cuEventSynchronize(event));
  return scope.getStatus();
}

extern "C" int hidetEventElapsedMs(hidetEvent_t start, hidetEvent_t end,
                                   float *ms) {
  Scope scope("hidetEventElapsedMs");
  if (scope)
    HIDET_CU(scope, cuEventElapsedTime(ms, start, end));
  return scope.getStatus();
}

extern "C" void *hidetMalloc(size_t sizeBytes) {
  if (sizeBytes == 0)
    return nullptr;
  Scope scope("hidetMalloc");
  CUdeviceptr ptr = 0;
  if (scope)
    HIDET_CU(scope, cuMemAlloc(&ptr, sizeBytes),
             [&](Detail &detail) { detail("%zu bytes", sizeBytes); });
  return reinterpret_cast<void *>(ptr);
}

extern "C" int hidetFree(void *devicePtr) {
  if (!devicePtr)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetFree");
  if (scope)
    HIDET_CU(scope, cuMemFree(toDevicePtr(devicePtr)));
  return scope.getStatus();
}

extern "C" int hidetMemcpyHtoD(void *dst, const void *src, size_t sizeBytes) {
  if (sizeBytes == 0)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetMemcpyHtoD");
  if (scope)
    HIDET_CU(scope, cuMemcpyHtoD(toDevicePtr(dst), src, sizeBytes));
  return scope.getStatus();
}

extern "C" int hidetMemcpyDtoH(void *dst, const void *src, size_t sizeBytes) {
  if (sizeBytes == 0)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetMemcpyDtoH");
  if (scope)
    HIDET_CU(scope, cuMemcpyDtoH(dst, toDevicePtr(src), sizeBytes));
  return scope.getStatus();
}

extern "C" int hidetMemsetD8(void *dst, unsigned char value, size_t sizeBytes) {
  if (sizeBytes == 0)
    return HIDET_RUNTIME_OK;
  Scope scope("hidetMemsetD8");
  if (scope)
    HIDET_CU(scope, cuMemsetD8(toDevicePtr(dst), value, sizeBytes));
  return scope.getStatus();
}

extern "C" int hidetDeviceSynchronize(void) {
  Scope scope("hidetDeviceSynchronize");
  if (scope)
    HIDET_CU(scope, cuCtxSynchronize());
  return scope.getStatus();
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

extern "C" hidetModule_t mgpuModuleLoad(const void *data,
                                        uint64_t /*sizeBytes*/) {
  // Cubin and fatbin images carry their own size.
  Scope scope("mgpuModuleLoad");
  CUmodule module = nullptr;
  if (scope)
    HIDET_CU(scope, cuModuleLoadData(&module, data));
  return module;
}

extern "C" hidetModule_t mgpuModuleLoadJIT(const void *ptx, int32_t optLevel) {
  Scope scope("mgpuModuleLoadJIT");
  CUmodule module = nullptr;
  if (!scope)
    return module;
  // The JIT's log is what explains a PTX that does not compile.
  char log[2048] = {};
  auto level = static_cast<uintptr_t>(std::clamp(optLevel, 0, 4));
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL, CU_JIT_ERROR_LOG_BUFFER,
                            CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[] = {reinterpret_cast<void *>(level), log,
                    reinterpret_cast<void *>(uintptr_t(sizeof(log)))};
  // The log is read by the lambda, after the call has filled it.
  HIDET_CU(
      scope,
      cuModuleLoadDataEx(&module, ptx, std::size(options), options, values),
      [&](Detail &detail) { detail("JIT log: %s", log[0] ? log : "(empty)"); });
  return module;
}

extern "C" void mgpuModuleUnload(hidetModule_t module) {
  // Null when the load failed, which was reported then.
  if (!module)
    return;
  Scope scope("mgpuModuleUnload", /*quietAtExit=*/true);
  if (scope)
    HIDET_CU(scope, cuModuleUnload(module));
}

extern "C" hidetFunction_t mgpuModuleGetFunction(hidetModule_t module,
                                                 const char *name) {
  Scope scope("mgpuModuleGetFunction");
  if (!scope)
    return nullptr;
  if (!module) {
    scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
               "no module to look up kernel '%s' in (its mgpuModuleLoad "
               "failed)",
               name ? name : "");
    return nullptr;
  }
  CUfunction function = nullptr;
  HIDET_CU(scope, cuModuleGetFunction(&function, module, name),
           [&](Detail &detail) { detail("kernel '%s'", name ? name : ""); });
  return function;
}

extern "C" void mgpuLaunchKernel(hidetFunction_t function, int64_t gridX,
                                 int64_t gridY, int64_t gridZ, int64_t blockX,
                                 int64_t blockY, int64_t blockZ,
                                 int32_t smemBytes, hidetStream_t stream,
                                 void **params, void **extra,
                                 int64_t /*paramsCount*/) {
  // paramsCount serves runtimes that copy arguments; the driver reads them
  // through `params` using the kernel's own parameter layout.
  if (activeCall)
    ++activeCall->launches;
  Scope scope("mgpuLaunchKernel");
  if (!scope ||
      !checkLaunch(scope, function,
                   {gridX, gridY, gridZ, blockX, blockY, blockZ}) ||
      !prepareSharedMemory(scope, function, smemBytes))
    return;
  ProfiledLaunch profiled(scope, function, stream);
  HIDET_CU(scope,
           cuLaunchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                          smemBytes, stream, params, extra),
           [&](Detail &detail) {
             detail("grid (%" PRId64 ", %" PRId64 ", %" PRId64
                    "), block (%" PRId64 ", %" PRId64 ", %" PRId64
                    "), %d bytes of dynamic shared memory",
                    gridX, gridY, gridZ, blockX, blockY, blockZ, smemBytes);
           });
}

extern "C" void
mgpuLaunchClusterKernel(hidetFunction_t function, int64_t clusterX,
                        int64_t clusterY, int64_t clusterZ, int64_t gridX,
                        int64_t gridY, int64_t gridZ, int64_t blockX,
                        int64_t blockY, int64_t blockZ, int32_t smemBytes,
                        hidetStream_t stream, void **params, void **extra) {
  if (activeCall)
    ++activeCall->launches;
  Scope scope("mgpuLaunchClusterKernel");
  if (!scope ||
      !checkLaunch(scope, function,
                   {clusterX, clusterY, clusterZ, gridX, gridY, gridZ, blockX,
                    blockY, blockZ}) ||
      !prepareSharedMemory(scope, function, smemBytes))
    return;
  if (!scope.cu->cuLaunchKernelEx) {
    scope.fail(HIDET_RUNTIME_ERROR_DRIVER_TOO_OLD,
               "cluster launches need cuLaunchKernelEx (a CUDA 12.0 driver)");
    return;
  }
  // Up to 8 blocks per cluster is portable; larger clusters (16 on H100)
  // must be allowed per function.
  if (clusterX * clusterY * clusterZ > 8 &&
      !HIDET_CU(scope,
                cuFuncSetAttribute(
                    function,
                    CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1)))
    return;
  CUlaunchAttribute attribute;
  std::memset(&attribute, 0, sizeof(attribute));
  attribute.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attribute.value.clusterDim.x = static_cast<unsigned>(clusterX);
  attribute.value.clusterDim.y = static_cast<unsigned>(clusterY);
  attribute.value.clusterDim.z = static_cast<unsigned>(clusterZ);
  CUlaunchConfig config;
  std::memset(&config, 0, sizeof(config));
  config.gridDimX = static_cast<unsigned>(gridX);
  config.gridDimY = static_cast<unsigned>(gridY);
  config.gridDimZ = static_cast<unsigned>(gridZ);
  config.blockDimX = static_cast<unsigned>(blockX);
  config.blockDimY = static_cast<unsigned>(blockY);
  config.blockDimZ = static_cast<unsigned>(blockZ);
  config.sharedMemBytes = static_cast<unsigned>(smemBytes);
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  ProfiledLaunch profiled(scope, function, stream);
  HIDET_CU(scope, cuLaunchKernelEx(&config, function, params, extra),
           [&](Detail &detail) {
             detail("cluster (%" PRId64 ", %" PRId64 ", %" PRId64
                    "), grid (%" PRId64 ", %" PRId64 ", %" PRId64
                    "), block (%" PRId64 ", %" PRId64 ", %" PRId64
                    "), %d bytes of dynamic shared memory",
                    clusterX, clusterY, clusterZ, gridX, gridY, gridZ, blockX,
                    blockY, blockZ, smemBytes);
           });
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

thread_local CallState *hidet::runtime::activeCall = nullptr;

extern "C" hidetStream_t mgpuStreamCreate(void) {
  if (activeCall)
    return activeCall->stream;
  if (CUstream stream = overrideStream.load())
    return stream;
  Scope scope("mgpuStreamCreate");
  CUstream stream = nullptr;
  if (scope)
    HIDET_CU(scope, cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  return stream;
}

extern "C" void mgpuStreamDestroy(hidetStream_t stream) {
  // The null stream cannot be destroyed; the override belongs to the runner.
  if (!stream || stream == overrideStream.load() || isCallStream(stream))
    return;
  Scope scope("mgpuStreamDestroy");
  if (scope)
    HIDET_CU(scope, cuStreamDestroy(stream));
}

namespace {
/// An event to record on the override stream just before the next wait on
/// it (see hidetRuntimeRecordBeforeSync).
struct PendingEvent {
  std::mutex mutex;
  CUevent event = nullptr;
  bool recorded = false;
} eventBeforeSync;
} // namespace

extern "C" hidetEvent_t hidetRuntimeRecordBeforeSync(hidetEvent_t event) {
  std::lock_guard<std::mutex> lock(eventBeforeSync.mutex);
  CUevent previous = eventBeforeSync.recorded ? nullptr : eventBeforeSync.event;
  eventBeforeSync.event = event;
  eventBeforeSync.recorded = false;
  return previous;
}

extern "C" void mgpuStreamSynchronize(hidetStream_t stream) {
  // A model run returns without waiting (and may be under capture).
  if (activeCall && (!stream || isCallStream(stream)))
    return;
  // Where faults of earlier asynchronous kernels surface.
  Scope scope("mgpuStreamSynchronize");
  if (!scope)
    return;
  // A compiled function waits for its stream before returning; an event
  // recorded after it returns would also time the host's wake-up.
  if (stream && stream == overrideStream.load()) {
    std::lock_guard<std::mutex> lock(eventBeforeSync.mutex);
    if (eventBeforeSync.event) {
      HIDET_CU(scope, cuEventRecord(eventBeforeSync.event, stream));
      eventBeforeSync.recorded = true;
    }
  }
  HIDET_CU(scope, cuStreamSynchronize(stream));
}

extern "C" void mgpuStreamWaitEvent(hidetStream_t stream, hidetEvent_t event) {
  Scope scope("mgpuStreamWaitEvent");
  if (scope)
    HIDET_CU(scope, cuStreamWaitEvent(stream, event, /*Flags=*/0));
}

extern "C" hidetEvent_t mgpuEventCreate(void) {
  Scope scope("mgpuEventCreate");
  CUevent event = nullptr;
  if (scope)
    HIDET_CU(scope, cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  return event;
}

extern "C" void mgpuEventDestroy(hidetEvent_t event) {
  if (!event)
    return;
  Scope scope("mgpuEventDestroy");
  if (scope)
    HIDET_CU(scope, cuEventDestroy(event));
}

extern "C" void mgpuEventSynchronize(hidetEvent_t event) {
  Scope scope("mgpuEventSynchronize");
  if (scope)
    HIDET_CU(scope, cuEventSynchronize(event));
}

extern "C" void mgpuEventRecord(hidetEvent_t event, hidetStream_t stream) {
  Scope scope("mgpuEventRecord");
  if (scope)
    HIDET_CU(scope, cuEventRecord(event, stream));
}
