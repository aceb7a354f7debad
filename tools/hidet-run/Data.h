//===- Data.h - Input generation and comparison for hidet-run ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Element encodings, seeded input generation and output comparison. The
// generator does its own uniform mapping (not std::uniform_*_distribution,
// whose algorithm differs between standard libraries), so a seed gives the
// same inputs wherever hidet-run is built.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_DATA_H
#define HIDET_RUN_DATA_H

#include "ManifestParser.h"

#include <cstdint>
#include <random>

namespace hidet::run {

/// IEEE binary16 / bfloat16 bits of `value`, rounded to nearest even.
uint16_t encodeHalf(double value);
uint16_t encodeBFloat16(double value);
double decodeHalf(uint16_t bits);
double decodeBFloat16(uint16_t bits);

/// Fills a buffer of `arg.getSizeBytes()` bytes. Floats are uniform in
/// [-1, 1) rounded to the dtype, integers uniform in [-8, 8], never 0 (a
/// zero input hides missing terms); i1 is 0 or 1.
void fillRandom(const ArgSpec &arg, std::mt19937_64 &rng, void *buffer);

/// Element `index` of a buffer of `dtype`, as a double.
double readElement(DType dtype, const void *buffer, int64_t index);

struct Comparison {
  /// ||gpu - ref||_2 / ||ref||_2, or ||gpu - ref||_2 when ref is all zeros.
  double relL2 = 0;
  /// max |gpu - ref| over elements where both are finite.
  double maxAbs = 0;
  /// Elements that are NaN or infinite.
  int64_t gpuNonFinite = 0;
  int64_t refNonFinite = 0;
  /// Floats only, over elements where both are finite: the most values of
  /// the dtype between gpu and ref (0: equal, +0 and -0 too; 1: adjacent),
  /// and how many elements differ at all.
  int64_t maxUlp = 0;
  int64_t ulpMismatches = 0;
};

Comparison compare(const ArgSpec &arg, const void *gpu, const void *ref);

/// An elementwise comparison with expected values, as
/// numpy.testing.assert_allclose makes it for ONNX's backend tests: element
/// i passes when |out - exp| <= atol + rtol * |exp|; a NaN passes only where
/// NaN is expected, an infinity only where the same infinity is.
struct Closeness {
  int64_t mismatches = 0;
  /// The element furthest beyond its bound (relative to the bound), or,
  /// when all pass, the nearest to it; -1 for no elements.
  int64_t worstIndex = -1;
  double worstOut = 0, worstExpected = 0;
  /// max |out - exp| over the elements where both are finite.
  double maxAbs = 0;
};

Closeness checkClose(const ArgSpec &arg, const void *out, const void *expected,
                     double rtol, double atol);

/// Default bound on the relative L2 error: 1e-5 for f32, 2e-3 for f16,
/// 1.6e-2 for bf16, 1e-10 for f64, exact for integers.
double getDefaultRelL2Tolerance(DType dtype);

} // namespace hidet::run

#endif // HIDET_RUN_DATA_H
