//===- Tensor.h - Tensors in files for hidet-run ----------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Tensors that hidet-run reads from files (inputs, expected outputs) and
// writes to them (outputs): NumPy .npy (Npy.h) and ONNX TensorProto .pb
// (OnnxTensor.h), held in the layout of a memref buffer.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_TENSOR_H
#define HIDET_RUN_TENSOR_H

#include "ManifestParser.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hidet::run {

/// The elements of a tensor in a memref buffer's layout: row-major, in the
/// manifest's encodings (hidet/Manifest.h).
struct Tensor {
  DType dtype = DType::F32;
  std::vector<int64_t> shape; // Empty for rank 0.
  /// The element type as the file spells it ("'<f4'", "FLOAT"), for
  /// messages.
  std::string fileType;
  std::vector<unsigned char> data;

  /// "f32 3x4x5" or "f32 scalar", as ArgSpec::str().
  std::string str() const;
};

/// The most elements a tensor file may hold; as in manifests, it keeps
/// sizes in bytes far from overflow.
constexpr int64_t kMaxTensorElements = int64_t(1) << 40;

/// Multiplies the extents of `shape` into `count`. Returns false when one
/// is negative or the product exceeds kMaxTensorElements.
bool countElements(const std::vector<int64_t> &shape, int64_t &count);

/// Reads the whole file at `path` into `bytes`; on failure returns false
/// with `error` saying why (without the path).
bool readFileBytes(const std::string &path, std::vector<unsigned char> &bytes,
                   std::string &error);

/// Reads a tensor file: NumPy .npy, or ONNX TensorProto when the name ends
/// in .pb. On failure returns false with `error` saying what is wrong
/// (without the path).
bool readTensorFile(const std::string &path, Tensor &tensor,
                    std::string &error);

} // namespace hidet::run

#endif // HIDET_RUN_TENSOR_H
