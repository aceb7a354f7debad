//===- NpyTest.cpp - Tests of hidet-run's .npy reader and writer ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The header hidet-run writes is the one NumPy reads (aligned, version 2
// only when version 1 cannot hold it), what it writes it reads back, and it
// reads the spellings NumPy and older writers use while rejecting, with a
// reason, what is not a tensor of a manifest dtype in C order.
//
//===----------------------------------------------------------------------===//

#include "Npy.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace hidet::run;

namespace {

/// A .npy file of `header` (a dict literal), padded as NumPy does, and
/// `data`.
std::vector<unsigned char> makeNpy(const std::string &header,
                                   const std::vector<unsigned char> &data,
                                   unsigned major = 1) {
  std::string text = header + "\n";
  size_t lengthSize = major == 1 ? 2 : 4;
  std::vector<unsigned char> bytes = {
      0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(major), 0};
  for (size_t i = 0; i < lengthSize; ++i)
    bytes.push_back(
        static_cast<unsigned char>((text.size() >> (8 * i)) & 0xff));
  bytes.insert(bytes.end(), text.begin(), text.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  return bytes;
}

std::vector<unsigned char> floats(std::initializer_list<float> values) {
  std::vector<unsigned char> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.begin(), bytes.size());
  return bytes;
}

/// Decodes `bytes`, expecting failure; returns the message.
std::string decodeError(const std::vector<unsigned char> &bytes) {
  Tensor tensor;
  std::string error;
  EXPECT_FALSE(decodeNpy(bytes.data(), bytes.size(), tensor, error));
  return error;
}

TEST(Npy, HeaderIsNumPys) {
  std::string header = encodeNpyHeader(DType::F32, {2, 3});
  EXPECT_EQ(header.size() % 64, 0u);
  EXPECT_EQ(header.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  EXPECT_EQ(static_cast<unsigned char>(header[8]) + 10u, header.size());
  EXPECT_EQ(header.substr(10, 59),
            "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(header.back(), '\n');
  EXPECT_NE(encodeNpyHeader(DType::I8, {5}).find("'shape': (5,)"),
            std::string::npos);
  EXPECT_NE(encodeNpyHeader(DType::F64, {}).find("'shape': ()"),
            std::string::npos);
}

TEST(Npy, RoundTripsEveryDType) {
  for (DType dtype : {DType::F32, DType::F16, DType::BF16, DType::F64,
                      DType::I32, DType::I64, DType::I8, DType::I1}) {
    for (const std::vector<int64_t> &shape :
         {std::vector<int64_t>{}, {7}, {2, 3, 4}}) {
      ArgSpec spec;
      spec.dtype = dtype;
      spec.shape = shape;
      std::vector<unsigned char> data(spec.getSizeBytes());
      for (size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<unsigned char>(i * 7 + 1);
      std::string header = encodeNpyHeader(dtype, shape);
      std::vector<unsigned char> file(header.begin(), header.end());
      file.insert(file.end(), data.begin(), data.end());
      Tensor tensor;
      std::string error;
      ASSERT_TRUE(decodeNpy(file.data(), file.size(), tensor, error)) << error;
      EXPECT_EQ(tensor.dtype, dtype);
      EXPECT_EQ(tensor.shape, shape);
      EXPECT_EQ(tensor.data, data);
    }
  }
}

TEST(Npy, LongHeadersUseVersion2) {
  // 30000 extents of 1 do not fit the 16-bit header length of version 1.
  std::vector<int64_t> shape(30000, 1);
  std::string header = encodeNpyHeader(DType::F32, shape);
  EXPECT_EQ(header[6], 2);
  EXPECT_EQ(header.size() % 64, 0u);
  std::vector<unsigned char> file(header.begin(), header.end());
  std::vector<unsigned char> data = floats({1.5f});
  file.insert(file.end(), data.begin(), data.end());
  Tensor tensor;
  std::string error;
  ASSERT_TRUE(decodeNpy(file.data(), file.size(), tensor, error)) << error;
  EXPECT_EQ(tensor.shape, shape);
  EXPECT_EQ(tensor.data, data);
}

TEST(Npy, ReadsOtherSpellings) {
  Tensor tensor;
  std::string error;
  // Keys in another order, double quotes, no trailing comma, Python 2
  // longs, format version 3.
  std::vector<unsigned char> file =
      makeNpy("{\"shape\": (1L, 2L),\"fortran_order\":False,  'descr':'<f4'}",
              floats({1, 2}), 3);
  ASSERT_TRUE(decodeNpy(file.data(), file.size(), tensor, error)) << error;
  EXPECT_EQ(tensor.shape, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(tensor.fileType, "'<f4'");
  // bf16 as ml_dtypes saves it, and as NumPy spells 2-byte void.
  for (const char *descr : {"<V2", "|V2"}) {
    file = makeNpy(std::string("{'descr': '") + descr +
                       "', 'fortran_order': False, 'shape': (2,), }",
                   {0x80, 0x3f, 0x00, 0xc0});
    ASSERT_TRUE(decodeNpy(file.data(), file.size(), tensor, error)) << error;
    EXPECT_EQ(tensor.dtype, DType::BF16);
  }
  // Fortran order is C order when at most one extent exceeds 1.
  file = makeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (1, 2), }",
                 floats({1, 2}));
  ASSERT_TRUE(decodeNpy(file.data(), file.size(), tensor, error)) << error;
}

TEST(Npy, RejectsWithAReason) {
  std::string good =
      "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  std::vector<unsigned char> file = makeNpy(good, floats({1, 2}));
  file[1] = 'X';
  EXPECT_NE(decodeError(file).find("not a .npy file"), std::string::npos);

  file = makeNpy(good, floats({1}));
  EXPECT_NE(decodeError(file).find("truncated .npy file: 2 elements of '<f4' "
                                   "take 8 bytes but 4 follow"),
            std::string::npos);
  file = makeNpy(good, floats({1, 2, 3}));
  EXPECT_NE(decodeError(file).find("malformed .npy file"), std::string::npos);
  file = makeNpy(good, floats({1, 2}));
  file.resize(20);
  EXPECT_NE(decodeError(file).find("truncated .npy file: the header takes"),
            std::string::npos);

  auto withHeader = [&](const std::string &header) {
    return decodeError(makeNpy(header, floats({1, 2})));
  };
  EXPECT_NE(withHeader("{'descr': '>f4', 'fortran_order': False, "
                       "'shape': (2,), }")
                .find("big-endian"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<c8', 'fortran_order': False, "
                       "'shape': (1,), }")
                .find("element type '<c8' is none of hidet's"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': [('a', '<f4')], 'fortran_order': False, "
                       "'shape': (2,), }")
                .find("structured arrays"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<f4', 'shape': (2,), }")
                .find("lacks 'fortran_order'"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (2,), 'extra': 1, }")
                .find("unexpected key 'extra'"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (2, -1), }")
                .find("'shape' holds something other than non-negative "
                      "integers"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<f4', 'fortran_order': True, "
                       "'shape': (2, 2), }")
                .find("Fortran-order data is not supported"),
            std::string::npos);
  EXPECT_NE(withHeader("{'descr': '<f4', 'fortran_order': False, "
                       "'shape': (4294967296, 4294967296), }")
                .find("more than 2^40 elements"),
            std::string::npos);
}

} // namespace
