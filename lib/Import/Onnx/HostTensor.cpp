//===- HostTensor.cpp - Tensors known at import time ----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "HostTensor.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

namespace hidet::onnx_import {

unsigned dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::F32:
  case DType::I32:
  case DType::U32:
    return 4;
  case DType::U8:
  case DType::I8:
  case DType::Bool:
    return 1;
  case DType::U16:
  case DType::I16:
  case DType::F16:
  case DType::BF16:
    return 2;
  case DType::I64:
  case DType::U64:
  case DType::F64:
    return 8;
  default:
    return 0;
  }
}

bool isFloat(DType dtype) {
  return dtype == DType::F32 || dtype == DType::F16 || dtype == DType::BF16 ||
         dtype == DType::F64;
}

bool isUnsigned(DType dtype) {
  return dtype == DType::U8 || dtype == DType::U16 || dtype == DType::U32 ||
         dtype == DType::U64 || dtype == DType::Bool;
}

llvm::StringRef dtypeName(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "float";
  case DType::U8:
    return "uint8";
  case DType::I8:
    return "int8";
  case DType::U16:
    return "uint16";
  case DType::I16:
    return "int16";
  case DType::I32:
    return "int32";
  case DType::I64:
    return "int64";
  case DType::String:
    return "string";
  case DType::Bool:
    return "bool";
  case DType::F16:
    return "float16";
  case DType::F64:
    return "double";
  case DType::U32:
    return "uint32";
  case DType::U64:
    return "uint64";
  case DType::BF16:
    return "bfloat16";
  default:
    return "unsupported";
  }
}

int64_t product(llvm::ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    p *= v;
  return p;
}

std::optional<int64_t> checkedProduct(llvm::ArrayRef<int64_t> values) {
  int64_t p = 1;
  for (int64_t v : values)
    if (v < 0 || llvm::MulOverflow(p, v, p))
      return std::nullopt;
  return p;
}

llvm::SmallVector<int64_t> rowMajorStrides(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  return strides;
}

uint16_t floatToHalfBits(float value) {
  uint32_t x = llvm::bit_cast<uint32_t>(value);
  uint32_t sign = (x >> 16) & 0x8000;
  uint32_t exp = (x >> 23) & 0xff;
  uint32_t mant = x & 0x7fffff;
  if (exp == 0xff) // Inf or NaN (quiet).
    return sign | 0x7c00 | (mant ? 0x200 : 0);
  int32_t e = static_cast<int32_t>(exp) - 127 + 15;
  if (e >= 0x1f)
    return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10)
      return sign;
    // Subnormal: shift the mantissa with its implicit bit into place.
    mant |= 0x800000;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    uint32_t rem = mant & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1)))
      ++half;
    return sign | half;
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1)))
    ++half; // May carry into the exponent, which rounds up to Inf correctly.
  return sign | half;
}

float halfBitsToFloat(uint16_t bits) {
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  uint32_t exp = (bits >> 10) & 0x1f;
  uint32_t mant = bits & 0x3ff;
  uint32_t out;
  if (exp == 0) {
    if (mant == 0) {
      out = sign;
    } else {
      // Subnormal: normalize.
      int e = -1;
      do {
        ++e;
        mant <<= 1;
      } while (!(mant & 0x400));
      out = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
            ((mant & 0x3ff) << 13);
    }
  } else if (exp == 0x1f) {
    out = sign | 0x7f800000 | (mant << 13);
  } else {
    out = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  return llvm::bit_cast<float>(out);
}

uint16_t floatToBF16Bits(float value) {
  uint32_t x = llvm::bit_cast<uint32_t>(value);
  if (std::isnan(value))
    return static_cast<uint16_t>((x >> 16) | 0x40);
  uint32_t rounding = 0x7fff + ((x >> 16) & 1);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bf16BitsToFloat(uint16_t bits) {
  return llvm::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

int64_t HostTensor::getNumElements() const { return product(shape); }

HostTensor HostTensor::zeros(DType dtype, llvm::ArrayRef<int64_t> shape) {
  HostTensor t;
  t.dtype = dtype;
  t.shape.assign(shape.begin(), shape.end());
  t.owned = std::make_shared<std::vector<char>>(
      static_cast<size_t>(t.getNumElements()) * dtypeSize(dtype), 0);
  t.data = t.owned->data();
  return t;
}

HostTensor HostTensor::borrow(DType dtype, llvm::ArrayRef<int64_t> shape,
                              const char *data) {
  HostTensor t;
  t.dtype = dtype;
  t.shape.assign(shape.begin(), shape.end());
  t.data = data;
  return t;
}

HostTensor HostTensor::fromInts(DType dtype, llvm::ArrayRef<int64_t> shape,
                                llvm::ArrayRef<int64_t> values) {
  HostTensor t = zeros(dtype, shape);
  assert(static_cast<int64_t>(values.size()) == t.getNumElements());
  for (size_t i = 0; i < values.size(); ++i)
    t.setInt(i, values[i]);
  return t;
}

HostTensor HostTensor::fromDoubles(DType dtype, llvm::ArrayRef<int64_t> shape,
                                   llvm::ArrayRef<double> values) {
  HostTensor t = zeros(dtype, shape);
  assert(static_cast<int64_t>(values.size()) == t.getNumElements());
  for (size_t i = 0; i < values.size(); ++i)
    t.setDouble(i, values[i]);
  return t;
}

char *HostTensor::getMutableData() {
  if (!owned) {
    owned = std::make_shared<std::vector<char>>(data, data + getNumBytes());
    data = owned->data();
  }
  return owned->data();
}

template <typename T> static T load(const char *data, int64_t i) {
  T value;
  std::memcpy(&value, data + i * sizeof(T), sizeof(T));
  return value;
}

template <typename T> static void store(char *data, int64_t i, T value) {
  std::memcpy(data + i * sizeof(T), &value, sizeof(T));
}

double HostTensor::getDouble(int64_t i) const {
  switch (dtype) {
  case DType::F32:
    return load<float>(data, i);
  case DType::F64:
    return load<double>(data, i);
  case DType::F16:
    return halfBitsToFloat(load<uint16_t>(data, i));
  case DType::BF16:
    return bf16BitsToFloat(load<uint16_t>(data, i));
  case DType::U64:
    return static_cast<double>(load<uint64_t>(data, i));
  default:
    return static_cast<double>(getInt(i));
  }
}

int64_t HostTensor::getInt(int64_t i) const {
  switch (dtype) {
  case DType::U8:
  case DType::Bool:
    return load<uint8_t>(data, i);
  case DType::I8:
    return load<int8_t>(data, i);
  case DType::U16:
    return load<uint16_t>(data, i);
  case DType::I16:
    return load<int16_t>(data, i);
  case DType::I32:
    return load<int32_t>(data, i);
  case DType::U32:
    return load<uint32_t>(data, i);
  case DType::I64:
    return load<int64_t>(data, i);
  case DType::U64:
    return static_cast<int64_t>(load<uint64_t>(data, i));
  default:
    // A float read as an integer (an index or a size a model gives as a
    // float) saturates, as every float-to-integer conversion here does.
    return saturatingInt(getDouble(i));
  }
}

void HostTensor::setDouble(int64_t i, double value) {
  char *out = getMutableData();
  switch (dtype) {
  case DType::F32:
    return store<float>(out, i, static_cast<float>(value));
  case DType::F64:
    return store<double>(out, i, value);
  case DType::F16:
    return store<uint16_t>(out, i, floatToHalfBits(static_cast<float>(value)));
  case DType::BF16:
    return store<uint16_t>(out, i, floatToBF16Bits(static_cast<float>(value)));
  case DType::Bool:
    return store<uint8_t>(out, i, value != 0);
  case DType::U64:
    // Out of range (ONNX leaves it undefined): saturated, NaN as 0.
    if (!(value > 0))
      return store<uint64_t>(out, i, 0);
    if (value >= 0x1p64)
      return store<uint64_t>(out, i, std::numeric_limits<uint64_t>::max());
    return store<uint64_t>(out, i, static_cast<uint64_t>(value));
  default:
    return setInt(i, saturatingInt(value));
  }
}

int64_t saturatingInt(double value, unsigned width) {
  if (std::isnan(value))
    return 0;
  double hi = std::ldexp(1.0, static_cast<int>(width) - 1);
  if (value >= hi)
    return width >= 64 ? std::numeric_limits<int64_t>::max()
                       : (int64_t(1) << (width - 1)) - 1;
  if (value < -hi)
    return width >= 64 ? std::numeric_limits<int64_t>::min()
                       : -(int64_t(1) << (width - 1));
  return static_cast<int64_t>(value);
}

void HostTensor::setInt(int64_t i, int64_t value) {
  char *out = getMutableData();
  switch (dtype) {
  case DType::U8:
    return store<uint8_t>(out, i, static_cast<uint8_t>(value));
  case DType::Bool:
    return store<uint8_t>(out, i, value != 0);
  case DType::I8:
    return store<int8_t>(out, i, static_cast<int8_t>(value));
  case DType::U16:
    return store<uint16_t>(out, i, static_cast<uint16_t>(value));
  case DType::I16:
    return store<int16_t>(out, i, static_cast<int16_t>(value));
  case DType::I32:
    return store<int32_t>(out, i, static_cast<int32_t>(value));
  case DType::U32:
    return store<uint32_t>(out, i, static_cast<uint32_t>(value));
  case DType::I64:
    return store<int64_t>(out, i, value);
  case DType::U64:
    return store<uint64_t>(out, i, static_cast<uint64_t>(value));
  default:
    return setDouble(i, static_cast<double>(value));
  }
}

llvm::SmallVector<int64_t> HostTensor::getInts() const {
  llvm::SmallVector<int64_t> values;
  int64_t n = getNumElements();
  values.reserve(n);
  for (int64_t i = 0; i < n; ++i)
    values.push_back(getInt(i));
  return values;
}

bool HostTensor::isSplat() const {
  int64_t n = getNumElements();
  if (n == 0)
    return false;
  unsigned size = dtypeSize(dtype);
  for (int64_t i = 1; i < n; ++i)
    if (std::memcmp(data, data + i * size, size) != 0)
      return false;
  return true;
}

HostTensor HostTensor::reshaped(llvm::ArrayRef<int64_t> newShape) const {
  assert(product(newShape) == getNumElements());
  HostTensor t = *this;
  t.shape.assign(newShape.begin(), newShape.end());
  return t;
}

HostTensor HostTensor::cast(DType to) const {
  HostTensor t = zeros(to, shape);
  int64_t n = getNumElements();
  bool intToInt = !isFloat(dtype) && !isFloat(to);
  for (int64_t i = 0; i < n; ++i) {
    if (intToInt)
      t.setInt(i, getInt(i));
    else
      t.setDouble(i, getDouble(i));
  }
  return t;
}

HostTensor moveData(const HostTensor &src, llvm::ArrayRef<int64_t> shape,
                    IndexFn source) {
  HostTensor out = HostTensor::zeros(src.getDType(), shape);
  unsigned size = dtypeSize(src.getDType());
  llvm::SmallVector<int64_t> index(shape.size(), 0);
  char *dst = out.getMutableData();
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    std::memcpy(dst + i * size, src.getData() + source(index) * size, size);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

HostTensor paddedWithZeros(const HostTensor &t, llvm::ArrayRef<int64_t> shape) {
  HostTensor out = HostTensor::zeros(t.getDType(), shape);
  llvm::ArrayRef<int64_t> from = t.getShape();
  unsigned size = dtypeSize(t.getDType());
  llvm::SmallVector<int64_t> index(from.size(), 0);
  for (int64_t i = 0, n = t.getNumElements(); i < n; ++i) {
    std::memcpy(out.getMutableData() + linearIndex(index, shape) * size,
                t.getData() + i * size, size);
    for (int64_t d = static_cast<int64_t>(from.size()) - 1; d >= 0; --d) {
      if (++index[d] < from[d])
        break;
      index[d] = 0;
    }
  }
  return out;
}

HostTensor permuted(const HostTensor &t, llvm::ArrayRef<int64_t> perm) {
  llvm::ArrayRef<int64_t> from = t.getShape();
  llvm::SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(from[p]);
  llvm::SmallVector<int64_t> strides = rowMajorStrides(from);
  return moveData(t, shape, [&](llvm::ArrayRef<int64_t> idx) {
    int64_t at = 0;
    for (size_t i = 0; i < perm.size(); ++i)
      at += idx[i] * strides[perm[i]];
    return at;
  });
}

int64_t linearIndex(llvm::ArrayRef<int64_t> index,
                    llvm::ArrayRef<int64_t> shape) {
  int64_t linear = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    linear = linear * shape[d] + index[d];
  return linear;
}

} // namespace hidet::onnx_import
