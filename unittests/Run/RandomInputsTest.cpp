//===- RandomInputsTest.cpp - Tests of hidet-run's seeded inputs ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A seed gives the same inputs every time: each element is the next
// uniform draw in [-1, 1) rounded to the dtype (drawn again where it rounds
// to zero), integers in [-8, 8] without 0, i1 0 or 1. The other
// distributions (--input-dist) have the moments and ranges they promise,
// and leave integers as they are.
//
//===----------------------------------------------------------------------===//

#include "Data.h"
#include "Specs.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace hidet::run;

namespace {

std::vector<unsigned char> fill(DType dtype, int64_t n, uint64_t seed,
                                InputDist dist = InputDist::Uniform) {
  ArgSpec arg = vectorSpec(dtype, n);
  std::vector<unsigned char> buffer(arg.getSizeBytes());
  std::mt19937_64 rng(seed);
  fillRandom(arg, rng, buffer.data(), dist);
  return buffer;
}

std::vector<double> values(DType dtype, int64_t n, uint64_t seed,
                           InputDist dist) {
  std::vector<unsigned char> b = fill(dtype, n, seed, dist);
  std::vector<double> v(n);
  for (int64_t i = 0; i < n; ++i)
    v[i] = readElement(dtype, b.data(), i);
  return v;
}

const InputDist kDists[] = {InputDist::Uniform, InputDist::Normal,
                            InputDist::Sparse, InputDist::ZerosAndOnes,
                            InputDist::Wide};

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

TEST(RandomInputs, NormalHasUnitVarianceAndTails) {
  const int64_t n = 1 << 16;
  for (DType dtype : {DType::F32, DType::F16, DType::BF16}) {
    std::vector<double> v = values(dtype, n, 5, InputDist::Normal);
    double sum = 0, squares = 0, most = 0;
    int64_t beyond3 = 0;
    for (double x : v) {
      ASSERT_NE(x, 0.0);
      sum += x;
      squares += x * x;
      most = std::max(most, std::fabs(x));
      beyond3 += std::fabs(x) > 3;
    }
    double mean = sum / n, variance = squares / n - mean * mean;
    EXPECT_NEAR(mean, 0, 0.02) << getDTypeName(dtype);
    EXPECT_NEAR(variance, 1, 0.03) << getDTypeName(dtype);
    EXPECT_LE(most, 6.0);
    // A normal puts 0.27% beyond 3 deviations: 177 of 65536.
    EXPECT_GT(beyond3, 100);
    EXPECT_LT(beyond3, 260);
  }
}

TEST(RandomInputs, SparseIsThreeQuartersZeros) {
  const int64_t n = 1 << 16;
  std::vector<double> v = values(DType::F16, n, 6, InputDist::Sparse);
  int64_t zeros = 0;
  for (double x : v) {
    ASSERT_TRUE(x >= -1 && x <= 1) << x;
    zeros += x == 0;
  }
  EXPECT_NEAR(static_cast<double>(zeros) / n, 0.75, 0.01);
}

TEST(RandomInputs, ZerosAndOnes) {
  const int64_t n = 1 << 16;
  std::vector<double> v = values(DType::BF16, n, 7, InputDist::ZerosAndOnes);
  int64_t zeros = 0, ones = 0, minusOnes = 0;
  for (double x : v) {
    ASSERT_TRUE(x == 0 || x == 1 || x == -1) << x;
    zeros += x == 0;
    ones += x == 1;
    minusOnes += x == -1;
  }
  EXPECT_NEAR(static_cast<double>(zeros) / n, 0.5, 0.01);
  EXPECT_NEAR(static_cast<double>(ones) / n, 0.25, 0.01);
  EXPECT_NEAR(static_cast<double>(minusOnes) / n, 0.25, 0.01);
}

TEST(RandomInputs, WideSpreadsEvenlyOverItsBinades) {
  const int64_t n = 1 << 16;
  for (DType dtype : {DType::F32, DType::BF16, DType::F16, DType::F64}) {
    int e = getWideExponent(dtype);
    EXPECT_EQ(e, dtype == DType::F16 ? 5 : 10);
    std::vector<double> v = values(dtype, n, 8, InputDist::Wide);
    std::vector<int64_t> perBinade(2 * e + 1, 0);
    int64_t negative = 0;
    for (double x : v) {
      double m = std::fabs(x);
      // Rounding may carry the top of the last binade to 2^e.
      ASSERT_TRUE(m >= std::ldexp(1.0, -e) && m <= std::ldexp(1.0, e)) << x;
      ++perBinade[std::ilogb(m) + e];
      negative += x < 0;
    }
    double expected = static_cast<double>(n) / (2 * e);
    for (int b = 0; b < 2 * e; ++b) {
      EXPECT_GT(perBinade[b], 0.9 * expected) << getDTypeName(dtype) << b;
      EXPECT_LT(perBinade[b], 1.1 * expected) << getDTypeName(dtype) << b;
    }
    EXPECT_NEAR(static_cast<double>(negative) / n, 0.5, 0.01);
  }
}

TEST(RandomInputs, EveryDistributionIsSeededAndLeavesIntegersAlone) {
  for (InputDist dist : kDists) {
    EXPECT_EQ(fill(DType::F32, 1000, 9, dist), fill(DType::F32, 1000, 9, dist))
        << getInputDistName(dist);
    EXPECT_NE(fill(DType::F32, 1000, 9, dist), fill(DType::F32, 1000, 10, dist))
        << getInputDistName(dist);
    for (DType dtype : {DType::I8, DType::I32, DType::I64, DType::I1})
      EXPECT_EQ(fill(dtype, 1000, 9, dist), fill(dtype, 1000, 9))
          << getInputDistName(dist);
  }
  EXPECT_STREQ(getInputDistName(InputDist::ZerosAndOnes), "zeros-and-ones");
}

} // namespace
