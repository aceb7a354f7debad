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
  /// Unsigned integers, for which manifests have no dtype: `dtype` is then
  /// one of the same width, and the elements are bits that fill an integer
  /// arg of that width, or for 16 bits an f16 or bf16 one (ONNX's test data
  /// stores bfloat16 tensors as UINT16).
  bool isUnsigned = false;
  std::vector<unsigned char> data;

  /// Whether the elements can fill the buffer of `arg`.
  bool fits(const ArgSpec &arg) const;
  /// "f32 3x4x5", "u8 scalar": the dtype as ArgSpec::str() spells it, or
  /// u<bits> for unsigned integers.
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
