//===- Target.cpp - Grid-level schedule fields ----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/Target.h"

using namespace hidet::schedule;

std::string hidet::schedule::checkGridSchedule(const GridSchedule &g) {
  if (g.swizzle < 1 || g.swizzle > 64)
    return "swizzle must be in [1, 64], got " + std::to_string(g.swizzle);
  if (g.splitK < 1 || g.splitK > 64)
    return "split_k must be in [1, 64], got " + std::to_string(g.splitK);
  return "";
}

int64_t hidet::schedule::defaultSplitK(int64_t blocks, int64_t kTiles,
                                       const TargetLimits &limits) {
  if (blocks <= 0 || fillsTheGpu(blocks, limits))
    return 1;
  int64_t split = 1;
  while (split < 16 && blocks * split * 2 <= 2 * limits.numSMs &&
         kTiles / (split * 2) >= 4)
    split *= 2;
  return split;
}

bool hidet::schedule::fillsTheGpu(int64_t blocks, const TargetLimits &limits) {
  return blocks * 10 >= limits.numSMs * 9;
}

bool hidet::schedule::tileFits(int64_t tile, int64_t extent) {
  int64_t padded = 16;
  while (padded < extent)
    padded *= 2;
  return tile <= padded;
}
