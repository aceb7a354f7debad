//===- OnnxTensor.cpp - ONNX TensorProto files for hidet-run --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "OnnxTensor.h"

#ifdef HIDET_RUN_HAVE_PROTOBUF

#include "onnx/onnx.pb.h"

#include <climits>
#include <cstdint>
#include <cstring>

using namespace hidet::run;

namespace {

using onnx::TensorProto;

/// What hidet makes of an ONNX data type.
enum class Kind {
  Dtype,      // A manifest dtype.
  Unsigned,   // Bits of a width (Tensor::isUnsigned).
  Unsupported // Nothing.
};

struct OnnxType {
  int dataType;
  const char *name;
  Kind kind;
  DType dtype; // For Unsigned, a dtype of the width.
};

const OnnxType onnxTypes[] = {
    {TensorProto::UNDEFINED, "UNDEFINED", Kind::Unsupported, DType::F32},
    {TensorProto::FLOAT, "FLOAT", Kind::Dtype, DType::F32},
    {TensorProto::UINT8, "UINT8", Kind::Unsigned, DType::I8},
    {TensorProto::INT8, "INT8", Kind::Dtype, DType::I8},
    {TensorProto::UINT16, "UINT16", Kind::Unsigned, DType::BF16},
    {TensorProto::INT16, "INT16", Kind::Unsupported, DType::F32},
    {TensorProto::INT32, "INT32", Kind::Dtype, DType::I32},
    {TensorProto::INT64, "INT64", Kind::Dtype, DType::I64},
    {TensorProto::STRING, "STRING", Kind::Unsupported, DType::F32},
    {TensorProto::BOOL, "BOOL", Kind::Dtype, DType::I1},
    {TensorProto::FLOAT16, "FLOAT16", Kind::Dtype, DType::F16},
    {TensorProto::DOUBLE, "DOUBLE", Kind::Dtype, DType::F64},
    {TensorProto::UINT32, "UINT32", Kind::Unsigned, DType::I32},
    {TensorProto::UINT64, "UINT64", Kind::Unsigned, DType::I64},
    {TensorProto::COMPLEX64, "COMPLEX64", Kind::Unsupported, DType::F32},
    {TensorProto::COMPLEX128, "COMPLEX128", Kind::Unsupported, DType::F32},
    {TensorProto::BFLOAT16, "BFLOAT16", Kind::Dtype, DType::BF16},
};

/// Checks that a typed field holds one value per element.
bool checkCount(const char *field, int size, int64_t count,
                std::string &error) {
  if (size == count)
    return true;
  error = std::string(field) + " holds " + std::to_string(size) +
          (size == 1 ? " value" : " values") + " for " + std::to_string(count) +
          " elements";
  return false;
}

/// Stores the values of a repeated field, converted to T, in `data`.
template <typename T, typename Field>
void storeAll(const Field &field, std::vector<unsigned char> &data) {
  data.resize(static_cast<size_t>(field.size()) * sizeof(T));
  for (int i = 0; i < field.size(); ++i) {
    T value = static_cast<T>(field.Get(i));
    std::memcpy(data.data() + i * sizeof(T), &value, sizeof(T));
  }
}

/// Checks that every value of `field` (named `name`) lies in [min, max].
template <typename Field>
bool checkRange(const char *name, const Field &field, int64_t min, uint64_t max,
                const OnnxType &type, std::string &error) {
  for (int i = 0; i < field.size(); ++i) {
    auto value = field.Get(i);
    bool fits = value < 0 ? static_cast<int64_t>(value) >= min
                          : static_cast<uint64_t>(value) <= max;
    if (fits)
      continue;
    error = std::string(name) + "[" + std::to_string(i) +
            "] = " + std::to_string(value) + " is out of range for " +
            type.name;
    return false;
  }
  return true;
}

/// Decodes the typed field that holds elements of `type` (no raw_data).
bool decodeTypedData(const TensorProto &proto, const OnnxType &type,
                     int64_t count, std::vector<unsigned char> &data,
                     std::string &error) {
  switch (type.dataType) {
  case TensorProto::FLOAT:
    if (!checkCount("float_data", proto.float_data_size(), count, error))
      return false;
    storeAll<float>(proto.float_data(), data);
    return true;
  case TensorProto::DOUBLE:
    if (!checkCount("double_data", proto.double_data_size(), count, error))
      return false;
    storeAll<double>(proto.double_data(), data);
    return true;
  case TensorProto::INT64:
    if (!checkCount("int64_data", proto.int64_data_size(), count, error))
      return false;
    storeAll<int64_t>(proto.int64_data(), data);
    return true;
  case TensorProto::UINT64:
    if (!checkCount("uint64_data", proto.uint64_data_size(), count, error))
      return false;
    storeAll<uint64_t>(proto.uint64_data(), data);
    return true;
  case TensorProto::UINT32:
    if (!checkCount("uint64_data", proto.uint64_data_size(), count, error) ||
        !checkRange("uint64_data", proto.uint64_data(), 0, UINT32_MAX, type,
                    error))
      return false;
    storeAll<uint32_t>(proto.uint64_data(), data);
    return true;
  default:
    break;
  }
  // The narrower types travel in int32_data: integers by value, FLOAT16 and
  // BFLOAT16 as their bits in the low half.
  int64_t min = 0;
  uint64_t max = 0xffff;
  switch (type.dataType) {
  case TensorProto::INT32:
    min = INT32_MIN;
    max = INT32_MAX;
    break;
  case TensorProto::INT8:
    min = INT8_MIN;
    max = INT8_MAX;
    break;
  case TensorProto::UINT8:
    max = UINT8_MAX;
    break;
  case TensorProto::BOOL:
    max = 1;
    break;
  default: // FLOAT16, BFLOAT16, UINT16
    break;
  }
  const auto &values = proto.int32_data();
  if (!checkCount("int32_data", values.size(), count, error) ||
      !checkRange("int32_data", values, min, max, type, error))
    return false;
  // Two's complement: the low bytes of each value are the element.
  switch (getDTypeSize(type.dtype)) {
  case 4:
    storeAll<int32_t>(values, data);
    break;
  case 2:
    storeAll<uint16_t>(values, data);
    break;
  default:
    storeAll<uint8_t>(values, data);
    break;
  }
  return true;
}

} // namespace

bool hidet::run::hasTensorProtoSupport() { return true; }

bool hidet::run::decodeTensorProto(const unsigned char *bytes, size_t size,
                                   Tensor &tensor, std::string &error) {
  if (size > static_cast<size_t>(INT_MAX)) {
    error = "larger than 2 GiB, which protobuf messages cannot be";
    return false;
  }
  TensorProto proto;
  if (!proto.ParseFromArray(bytes, static_cast<int>(size))) {
    error = "not an ONNX TensorProto (protobuf parsing failed)";
    return false;
  }
  const OnnxType *type = nullptr;
  for (const OnnxType &candidate : onnxTypes)
    if (candidate.dataType == proto.data_type())
      type = &candidate;
  std::string typeName =
      type ? type->name : "data_type " + std::to_string(proto.data_type());
  if (proto.data_type() == TensorProto::STRING) {
    error = "string tensors are not supported";
    return false;
  }
  if (proto.data_location() == TensorProto::EXTERNAL ||
      proto.external_data_size() > 0) {
    error = "the data is stored in an external file, which is not "
            "supported; save the tensor with its data inside";
    return false;
  }
  if (proto.has_segment()) {
    error = "segmented tensors are not supported";
    return false;
  }
  if (!type || type->kind == Kind::Unsupported) {
    error = "ONNX " + typeName +
            " has no hidet dtype (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT32, "
            "INT64, INT8 or BOOL, or UINT8, UINT16, UINT32 or UINT64 as bits)";
    return false;
  }
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  int64_t count = 0;
  if (!countElements(shape, count)) {
    error = "dims has a negative extent or more than 2^40 elements";
    return false;
  }
  tensor.dtype = type->dtype;
  tensor.isUnsigned = type->kind == Kind::Unsigned;
  tensor.shape = std::move(shape);
  tensor.fileType = typeName;
  if (proto.has_raw_data()) {
    const std::string &raw = proto.raw_data();
    size_t expected = static_cast<size_t>(count) * getDTypeSize(type->dtype);
    if (raw.size() != expected) {
      error = "raw_data holds " + std::to_string(raw.size()) + " bytes; " +
              std::to_string(count) + " " + typeName + " elements take " +
              std::to_string(expected);
      return false;
    }
    tensor.data.assign(raw.begin(), raw.end());
    return true;
  }
  return decodeTypedData(proto, *type, count, tensor.data, error);
}

#else // !HIDET_RUN_HAVE_PROTOBUF

bool hidet::run::hasTensorProtoSupport() { return false; }

bool hidet::run::decodeTensorProto(const unsigned char *, size_t, Tensor &,
                                   std::string &error) {
  error = "this hidet-run was built without protobuf, so it cannot read "
          "ONNX TensorProto (.pb) files; rebuild it with protobuf-compiler "
          "and libprotobuf-dev installed, or convert the file to .npy";
  return false;
}

#endif // HIDET_RUN_HAVE_PROTOBUF
