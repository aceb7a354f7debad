//===- Target.cpp - Grid-level schedule fields ----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/Target.h"

#include <algorithm>

using namespace hidet::schedule;

namespace {
/// One row of the chip table: the datasheet limits of a representative
/// part (the SM count is the one a pipeline option may override).
struct ChipRow {
  const char *chip;
  int64_t numSMs;
  int64_t sharedKiBPerSM;
  int64_t sharedKiBPerBlock;
  int64_t maxThreadsPerSM;
  int64_t maxBlocksPerSM;
  int64_t l2MiB;
  bool tma;
  bool wgmma;
};
} // namespace

// CUDA C Programming Guide, "Technical Specifications per Compute
// Capability"; the SM counts and L2 sizes are those of the A100 SXM (sm_80,
// 40 MiB), the A40 (sm_86, 6 MiB), the L40S (sm_89, 96 MiB) and the H100
// SXM (sm_90, sm_90a, 50 MiB), from their datasheets.
static constexpr ChipRow kChips[] = {
    {"sm_80", 108, 164, 163, 2048, 32, 40, false, false},
    {"sm_86", 84, 100, 99, 1536, 16, 6, false, false},
    {"sm_89", 142, 100, 99, 1536, 24, 96, false, false},
    {"sm_90", 132, 228, 227, 2048, 32, 50, true, false},
    {"sm_90a", 132, 228, 227, 2048, 32, 50, true, true},
};

std::optional<TargetLimits>
hidet::schedule::targetForChip(const std::string &chip) {
  for (const ChipRow &row : kChips) {
    if (chip != row.chip)
      continue;
    TargetLimits t;
    t.chip = row.chip;
    t.numSMs = row.numSMs;
    t.sharedBytesPerSM = row.sharedKiBPerSM * 1024;
    t.maxSharedBytesPerBlock = row.sharedKiBPerBlock * 1024;
    t.maxThreadsPerSM = row.maxThreadsPerSM;
    t.maxBlocksPerSM = row.maxBlocksPerSM;
    t.l2Bytes = row.l2MiB * 1024 * 1024;
    t.hasAsyncCopy = true;
    t.hasTma = row.tma;
    t.hasWgmma = row.wgmma;
    return t;
  }
  return std::nullopt;
}

std::vector<std::string> hidet::schedule::knownChips() {
  std::vector<std::string> chips;
  for (const ChipRow &row : kChips)
    chips.push_back(row.chip);
  return chips;
}

TargetLimits TargetLimits::h100() { return *targetForChip(kDefaultChip); }

std::string hidet::schedule::checkGridSchedule(const GridSchedule &g) {
  if (g.swizzle < 1 || g.swizzle > 64)
    return "swizzle must be in [1, 64], got " + std::to_string(g.swizzle);
  if (g.splitK < 1 || g.splitK > 64)
    return "split_k must be in [1, 64], got " + std::to_string(g.splitK);
  return "";
}

int64_t hidet::schedule::residentBlocks(int64_t threads, int64_t registers,
                                        int64_t sharedBytes,
                                        const TargetLimits &limits) {
  // Registers are allocated per warp in units of 256.
  int64_t warps = (threads + 31) / 32;
  int64_t perWarp = (registers * 32 + 255) / 256 * 256;
  int64_t blocks = limits.registersPerSM / (warps * perWarp);
  // The driver reserves 1 KiB of shared memory per block.
  blocks = std::min(blocks, limits.sharedBytesPerSM / (sharedBytes + 1024));
  blocks = std::min(blocks, limits.maxThreadsPerSM / threads);
  return std::max<int64_t>(1, std::min(blocks, limits.maxBlocksPerSM));
}

bool hidet::schedule::fillsTheGpu(int64_t blocks, int64_t perSM,
                                  const TargetLimits &limits) {
  return blocks * 10 >= limits.numSMs * perSM * 9;
}

int64_t hidet::schedule::defaultSplitK(int64_t blocks, int64_t resident,
                                       int64_t kTiles,
                                       const TargetLimits &limits) {
  if (blocks <= 0 ||
      fillsTheGpu(blocks, std::min<int64_t>(resident, 2), limits))
    return 1;
  int64_t split = 1;
  while (split < 16 && blocks * split * 2 <= limits.numSMs * resident &&
         kTiles / (split * 2) >= 4)
    split *= 2;
  return split;
}

bool hidet::schedule::tileFits(int64_t tile, int64_t extent) {
  int64_t padded = 16;
  while (padded < extent)
    padded *= 2;
  return tile <= padded;
}

std::string hidet::schedule::checkResources(int64_t sharedBytes,
                                            int64_t registers,
                                            const TargetLimits &limits) {
  if (sharedBytes > limits.maxSharedBytesPerBlock)
    return "the tiles need " + std::to_string(sharedBytes) +
           " bytes of shared memory; the target has " +
           std::to_string(limits.maxSharedBytesPerBlock);
  if (registers > limits.maxRegistersPerThread)
    return "about " + std::to_string(registers) +
           " registers per thread; the target has " +
           std::to_string(limits.maxRegistersPerThread);
  return "";
}

GridSchedule hidet::schedule::defaultGrid(bool fallback, int64_t blocks,
                                          int64_t resident, int64_t kTiles,
                                          const TargetLimits &limits) {
  GridSchedule grid;
  grid.swizzle = 8;
  if (fallback || !fillsTheGpu(blocks, 1, limits))
    grid.splitK = defaultSplitK(blocks, resident, kTiles, limits);
  return grid;
}
