//===- TensorProtoTest.cpp - Tests of hidet-run's TensorProto reader ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Serialized TensorProto messages, written out byte by byte in protobuf's
// wire format (field number << 3 | wire type, then the value), decode into
// the manifest's encodings from raw_data and from the typed fields, and what
// hidet-run cannot hold is rejected with a reason.
//
//===----------------------------------------------------------------------===//

#include "OnnxTensor.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace hidet::run;

namespace {

/// Decodes `bytes`; on failure returns false with the message in `error`.
bool decode(const std::vector<unsigned char> &bytes, Tensor &tensor,
            std::string &error) {
  return decodeTensorProto(bytes.data(), bytes.size(), tensor, error);
}

class TensorProtoTest : public testing::Test {
protected:
  void SetUp() override {
    if (!hasTensorProtoSupport())
      GTEST_SKIP() << "built without protobuf";
  }
};

TEST_F(TensorProtoTest, RawData) {
  // dims: 2, data_type: FLOAT, raw_data: 1.5f -2.0f.
  std::vector<unsigned char> bytes = {0x08, 0x02, 0x10, 0x01, 0x4a, 0x08, 0x00,
                                      0x00, 0xc0, 0x3f, 0x00, 0x00, 0x00, 0xc0};
  Tensor tensor;
  std::string error;
  ASSERT_TRUE(decode(bytes, tensor, error)) << error;
  EXPECT_EQ(tensor.dtype, DType::F32);
  EXPECT_EQ(tensor.shape, std::vector<int64_t>{2});
  EXPECT_EQ(tensor.fileType, "FLOAT");
  float values[2];
  ASSERT_EQ(tensor.data.size(), sizeof(values));
  std::memcpy(values, tensor.data.data(), sizeof(values));
  EXPECT_EQ(values[0], 1.5f);
  EXPECT_EQ(values[1], -2.0f);
}

TEST_F(TensorProtoTest, HalfBitsInInt32Data) {
  // dims: 2, data_type: FLOAT16, int32_data (packed varints): 0x3c00 0xc000.
  std::vector<unsigned char> bytes = {0x08, 0x02, 0x10, 0x0a, 0x2a, 0x05,
                                      0x80, 0x78, 0x80, 0x80, 0x03};
  Tensor tensor;
  std::string error;
  ASSERT_TRUE(decode(bytes, tensor, error)) << error;
  EXPECT_EQ(tensor.dtype, DType::F16);
  EXPECT_EQ(tensor.data, (std::vector<unsigned char>{0x00, 0x3c, 0x00, 0xc0}));
}

TEST_F(TensorProtoTest, ScalarWithoutDims) {
  // data_type: INT64, int64_data: 5.
  std::vector<unsigned char> bytes = {0x10, 0x07, 0x3a, 0x01, 0x05};
  Tensor tensor;
  std::string error;
  ASSERT_TRUE(decode(bytes, tensor, error)) << error;
  EXPECT_EQ(tensor.dtype, DType::I64);
  EXPECT_TRUE(tensor.shape.empty());
  EXPECT_EQ(tensor.data, (std::vector<unsigned char>{5, 0, 0, 0, 0, 0, 0, 0}));
}

TEST_F(TensorProtoTest, UnsignedIntegersAreBits) {
  // dims: 2, data_type: UINT8, int32_data: 200 7.
  std::vector<unsigned char> bytes = {0x08, 0x02, 0x10, 0x02, 0x2a,
                                      0x03, 0xc8, 0x01, 0x07};
  Tensor tensor;
  std::string error;
  ASSERT_TRUE(decode(bytes, tensor, error)) << error;
  EXPECT_TRUE(tensor.isUnsigned);
  EXPECT_EQ(tensor.str(), "u8 2");
  EXPECT_EQ(tensor.data, (std::vector<unsigned char>{200, 7}));
  ArgSpec arg;
  arg.shape = {2};
  for (DType dtype : {DType::I8, DType::I1, DType::F16}) {
    arg.dtype = dtype;
    EXPECT_EQ(tensor.fits(arg), dtype == DType::I8) << getDTypeName(dtype);
  }
  // dims: 1, data_type: UINT16, raw_data: the bits of bf16 1.0, as ONNX's
  // test data stores bfloat16.
  bytes = {0x08, 0x01, 0x10, 0x04, 0x4a, 0x02, 0x80, 0x3f};
  ASSERT_TRUE(decode(bytes, tensor, error)) << error;
  arg.shape = {1};
  for (DType dtype : {DType::BF16, DType::F16, DType::I8}) {
    arg.dtype = dtype;
    EXPECT_EQ(tensor.fits(arg), dtype != DType::I8) << getDTypeName(dtype);
  }
  // dims: 1, data_type: UINT32, uint64_data: 2^32 does not fit.
  bytes = {0x08, 0x01, 0x10, 0x0c, 0x5a, 0x05, 0x80, 0x80, 0x80, 0x80, 0x10};
  EXPECT_FALSE(decode(bytes, tensor, error));
  EXPECT_EQ(error, "uint64_data[0] = 4294967296 is out of range for UINT32");
}

TEST_F(TensorProtoTest, RejectsWithAReason) {
  Tensor tensor;
  std::string error;
  // dims: 1, data_type: STRING, string_data: "a".
  EXPECT_FALSE(
      decode({0x08, 0x01, 0x10, 0x08, 0x32, 0x01, 'a'}, tensor, error));
  EXPECT_EQ(error, "string tensors are not supported");
  // dims: 2, data_type: FLOAT, data_location: EXTERNAL.
  EXPECT_FALSE(decode({0x08, 0x02, 0x10, 0x01, 0x70, 0x01}, tensor, error));
  EXPECT_NE(error.find("external file"), std::string::npos);
  // dims: 2, data_type: INT16.
  EXPECT_FALSE(decode({0x08, 0x02, 0x10, 0x05}, tensor, error));
  EXPECT_NE(error.find("ONNX INT16 has no hidet dtype"), std::string::npos);
  // dims: 1, data_type: INT8, int32_data: 200.
  EXPECT_FALSE(
      decode({0x08, 0x01, 0x10, 0x03, 0x2a, 0x02, 0xc8, 0x01}, tensor, error));
  EXPECT_EQ(error, "int32_data[0] = 200 is out of range for INT8");
  // dims: 2, data_type: FLOAT, float_data: 1.0 (one value for two).
  EXPECT_FALSE(
      decode({0x08, 0x02, 0x10, 0x01, 0x22, 0x04, 0x00, 0x00, 0x80, 0x3f},
             tensor, error));
  EXPECT_EQ(error, "float_data holds 1 value for 2 elements");
  // A length that runs past the end.
  EXPECT_FALSE(decode({0x08, 0x02, 0x4a, 0x08, 0x00}, tensor, error));
  EXPECT_EQ(error, "not an ONNX TensorProto (protobuf parsing failed)");
}

} // namespace
