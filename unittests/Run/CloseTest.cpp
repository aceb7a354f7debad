//===- CloseTest.cpp - Tests of hidet-run's elementwise comparison --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// checkClose bounds each element by atol + rtol * |expected|, as
// numpy.testing.assert_allclose does for the ONNX backend tests: NaN matches
// only NaN, an infinity only itself, integers are compared exactly, and the
// element reported is the one furthest beyond its bound.
//
//===----------------------------------------------------------------------===//

#include "Data.h"
#include "Specs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace hidet::run;

namespace {

template <typename T>
Closeness check(DType dtype, std::vector<T> out, std::vector<T> expected,
                double rtol, double atol) {
  return checkClose(vectorSpec(dtype, static_cast<int64_t>(out.size())),
                    out.data(), expected.data(), rtol, atol);
}

TEST(Close, BoundsEachElementByAtolPlusRtolTimesExpected) {
  // Bounds: 0.25 + 0.5 * |e| = 0.75, 5.25, 50.25.
  Closeness c =
      check<double>(DType::F64, {1.75, 4.75, 100}, {1, 10, 100}, 0.5, 0.25);
  EXPECT_EQ(c.mismatches, 0); // On the bound passes.
  EXPECT_EQ(c.maxAbs, 5.25);
  c = check<double>(DType::F64, {1.75, 4.75, 151}, {1, 10, 100}, 0.5, 0.25);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.worstIndex, 2);
  EXPECT_EQ(c.worstOut, 151);
  EXPECT_EQ(c.worstExpected, 100);
}

TEST(Close, WorstIsFurthestBeyondItsBound) {
  // Element 0 is off by 1 where the bound is 0.1; element 1 by 5 where it is
  // 10: element 0 is the worse, though its difference is smaller.
  Closeness c = check<float>(DType::F32, {2, 105}, {1, 100}, 0.1, 0);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.worstIndex, 0);
  EXPECT_EQ(c.maxAbs, 5);
  // With all within bounds, the nearest to its bound.
  c = check<float>(DType::F32, {1, 10.5f}, {1, 10}, 0.1, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.worstIndex, 1);
}

TEST(Close, NaNMatchesOnlyNaNAndInfinitiesThemselves) {
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(check<float>(DType::F32, {nan, inf, -inf}, {nan, inf, -inf}, 0, 0)
                .mismatches,
            0);
  Closeness c = check<float>(DType::F32, {1, nan, inf, -inf, 5},
                             {1, 2, 3, inf, nan}, 1, 1);
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.worstIndex, 1); // The first of the non-finite mismatches.
  EXPECT_EQ(c.maxAbs, 0);     // Only finite pairs count.
}

TEST(Close, ComparesI64Exactly) {
  // 2^60 and 2^60 + 1 are the same double.
  int64_t big = int64_t(1) << 60;
  Closeness c = check<int64_t>(DType::I64, {big + 1}, {big}, 0, 0);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.maxAbs, 1);
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
  c = check<int64_t>(DType::I64, {min}, {max}, 0, 0);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.maxAbs, std::ldexp(1.0, 64));
}

TEST(Close, ReadsHalfPrecision) {
  std::vector<uint16_t> out = {encodeHalf(1.0)};
  std::vector<uint16_t> expected = {encodeHalf(1.0009765625)};
  Closeness c = checkClose(vectorSpec(DType::F16, 1), out.data(),
                           expected.data(), 0, 0.001);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.maxAbs, 0.0009765625);
  c = checkClose(vectorSpec(DType::F16, 1), out.data(), expected.data(), 0,
                 0.0009);
  EXPECT_EQ(c.mismatches, 1);
}

TEST(Close, NoElements) {
  ArgSpec arg = vectorSpec(DType::F32, 0);
  Closeness c = checkClose(arg, nullptr, nullptr, 0, 0);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_EQ(c.worstIndex, -1);
}

} // namespace
