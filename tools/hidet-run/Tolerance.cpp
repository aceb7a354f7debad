//===- Tolerance.cpp - Per-element bounds against a reference -------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Where the defaults come from. Two correct computations of an output (the
// GPU's kernels and the CPU reference) differ by:
//
//  (1) the rounding of the result to the output dtype: the same exact value
//      rounds to the same or to an adjacent value, at most one ulp apart,
//      and an ulp of v is at most eps * |v| (eps = 2^-p, p fraction bits);
//  (2) relative errors before that rounding: an intermediate that one side
//      rounds to the output dtype and the other keeps in f32 (a fused
//      epilogue, a 16-bit temporary), half an ulp each, two of them one
//      more ulp; and transcendental functions (a GPU's exp, tanh or log is
//      within 2 ulps of f32 by the CUDA programming guide's tables, the
//      host's libm within 1), two in a row 4 ulps of f32, 8 u_acc
//      (u_acc = 2^-24, the unit roundoff of the f32 accumulator);
//  (3) absolute errors of sums, independent of the size of the result: a
//      sum y = t_1 + ... + t_n whose terms carry relative errors d_i is off
//      by d_1 t_1 + ... + d_n t_n, a size set by the terms. For terms of
//      random signs sqrt(t_1^2 + ... + t_n^2) is the RMS of y over the
//      output, so these errors are multiples of RMS(ref):
//      (a) terms rounded to the output dtype on one side only (16-bit
//          temporaries, attention's probabilities): d_i uniform in
//          [-eps/2, eps/2], a standard deviation of eps / (2 sqrt 3) RMS;
//          the largest of 10^8 elements is within 6 deviations, 1.73 eps;
//          2 eps RMS;
//      (b) the accumulator adding in another order: a sequential sum rounds
//          each partial sum s_k (of size sqrt(k) RMS(t)), an error with a
//          standard deviation of u_acc sqrt(n / 6) RMS(y); 6 deviations are
//          2.45 u_acc sqrt(n) RMS, 3 u_acc sqrt(n) RMS. Blocked and tree
//          sums (the GPU's) err less.
//
// So, n the length of the longest sum behind the output:
//
//   rtol    = 2 eps + 8 u_acc            (1) + (2)
//   atolRms = 2 eps + 3 u_acc sqrt(n)    (3a) + (3b)
//
// f16: rtol 1.95e-3, atolRms 2.0e-3; bf16: 1.56e-2, 1.57e-2; f32: 7.2e-7,
// 4.6e-5 (n = 65536) or 6e-6 (n = 1024). At |ref| = RMS the bound is then
// 3.1e-2 RMS for bf16, 3.9e-3 for f16 and 4.7e-5 for f32, so an element off
// by a tenth of RMS (a missing term of a sum of 100, a wrong tile, a sign
// error at zero) fails in every dtype, by 3 times its bound in bf16 and
// 2000 times in f32. Integers compare exactly.
//
//===----------------------------------------------------------------------===//

#include "Tolerance.h"

#include <cmath>

using namespace hidet::run;

double hidet::run::getEpsilon(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 0x1.0p-23;
  case DType::F16:
    return 0x1.0p-10;
  case DType::BF16:
    return 0x1.0p-7;
  case DType::F64:
    return 0x1.0p-52;
  default:
    return 0; // Integers compare exactly.
  }
}

double hidet::run::getAccumulatorRoundoff(DType dtype) {
  if (!isFloatDType(dtype))
    return 0;
  return dtype == DType::F64 ? 0x1.0p-53 : 0x1.0p-24;
}

RefTolerance hidet::run::getDefaultRefTolerance(DType dtype,
                                                int64_t reductionLength) {
  double eps = getEpsilon(dtype);
  double uAcc = getAccumulatorRoundoff(dtype);
  double n = static_cast<double>(reductionLength < 1 ? 1 : reductionLength);
  RefTolerance tolerance;
  tolerance.rtol = 2 * eps + 8 * uAcc;
  tolerance.atolRms = 2 * eps + 3 * uAcc * std::sqrt(n);
  return tolerance;
}

RefCheck hidet::run::checkAgainstRef(const ArgSpec &arg, const void *out,
                                     const void *ref, const RefBounds &bounds) {
  RefCheck check;
  check.comparison = compare(arg, out, ref);
  const Comparison &c = check.comparison;
  check.rtolL2 =
      bounds.rtolL2 >= 0 ? bounds.rtolL2 : getDefaultRelL2Tolerance(arg.dtype);
  RefTolerance defaults = getDefaultRefTolerance(
      arg.dtype, bounds.reductionLength > 0 ? bounds.reductionLength
                                            : kDefaultReductionLength);
  check.rtol = bounds.rtol >= 0 ? bounds.rtol : defaults.rtol;
  if (bounds.atol >= 0) {
    check.atol = bounds.atol;
  } else {
    check.atolRms = bounds.atolRms >= 0 ? bounds.atolRms : defaults.atolRms;
    check.atol = check.atolRms * c.refRms;
  }
  check.elements = checkClose(arg, out, ref, check.rtol, check.atol);
  check.maxAbs = bounds.maxAbs;
  check.maxUlp = bounds.maxUlp;
  check.pass = c.gpuNonFinite == 0 && c.refNonFinite == 0 &&
               c.relL2 <= check.rtolL2 && check.elements.mismatches == 0 &&
               (check.maxAbs < 0 || c.maxAbs <= check.maxAbs) &&
               (check.maxUlp < 0 || c.maxUlp <= check.maxUlp);
  return check;
}
