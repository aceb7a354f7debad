//===- WgmmaMatmulSpace.cpp - Schedule space of the wgmma matmul ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/WgmmaMatmulSpace.h"

#include <algorithm>
#include <optional>

using namespace hidet::schedule;

/// The longest K loop (in K steps of 64) that the heuristic runs on a
/// persistent grid.
static constexpr int64_t kPersistentMaxKSteps = 16;
/// The longest K loop for which pingpong tiles beat a persistent grid of
/// 128 x 256 ones (bench/wgmma-pingpong on the H100: at 12 K
/// steps as fast or faster, at 16 3-7% faster, bare, with bias + ReLU or
/// with GELU; at 48 and 64 slower): every persistent pick.
static constexpr int64_t kPingpongMaxKSteps = 16;

std::array<int64_t, 2>
WgmmaMatmulSchedule::rebalancedRegisters(const TargetLimits &limits,
                                         bool tmaProducer) const {
  if (consumers() != 2 || block[1] != 256)
    return {0, 0};
  int64_t producer =
      tmaProducer ? kTmaProducerRegisters : kAsyncCopyProducerRegisters;
  int64_t cap = std::min(limits.maxRegistersPerThread,
                         limits.registersPerSM / numThreads()) /
                8 * 8;
  int64_t consumer = (cap * numThreads() - producer * kWarpgroupThreads) /
                     (consumers() * kWarpgroupThreads) / 8 * 8;
  return {producer, std::min(consumer, limits.maxRegistersPerThread / 8 * 8)};
}

std::string hidet::schedule::checkWgmmaSchedule(const WgmmaMatmulSchedule &s,
                                                const TargetLimits *limits) {
  if (std::string error = checkGridSchedule(s.grid); !error.empty())
    return error;
  if (s.block[0] < 64 || s.block[0] > 256 || s.block[0] % 64 != 0)
    return "block M must be 64, 128, 192 or 256 (64 rows per consumer "
           "warpgroup), got " +
           std::to_string(s.block[0]);
  if (s.block[1] < 64 || s.block[1] > 256 || s.block[1] % 64 != 0)
    return "block N must be 64, 128, 192 or 256 (B arrives in 64-column "
           "boxes; wgmma takes N <= 256), got " +
           std::to_string(s.block[1]);
  if (s.stages < 2 || s.stages > 8)
    return "stages must be in [2, 8], got " + std::to_string(s.stages);
  if (s.pingpong &&
      (s.block[0] != WgmmaMatmulSchedule::kWarpgroupRows || !s.persistent))
    return "pingpong = true takes block M = 64 (each consumer warpgroup a "
           "whole tile) and persistent = true";
  if (!limits)
    return "";
  if (s.numThreads() > limits->maxThreadsPerBlock)
    return "block M = " + std::to_string(s.block[0]) + " gives " +
           std::to_string(s.numThreads()) + " threads per block; at most " +
           std::to_string(limits->maxThreadsPerBlock);
  if (std::string error =
          checkResources(s.sharedBytes(), s.estimatedRegisters(), *limits);
      !error.empty())
    return error;
  // All warpgroups share the register file: the producer's threads get as
  // many registers as the consumers' (no register reallocation).
  int64_t registers = (s.estimatedRegisters() + 7) / 8 * 8;
  if (registers * s.numThreads() > limits->registersPerSM)
    return "about " + std::to_string(registers) + " registers for each of " +
           std::to_string(s.numThreads()) + " threads; an SM has " +
           std::to_string(limits->registersPerSM);
  return "";
}

std::vector<WgmmaMatmulSchedule>
hidet::schedule::enumerateWgmmaSpace(const TargetLimits &limits) {
  static const int64_t sides[] = {64, 128, 192, 256};
  static const int64_t stageValues[] = {2, 3, 4, 5, 6};
  std::vector<WgmmaMatmulSchedule> space;
  for (int64_t bm : sides)
    for (int64_t bn : sides)
      for (int64_t stages : stageValues)
        for (int64_t swizzle : kSwizzleValues)
          for (int64_t splitK : kSplitKValues)
            for (bool persistent : {false, true})
              for (bool pingpong : {false, true}) {
                WgmmaMatmulSchedule s{
                    {bm, bn}, stages, {swizzle, splitK}, persistent, pingpong};
                if (checkWgmmaSchedule(s, &limits).empty())
                  space.push_back(s);
              }
  return space;
}

/// The cost model of the heuristic, in nanoseconds, fitted to the H100 (a
/// sweep of tiles over bench/conv-mma's convolutions): a block spends
/// kStepNs per element of its tile per K step of 64 (at efficiency 1) plus
/// kFixedSteps steps of pipeline fill and epilogue; a split-K reduction
/// costs its launch and its traffic (the slices read, C written) at
/// kReduceBytesPerNs.
static constexpr double kStepNs = 0.03;
static constexpr int64_t kFixedSteps = 2;
static constexpr double kReduceLaunchNs = 2000;
static constexpr double kReduceBytesPerNs = 1600;

/// The heuristic's tiles and their throughput relative to 128 x 256,
/// measured on the H100 at 4096^3 and 8192^3 f16 with 4 stages
/// (bench/matmul-mma's shapes). 64-row tiles run one consumer
/// warpgroup per SM (their grids are one block per SM), which waits for its
/// own wgmma, and 64-column tiles issue the narrowest wgmma: on
/// 1568 x 512 x 4608 both measured at 0.55-0.6 of the per-SM rate of
/// 128 x 128.
namespace {
struct TileEfficiency {
  std::array<int64_t, 2> block;
  double efficiency;
};
} // namespace
static const TileEfficiency kTiles[] = {
    {{128, 256}, 1.0},  {{128, 192}, 0.97}, {{256, 128}, 0.96},
    {{192, 128}, 0.95}, {{128, 128}, 0.91}, {{64, 256}, 0.55},
    {{64, 128}, 0.5},   {{128, 64}, 0.55},  {{64, 64}, 0.4},
};

/// The efficiency of `block` in kTiles, or that of the next narrower tile
/// of its height (64 x 192: 64 x 128's).
static double tileEfficiency(std::array<int64_t, 2> block) {
  for (int64_t n = block[1]; n >= 64; n -= 64)
    for (const TileEfficiency &t : kTiles)
      if (t.block == std::array<int64_t, 2>{block[0], n})
        return t.efficiency;
  return kTiles[std::size(kTiles) - 1].efficiency;
}

/// The cost model's time (ns) of `batch` GEMMs of m x n in tiles of
/// `block` at `efficiency`, their K loop of `kSteps` split into `split`
/// slices.
static double estimatedNs(std::array<int64_t, 2> block, double efficiency,
                          int64_t split, int64_t batch, int64_t m, int64_t n,
                          int64_t kSteps, const TargetLimits &limits) {
  int64_t tiles =
      batch * ((m + block[0] - 1) / block[0]) * ((n + block[1] - 1) / block[1]);
  int64_t waves = (tiles * split + limits.numSMs - 1) / limits.numSMs;
  int64_t steps = (kSteps + split - 1) / split + kFixedSteps;
  double cost = static_cast<double>(waves * block[0] * block[1]) * steps *
                kStepNs / efficiency;
  if (split > 1)
    cost +=
        kReduceLaunchNs + static_cast<double>((split + 1) * batch * m * n * 4) /
                              kReduceBytesPerNs;
  return cost;
}

/// Convolutions whose window has several taps, each of at least one K step
/// of channels (ResNet's 3x3 layers), take 64-row tiles: the producer
/// gathers their A rows from the image (im2col by cp.async), and the tuner
/// picked 64-row tiles over the GEMM model's for every such layer of
/// ResNet-50 (batch 32, f16) on the H100 and on the H200, epilogues fused
/// (bench/results/tuning-records/resnet50-b32-f16-*.json): 64 x 256
/// pingpong tiles 1.17-1.36x faster than 128 x 128 ones at 256 and 512
/// channels, 64 x 128 ones 1.07-1.18x faster than 192 x 128 at 128, and
/// 64 x 64 1.39x faster than persistent 128 x 64 at 64 (on the H100 128 x 64
/// without a persistent grid, 1.44x). N of 256 or more: pingpong 64 x 256
/// tiles; less: one 64-row tile of N (no persistent grid). The split is the
/// cost model's for that tile. Null when the tile does not fit, or when the
/// output makes fewer such tiles than a quarter of the SMs: there the split
/// that fills the GPU decides, and at batch 1 the GEMM model's tiles were
/// faster (ResNet-50's 14x14 layer, 4 tiles of 64 x 256: 9.1 us against
/// 7.1 us on the H200).
static std::optional<WgmmaMatmulSchedule>
windowedConvSchedule(int64_t batch, int64_t m, int64_t n, int64_t kSteps,
                     const TargetLimits &limits) {
  constexpr int64_t rows = WgmmaMatmulSchedule::kWarpgroupRows;
  bool wide = n >= 256;
  std::array<int64_t, 2> block = {rows, wide ? 256 : (n + 63) / 64 * 64};
  int64_t tiles =
      batch * ((m + block[0] - 1) / block[0]) * ((n + block[1] - 1) / block[1]);
  if (!tileFits(block[0], m) || 4 * tiles < limits.numSMs)
    return std::nullopt;
  double efficiency = tileEfficiency(block);
  int64_t bestSplit = 1;
  double bestCost = 0;
  for (int64_t split : kSplitKValues) {
    if (split > 1 && kSteps / split < kMinStepsPerSlice)
      break;
    double cost =
        estimatedNs(block, efficiency, split, batch, m, n, kSteps, limits);
    if (split == 1 || cost < bestCost) {
      bestSplit = split;
      bestCost = cost;
    }
  }
  WgmmaMatmulSchedule s{block, 4, {8, bestSplit}, wide, wide};
  while (s.stages > 2 && !checkWgmmaSchedule(s, &limits).empty())
    --s.stages;
  if (!checkWgmmaSchedule(s, &limits).empty())
    return std::nullopt;
  return s;
}

WgmmaMatmulSchedule
hidet::schedule::defaultWgmmaSchedule(int64_t batch, int64_t m, int64_t n,
                                      int64_t k, const TargetLimits &limits,
                                      int64_t windowTaps) {
  int64_t kSteps =
      (k + WgmmaMatmulSchedule::kBlockK - 1) / WgmmaMatmulSchedule::kBlockK;
  if (windowTaps > 1 && k / windowTaps >= WgmmaMatmulSchedule::kBlockK)
    if (std::optional<WgmmaMatmulSchedule> conv =
            windowedConvSchedule(batch, m, n, kSteps, limits))
      return *conv;
  // A grid runs in as many block times as it has waves (ceil(blocks /
  // SMs), one block per SM): the tile count's quantization decides as much
  // as the tile's own speed (4096 x 768: 128 x 192 tiles make 128 blocks,
  // one wave on 132 SMs; 128 x 256 make 96 and leave 36 SMs idle). Split-K
  // fills the SMs that a few output tiles leave idle, at the cost of the
  // reduction (128 x 768 x 3072: 8.8 us in 8 slices, 12.2 us unsplit).
  const TileEfficiency *best = nullptr;
  int64_t bestSplit = 1;
  double bestCost = 0;
  for (const TileEfficiency &c : kTiles) {
    if (!tileFits(c.block[0], m) || !tileFits(c.block[1], n))
      continue;
    for (int64_t split : kSplitKValues) {
      if (split > 1 && kSteps / split < kMinStepsPerSlice)
        break;
      double cost = estimatedNs(c.block, c.efficiency, split, batch, m, n,
                                kSteps, limits);
      if (!best || cost < bestCost) {
        best = &c;
        bestSplit = split;
        bestCost = cost;
      }
    }
  }
  std::array<int64_t, 2> pick =
      best ? best->block : kTiles[std::size(kTiles) - 1].block;
  // 4 stages: 3 measured 5-13% slower at 4096^3 and 8192^3, 6 slower still.
  // 64-row tiles get a persistent grid of one block per SM, the grid the
  // sweeps above measured them on. Others get a persistent grid (as many
  // blocks as the SMs hold) when there is more
  // than one wave of blocks with short K loops, where a block's fixed costs
  // (the pipeline's fill, the epilogue) weigh most: measured 10% faster at 4096
  // x 3072 x 768 (12 K steps) and 5-7% slower at 4096^3 and 8192^3 (64 and 128
  // K steps) and on a 3x3 convolution of 128 channels (18 K steps).
  int64_t blocks = batch * ((m + pick[0] - 1) / pick[0]) *
                   ((n + pick[1] - 1) / pick[1]) * bestSplit;
  int64_t sliceSteps = (kSteps + bestSplit - 1) / bestSplit;
  WgmmaMatmulSchedule s{pick,
                        4,
                        {8, bestSplit},
                        /*persistent=*/pick[0] ==
                            WgmmaMatmulSchedule::kWarpgroupRows};
  while (s.stages > 2 && !checkWgmmaSchedule(s, &limits).empty())
    --s.stages;
  if (s.consumers() > 1)
    s.persistent = blocks > limits.numSMs * s.resident(limits) &&
                   sliceSteps <= kPersistentMaxKSteps;
  // Two consumers taking 64-row tiles in turns: one's epilogue runs under
  // the other's main loop. Half-height tiles read B twice as often, which
  // costs little while B stays in L2 and much when it does not: GPT-2's
  // lm_head (4096 x 50257 x 768, B 77 MB) measured 1.07 ms with pingpong
  // tiles against 0.77 ms with persistent 128 x 256 ones on the H200.
  int64_t bBytes = k * n * 2;
  if (s.persistent && s.grid.splitK == 1 &&
      s.block == std::array<int64_t, 2>{128, 256} &&
      sliceSteps <= kPingpongMaxKSteps && 2 * bBytes <= limits.l2Bytes) {
    WgmmaMatmulSchedule pingpong = s;
    pingpong.block = {WgmmaMatmulSchedule::kWarpgroupRows, 256};
    pingpong.pingpong = true;
    if (checkWgmmaSchedule(pingpong, &limits).empty())
      s = pingpong;
  }
  return s;
}
