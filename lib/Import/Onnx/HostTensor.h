//===- HostTensor.h - Tensors known at import time --------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A tensor whose value the importer knows: an initializer, a Constant node,
// or the folded result of a computation on such tensors (shape subgraphs).
// Elements are kept in ONNX's little-endian layout of the element type, in
// memory that is either owned or borrowed from the model (an initializer's
// raw_data, or an external data file), so that large weights are never
// copied before they become MLIR constants.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_HOSTTENSOR_H
#define HIDET_LIB_IMPORT_ONNX_HOSTTENSOR_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hidet::onnx_import {

/// ONNX's TensorProto.DataType values that the importer handles.
enum class DType : int32_t {
  Undefined = 0,
  F32 = 1,
  U8 = 2,
  I8 = 3,
  U16 = 4,
  I16 = 5,
  I32 = 6,
  I64 = 7,
  String = 8,
  Bool = 9,
  F16 = 10,
  F64 = 11,
  U32 = 12,
  U64 = 13,
  BF16 = 16,
};

/// Bytes per element, or 0 for types without a fixed size.
unsigned dtypeSize(DType dtype);
bool isFloat(DType dtype);
bool isUnsigned(DType dtype);
/// ONNX's name of the type ("float", "int64", ...).
llvm::StringRef dtypeName(DType dtype);

class HostTensor {
public:
  HostTensor() = default;

  /// A tensor of zeros of the given type and shape (owned memory).
  static HostTensor zeros(DType dtype, llvm::ArrayRef<int64_t> shape);
  /// A tensor over bytes that outlive it (not copied).
  static HostTensor borrow(DType dtype, llvm::ArrayRef<int64_t> shape,
                           const char *data);
  /// A tensor of the given values, converted to `dtype`.
  static HostTensor fromInts(DType dtype, llvm::ArrayRef<int64_t> shape,
                             llvm::ArrayRef<int64_t> values);
  static HostTensor fromDoubles(DType dtype, llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<double> values);

  DType getDType() const { return dtype; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;
  size_t getNumBytes() const { return getNumElements() * dtypeSize(dtype); }
  const char *getData() const { return data; }
  char *getMutableData();

  /// Element `i` (row-major) as a double (floats, integers, bools).
  double getDouble(int64_t i) const;
  /// Element `i` as an integer (floats are truncated, saturating).
  int64_t getInt(int64_t i) const;
  void setDouble(int64_t i, double value);
  void setInt(int64_t i, int64_t value);
  /// All elements as integers.
  llvm::SmallVector<int64_t> getInts() const;
  /// Whether all elements are equal (and there is at least one).
  bool isSplat() const;

  /// The same elements under another shape of the same element count.
  HostTensor reshaped(llvm::ArrayRef<int64_t> newShape) const;
  /// Elements converted to `to` (ONNX Cast semantics).
  HostTensor cast(DType to) const;

private:
  DType dtype = DType::Undefined;
  llvm::SmallVector<int64_t> shape;
  std::shared_ptr<std::vector<char>> owned;
  const char *data = nullptr;
};

/// IEEE binary16 / bfloat16 bits from a float (round to nearest even) and
/// back.
uint16_t floatToHalfBits(float value);
float halfBitsToFloat(uint16_t bits);
uint16_t floatToBF16Bits(float value);
float bf16BitsToFloat(uint16_t bits);

/// Maps an index of a result to the linear index of a source element.
using IndexFn = llvm::function_ref<int64_t(llvm::ArrayRef<int64_t>)>;
/// A tensor of `shape` whose element at each index is `src`'s element at
/// the linear index `source(index)`: how data-moving ops fold.
HostTensor moveData(const HostTensor &src, llvm::ArrayRef<int64_t> shape,
                    IndexFn source);
/// `t` extended with zeros at the end of each dim to `shape` (each extent at
/// least `t`'s).
HostTensor paddedWithZeros(const HostTensor &t, llvm::ArrayRef<int64_t> shape);
/// `t` transposed by `perm` (result dim i is `t`'s dim perm[i]).
HostTensor permuted(const HostTensor &t, llvm::ArrayRef<int64_t> perm);
/// The row-major linear index of `index` in `shape`.
int64_t linearIndex(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape);

/// Row-major strides of `shape`.
llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape);
int64_t product(llvm::ArrayRef<int64_t> values);

/// `value` as a signed integer of `width` bits (2 to 64), saturated to
/// that range, NaN as 0: what the importer makes of a double out of an
/// integer type's range (ONNX leaves it undefined).
int64_t saturatingInt(double value, unsigned width = 64);

/// The most elements a tensor computed at import (ConstantOfShape, Range)
/// may have: 2^28, a GiB of f32, far beyond the shape arithmetic and masks
/// that models fold, and short of what a damaged model asks a host for.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 28;

/// The product of `values` when none is negative and it fits in int64_t
/// (a shape's element count), nothing otherwise. Shapes read from a model
/// are checked with it before `product` is used on them.
std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> values);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_HOSTTENSOR_H
