//===- SimtMatmulSpace.cpp - Schedule space of the SIMT matmul ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the SIMT matmul schedule space: validity checks,
// enumeration and the default heuristic.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/SimtMatmulSpace.h"

#include <iterator>

using namespace hidet::schedule;

int64_t SimtMatmulSchedule::estimatedRegisters() const {
  int64_t threads = numThreads();
  int64_t staged =
      stages != 0 ? 0 : (blockM() * blockK + blockK * blockN()) / threads;
  int64_t fragments = warpOuter[0] * warpInner[0] + warpOuter[1] * warpInner[1];
  // Addresses, indices and loop state; rounded to the allocation unit (8).
  int64_t total = accumulators() + staged + fragments + 40;
  return (total + 7) / 8 * 8;
}

bool SimtMatmulSchedule::operator==(const SimtMatmulSchedule &o) const {
  return blockWarps == o.blockWarps && warpOuter == o.warpOuter &&
         warpMid == o.warpMid && warpInner == o.warpInner &&
         blockK == o.blockK && grid == o.grid && stages == o.stages;
}

std::string hidet::schedule::checkSimtSchedule(const SimtMatmulSchedule &s,
                                               const TargetLimits *limits) {
  const std::pair<const char *, const std::array<int64_t, 2> *> lists[] = {
      {"block_warps", &s.blockWarps},
      {"warp_outer", &s.warpOuter},
      {"warp_mid", &s.warpMid},
      {"warp_inner", &s.warpInner}};
  for (auto [name, list] : lists)
    for (int64_t v : *list)
      if (v <= 0 || v > 1024)
        return std::string(name) + " entries must be in [1, 1024], got " +
               std::to_string(v);
  if (std::string error = checkGridSchedule(s.grid); !error.empty())
    return error;
  if (s.warpMid[0] * s.warpMid[1] != 32)
    return "warp_mid must cover the 32 lanes of a warp, got " +
           std::to_string(s.warpMid[0]) + " x " + std::to_string(s.warpMid[1]);
  int64_t threads = s.numThreads();
  int64_t maxThreads = limits ? limits->maxThreadsPerBlock : 1024;
  if (threads > maxThreads)
    return "block_warps gives " + std::to_string(threads) +
           " threads per block; at most " + std::to_string(maxThreads);
  if (s.stages != 0 && (s.stages < 2 || s.stages > 8))
    return "stages must be 0 (register staging) or in [2, 8] (cp.async), "
           "got " +
           std::to_string(s.stages);
  if (s.blockK <= 0 || s.blockK > 64)
    return "block_k must be in [1, 64], got " + std::to_string(s.blockK);
  int64_t bm = s.blockM(), bn = s.blockN();
  if ((bm * s.blockK) % threads != 0 || (bn * s.blockK) % threads != 0)
    return "block_k = " + std::to_string(s.blockK) + ": the " +
           std::to_string(bm) + " x " + std::to_string(s.blockK) + " and " +
           std::to_string(s.blockK) + " x " + std::to_string(bn) +
           " tiles cannot be split evenly over " + std::to_string(threads) +
           " threads";
  int64_t perThread = s.accumulators();
  if (perThread > 256)
    return "warp_outer * warp_inner gives " + std::to_string(perThread) +
           " accumulators per thread; at most 256";
  if (!limits)
    return "";
  return checkResources(s.sharedBytes(), s.estimatedRegisters(), *limits);
}

std::vector<SimtMatmulSchedule>
hidet::schedule::enumerateSimtSpace(const TargetLimits &limits) {
  // Hardware-meaningful values: warps per block, how a warp's 32 lanes are
  // laid out, the per-thread repeats, and K steps.
  static const std::array<int64_t, 2> blockWarps[] = {
      {1, 1}, {1, 2}, {2, 1}, {2, 2}, {2, 4}, {4, 2}, {4, 4}};
  static const std::array<int64_t, 2> warpOuter[] = {
      {1, 1}, {1, 2}, {2, 1}, {2, 2}};
  static const std::array<int64_t, 2> warpMid[] = {
      {4, 8}, {8, 4}, {2, 16}, {16, 2}};
  static const std::array<int64_t, 2> warpInner[] = {
      {2, 2}, {4, 4}, {4, 8}, {8, 4}};
  static const int64_t blockK[] = {4, 8, 16};
  std::vector<SimtMatmulSchedule> space;
  for (const auto &bw : blockWarps)
    for (const auto &wo : warpOuter)
      for (const auto &wm : warpMid)
        for (const auto &wi : warpInner)
          for (int64_t bk : blockK)
            for (int64_t swizzle : kSwizzleValues)
              for (int64_t split : kSplitKValues)
                for (int64_t stages : kSimtStageValues) {
                  SimtMatmulSchedule s{bw, wo, wm, wi, bk};
                  s.grid = {swizzle, split};
                  s.stages = stages;
                  if (checkSimtSchedule(s, &limits).empty())
                    space.push_back(s);
                }
  return space;
}

namespace {
/// The heuristic's tiles.
const SimtMatmulSchedule kFullTile = {
    {4, 2}, {2, 2}, {4, 8}, {4, 4}, 8}; // 128 x 128, 256 threads
const SimtMatmulSchedule kHalfTile = {
    {2, 2}, {2, 2}, {4, 8}, {4, 4}, 8}; //  64 x 128, 128 threads
const SimtMatmulSchedule kSquareTile = {
    {2, 2}, {2, 1}, {4, 8}, {4, 4}, 8}; //  64 x  64, 128 threads
const SimtMatmulSchedule kSmallTile = {
    {2, 2}, {1, 1}, {4, 8}, {4, 4}, 8}; //  32 x  64, 128 threads
const SimtMatmulSchedule kTinyTile = {
    {2, 2}, {1, 1}, {4, 8}, {2, 2}, 8}; //  16 x  32, 128 threads
/// The cp.async forms of the large tiles, 128 threads each: 128 x 128 of
/// 8 x 16 accumulators a thread, and its 128 x 64 half of 8 x 8.
const SimtMatmulSchedule kWideTile = {{2, 2}, {2, 2}, {4, 8}, {8, 4}, 8};
const SimtMatmulSchedule kTallTile = {{2, 2}, {2, 1}, {4, 8}, {8, 4}, 8};

/// Every tile above.
const SimtMatmulSchedule *const kHeuristicTiles[] = {
    &kFullTile, &kHalfTile, &kSquareTile, &kSmallTile,
    &kTinyTile, &kWideTile, &kTallTile};

/// Whether columns of 128-column tiles cover `n` with a quarter more
/// padding than 64-column tiles do (n = 64 takes twice the work, n = 192
/// a third more).
bool narrowForWideTiles(int64_t n) {
  return (n + 127) / 128 * 128 * 4 >= (n + 63) / 64 * 64 * 5;
}

/// `s` with the schedule `t`'s tile and stages, keeping its grid.
SimtMatmulSchedule withTile(const SimtMatmulSchedule &s,
                            const SimtMatmulSchedule &t, int64_t stages) {
  SimtMatmulSchedule r = t;
  r.grid = s.grid;
  r.stages = stages;
  return r;
}

/// The cp.async form of the heuristic's 128 x 128 tile (256 threads) or
/// its 64 x 128 half, given `blocks` of `s`'s tile and N. Measured on the
/// H100 against register staging (graph replay, medians of 200; cuBLAS with
/// TF32 off in the same run): 128 x 128 tiles on 128 threads of 8 x 16
/// accumulators, 3 stages: 4096 x 3072 x 768 0.474 -> 0.420 ms (cuBLAS
/// 0.409), 6304 x 3072 x 768 0.823 -> 0.691 (0.675), 2048^3 0.398 -> 0.367
/// (0.341); the 256-thread tile with 4 stages came between (0.453, 0.748,
/// 0.384). 64 x 128 tiles, 4 stages: 4096 x 768 x 3072 0.459 -> 0.426
/// (0.412), 4096 x 768 x 768 0.121 -> 0.113 (0.121). Where N leaves
/// 128-column tiles mostly padding (narrowForWideTiles), the tiles are 64
/// columns wide: attention's P V of 384 heads, 128 x 64 x 128 0.0428 ->
/// 0.0268 ms with 128 x 64 tiles (cuBLAS 0.0332), 197 x 64 x 197 0.120 ->
/// 0.073 (0.074); the 64 x 128 half becomes 64 x 64 by the same rule (3
/// stages: 0.0285 and 0.081 ms on those two).
void withAsyncCopies(SimtMatmulSchedule &s, int64_t blocks, int64_t n,
                     const TargetLimits &limits) {
  SimtMatmulSchedule plain = s;
  plain.grid = {};
  bool narrow = narrowForWideTiles(n);
  if (plain == kHalfTile) {
    s = narrow ? withTile(s, kSquareTile, 3) : withTile(s, kHalfTile, 4);
    return;
  }
  if (!(plain == kFullTile))
    return;
  if (s.grid.splitK == 1 && narrow &&
      checkSimtSchedule(withTile(s, kTallTile, 3), &limits).empty()) {
    s = withTile(s, kTallTile, 3);
    return;
  }
  // 128 threads of 128 accumulators: two blocks an SM make the 8 warps the
  // FMA loop wants (kSimtWarpsPerSM).
  SimtMatmulSchedule wide = withTile(s, kWideTile, 3);
  if (s.grid.splitK == 1 && fillsTheGpu(blocks, 2, limits) &&
      checkSimtSchedule(wide, &limits).empty()) {
    s = wide;
    return;
  }
  s.stages = 4;
}

/// The cp.async form of the 64 x 64 and 32 x 64 tiles where K is not
/// split: 3 stages. Measured on the H100 (as above) on attention's batched
/// products, whose K of 64 to 197 is too short to split: 12 heads of
/// 128 x 128 x 64 (Q K^T) 0.0085 -> 0.0063 ms and 128 x 64 x 128 (P V)
/// 0.0134 -> 0.0069 with 32 x 64 tiles, 197 x 197 x 64 0.0137 -> 0.0127
/// with 64 x 64 tiles. With K split they measured no faster (197 x 2304 x
/// 768 and 128 x 3072 x 768, 3 or 4 stages: 0.95x to 1.01x), so they keep
/// register staging.
void withAsyncCopiesUnsplit(SimtMatmulSchedule &s) {
  if (s.grid.splitK == 1)
    s.stages = 3;
}
} // namespace

bool hidet::schedule::isHeuristicSimtTile(const SimtMatmulSchedule &s) {
  SimtMatmulSchedule tile = s;
  tile.grid = {};
  tile.stages = 0;
  for (const SimtMatmulSchedule *t : kHeuristicTiles)
    if (tile == *t)
      return true;
  return false;
}

SimtMatmulSchedule
hidet::schedule::defaultSimtSchedule(int64_t batch, int64_t m, int64_t n,
                                     int64_t k, const TargetLimits &limits,
                                     bool asyncCopy) {
  static const SimtMatmulSchedule candidates[] = {kFullTile, kSquareTile,
                                                  kSmallTile, kTinyTile};
  auto blocksOf = [&](const SimtMatmulSchedule &c) {
    return batch * ((m + c.blockM() - 1) / c.blockM()) *
           ((n + c.blockN() - 1) / c.blockN());
  };
  auto residentOf = [&](const SimtMatmulSchedule &c) {
    return residentBlocks(c.numThreads(), c.estimatedRegisters(),
                          c.sharedBytes(), limits);
  };
  // One product of more than 16 rows whose 64 x 64 tiles leave the SMs
  // short of kSimtWarpsPerSM warps (a batch-1 transformer's 128 or 197
  // rows) takes 64 x 64 tiles and splits K into the most slices (up to 16)
  // that keep at most kMaxSimtSplitBlocksPerSM blocks an SM and at least
  // kMinSimtStepsPerSlice K steps each, staged in registers. Measured on the
  // H100 (graph replay, medians of 200, with the models' epilogues; TF32 off),
  // against 32 x 64 tiles split by the rule below: 128 x 768 x 768 0.0162 ->
  // 0.0132 ms (16 slices), 128 x 2304 x 768 0.0254 -> 0.0229 (8), 128 x 3072 x
  // 768 0.0294 -> 0.0268 (4), 128 x 768 x 3072 0.0293 -> 0.0261 (16), 197 x 768
  // x 768 0.0180 -> 0.0165 (8), 197 x 768 x 3072 0.0503 -> 0.0418 (8); cuBLAS
  // 0.0140, 0.0220, 0.0245, 0.0256, 0.0175, 0.0400. Slices of 3 or 4 stages of
  // cp.async measured within 4% of these either way. 333 x 444 x 555 (8 slices)
  // measured a little slower: 0.0162 -> 0.0169 ms.
  if (batch == 1 && m > 16) {
    SimtMatmulSchedule square = kSquareTile;
    square.grid.swizzle = 8;
    int64_t warps = square.numThreads() / 32;
    int64_t kTiles = (k + square.blockK - 1) / square.blockK;
    auto fits = [&](int64_t split) {
      return blocksOf(square) * split <=
                 kMaxSimtSplitBlocksPerSM * limits.numSMs &&
             kTiles / split >= kMinSimtStepsPerSlice;
    };
    if (!fillsTheGpu(blocksOf(square), kSimtWarpsPerSM / warps, limits) &&
        fits(2)) {
      while (square.grid.splitK < 16 && fits(square.grid.splitK * 2))
        square.grid.splitK *= 2;
      return square;
    }
  }
  // The 16 x 32 tile is for outputs of at most 16 rows; other outputs that
  // no larger tile fills get 32 x 64 tiles.
  const SimtMatmulSchedule &small = candidates[2];
  SimtMatmulSchedule pick = m <= 16 ? candidates[3] : small;
  bool fallback = true;
  for (size_t i = 0; i + 1 < std::size(candidates); ++i)
    if (fillsTheGpu(blocksOf(candidates[i]), 1, limits)) {
      pick = candidates[i];
      fallback = false;
      break;
    }
  // An FMA loop hides its shared-memory and global latencies over
  // kSimtWarpsPerSM warps an SM. A tile whose blocks give fewer (one 4-warp
  // 64 x 64 block an SM) splits K into the most slices that keep 8 K steps
  // each and fit the SMs at once. Measured on the H100 in ViT-B/16 at batch
  // 1: 197 x 2304 x 768 (144 blocks) 1.95x with 4 slices; 12 x 197 x 197 x
  // 64 (8 K steps) was fastest unsplit.
  int64_t warps = pick.numThreads() / 32;
  if (!fallback &&
      !fillsTheGpu(blocksOf(pick), (kSimtWarpsPerSM + warps - 1) / warps,
                   limits)) {
    pick.grid.swizzle = 8;
    int64_t kTiles = (k + pick.blockK - 1) / pick.blockK;
    int64_t fit = limits.numSMs * residentOf(pick);
    while (pick.grid.splitK < 16 &&
           blocksOf(pick) * pick.grid.splitK * 2 <= fit &&
           kTiles / (pick.grid.splitK * 2) >= 8)
      pick.grid.splitK *= 2;
    if (asyncCopy)
      withAsyncCopiesUnsplit(pick);
    return pick;
  }
  // 32 x 64 tiles are latency-bound (a K step is 128 FMAs per thread
  // against a global load): split K into the most slices (up to 16) that
  // keep 16 K steps per slice and at most 6 blocks per SM (batched products
  // and those the rule above leaves). Measured on the H100 (TF32 off),
  // before that rule: 333x444x555 0.030 -> 0.017 ms (4 slices),
  // 128x3072x768 0.048 -> 0.033 ms (4 slices).
  if (pick == small) {
    pick.grid.swizzle = 8;
    int64_t kTiles = (k + pick.blockK - 1) / pick.blockK;
    for (int64_t split = 16; split > 1; split /= 2)
      if (kTiles >= 16 * split && blocksOf(pick) * split <= 6 * limits.numSMs) {
        pick.grid.splitK = split;
        break;
      }
    if (asyncCopy)
      withAsyncCopiesUnsplit(pick);
    return pick;
  }
  // Balance: the busiest SM runs ceil(blocks / SMs) blocks. When halving
  // the 128 x 128 tile to 64 x 128 cuts that work by more than the ~10% a
  // smaller tile loses per block, take the half tile. Measured on the H100
  // at 4096x768x3072 (192 blocks): 0.60 -> 0.46 ms; at 2048^3 (256 blocks,
  // no gain in balance) 128 x 128 stays faster, 0.40 vs 0.45 ms.
  const SimtMatmulSchedule &half = kHalfTile;
  if (pick == candidates[0] && blocksOf(half) > blocksOf(pick)) {
    auto busiest = [&](int64_t blocks) {
      return (blocks + limits.numSMs - 1) / limits.numSMs;
    };
    // In units of the half tile's work.
    double full = 2.0 * busiest(blocksOf(pick));
    double halved = busiest(blocksOf(half)) / 0.9;
    if (halved < full)
      pick = half;
  }
  pick.grid = defaultGrid(fallback, blocksOf(pick), residentOf(pick),
                          (k + pick.blockK - 1) / pick.blockK, limits);
  if (asyncCopy)
    withAsyncCopies(pick, blocksOf(pick), n, limits);
  return pick;
}
