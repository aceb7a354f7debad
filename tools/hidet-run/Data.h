//===- Data.h - Input generation and comparison for hidet-run ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Element encodings, seeded input generation and output comparison. The
// generator does its own mappings from random bits to values (not
// std::uniform_*_distribution or std::normal_distribution, whose algorithms
// differ between standard libraries, nor libm functions, whose last bits
// may), so a seed gives the same inputs wherever hidet-run is built.
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

/// How float inputs are drawn (--input-dist). Each value is drawn in double
/// and rounded once to the dtype.
enum class InputDist {
  /// Uniform in (-1, 1), never 0 (a zero input hides missing terms).
  Uniform,
  /// Standard normal, never 0: the sum of 12 uniform draws in [0, 1) less 6
  /// (Irwin-Hall: mean 0, variance 1, tails to +-6; only IEEE additions, so
  /// no libm function's last bits enter the values).
  Normal,
  /// 3 of 4 elements exactly 0, the others uniform in (-1, 1).
  Sparse,
  /// 0 (half of the elements), 1 or -1: sums are exact in every dtype up to
  /// 256 terms, rows tie for their maximum, and zeros meet every sign test.
  ZerosAndOnes,
  /// A random sign and a magnitude spread evenly over the binades from
  /// 2^-E to 2^E: E = 10 (1e-3 to 1e3) for f32, bf16 and f64; E = 5 for f16,
  /// whose largest value is 65504 (2^16): a product of two inputs is below
  /// 2^10, which leaves 2^6 of headroom, a sum of 64 such products of one
  /// sign or of about 4096 of random signs. Large enough that exp of an
  /// input overflows (f16 above 11, f32 above 88): a softmax that does not
  /// subtract its row's maximum gives infinities.
  Wide,
};

/// The --input-dist spelling ("uniform", "normal", "sparse",
/// "zeros-and-ones", "wide").
const char *getInputDistName(InputDist dist);

/// Largest binade exponent E of InputDist::Wide for `dtype`.
int getWideExponent(DType dtype);

/// Fills a buffer of `arg.getSizeBytes()` bytes. Floats follow `dist`.
/// Integers are uniform in [-8, 8] without 0 and i1 is 0 or 1 whatever
/// `dist` says: an integer input may be an index or a divisor, whose valid
/// range the manifest does not record, and [-8, 8] is what every integer
/// test is written for.
void fillRandom(const ArgSpec &arg, std::mt19937_64 &rng, void *buffer,
                InputDist dist = InputDist::Uniform);

/// Element `index` of a buffer of `dtype`, as a double.
double readElement(DType dtype, const void *buffer, int64_t index);

struct Comparison {
  /// ||gpu - ref||_2 / ||ref||_2, or ||gpu - ref||_2 when ref is all zeros.
  double relL2 = 0;
  /// The root mean square of ref's finite elements (0 if none).
  double refRms = 0;
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

/// An elementwise comparison with expected values (an --expected-output
/// file, or the reference's output), as numpy.testing.assert_allclose makes
/// it for ONNX's backend tests: element i passes when
/// |out - exp| <= atol + rtol * |exp|; a NaN passes only where NaN is
/// expected, an infinity only where the same infinity is.
struct Closeness {
  int64_t mismatches = 0;
  /// The element furthest beyond its bound (relative to the bound), or,
  /// when all pass, the nearest to it; -1 for no elements.
  int64_t worstIndex = -1;
  double worstOut = 0, worstExpected = 0;
  /// |out - exp| / (atol + rtol * |exp|) at worstIndex: at most 1 when all
  /// pass; infinite for a NaN or infinity that fails, or a bound of 0.
  double worstRatio = 0;
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
