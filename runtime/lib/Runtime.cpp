//===- Runtime.cpp - Hidet GPU runtime over the CUDA driver API -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Implements hidet/Runtime.h: the mgpu* functions that MLIR 22's host code
// calls and the runner helpers. Every call goes through a Scope, which loads
// the driver, makes the default device's primary context current, and turns
// each failed driver call into one printed and recorded error.
//
//===----------------------------------------------------------------------===//

#include "hidet/Runtime.h"

#include "CallState.h"
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

CUdeviceptr toDevicePtr(const void *ptr) {
  return reinterpret_cast<CUdeviceptr>(ptr);
}

/// The fields of a ranked memref descriptor
/// { T *allocated; T *aligned; int64_t offset; int64_t sizes[rank];
///   int64_t strides[rank]; } for any T and rank.
struct MemRefView {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  MemRefView(const void *descriptor, int64_t rank) {
    auto *words = static_cast<const int64_t *>(descriptor);
    std::memcpy(&aligned, words + 1, sizeof(aligned));
    offset = words[2];
    sizes = words + 3;
    strides = words + 3 + rank;
  }
};

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

/// Element sizes in bytes of CUtensorMapDataType 0..12; the later sub-byte
/// packed types have no memref counterpart.
int tensorMapElementSize(int64_t dataType) {
  static const int sizes[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  if (dataType < 0 || dataType >= static_cast<int64_t>(std::size(sizes)))
    return 0;
  return sizes[dataType];
}

/// Device copies of encoded tensor maps by device and contents: MLIR's
/// lowering encodes descriptors on every call of a function, and sharing
/// identical ones keeps repeated calls from allocating (and leaking). Never
/// freed, like the copies: kernels may still read them at exit.
using TensorMapKey = std::pair<int32_t, std::array<uint64_t, 16>>;
std::mutex tensorMapMutex;
auto *tensorMapCache = new std::map<TensorMapKey, CUdeviceptr>();

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

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

//===----------------------------------------------------------------------===//
// Device memory with a size-keyed cache
//===----------------------------------------------------------------------===//
//
// Compiled functions allocate their temporaries on every call, and
// cuMemFree synchronizes the whole device: without a cache, a function of
// several kernels would be timed with allocator round trips between them.
// Freed device blocks are kept per exact size and handed out again. This is
// safe for the code hidet-compile emits: one function call runs on one
// stream (so reuse within a call is stream-ordered) and waits for it before
// returning (so reuse across calls sees finished work). Set
// HIDET_RUNTIME_NO_CACHE=1 to allocate and free directly.

namespace {
std::mutex cacheMutex;
std::multimap<uint64_t, CUdeviceptr> freeBlocks;
std::map<CUdeviceptr, uint64_t> liveBlocks;

bool cacheEnabled() {
  static const bool enabled = [] {
    const char *v = std::getenv("HIDET_RUNTIME_NO_CACHE");
    return !(v && *v && std::strcmp(v, "0") != 0);
  }();
  return enabled;
}
} // namespace

extern "C" void *mgpuMemAlloc(uint64_t sizeBytes, hidetStream_t /*stream*/,
                              bool isHostShared) {
  // Allocation is synchronous, as in MLIR's wrappers: mgpuMemFree could not
  // tell stream-ordered allocations from managed ones.
  if (sizeBytes == 0)
    return nullptr;
  if (activeCall)
    ++activeCall->allocations;
  if (!isHostShared && cacheEnabled()) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = freeBlocks.find(sizeBytes);
    if (it != freeBlocks.end()) {
      CUdeviceptr ptr = it->second;
      freeBlocks.erase(it);
      liveBlocks[ptr] = sizeBytes;
      return reinterpret_cast<void *>(ptr);
    }
  }
  Scope scope("mgpuMemAlloc");
  if (!scope)
    return nullptr;
  auto describe = [&](Detail &detail) {
    detail("%" PRIu64 " bytes%s", sizeBytes,
           isHostShared ? ", host shared" : "");
  };
  CUdeviceptr ptr = 0;
  if (isHostShared)
    HIDET_CU(scope, cuMemAllocManaged(&ptr, sizeBytes, CU_MEM_ATTACH_GLOBAL),
             describe);
  else
    HIDET_CU(scope, cuMemAlloc(&ptr, sizeBytes), describe);
  if (ptr && !isHostShared && cacheEnabled()) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    liveBlocks[ptr] = sizeBytes;
  }
  return reinterpret_cast<void *>(ptr);
}

extern "C" void mgpuMemFree(void *ptr, hidetStream_t /*stream*/) {
  if (!ptr)
    return;
  if (cacheEnabled()) {
    std::lock_guard<std::mutex> lock(cacheMutex);
    auto it = liveBlocks.find(toDevicePtr(ptr));
    if (it != liveBlocks.end()) {
      freeBlocks.emplace(it->second, it->first);
      liveBlocks.erase(it);
      return;
    }
  }
  Scope scope("mgpuMemFree");
  if (scope)
    HIDET_CU(scope, cuMemFree(toDevicePtr(ptr)));
}

extern "C" void hidetRuntimeReleaseCachedMemory(void) {
  std::multimap<uint64_t, CUdeviceptr> blocks;
  {
    std::lock_guard<std::mutex> lock(cacheMutex);
    blocks.swap(freeBlocks);
  }
  if (blocks.empty())
    return;
  Scope scope("hidetRuntimeReleaseCachedMemory");
  if (!scope)
    return;
  for (auto &[size, ptr] : blocks)
    HIDET_CU(scope, cuMemFree(ptr));
}

extern "C" void mgpuMemcpy(void *dst, void *src, uint64_t sizeBytes,
                           hidetStream_t stream) {
  if (sizeBytes == 0)
    return;
  // Unified addressing lets one call serve every direction.
  Scope scope("mgpuMemcpy");
  if (scope && activeCall) {
    // Copies from pageable host memory cannot be captured in graphs.
    CUmemorytype type = CU_MEMORYTYPE_HOST;
    if (scope.cu->cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                        toDevicePtr(src)) != CUDA_SUCCESS ||
        type == CU_MEMORYTYPE_HOST)
      ++activeCall->hostCopies;
  }
  if (scope)
    HIDET_CU(scope, cuMemcpyAsync(toDevicePtr(dst), toDevicePtr(src), sizeBytes,
                                  stream));
}

extern "C" void mgpuMemset32(void *dst, uint32_t value, uint64_t count,
                             hidetStream_t stream) {
  if (count == 0)
    return;
  Scope scope("mgpuMemset32");
  if (scope)
    HIDET_CU(scope, cuMemsetD32Async(toDevicePtr(dst), value, count, stream));
}

extern "C" void mgpuMemset16(void *dst, uint16_t value, uint64_t count,
                             hidetStream_t stream) {
  if (count == 0)
    return;
  Scope scope("mgpuMemset16");
  if (scope)
    HIDET_CU(scope, cuMemsetD16Async(toDevicePtr(dst), value, count, stream));
}

extern "C" void mgpuMemHostRegister(void *ptr, uint64_t sizeBytes) {
  if (!ptr || sizeBytes == 0)
    return;
  Scope scope("mgpuMemHostRegister");
  if (scope)
    HIDET_CU(scope, cuMemHostRegister(ptr, sizeBytes, /*Flags=*/0));
}

extern "C" void mgpuMemHostUnregister(void *ptr) {
  if (!ptr)
    return;
  Scope scope("mgpuMemHostUnregister");
  if (scope)
    HIDET_CU(scope, cuMemHostUnregister(ptr));
}

extern "C" void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                          int64_t elementSizeBytes) {
  MemRefView view(descriptor, rank);
  // Registration pins one byte range, so the memref must be contiguous.
  int64_t numElements = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    if (view.sizes[i] != 1 && view.strides[i] != numElements) {
      recordError(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
                  "mgpuMemHostRegisterMemRef: only contiguous row-major "
                  "memrefs can be registered");
      return;
    }
    numElements *= view.sizes[i];
  }
  mgpuMemHostRegister(view.aligned + view.offset * elementSizeBytes,
                      static_cast<uint64_t>(numElements * elementSizeBytes));
}

extern "C" void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                            int64_t elementSizeBytes) {
  MemRefView view(descriptor, rank);
  mgpuMemHostUnregister(view.aligned + view.offset * elementSizeBytes);
}

extern "C" void mgpuSetDefaultDevice(int32_t device) { defaultDevice = device; }

//===----------------------------------------------------------------------===//
// TMA descriptors
//===----------------------------------------------------------------------===//

extern "C" void *mgpuTensorMapEncodeTiledMemref(
    int64_t rank, void *descriptor, int64_t dataType, int64_t interleave,
    int64_t swizzle, int64_t l2Promotion, int64_t oobFill, int64_t *boxDims) {
  Scope scope("mgpuTensorMapEncodeTiledMemref");
  if (!scope)
    return nullptr;
  if (!scope.cu->cuTensorMapEncodeTiled) {
    scope.fail(HIDET_RUNTIME_ERROR_DRIVER_TOO_OLD,
               "TMA descriptors need cuTensorMapEncodeTiled (a CUDA 12.0 "
               "driver)");
    return nullptr;
  }
  int elementSize = tensorMapElementSize(dataType);
  if (rank < 1 || rank > 5 || elementSize == 0) {
    scope.fail(HIDET_RUNTIME_ERROR_INVALID_ARGUMENT,
               "unsupported tensor map: rank %" PRId64
               " (1 to 5 allowed), data type %" PRId64,
               rank, dataType);
    return nullptr;
  }

  // The driver numbers dimensions innermost first; memrefs and box sizes
  // are outermost first. The innermost stride is implicitly one element.
  MemRefView view(descriptor, rank);
  cuuint64_t globalDim[5] = {1, 1, 1, 1, 1}, globalStrides[5] = {0};
  cuuint32_t boxDim[5] = {1, 1, 1, 1, 1}, elementStrides[5] = {1, 1, 1, 1, 1};
  for (int64_t i = 0; i < rank; ++i) {
    globalDim[i] = static_cast<cuuint64_t>(view.sizes[rank - 1 - i]);
    boxDim[i] = static_cast<cuuint32_t>(boxDims[rank - 1 - i]);
  }
  for (int64_t i = 0; i + 1 < rank; ++i)
    globalStrides[i] =
        static_cast<cuuint64_t>(view.strides[rank - 2 - i] * elementSize);
  void *globalAddress = view.aligned + view.offset * elementSize;

  CUtensorMap tensorMap;
  std::memset(&tensorMap, 0, sizeof(tensorMap));
  CUresult result = scope.cu->cuTensorMapEncodeTiled(
      &tensorMap, static_cast<CUtensorMapDataType>(dataType),
      static_cast<cuuint32_t>(rank), globalAddress, globalDim, globalStrides,
      boxDim, elementStrides, static_cast<CUtensorMapInterleave>(interleave),
      static_cast<CUtensorMapSwizzle>(swizzle),
      static_cast<CUtensorMapL2promotion>(l2Promotion),
      static_cast<CUtensorMapFloatOOBfill>(oobFill));
  // The constraints (16-byte aligned address and strides, box extents up to
  // 256, swizzle span) are easiest to check against the actual values.
  auto describe = [&](Detail &detail) {
    detail("address %p, data type %" PRId64 ", interleave %" PRId64
           ", swizzle %" PRId64 ", l2 promotion %" PRId64 ", oob fill %" PRId64
           "; innermost first: dims",
           globalAddress, dataType, interleave, swizzle, l2Promotion, oobFill);
    for (int64_t i = 0; i < rank; ++i)
      detail(" %llu", static_cast<unsigned long long>(globalDim[i]));
    detail(", byte strides");
    for (int64_t i = 0; i + 1 < rank; ++i)
      detail(" %llu", static_cast<unsigned long long>(globalStrides[i]));
    detail(", box");
    for (int64_t i = 0; i < rank; ++i)
      detail(" %u", boxDim[i]);
  };
  if (!scope.check(result, "cuTensorMapEncodeTiled", describe))
    return nullptr;

  TensorMapKey key;
  key.first = defaultDevice;
  static_assert(sizeof(tensorMap) == sizeof(key.second),
                "CUtensorMap is expected to be 128 bytes");
  std::memcpy(key.second.data(), &tensorMap, sizeof(tensorMap));
  std::lock_guard<std::mutex> lock(tensorMapMutex);
  auto found = tensorMapCache->find(key);
  if (found != tensorMapCache->end())
    return reinterpret_cast<void *>(found->second);
  CUdeviceptr copy = 0;
  if (!HIDET_CU(scope, cuMemAlloc(&copy, sizeof(tensorMap))))
    return nullptr;
  if (!HIDET_CU(scope, cuMemcpyHtoD(copy, &tensorMap, sizeof(tensorMap)))) {
    scope.cu->cuMemFree(copy);
    return nullptr;
  }
  tensorMapCache->emplace(key, copy);
  return reinterpret_cast<void *>(copy);
}
