//===- Tensor.cpp - Tensors in files for hidet-run ------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Tensor.h"

#include "Npy.h"
#include "OnnxTensor.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace hidet::run;

bool Tensor::fits(const ArgSpec &arg) const {
  if (shape != arg.shape)
    return false;
  if (!isUnsigned)
    return dtype == arg.dtype;
  if (getDTypeSize(arg.dtype) != getDTypeSize(dtype))
    return false;
  switch (arg.dtype) {
  case DType::I8:
  case DType::I32:
  case DType::I64:
  case DType::F16:
  case DType::BF16:
    return true;
  case DType::F32:
  case DType::F64:
  case DType::I1:
    return false;
  }
  return false;
}

std::string Tensor::str() const {
  ArgSpec spec;
  spec.dtype = dtype;
  spec.shape = shape;
  std::string text = spec.str();
  if (!isUnsigned)
    return text;
  // The dtype stood in for the width only.
  return "u" + std::to_string(8 * getDTypeSize(dtype)) +
         text.substr(text.find(' '));
}

bool hidet::run::countElements(const std::vector<int64_t> &shape,
                               int64_t &count) {
  count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return false;
    // Checked before multiplying, which could overflow.
    if (dim > 0 && count > kMaxTensorElements / dim)
      return false;
    count *= dim;
  }
  return true;
}

bool hidet::run::readFileBytes(const std::string &path,
                               std::vector<unsigned char> &bytes,
                               std::string &error) {
  std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"),
                                              &std::fclose);
  if (!file) {
    error = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  bytes.clear();
  unsigned char chunk[1 << 16];
  while (true) {
    size_t count = std::fread(chunk, 1, sizeof(chunk), file.get());
    bytes.insert(bytes.end(), chunk, chunk + count);
    if (count < sizeof(chunk))
      break;
  }
  if (std::ferror(file.get())) {
    error = std::string("cannot read: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool hidet::run::readTensorFile(const std::string &path, Tensor &tensor,
                                std::string &error) {
  std::vector<unsigned char> bytes;
  if (!readFileBytes(path, bytes, error))
    return false;
  bool isProto =
      path.size() >= 3 && path.compare(path.size() - 3, 3, ".pb") == 0;
  if (isProto)
    return decodeTensorProto(bytes.data(), bytes.size(), tensor, error);
  return decodeNpy(bytes.data(), bytes.size(), tensor, error);
}
