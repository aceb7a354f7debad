//===- MemRefView.h - Device pointers and memref descriptors ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What the runtime's entry points read from their arguments: a pointer as the
// driver's device address, and the fields of a ranked memref descriptor.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_LIB_MEMREFVIEW_H
#define HIDET_RUNTIME_LIB_MEMREFVIEW_H

#include <cuda.h>

#include <cstdint>
#include <cstring>

namespace hidet::runtime {

inline CUdeviceptr toDevicePtr(const void *ptr) {
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

} // namespace hidet::runtime

#endif // HIDET_RUNTIME_LIB_MEMREFVIEW_H
