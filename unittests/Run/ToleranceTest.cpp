//===- ToleranceTest.cpp - Tests of hidet-run's check against a reference -===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The default bounds follow their derivation (Tolerance.cpp): rtol = 2 eps
// + 8 u32 and atol = (2 eps + 3 u32 sqrt(n)) RMS(ref). With them, results
// computed in another order or with 16-bit partial sums pass, and a single
// wrong element, a wrong tile edge, a sign error at zero, a NaN or an
// infinity fail, where the relative L2 bound alone passes the first two.
//
//===----------------------------------------------------------------------===//

#include "Tolerance.h"

#include "Specs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace hidet::run;

namespace {

ArgSpec matrixSpec(DType dtype, int64_t rows, int64_t cols) {
  ArgSpec arg;
  arg.dtype = dtype;
  arg.shape = {rows, cols};
  return arg;
}

/// Values of `dtype` (f32, f16 or bf16) as a buffer.
std::vector<unsigned char> encode(DType dtype, const std::vector<double> &v) {
  size_t size = getDTypeSize(dtype);
  std::vector<unsigned char> bytes(v.size() * size);
  for (size_t i = 0; i < v.size(); ++i) {
    if (dtype == DType::F32) {
      float f = static_cast<float>(v[i]);
      std::memcpy(&bytes[i * 4], &f, 4);
      continue;
    }
    uint16_t bits =
        dtype == DType::F16 ? encodeHalf(v[i]) : encodeBFloat16(v[i]);
    std::memcpy(&bytes[i * 2], &bits, 2);
  }
  return bytes;
}

/// Rounds `value` to `dtype` (f32, f16 or bf16).
double roundTo(DType dtype, double value) {
  if (dtype == DType::F32)
    return static_cast<float>(value);
  return dtype == DType::F16 ? decodeHalf(encodeHalf(value))
                             : decodeBFloat16(encodeBFloat16(value));
}

/// Uniform in (-1, 1) rounded to `dtype`.
std::vector<double> uniformMatrix(DType dtype, int64_t count,
                                  std::mt19937_64 &rng) {
  std::vector<double> m(count);
  for (double &x : m)
    x = roundTo(dtype,
                2.0 * (static_cast<double>(rng() >> 11) * 0x1.0p-53) - 1.0);
  return m;
}

RefCheck check(const ArgSpec &arg, const std::vector<double> &out,
               const std::vector<double> &ref, RefBounds bounds = {}) {
  std::vector<unsigned char> o = encode(arg.dtype, out);
  std::vector<unsigned char> r = encode(arg.dtype, ref);
  return checkAgainstRef(arg, o.data(), r.data(), bounds);
}

/// A [rows x cols] product of uniform (-1, 1) matrices with `k` terms per
/// element, in double (the reference, before rounding) and with partial
/// sums of `block` terms in f32 each rounded to `partial` (another
/// accumulation, as a split-K kernel with 16-bit partials makes it).
struct Product {
  std::vector<double> exact, blocked;
};

Product makeProduct(int64_t rows, int64_t cols, int64_t k, int64_t block,
                    DType partial, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> a = uniformMatrix(partial, rows * k, rng);
  std::vector<double> b = uniformMatrix(partial, k * cols, rng);
  Product p;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double exact = 0, blocked = 0;
      for (int64_t k0 = 0; k0 < k; k0 += block) {
        float part = 0;
        for (int64_t kk = k0; kk < k0 + block; ++kk) {
          exact += a[i * k + kk] * b[kk * cols + j];
          part += static_cast<float>(a[i * k + kk] * b[kk * cols + j]);
        }
        blocked += roundTo(partial, part);
      }
      p.exact.push_back(exact);
      p.blocked.push_back(blocked);
    }
  return p;
}

TEST(Tolerance, DefaultsFollowTheDerivation) {
  const double u32 = 0x1.0p-24;
  RefTolerance f16 = getDefaultRefTolerance(DType::F16, 65536);
  EXPECT_DOUBLE_EQ(f16.rtol, 0x1.0p-9 + 8 * u32);
  EXPECT_DOUBLE_EQ(f16.atolRms, 0x1.0p-9 + 3 * u32 * 256);
  RefTolerance bf16 = getDefaultRefTolerance(DType::BF16, 65536);
  EXPECT_DOUBLE_EQ(bf16.rtol, 0x1.0p-6 + 8 * u32);
  EXPECT_DOUBLE_EQ(bf16.atolRms, 0x1.0p-6 + 3 * u32 * 256);
  RefTolerance f32 = getDefaultRefTolerance(DType::F32, 1024);
  EXPECT_DOUBLE_EQ(f32.rtol, 0x1.0p-22 + 8 * u32);
  EXPECT_DOUBLE_EQ(f32.atolRms, 0x1.0p-22 + 3 * u32 * 32);
  RefTolerance f64 = getDefaultRefTolerance(DType::F64, 4);
  EXPECT_DOUBLE_EQ(f64.rtol, 0x1.0p-51 + 8 * 0x1.0p-53);
  EXPECT_DOUBLE_EQ(f64.atolRms, 0x1.0p-51 + 3 * 0x1.0p-53 * 2);
  // The values that --help and the documentation quote.
  EXPECT_NEAR(getDefaultRefTolerance(DType::F32, 65536).atolRms, 4.6e-5,
              0.05e-5);
  EXPECT_NEAR(f16.atolRms, 2.0e-3, 0.05e-3);
  EXPECT_NEAR(bf16.atolRms, 1.57e-2, 0.005e-2);
  for (DType dtype : {DType::I32, DType::I64, DType::I8, DType::I1}) {
    RefTolerance exact = getDefaultRefTolerance(dtype, 65536);
    EXPECT_EQ(exact.rtol, 0);
    EXPECT_EQ(exact.atolRms, 0);
  }
}

TEST(Tolerance, AbsoluteTermGrowsWithTheSquareRootOfTheReductionLength) {
  double eps = getEpsilon(DType::F32);
  auto sumPart = [&](int64_t n) {
    return getDefaultRefTolerance(DType::F32, n).atolRms - 2 * eps;
  };
  EXPECT_DOUBLE_EQ(sumPart(4096), 2 * sumPart(1024));
  EXPECT_DOUBLE_EQ(sumPart(1), 3 * 0x1.0p-24);
  // Fewer than one term is one.
  EXPECT_DOUBLE_EQ(sumPart(0), sumPart(1));
  // The relative term does not depend on it.
  EXPECT_EQ(getDefaultRefTolerance(DType::F32, 1).rtol,
            getDefaultRefTolerance(DType::F32, 1 << 20).rtol);
}

TEST(Tolerance, AbsoluteBoundIsAMultipleOfTheReferenceRms) {
  // RMS of {3, -4, 0, 0} is 2.5; out differs by 0.01 from ref at the zero.
  ArgSpec arg = vectorSpec(DType::F32, 4);
  RefBounds bounds;
  bounds.rtol = 0;
  bounds.atolRms = 0.004;
  RefCheck c = check(arg, {3, -4, 0.01, 0}, {3, -4, 0, 0}, bounds);
  EXPECT_DOUBLE_EQ(c.comparison.refRms, 2.5);
  EXPECT_DOUBLE_EQ(c.atol, 0.01);
  EXPECT_EQ(c.elements.mismatches, 0); // On the bound passes.
  bounds.atolRms = 0.0039;
  c = check(arg, {3, -4, 0.01, 0}, {3, -4, 0, 0}, bounds);
  EXPECT_EQ(c.elements.mismatches, 1);
  EXPECT_EQ(c.elements.worstIndex, 2);
  EXPECT_FALSE(c.pass);
  // An absolute atol replaces it.
  bounds.atolRms = -1;
  bounds.atol = 0.01;
  c = check(arg, {3, -4, 0.01, 0}, {3, -4, 0, 0}, bounds);
  EXPECT_EQ(c.atolRms, -1);
  EXPECT_EQ(c.elements.mismatches, 0);
  // A reference of zeros has no absolute tolerance: zeros are exact.
  c = check(arg, {0, 0, 1e-30, 0}, {0, 0, 0, 0});
  EXPECT_EQ(c.atol, 0);
  EXPECT_EQ(c.elements.mismatches, 1);
}

TEST(Tolerance, PassesAnotherOrderAndSixteenBitPartialSums) {
  // f16 and bf16 outputs: the reference rounds the exact product once, the
  // other sums 4 partial products of 128 terms, each rounded to the dtype.
  for (DType dtype : {DType::F16, DType::BF16}) {
    Product p = makeProduct(64, 64, 512, 128, dtype, 1);
    ArgSpec arg = matrixSpec(dtype, 64, 64);
    RefCheck c = check(arg, p.blocked, p.exact);
    EXPECT_TRUE(c.pass) << getDTypeName(dtype);
    EXPECT_EQ(c.elements.mismatches, 0) << getDTypeName(dtype);
    EXPECT_GT(c.comparison.maxUlp, 1) << "the orders should differ";
  }
  // f32: a sequential sum of 4096 terms against blocks of 64 (as a GPU's
  // tree would add them), against the exact sum rounded once.
  std::mt19937_64 rng(2);
  const int64_t rows = 256, n = 4096;
  std::vector<double> sequential, blocked, exact;
  for (int64_t i = 0; i < rows; ++i) {
    std::vector<double> t = uniformMatrix(DType::F32, n, rng);
    float s = 0, b = 0;
    double e = 0;
    for (int64_t k = 0; k < n; ++k) {
      s += t[k];
      e += t[k];
    }
    for (int64_t k0 = 0; k0 < n; k0 += 64) {
      float part = 0;
      for (int64_t k = k0; k < k0 + 64; ++k)
        part += t[k];
      b += part;
    }
    sequential.push_back(s);
    blocked.push_back(b);
    exact.push_back(e);
  }
  ArgSpec arg = vectorSpec(DType::F32, rows);
  RefBounds bounds;
  bounds.reductionLength = n;
  EXPECT_EQ(check(arg, sequential, exact, bounds).elements.mismatches, 0);
  EXPECT_EQ(check(arg, blocked, sequential, bounds).elements.mismatches, 0);
  EXPECT_TRUE(check(arg, blocked, sequential, bounds).pass);
}

TEST(Tolerance, FailsOneWrongElementThatTheL2BoundPasses) {
  // An f16 product with one element off by a tenth of the output's RMS.
  Product p = makeProduct(128, 128, 256, 256, DType::F16, 3);
  ArgSpec arg = matrixSpec(DType::F16, 128, 128);
  std::vector<double> wrong = p.exact;
  double rms = check(arg, p.exact, p.exact).comparison.refRms;
  wrong[77 * 128 + 5] += 0.1 * rms;
  RefCheck c = check(arg, wrong, p.exact);
  EXPECT_LE(c.comparison.relL2, c.rtolL2); // The L2 bound alone passes it.
  EXPECT_EQ(c.elements.mismatches, 1);
  EXPECT_EQ(c.elements.worstIndex, 77 * 128 + 5);
  EXPECT_FALSE(c.pass);
}

TEST(Tolerance, FailsAWrongTileEdgeThatTheL2BoundPasses) {
  // bf16 [256 x 1024]: the last column of a 64-row tile (64 elements, 2.4e-4
  // of the output) misses the last 64 of 512 terms.
  std::mt19937_64 rng(4);
  const int64_t rows = 256, cols = 1024, k = 512;
  std::vector<double> a = uniformMatrix(DType::BF16, rows * k, rng);
  std::vector<double> b = uniformMatrix(DType::BF16, k * cols, rng);
  std::vector<double> ref, wrong;
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) {
      double full = 0, missing = 0;
      for (int64_t kk = 0; kk < k; ++kk) {
        full += a[i * k + kk] * b[kk * cols + j];
        if (kk == k - 65)
          missing = full;
      }
      ref.push_back(full);
      bool edge = i >= 192 && j == cols - 1;
      wrong.push_back(edge ? missing : full);
    }
  ArgSpec arg = matrixSpec(DType::BF16, rows, cols);
  RefCheck c = check(arg, wrong, ref);
  EXPECT_LE(c.comparison.relL2, c.rtolL2);
  // The elements whose last 64 terms happen to add up to almost nothing
  // pass (6 of them here).
  EXPECT_GE(c.elements.mismatches, 48);
  EXPECT_LE(c.elements.mismatches, 64);
  EXPECT_GE(c.elements.worstIndex, 192 * cols);
  EXPECT_EQ(c.elements.worstIndex % cols, cols - 1);
  EXPECT_FALSE(c.pass);
}

TEST(Tolerance, FailsASignErrorAtZero) {
  // sign(x) where x is 0: 1 instead of 0, among exact +-1 and 0.
  ArgSpec arg = vectorSpec(DType::F32, 6);
  RefCheck c = check(arg, {1, -1, 1, 1, -1, 0}, {1, -1, 0, 1, -1, 0});
  EXPECT_EQ(c.elements.mismatches, 1);
  EXPECT_EQ(c.elements.worstIndex, 2);
  EXPECT_FALSE(c.pass);
  // A negative zero is zero.
  EXPECT_TRUE(check(arg, {1, -1, -0.0, 1, -1, 0}, {1, -1, 0, 1, -1, 0}).pass);
}

TEST(Tolerance, FailsNaNAndInfinities) {
  double nan = std::numeric_limits<double>::quiet_NaN();
  double inf = std::numeric_limits<double>::infinity();
  ArgSpec arg = vectorSpec(DType::F16, 4);
  RefCheck c = check(arg, {1, nan, 2, -inf}, {1, 0.5, 2, -3});
  EXPECT_EQ(c.comparison.gpuNonFinite, 2);
  EXPECT_EQ(c.elements.mismatches, 2);
  EXPECT_FALSE(c.pass);
  // The same NaN and infinity on both sides still fail: the reference
  // checks nothing there.
  c = check(arg, {1, nan, 2, -inf}, {1, nan, 2, -inf});
  EXPECT_EQ(c.elements.mismatches, 0);
  EXPECT_EQ(c.comparison.refNonFinite, 2);
  EXPECT_FALSE(c.pass);
}

TEST(Tolerance, IntegersCompareExactly) {
  ArgSpec arg = vectorSpec(DType::I32, 3);
  std::vector<int32_t> out = {1, 2, 3}, ref = {1, 2, 4};
  RefCheck c = checkAgainstRef(arg, out.data(), ref.data(), {});
  EXPECT_EQ(c.elements.mismatches, 1);
  EXPECT_EQ(c.elements.worstIndex, 2);
  EXPECT_FALSE(c.pass);
  EXPECT_TRUE(checkAgainstRef(arg, out.data(), out.data(), {}).pass);
}

TEST(Tolerance, DoublesNearTheirLargestValueHaveAFiniteRms) {
  // Their squares overflow a double; the RMS, the relative L2 error and the
  // bounds built on them stay finite.
  ArgSpec arg = vectorSpec(DType::F64, 3);
  double big = std::numeric_limits<double>::max() / 2;
  std::vector<double> out = {big, -big, 1}, ref = {big, -big, 1};
  RefCheck c = checkAgainstRef(arg, out.data(), ref.data(), {});
  EXPECT_TRUE(std::isfinite(c.comparison.refRms));
  EXPECT_GT(c.comparison.refRms, big / 2);
  EXPECT_EQ(c.comparison.relL2, 0);
  EXPECT_TRUE(std::isfinite(c.atol));
  EXPECT_TRUE(c.pass);
  out[2] = 1 + big * 1e-3;
  EXPECT_FALSE(checkAgainstRef(arg, out.data(), ref.data(), {}).pass);
}

} // namespace
