//===- TensorMaps.cpp - TMA descriptors for the kernels
//---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// mgpuTensorMapEncodeTiledMemref of hidet/Runtime.h: a memref's tensor map,
// encoded by the driver and copied to the device once per device and
// contents.
//
//===----------------------------------------------------------------------===//

#include "hidet/Runtime.h"

#include "CallState.h"
#include "MemRefView.h"
#include "Scope.h"

#include <array>
#include <cinttypes>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <utility>

using namespace hidet::runtime;

namespace {

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
