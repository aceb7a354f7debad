//===- OnnxTensor.h - ONNX TensorProto files for hidet-run ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// ONNX TensorProto messages, one per file, as the ONNX backend test suite
// stores inputs and expected outputs (test_data_set_0/input_0.pb). Decoded
// with the protobuf library from C++ that protoc generates out of
// onnx/onnx.proto at build time; a build without protobuf rejects them.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_ONNXTENSOR_H
#define HIDET_RUN_ONNXTENSOR_H

#include "Tensor.h"

#include <cstddef>
#include <string>

namespace hidet::run {

/// Whether this build reads TensorProto files.
bool hasTensorProtoSupport();

/// Decodes a serialized TensorProto: its dims and data_type, and the
/// elements from raw_data or from the typed field that holds the data type
/// (float_data, double_data, int64_data, uint64_data for UINT32 and UINT64,
/// or int32_data for the narrower integers and the bits of f16 and bf16).
/// Unsigned integers become bits (Tensor::isUnsigned). Rejects string
/// tensors, data stored in external files, and other data types without a
/// hidet dtype. On failure returns false with `error` saying what is wrong.
bool decodeTensorProto(const unsigned char *bytes, size_t size, Tensor &tensor,
                       std::string &error);

} // namespace hidet::run

#endif // HIDET_RUN_ONNXTENSOR_H
