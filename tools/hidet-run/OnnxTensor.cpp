//===- OnnxTensor.cpp - ONNX TensorProto files for hidet-run --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "OnnxTensor.h"

#ifdef HIDET_RUN_HAVE_PROTOBUF

#include "onnx/onnx.pb.h"

#include <climits>
#include <cstring>

using namespace hidet::run;

namespace {

using onnx::TensorProto;

/// The hidet dtype of an ONNX data type, and the type's name.
struct OnnxType {
  int dataType;
  const char *name;
  bool supported;
  DType dtype;
};

const OnnxType onnxTypes[] = {
    {TensorProto::UNDEFINED, "UNDEFINED", false, DType::F32},
    {TensorProto::FLOAT, "FLOAT", true, DType::F32},
    {TensorProto::UINT8, "UINT8", false, DType::F32},
    {TensorProto::INT8, "INT8", true, DType::I8},
    {TensorProto::UINT16, "UINT16", false, DType::F32},
    {TensorProto::INT16, "INT16", false, DType::F32},
    {TensorProto::INT32, "INT32", true, DType::I32},
    {TensorProto::INT64, "INT64", true, DType::I64},
    {TensorProto::STRING, "STRING", false, DType::F32},
    {TensorProto::BOOL, "BOOL", true, DType::I1},
    {TensorProto::FLOAT16, "FLOAT16", true, DType::F16},
    {TensorProto::DOUBLE, "DOUBLE", true, DType::F64},
    {TensorProto::UINT32, "UINT32", false, DType::F32},
    {TensorProto::UINT64, "UINT64", false, DType::F32},
    {TensorProto::COMPLEX64, "COMPLEX64", false, DType::F32},
    {TensorProto::COMPLEX128, "COMPLEX128", false, DType::F32},
    {TensorProto::BFLOAT16, "BFLOAT16", true, DType::BF16},
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

/// Decodes the typed field that holds `dtype` (no raw_data).
bool decodeTypedData(const TensorProto &proto, DType dtype, int64_t count,
                     std::vector<unsigned char> &data, std::string &error) {
  switch (dtype) {
  case DType::F32:
    if (!checkCount("float_data", proto.float_data_size(), count, error))
      return false;
    storeAll<float>(proto.float_data(), data);
    return true;
  case DType::F64:
    if (!checkCount("double_data", proto.double_data_size(), count, error))
      return false;
    storeAll<double>(proto.double_data(), data);
    return true;
  case DType::I64:
    if (!checkCount("int64_data", proto.int64_data_size(), count, error))
      return false;
    storeAll<int64_t>(proto.int64_data(), data);
    return true;
  case DType::I32:
  case DType::I8:
  case DType::I1:
  case DType::F16:
  case DType::BF16:
    break;
  }
  // The narrower types travel in int32_data: integers by value, f16 and
  // bf16 as their bits in the low half.
  if (!checkCount("int32_data", proto.int32_data_size(), count, error))
    return false;
  const auto &values = proto.int32_data();
  for (int i = 0; i < values.size(); ++i) {
    int32_t value = values.Get(i);
    bool fits = dtype == DType::I32 ||
                (dtype == DType::I8 && value >= -128 && value <= 127) ||
                (dtype == DType::I1 && (value == 0 || value == 1)) ||
                ((dtype == DType::F16 || dtype == DType::BF16) && value >= 0 &&
                 value <= 0xffff);
    if (!fits) {
      error = "int32_data[" + std::to_string(i) +
              "] = " + std::to_string(value) + " is out of range for " +
              getDTypeName(dtype);
      return false;
    }
  }
  switch (dtype) {
  case DType::I32:
    storeAll<int32_t>(values, data);
    break;
  case DType::I8:
    storeAll<int8_t>(values, data);
    break;
  case DType::I1:
    storeAll<uint8_t>(values, data);
    break;
  default:
    storeAll<uint16_t>(values, data);
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
  if (!type || !type->supported) {
    error = "ONNX " + typeName +
            " has no hidet dtype (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT32, "
            "INT64, INT8 or BOOL)";
    return false;
  }
  std::vector<int64_t> shape(proto.dims().begin(), proto.dims().end());
  int64_t count = 0;
  if (!countElements(shape, count)) {
    error = "dims has a negative extent or more than 2^40 elements";
    return false;
  }
  tensor.dtype = type->dtype;
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
  return decodeTypedData(proto, type->dtype, count, tensor.data, error);
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
