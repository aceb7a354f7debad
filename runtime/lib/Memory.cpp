//===- Memory.cpp - Device memory, copies and host registration -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The mgpu* memory functions of hidet/Runtime.h: allocation through a
// size-keyed cache of device blocks, copies, fills and host registration.
//
//===----------------------------------------------------------------------===//

#include "hidet/Runtime.h"

#include "CallState.h"
#include "MemRefView.h"
#include "Scope.h"

#include <cinttypes>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

using namespace hidet::runtime;

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
