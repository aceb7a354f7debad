//===- Data.cpp - Input generation and comparison for hidet-run -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Data.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

using namespace hidet::run;

namespace {

/// Shifts `value` right by `shift` bits, rounding to nearest, ties to even.
uint64_t shiftRightRoundEven(uint64_t value, int shift) {
  if (shift <= 0)
    return value;
  if (shift >= 64)
    return 0;
  uint64_t kept = value >> shift;
  uint64_t rest = value & ((uint64_t(1) << shift) - 1);
  uint64_t half = uint64_t(1) << (shift - 1);
  if (rest > half || (rest == half && (kept & 1)))
    ++kept;
  return kept;
}

/// Bits of `value` in a binary format with `expBits` exponent and
/// `mantBits` fraction bits, rounded once, directly from double (going
/// through float first could round twice).
uint32_t encodeBinary(double value, int expBits, int mantBits) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  uint32_t sign = static_cast<uint32_t>(bits >> 63) << (expBits + mantBits);
  uint32_t expAllOnes = (uint32_t(1) << expBits) - 1;
  int doubleExp = static_cast<int>((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  if (doubleExp == 0x7ff) {
    uint32_t nanBit = fraction ? uint32_t(1) << (mantBits - 1) : 0;
    return sign | (expAllOnes << mantBits) | nanBit;
  }
  // Double subnormals are far below the smallest half or bfloat16.
  if (doubleExp == 0)
    return sign;
  int bias = (1 << (expBits - 1)) - 1;
  int exponent = doubleExp - 1023;
  uint64_t significand = (uint64_t(1) << 52) | fraction;
  int shift = 52 - mantBits;
  int minExponent = 1 - bias;
  if (exponent < minExponent) {
    // Subnormal: the exponent field is 0, and a result that rounds up to
    // 1 << mantBits carries into the smallest normal, as the encoding wants.
    uint64_t rounded =
        shiftRightRoundEven(significand, shift + (minExponent - exponent));
    return sign | static_cast<uint32_t>(rounded);
  }
  uint64_t rounded = shiftRightRoundEven(significand, shift);
  if (rounded >> (mantBits + 1)) {
    rounded >>= 1;
    ++exponent;
  }
  if (exponent > bias)
    return sign | (expAllOnes << mantBits);
  uint32_t biased = static_cast<uint32_t>(exponent + bias);
  uint32_t mantissa =
      static_cast<uint32_t>(rounded) & ((uint32_t(1) << mantBits) - 1);
  return sign | (biased << mantBits) | mantissa;
}

double decodeBinary(uint32_t bits, int expBits, int mantBits) {
  bool negative = (bits >> (expBits + mantBits)) & 1;
  uint32_t expAllOnes = (uint32_t(1) << expBits) - 1;
  uint32_t exponent = (bits >> mantBits) & expAllOnes;
  uint32_t mantissa = bits & ((uint32_t(1) << mantBits) - 1);
  int bias = (1 << (expBits - 1)) - 1;
  double magnitude;
  if (exponent == expAllOnes)
    magnitude = mantissa ? NAN : INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantBits);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa | (1u << mantBits)),
                           static_cast<int>(exponent) - bias - mantBits);
  return negative ? -magnitude : magnitude;
}

/// Uniform in [0, 1) with 53 random bits.
double uniformUnit(std::mt19937_64 &rng) {
  return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

template <typename T> void store(void *buffer, int64_t index, T value) {
  std::memcpy(static_cast<char *>(buffer) + index * sizeof(T), &value,
              sizeof(T));
}

template <typename T> T load(const void *buffer, int64_t index) {
  T value;
  std::memcpy(&value, static_cast<const char *>(buffer) + index * sizeof(T),
              sizeof(T));
  return value;
}

} // namespace

uint16_t hidet::run::encodeHalf(double value) {
  return static_cast<uint16_t>(encodeBinary(value, 5, 10));
}

uint16_t hidet::run::encodeBFloat16(double value) {
  return static_cast<uint16_t>(encodeBinary(value, 8, 7));
}

double hidet::run::decodeHalf(uint16_t bits) {
  return decodeBinary(bits, 5, 10);
}

double hidet::run::decodeBFloat16(uint16_t bits) {
  return decodeBinary(bits, 8, 7);
}

const char *hidet::run::getInputDistName(InputDist dist) {
  switch (dist) {
  case InputDist::Uniform:
    return "uniform";
  case InputDist::Normal:
    return "normal";
  case InputDist::Sparse:
    return "sparse";
  case InputDist::ZerosAndOnes:
    return "zeros-and-ones";
  case InputDist::Wide:
    return "wide";
  }
  return "uniform";
}

int hidet::run::getWideExponent(DType dtype) {
  return dtype == DType::F16 ? 5 : 10;
}

namespace {

/// Fills `count` floats of `dtype` with `draw()`, each rounded once to the
/// dtype and, unless `allowZero`, drawn again while it rounds to zero.
/// One loop per type, each with its encoder and `draw` inlined (through a
/// function pointer the f16 inputs took 40% longer): inputs of hundreds of
/// millions of elements are generated for every run of a tuning round.
template <typename Draw>
void fillFloats(DType dtype, int64_t count, void *buffer, bool allowZero,
                Draw draw) {
  auto loop = [&](auto encode) {
    for (int64_t i = 0; i < count; ++i)
      while (!encode(i, draw()) && !allowZero) {
      }
  };
  switch (dtype) {
  case DType::F64:
    loop([&](int64_t i, double v) {
      store<double>(buffer, i, v);
      return v != 0.0;
    });
    return;
  case DType::F32:
    loop([&](int64_t i, double v) {
      float f = static_cast<float>(v);
      store<float>(buffer, i, f);
      return f != 0.0f;
    });
    return;
  case DType::F16:
    loop([&](int64_t i, double v) {
      uint16_t bits = encodeHalf(v);
      store<uint16_t>(buffer, i, bits);
      return (bits & 0x7fff) != 0;
    });
    return;
  case DType::BF16:
    loop([&](int64_t i, double v) {
      uint16_t bits = encodeBFloat16(v);
      store<uint16_t>(buffer, i, bits);
      return (bits & 0x7fff) != 0;
    });
    return;
  default:
    return;
  }
}

/// Integers uniform in [-8, 8] without 0; i1 0 or 1.
void fillIntegers(const ArgSpec &arg, std::mt19937_64 &rng, void *buffer) {
  int64_t count = arg.getNumElements();
  if (arg.dtype == DType::I1) {
    for (int64_t i = 0; i < count; ++i)
      store<uint8_t>(buffer, i, static_cast<uint8_t>(rng() & 1));
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t value = 0;
    while (value == 0)
      value = static_cast<int64_t>(rng() % 17) - 8;
    if (arg.dtype == DType::I32)
      store<int32_t>(buffer, i, static_cast<int32_t>(value));
    else if (arg.dtype == DType::I64)
      store<int64_t>(buffer, i, value);
    else
      store<int8_t>(buffer, i, static_cast<int8_t>(value));
  }
}

} // namespace

void hidet::run::fillRandom(const ArgSpec &arg, std::mt19937_64 &rng,
                            void *buffer, InputDist dist) {
  if (!isFloatDType(arg.dtype)) {
    fillIntegers(arg, rng, buffer);
    return;
  }
  int64_t count = arg.getNumElements();
  auto uniform = [&] { return 2.0 * uniformUnit(rng) - 1.0; };
  switch (dist) {
  case InputDist::Uniform:
    fillFloats(arg.dtype, count, buffer, /*allowZero=*/false, uniform);
    return;
  case InputDist::Normal:
    fillFloats(arg.dtype, count, buffer, /*allowZero=*/false, [&] {
      double sum = 0;
      for (int k = 0; k < 12; ++k)
        sum += uniformUnit(rng);
      return sum - 6.0;
    });
    return;
  case InputDist::Sparse:
    fillFloats(arg.dtype, count, buffer, /*allowZero=*/true, [&] {
      // The top two bits choose zero or not, the rest draws the value.
      uint64_t bits = rng();
      if (bits >> 62)
        return 0.0;
      double value = 0;
      while (value == 0)
        value = uniform();
      return value;
    });
    return;
  case InputDist::ZerosAndOnes:
    fillFloats(arg.dtype, count, buffer, /*allowZero=*/true, [&] {
      uint64_t bits = rng() >> 62;
      return bits < 2 ? 0.0 : bits == 2 ? 1.0 : -1.0;
    });
    return;
  case InputDist::Wide: {
    int e = getWideExponent(arg.dtype);
    fillFloats(arg.dtype, count, buffer, /*allowZero=*/false, [&] {
      // A binade in [-e, e) and a significand uniform in [1, 2): exact,
      // where exp2 of a uniform draw would go through libm.
      uint64_t bits = rng();
      int binade = static_cast<int>((bits >> 1) % (2 * e)) - e;
      double magnitude = std::ldexp(1.0 + uniformUnit(rng), binade);
      return bits & 1 ? -magnitude : magnitude;
    });
    return;
  }
  }
}

double hidet::run::readElement(DType dtype, const void *buffer, int64_t index) {
  switch (dtype) {
  case DType::F32:
    return load<float>(buffer, index);
  case DType::F16:
    return decodeHalf(load<uint16_t>(buffer, index));
  case DType::BF16:
    return decodeBFloat16(load<uint16_t>(buffer, index));
  case DType::F64:
    return load<double>(buffer, index);
  case DType::I32:
    return load<int32_t>(buffer, index);
  case DType::I64:
    return static_cast<double>(load<int64_t>(buffer, index));
  case DType::I8:
    return load<int8_t>(buffer, index);
  case DType::I1:
    // The raw byte, so that an unwritten (poisoned, 0xFF) one differs.
    return load<uint8_t>(buffer, index);
  }
  return 0;
}

/// The position of the float element `index` on a line of the dtype's
/// values in order (adjacent values one apart, +0 and -0 both at 0), or
/// nothing for other dtypes.
static std::optional<int64_t> orderedBits(DType dtype, const void *buffer,
                                          int64_t index) {
  auto order = [](uint64_t bits, int width) -> int64_t {
    uint64_t sign = uint64_t(1) << (width - 1);
    int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
    return bits & sign ? -magnitude : magnitude;
  };
  switch (dtype) {
  case DType::F16:
  case DType::BF16:
    return order(load<uint16_t>(buffer, index), 16);
  case DType::F32:
    return order(load<uint32_t>(buffer, index), 32);
  case DType::F64:
    return order(load<uint64_t>(buffer, index), 64);
  default:
    return std::nullopt;
  }
}

Comparison hidet::run::compare(const ArgSpec &arg, const void *gpu,
                               const void *ref) {
  Comparison result;
  // Squares of doubles near their largest value overflow a double; a long
  // double (x86's 80-bit extended format) holds them.
  long double diffSquares = 0, refSquares = 0, allRefSquares = 0;
  int64_t count = arg.getNumElements();
  for (int64_t i = 0; i < count; ++i) {
    double g = readElement(arg.dtype, gpu, i);
    double r = readElement(arg.dtype, ref, i);
    bool gFinite = std::isfinite(g), rFinite = std::isfinite(r);
    result.gpuNonFinite += !gFinite;
    result.refNonFinite += !rFinite;
    if (rFinite)
      allRefSquares += static_cast<long double>(r) * r;
    if (!gFinite || !rFinite)
      continue;
    double diff = g - r;
    diffSquares += static_cast<long double>(diff) * diff;
    refSquares += static_cast<long double>(r) * r;
    result.maxAbs = std::max(result.maxAbs, std::fabs(diff));
    std::optional<int64_t> gBits = orderedBits(arg.dtype, gpu, i);
    std::optional<int64_t> rBits = orderedBits(arg.dtype, ref, i);
    if (!gBits || !rBits)
      continue;
    // Doubles of opposite signs can be more than INT64_MAX apart.
    uint64_t apart = *gBits >= *rBits ? uint64_t(*gBits) - uint64_t(*rBits)
                                      : uint64_t(*rBits) - uint64_t(*gBits);
    int64_t ulps = static_cast<int64_t>(
        std::min<uint64_t>(apart, std::numeric_limits<int64_t>::max()));
    result.maxUlp = std::max(result.maxUlp, ulps);
    result.ulpMismatches += ulps != 0;
  }
  result.relL2 = static_cast<double>(
      refSquares > 0 ? std::sqrt(diffSquares / refSquares)
                     : std::sqrt(diffSquares));
  int64_t finiteRefs = count - result.refNonFinite;
  result.refRms = finiteRefs > 0
                      ? static_cast<double>(std::sqrt(allRefSquares / finiteRefs))
                      : 0.0;
  return result;
}

double hidet::run::getDefaultRelL2Tolerance(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return 1e-5;
  case DType::F16:
    return 2e-3;
  case DType::BF16:
    return 1.6e-2;
  case DType::F64:
    return 1e-10;
  case DType::I32:
  case DType::I64:
  case DType::I8:
  case DType::I1:
    return 0;
  }
  return 0;
}

Closeness hidet::run::checkClose(const ArgSpec &arg, const void *out,
                                 const void *expected, double rtol,
                                 double atol) {
  Closeness result;
  double worstRank = -1;
  int64_t count = arg.getNumElements();
  for (int64_t i = 0; i < count; ++i) {
    double o, e, diff;
    if (arg.dtype == DType::I64) {
      // Exactly, where doubles would round values above 2^53.
      int64_t a = load<int64_t>(out, i), b = load<int64_t>(expected, i);
      uint64_t apart =
          a >= b ? uint64_t(a) - uint64_t(b) : uint64_t(b) - uint64_t(a);
      o = static_cast<double>(a);
      e = static_cast<double>(b);
      diff = static_cast<double>(apart);
    } else {
      o = readElement(arg.dtype, out, i);
      e = readElement(arg.dtype, expected, i);
      diff = std::fabs(o - e);
    }
    // Whether the element passes, and how much of its bound it uses;
    // failing elements rank above all passing ones.
    bool pass;
    double rank;
    if (!std::isfinite(e) || !std::isfinite(o)) {
      pass = (std::isnan(e) && std::isnan(o)) || o == e;
      rank = pass ? 0 : INFINITY;
    } else {
      result.maxAbs = std::max(result.maxAbs, diff);
      double bound = atol + rtol * std::fabs(e);
      pass = diff <= bound;
      rank = bound > 0 ? diff / bound : (pass ? 0 : INFINITY);
    }
    double ratio = rank;
    if (!pass) {
      ++result.mismatches;
      rank += 2;
    }
    if (rank > worstRank) {
      worstRank = rank;
      result.worstRatio = ratio;
      result.worstIndex = i;
      result.worstOut = o;
      result.worstExpected = e;
    }
  }
  return result;
}
