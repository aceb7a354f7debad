//===- Tolerance.h - Per-element bounds against a reference -----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The per-element check of an output against the reference's output on the
// same inputs: element i passes when
//
//   |out_i - ref_i| <= atol + rtol * |ref_i|,   atol = atolRms * RMS(ref),
//
// with defaults derived from the output dtype's precision and the length of
// the longest sum behind an output (Tolerance.cpp gives the derivation). The
// absolute term scales with the output's RMS because the error of a sum is
// set by the size of its terms, not of its result: where the terms cancel,
// the result is near zero and its error is not.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_TOLERANCE_H
#define HIDET_RUN_TOLERANCE_H

#include "Data.h"

#include <cstdint>

namespace hidet::run {

/// The length of the longest sum behind an output, assumed where none is
/// given (--reduction-length). It covers the sums of today's models (hidden
/// sizes, convolution windows, sequences) and the long rows of the tests.
/// The manifest does not record a length: the compiler would have to bound
/// every chain of sums behind each output, and the length matters for f32
/// outputs only (for 16-bit ones 2 eps outweighs 3 u32 sqrt(n) up to
/// n = 2^26), where this default's bound, 4.6e-5 of the output's RMS, still
/// fails any element off by a thousandth of it.
constexpr int64_t kDefaultReductionLength = 65536;

/// 2^-p, p the fraction bits of `dtype` (f32 2^-23, f16 2^-10, bf16 2^-7,
/// f64 2^-52): an ulp of v is at most eps * |v|. 0 for integers.
double getEpsilon(DType dtype);

/// The unit roundoff of the accumulator of `dtype`'s sums: f32's 2^-24 for
/// f16, bf16 and f32 outputs (the bounds assume that both sides add 16-bit
/// values in f32, as the pipelines do), f64's 2^-53 for f64 outputs; 0 for
/// integers.
double getAccumulatorRoundoff(DType dtype);

struct RefTolerance {
  /// Relative to |ref_i|.
  double rtol = 0;
  /// The absolute tolerance as a multiple of RMS(ref).
  double atolRms = 0;
};

/// The default per-element tolerance of an output of `dtype` behind which
/// the longest sum has `reductionLength` terms (at least 1). Exact (0, 0)
/// for integers.
RefTolerance getDefaultRefTolerance(DType dtype, int64_t reductionLength);

/// What bounds a comparison with the reference. Negative: the dtype's
/// default (getDefaultRelL2Tolerance, getDefaultRefTolerance) or, for
/// maxAbs and maxUlp, no bound; atol, when given, replaces atolRms * RMS.
struct RefBounds {
  double rtolL2 = -1;
  double rtol = -1;
  double atol = -1;
  double atolRms = -1;
  /// 0: kDefaultReductionLength.
  int64_t reductionLength = 0;
  double maxAbs = -1;
  long long maxUlp = -1;
};

/// An output compared with the reference's, and the bounds it was held to.
struct RefCheck {
  Comparison comparison;
  /// Each element within atol + rtol * |ref|.
  Closeness elements;
  double rtolL2 = 0, rtol = 0, atol = 0;
  /// -1 when atol was given as such.
  double atolRms = -1;
  double maxAbs = -1;
  long long maxUlp = -1;
  /// No NaN or infinity on either side, and every bound met.
  bool pass = true;
};

/// Compares `out` with the reference's `ref`, both of `arg`'s dtype and
/// shape, as a whole and element by element.
RefCheck checkAgainstRef(const ArgSpec &arg, const void *out, const void *ref,
                         const RefBounds &bounds);

} // namespace hidet::run

#endif // HIDET_RUN_TOLERANCE_H
