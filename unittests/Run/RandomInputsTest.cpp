//===- RandomInputsTest.cpp - Tests of hidet-run's seeded inputs ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A seed gives the same inputs every time: each element is the next
// uniform draw in [-1, 1) rounded to the dtype (drawn again where it rounds
// to zero), integers in [-8, 8] without 0, i1 0 or 1.
//
//===----------------------------------------------------------------------===//

#include "Data.h"
#include "Specs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace hidet::run;

namespace {

std::vector<unsigned char> fill(DType dtype, int64_t n, uint64_t seed) {
  ArgSpec arg = vectorSpec(dtype, n);
  std::vector<unsigned char> buffer(arg.getSizeBytes());
  std::mt19937_64 rng(seed);
  fillRandom(arg, rng, buffer.data());
  return buffer;
}

TEST(RandomInputs, EachElementIsTheNextDrawRoundedToTheType) {
  const int64_t n = 4096;
  std::mt19937_64 rng(7);
  auto draw = [&] {
    return 2.0 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1.0;
  };
  std::vector<unsigned char> f16 = fill(DType::F16, n, 7);
  for (int64_t i = 0; i < n; ++i) {
    uint16_t bits;
    do
      bits = encodeHalf(draw());
    while (!(bits & 0x7fff));
    uint16_t got;
    std::memcpy(&got, f16.data() + 2 * i, 2);
    ASSERT_EQ(got, bits) << "element " << i;
  }
  rng.seed(7);
  std::vector<unsigned char> f32 = fill(DType::F32, n, 7);
  for (int64_t i = 0; i < n; ++i) {
    float expected;
    do
      expected = static_cast<float>(draw());
    while (expected == 0.0f);
    float got;
    std::memcpy(&got, f32.data() + 4 * i, 4);
    ASSERT_EQ(got, expected) << "element " << i;
  }
}

TEST(RandomInputs, RangesAndNoZeros) {
  const int64_t n = 1 << 16;
  for (DType dtype : {DType::F64, DType::F32, DType::F16, DType::BF16}) {
    std::vector<unsigned char> b = fill(dtype, n, 1);
    for (int64_t i = 0; i < n; ++i) {
      double v = readElement(dtype, b.data(), i);
      ASSERT_TRUE(v != 0.0 && v >= -1.0 && v <= 1.0) << v;
    }
  }
  for (DType dtype : {DType::I8, DType::I32, DType::I64}) {
    std::vector<unsigned char> b = fill(dtype, n, 1);
    for (int64_t i = 0; i < n; ++i) {
      double v = readElement(dtype, b.data(), i);
      ASSERT_TRUE(v != 0.0 && v >= -8 && v <= 8) << v;
    }
  }
  std::vector<unsigned char> mask = fill(DType::I1, n, 1);
  int64_t ones = 0;
  for (unsigned char c : mask) {
    ASSERT_LE(c, 1);
    ones += c;
  }
  EXPECT_GT(ones, n / 4);
  EXPECT_LT(ones, 3 * n / 4);
  // The same seed, the same bytes; another seed, others.
  EXPECT_EQ(fill(DType::BF16, 1000, 3), fill(DType::BF16, 1000, 3));
  EXPECT_NE(fill(DType::BF16, 1000, 3), fill(DType::BF16, 1000, 4));
}

} // namespace
