//===- MmaMatmulSpace.cpp - Schedule space of the mma matmul --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/MmaMatmulSpace.h"

#include <iterator>

using namespace hidet::schedule;

int64_t MmaMatmulSchedule::estimatedRegisters() const {
  int64_t mTiles = warp[0] / mma[0], nTiles = warp[1] / mma[1];
  int64_t accumulators = mTiles * nTiles * 4;
  // A: 4 registers per m tile; B: 2 per n tile; twice with split tf32
  // operands (their parts).
  int64_t fragments = (mTiles * 4 + nTiles * 2) * (tf32Terms == 3 ? 2 : 1);
  // Register staging of the global loads (none with cp.async).
  int64_t staged = stages != 0 ? 0
                               : (block[0] * block[2] + block[2] * block[1]) *
                                     elementBytes() / 4 / numThreads();
  int64_t total = accumulators + fragments + staged + 40;
  return (total + 7) / 8 * 8;
}

static bool isPowerOf2(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

std::string hidet::schedule::checkTF32Terms(int64_t terms,
                                            const std::string &name) {
  if (terms == 1 || terms == 3)
    return "";
  return name + " must be 1 or 3, got " + std::to_string(terms);
}

std::string hidet::schedule::checkMmaSchedule(const MmaMatmulSchedule &s,
                                              const TargetLimits *limits) {
  if (s.mma != kMma16 && s.mma != kMmaTF32)
    return "mma must be [16, 8, 16] (f16/bf16) or [16, 8, 8] (tf32), got [" +
           std::to_string(s.mma[0]) + ", " + std::to_string(s.mma[1]) + ", " +
           std::to_string(s.mma[2]) + "]";
  if (std::string error = checkGridSchedule(s.grid); !error.empty())
    return error;
  if (std::string error = checkTF32Terms(s.tf32Terms, "tf32_terms");
      !error.empty())
    return error;
  if (s.tf32Terms == 3 && s.mma != kMmaTF32)
    return "tf32_terms = 3 splits tf32 operands: mma must be [16, 8, 8]";
  if (s.stages != 0 && (s.stages < 2 || s.stages > 8))
    return "stages must be 0 (register staging) or in [2, 8] (cp.async), "
           "got " +
           std::to_string(s.stages);
  const char *names[] = {"block M", "block N"};
  for (int i = 0; i < 2; ++i)
    if (!isPowerOf2(s.block[i]) || s.block[i] < 16 || s.block[i] > 256)
      return std::string(names[i]) +
             " must be a power of two in [16, 256], got " +
             std::to_string(s.block[i]);
  if (!isPowerOf2(s.block[2]) || s.block[2] < 16 || s.block[2] > 64)
    return "block K must be 16, 32 or 64, got " + std::to_string(s.block[2]);
  for (int i = 0; i < 2; ++i) {
    if (s.warp[i] <= 0 || s.warp[i] % 16 != 0)
      return std::string("warp ") + (i ? "N" : "M") +
             " must be a positive multiple of 16, got " +
             std::to_string(s.warp[i]);
    if (s.block[i] % s.warp[i] != 0)
      return std::string("warp ") + (i ? "N" : "M") + " = " +
             std::to_string(s.warp[i]) + " does not divide block " +
             (i ? "N" : "M") + " = " + std::to_string(s.block[i]);
  }
  int64_t threads = s.numThreads();
  int64_t maxThreads = limits ? limits->maxThreadsPerBlock : 1024;
  if (threads > maxThreads)
    return "block / warp gives " + std::to_string(threads) +
           " threads per block; at most " + std::to_string(maxThreads);
  // Tiles move in 16-byte pieces, the same number per thread.
  int64_t perPiece = 16 / s.elementBytes();
  int64_t aPieces = s.block[0] * s.block[2] / perPiece,
          bPieces = s.block[2] * s.block[1] / perPiece;
  if (aPieces % threads != 0 || bPieces % threads != 0)
    return "the " + std::to_string(s.block[0]) + " x " +
           std::to_string(s.block[2]) + " and " + std::to_string(s.block[2]) +
           " x " + std::to_string(s.block[1]) +
           " tiles cannot be split evenly into 16-byte pieces over " +
           std::to_string(threads) + " threads";
  if (!limits)
    return "";
  return checkResources(s.sharedBytes(), s.estimatedRegisters(), *limits);
}

std::vector<MmaMatmulSchedule>
hidet::schedule::enumerateMmaSpace(const TargetLimits &limits,
                                   std::array<int64_t, 3> mma) {
  static const int64_t blockMN[] = {16, 32, 64, 128, 256};
  static const int64_t blockK[] = {16, 32, 64};
  static const int64_t warpMN[] = {16, 32, 64, 128};
  std::vector<MmaMatmulSchedule> space;
  for (int64_t bm : blockMN)
    for (int64_t bn : blockMN)
      for (int64_t bk : blockK)
        for (int64_t wm : warpMN)
          for (int64_t wn : warpMN)
            for (int64_t swizzle : kSwizzleValues)
              for (int64_t split : kSplitKValues)
                for (int64_t stages : kStageValues) {
                  MmaMatmulSchedule s{
                      {bm, bn, bk}, {wm, wn}, mma, {swizzle, split}, stages};
                  if (checkMmaSchedule(s, &limits).empty())
                    space.push_back(s);
                }
  return space;
}

MmaMatmulSchedule
hidet::schedule::defaultMmaSchedule(int64_t batch, int64_t m, int64_t n,
                                    int64_t k, const TargetLimits &limits,
                                    std::array<int64_t, 3> mma,
                                    bool asyncCopy) {
  // 4 warps each. 128 x 128 with 64 x 64 warp tiles measured 3-7% faster
  // on the H100 than with 8 warps of 64 x 32 (bench/matmul-mma).
  static const MmaMatmulSchedule candidates[] = {
      {{128, 128, 32}, {64, 64}},
      {{128, 64, 32}, {64, 32}},
      {{64, 64, 32}, {32, 32}},
      {{16, 64, 64}, {16, 16}}, // skinny outputs
  };
  auto blocksOf = [&](const MmaMatmulSchedule &c) {
    return batch * ((m + c.block[0] - 1) / c.block[0]) *
           ((n + c.block[1] - 1) / c.block[1]);
  };
  auto residentOf = [&](const MmaMatmulSchedule &c) {
    return residentBlocks(c.numThreads(), c.estimatedRegisters(),
                          c.sharedBytes(), limits);
  };
  // The 16-row tile is for skinny outputs (M <= 128); a taller output that
  // no other tile fills gets 64 x 64 tiles and split-K instead.
  const MmaMatmulSchedule &skinny = candidates[std::size(candidates) - 1];
  MmaMatmulSchedule pick = m <= 128 ? skinny : candidates[2];
  // With cp.async the K depth of the larger tiles doubles to 64 (with the
  // stages in dynamic shared memory, BK = 64 measured 3-20% faster than 32
  // on the H100 at 4096^3, 4096x3072x768 and ResNet-50 convolutions), and
  // 64 x 64 tiles, which are small, keep 4 stages in flight instead of 3.
  auto withMma = [&](MmaMatmulSchedule c) {
    c.mma = mma;
    if (asyncCopy) {
      c.stages = c.block[0] == 64 && c.block[1] == 64 ? 4 : 3;
      if (c.block[0] >= 64)
        c.block[2] = 64;
    }
    if (mma == kMmaTF32)
      c.block[2] /= 2;
    // Fewer stages where the chip's shared memory does not hold them all
    // beside the epilogue chunks (sm_86 and sm_89: 99 KiB a block).
    while (c.stages > 2 && !checkMmaSchedule(c, &limits).empty())
      --c.stages;
    return c;
  };
  bool fallback = true;
  for (const MmaMatmulSchedule &c : candidates) {
    if (&c == &skinny)
      break;
    if (tileFits(c.block[0], m) && tileFits(c.block[1], n) &&
        fillsTheGpu(blocksOf(c), 1, limits)) {
      pick = c;
      fallback = false;
      break;
    }
  }
  pick = withMma(pick);
  pick.grid = defaultGrid(fallback, blocksOf(pick), residentOf(pick),
                          (k + pick.block[2] - 1) / pick.block[2], limits);
  return pick;
}
