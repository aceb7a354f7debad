//===- SimtMatmulSpaceTest.cpp - Tests of the SIMT schedule space ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The SIMT matmul schedule space: every enumerated schedule is valid and
// distinct, the heuristic's candidates are in the space, the filters reject
// what the target cannot run with a message naming the reason, and the
// heuristic's picks per shape class.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/SimtMatmulSpace.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>

using namespace hidet::schedule;

namespace {

SimtMatmulSchedule make(std::array<int64_t, 2> bw, std::array<int64_t, 2> wo,
                        std::array<int64_t, 2> wm, std::array<int64_t, 2> wi,
                        int64_t bk) {
  return SimtMatmulSchedule{bw, wo, wm, wi, bk};
}

TEST(SimtMatmulSpace, EveryScheduleIsValidAndDistinct) {
  TargetLimits h100 = TargetLimits::h100();
  std::vector<SimtMatmulSchedule> space = enumerateSimtSpace(h100);
  ASSERT_FALSE(space.empty());
  std::set<std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>>
      seen;
  for (const SimtMatmulSchedule &s : space) {
    EXPECT_EQ(checkSimtSchedule(s, &h100), "");
    EXPECT_LE(s.numThreads(), h100.maxThreadsPerBlock);
    EXPECT_LE(s.sharedBytes(), h100.maxSharedBytesPerBlock);
    EXPECT_LE(s.estimatedRegisters(), h100.maxRegistersPerThread);
    EXPECT_EQ(s.warpMid[0] * s.warpMid[1], 32);
    EXPECT_TRUE(seen.insert({s.blockWarps[0], s.blockWarps[1], s.warpOuter[0],
                             s.warpOuter[1], s.warpMid[0], s.warpMid[1],
                             s.warpInner[0], s.warpInner[1], s.blockK,
                             s.grid.swizzle, s.grid.splitK, s.stages})
                    .second);
  }
  // The space is fixed by the hardware, not by inputs: enumerating twice
  // gives the same schedules in the same order.
  std::vector<SimtMatmulSchedule> again = enumerateSimtSpace(h100);
  ASSERT_EQ(space.size(), again.size());
  for (size_t i = 0; i < space.size(); ++i)
    EXPECT_TRUE(space[i] == again[i]);
}

TEST(SimtMatmulSpace, TighterTargetsGiveSmallerSpaces) {
  TargetLimits small = TargetLimits::h100();
  small.maxSharedBytesPerBlock = 8 * 1024;
  small.maxThreadsPerBlock = 256;
  std::vector<SimtMatmulSchedule> h100 = enumerateSimtSpace(TargetLimits::h100());
  std::vector<SimtMatmulSchedule> tight = enumerateSimtSpace(small);
  EXPECT_LT(tight.size(), h100.size());
  EXPECT_FALSE(tight.empty());
  for (const SimtMatmulSchedule &s : tight) {
    EXPECT_LE(s.sharedBytes(), 8 * 1024);
    EXPECT_LE(s.numThreads(), 256);
  }
}

TEST(SimtMatmulSpace, HeuristicCandidatesAreInTheSpace) {
  std::vector<SimtMatmulSchedule> space = enumerateSimtSpace(TargetLimits::h100());
  TargetLimits limits;
  for (auto [m, n] : std::vector<std::pair<int64_t, int64_t>>{
           {4096, 4096}, {1024, 1024}, {512, 1024}, {256, 1024}, {1, 4096}}) {
    SimtMatmulSchedule s = defaultSimtSchedule(1, m, n, 4096, limits);
    bool found = false;
    for (const SimtMatmulSchedule &t : space)
      found |= t == s;
    EXPECT_TRUE(found) << m << "x" << n;
  }
}

TEST(SimtMatmulSpace, HeuristicFillsTheMultiprocessors) {
  TargetLimits limits; // 132 SMs
  // Large outputs: 128 x 128 tiles (32 x 32 = 1024 blocks).
  SimtMatmulSchedule large = defaultSimtSchedule(1, 4096, 4096, 4096, limits);
  EXPECT_EQ(large.blockM(), 128);
  EXPECT_EQ(large.blockN(), 128);
  // 1024 x 1024: 128 x 128 gives 64 blocks, 64 x 64 gives 256.
  SimtMatmulSchedule mid = defaultSimtSchedule(1, 1024, 1024, 1024, limits);
  EXPECT_EQ(mid.blockM(), 64);
  EXPECT_EQ(mid.blockN(), 64);
  // Nothing fills 132 SMs for M = 1: the smallest tiles.
  SimtMatmulSchedule skinny = defaultSimtSchedule(1, 1, 4096, 4096, limits);
  EXPECT_EQ(skinny.blockM(), 16);
  EXPECT_EQ(skinny.blockN(), 32);
  // ... whose 128 blocks give each SM one, not the two that would hide
  // latency: 8 slices of K.
  EXPECT_EQ(skinny.grid.splitK, 8);
  // A batch counts: 16 batches of 256 x 256 in 64 x 64 tiles give 256
  // blocks, two 4-warp blocks on 97% of the 132 SMs: enough (90% at least).
  SimtMatmulSchedule batched = defaultSimtSchedule(16, 256, 256, 256, limits);
  EXPECT_EQ(batched.blockM(), 64);
  EXPECT_EQ(batched.grid.splitK, 1);
  // 8 batches give 128 blocks: one 4-warp block an SM does not hide the
  // loop's latencies, so K (32 steps) is split 4 ways (512 blocks).
  SimtMatmulSchedule fewBatches = defaultSimtSchedule(8, 256, 256, 256, limits);
  EXPECT_EQ(fewBatches.blockM(), 64);
  EXPECT_EQ(fewBatches.grid.splitK, 4);
  // ViT-B/16's 197 tokens at batch 1: 64 x 64 tiles give 144 blocks for
  // 197 x 2304, split 4 ways (K = 768).
  SimtMatmulSchedule tokens = defaultSimtSchedule(1, 197, 2304, 768, limits);
  EXPECT_EQ(tokens.blockM(), 64);
  EXPECT_EQ(tokens.blockN(), 64);
  EXPECT_EQ(tokens.grid.splitK, 4);
  // ... but not where K is too short to split: 12 heads of 197 x 197 x 64.
  EXPECT_EQ(defaultSimtSchedule(12, 197, 197, 64, limits).grid.splitK, 1);
  // One product of few output tiles and a long K: 64 x 64 tiles, split
  // into the most slices (16 at most) that keep 4.5 blocks an SM at most.
  // 128 x 128 gives 4 blocks; 16 slices give 64.
  SimtMatmulSchedule deep = defaultSimtSchedule(1, 128, 128, 8192, limits);
  EXPECT_EQ(deep.blockM(), 64);
  EXPECT_EQ(deep.blockN(), 64);
  EXPECT_EQ(deep.grid.splitK, 16);
  EXPECT_EQ(deep.stages, 0);
  // ... but not with a short K (6 K steps per slice at least): 4 steps.
  EXPECT_EQ(defaultSimtSchedule(1, 128, 128, 32, limits).grid.splitK, 1);
  // 333 x 444 x 555: 42 blocks of 64 x 64 and 70 K steps: 8 slices (336
  // blocks; 16 would give 672, over 4.5 an SM).
  SimtMatmulSchedule ragged = defaultSimtSchedule(1, 333, 444, 555, limits);
  EXPECT_EQ(ragged.blockM(), 64);
  EXPECT_EQ(ragged.grid.splitK, 8);
  // GPT-2's 128 tokens: 128 x 3072 x 768 is 96 blocks, split 4 ways (384);
  // 128 x 768 x 768 is 24 blocks, split 16 ways (6 K steps each).
  EXPECT_EQ(defaultSimtSchedule(1, 128, 3072, 768, limits).grid.splitK, 4);
  EXPECT_EQ(defaultSimtSchedule(1, 128, 768, 768, limits).grid.splitK, 16);
  // Batched products keep their own rule: 12 heads of 128 x 128 x 1024 in
  // 32 x 64 tiles.
  EXPECT_EQ(defaultSimtSchedule(12, 128, 128, 1024, limits).blockM(), 32);
  // 4096 x 768 in 128 x 128 tiles is 192 blocks: the busiest SMs run 2
  // while others run 1. 64 x 128 tiles (384 blocks, 3 per SM at most, of
  // half the work) balance better: taken.
  SimtMatmulSchedule unbalanced =
      defaultSimtSchedule(1, 4096, 768, 3072, limits);
  EXPECT_EQ(unbalanced.blockM(), 64);
  EXPECT_EQ(unbalanced.blockN(), 128);
  // 2048 x 2048 (256 blocks, 2 per SM either way): 128 x 128 stays.
  EXPECT_EQ(defaultSimtSchedule(1, 2048, 2048, 2048, limits).blockM(), 128);
  // Tiles go in groups of 8 rows.
  EXPECT_EQ(large.grid.swizzle, 8);
  // With one SM, the largest tiles always.
  limits.numSMs = 1;
  EXPECT_EQ(defaultSimtSchedule(1, 16, 16, 16, limits).blockM(), 128);
}

TEST(SimtMatmulSpace, PadsTheSharedRows) {
  // 16 accumulators a thread, k steps of 8: 4 elements after each row of
  // 32, in both stages.
  SimtMatmulSchedule small = make({2, 2}, {1, 1}, {4, 8}, {4, 4}, 8);
  EXPECT_EQ(small.paddingA(), 4);
  EXPECT_EQ(small.sharedBytes(), 2 * (32 + 4 + 64) * 8 * 4);
  // Fewer k a row of lanes: more padding.
  EXPECT_EQ(make({2, 2}, {1, 1}, {4, 8}, {4, 4}, 4).paddingA(), 8);
  EXPECT_EQ(make({2, 2}, {1, 1}, {4, 8}, {4, 4}, 16).paddingA(), 4);
  // 64 accumulators: none.
  SimtMatmulSchedule large = make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 8);
  EXPECT_EQ(large.paddingA(), 0);
  EXPECT_EQ(large.sharedBytes(), 2 * (128 + 128) * 8 * 4);
  // cp.async: padded whatever the accumulators, in every stage, with room
  // for B's padding (a K-contiguous B); no registers for staged loads.
  SimtMatmulSchedule copied = large;
  copied.stages = 3;
  EXPECT_EQ(copied.paddingA(), 4);
  EXPECT_EQ(copied.paddingB(), 4);
  EXPECT_EQ(copied.sharedBytes(), 3 * (128 + 4 + 128 + 4) * 8 * 4);
  EXPECT_EQ(large.paddingB(), 0);
  EXPECT_EQ(copied.estimatedRegisters(), large.estimatedRegisters() - 8);
}

TEST(SimtMatmulSpace, HeuristicCopiesLargeTilesWithCpAsync) {
  TargetLimits limits; // 132 SMs
  // BERT's 4096 x 3072 x 768: 768 blocks of 128 x 128, two an SM and
  // more: 128 threads of 8 x 16 accumulators, 3 cp.async stages.
  SimtMatmulSchedule wide =
      defaultSimtSchedule(1, 4096, 3072, 768, limits, /*asyncCopy=*/true);
  EXPECT_EQ(wide.blockM(), 128);
  EXPECT_EQ(wide.blockN(), 128);
  EXPECT_EQ(wide.numThreads(), 128);
  EXPECT_EQ(wide.accumulators(), 128);
  EXPECT_EQ(wide.stages, 3);
  EXPECT_EQ(wide.grid.splitK, 1);
  // Without cp.async (a prologue): 256 threads, register staging.
  SimtMatmulSchedule plain = defaultSimtSchedule(1, 4096, 3072, 768, limits);
  EXPECT_EQ(plain.numThreads(), 256);
  EXPECT_EQ(plain.stages, 0);
  EXPECT_EQ(plain.blockM(), 128);
  // 2048 x 1024: 128 blocks, one an SM: the 256-thread tile, 4 stages.
  SimtMatmulSchedule one =
      defaultSimtSchedule(1, 2048, 1024, 1024, limits, /*asyncCopy=*/true);
  EXPECT_EQ(one.numThreads(), 256);
  EXPECT_EQ(one.blockM(), 128);
  EXPECT_EQ(one.stages, 4);
  // 4096 x 768 takes the 64 x 128 half tiles (balance), 4 stages.
  SimtMatmulSchedule half =
      defaultSimtSchedule(1, 4096, 768, 3072, limits, /*asyncCopy=*/true);
  EXPECT_EQ(half.blockM(), 64);
  EXPECT_EQ(half.blockN(), 128);
  EXPECT_EQ(half.stages, 4);
  // Smaller tiles keep register staging: ViT-B/16's 197 x 2304 x 768.
  SimtMatmulSchedule tokens =
      defaultSimtSchedule(1, 197, 2304, 768, limits, /*asyncCopy=*/true);
  EXPECT_EQ(tokens.blockM(), 64);
  EXPECT_EQ(tokens.stages, 0);
  EXPECT_EQ(tokens.grid.splitK, 4);
  // Each is in the space.
  std::vector<SimtMatmulSchedule> space = enumerateSimtSpace(limits);
  for (const SimtMatmulSchedule &s : {wide, one, half, tokens})
    EXPECT_NE(std::find(space.begin(), space.end(), s), space.end());
}

TEST(SimtMatmulSpace, HeuristicFitsNarrowAndShortProducts) {
  TargetLimits limits; // 132 SMs
  // Attention's P V of 384 heads, N = 64: 128 x 64 tiles on 128 threads of
  // 8 x 8 accumulators, 3 stages (128-column tiles would be half padding).
  SimtMatmulSchedule pv =
      defaultSimtSchedule(384, 128, 64, 128, limits, /*asyncCopy=*/true);
  EXPECT_EQ(pv.blockM(), 128);
  EXPECT_EQ(pv.blockN(), 64);
  EXPECT_EQ(pv.numThreads(), 128);
  EXPECT_EQ(pv.stages, 3);
  // N = 192 pads 128-column tiles by a third: 64 columns too. N = 320
  // (a fifth) keeps the 128 x 128 tile.
  EXPECT_EQ(defaultSimtSchedule(1, 8192, 192, 768, limits, true).blockN(), 64);
  EXPECT_EQ(defaultSimtSchedule(1, 8192, 320, 768, limits, true).blockN(), 128);
  // The 64 x 128 half tile (balance) of a narrow N becomes 64 x 64.
  SimtMatmulSchedule square =
      defaultSimtSchedule(1, 18432, 64, 768, limits, /*asyncCopy=*/true);
  EXPECT_EQ(square.blockM(), 64);
  EXPECT_EQ(square.blockN(), 64);
  EXPECT_EQ(square.stages, 3);
  // Without cp.async, the 128 x 128 tile as before.
  EXPECT_EQ(defaultSimtSchedule(384, 128, 64, 128, limits).blockN(), 128);
  // K too short to split (12 heads, K = 64): the 32 x 64 and 64 x 64 tiles
  // take 3 stages of cp.async.
  SimtMatmulSchedule qk =
      defaultSimtSchedule(12, 128, 128, 64, limits, /*asyncCopy=*/true);
  EXPECT_EQ(qk.blockM(), 32);
  EXPECT_EQ(qk.grid.splitK, 1);
  EXPECT_EQ(qk.stages, 3);
  SimtMatmulSchedule tokens =
      defaultSimtSchedule(12, 197, 197, 64, limits, /*asyncCopy=*/true);
  EXPECT_EQ(tokens.blockM(), 64);
  EXPECT_EQ(tokens.grid.splitK, 1);
  EXPECT_EQ(tokens.stages, 3);
  // A split K keeps register staging (GPT-2's 128 x 3072 x 768 at batch 1).
  SimtMatmulSchedule split =
      defaultSimtSchedule(1, 128, 3072, 768, limits, /*asyncCopy=*/true);
  EXPECT_GT(split.grid.splitK, 1);
  EXPECT_EQ(split.stages, 0);
  std::vector<SimtMatmulSchedule> space = enumerateSimtSpace(limits);
  for (const SimtMatmulSchedule &s : {pv, square, qk, tokens, split})
    EXPECT_NE(std::find(space.begin(), space.end(), s), space.end());
}

TEST(SimtMatmulSpace, ChecksNameTheReason) {
  TargetLimits h100 = TargetLimits::h100();
  EXPECT_NE(checkSimtSchedule(make({4, 2}, {2, 2}, {4, 4}, {4, 4}, 8))
                .find("warp_mid must cover the 32 lanes"),
            std::string::npos);
  EXPECT_NE(checkSimtSchedule(make({8, 8}, {1, 1}, {4, 8}, {1, 1}, 8))
                .find("2048 threads per block"),
            std::string::npos);
  EXPECT_NE(checkSimtSchedule(make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 3))
                .find("cannot be split evenly over 256 threads"),
            std::string::npos);
  EXPECT_NE(checkSimtSchedule(make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 0))
                .find("block_k must be in [1, 64]"),
            std::string::npos);
  EXPECT_NE(checkSimtSchedule(make({1, 1}, {4, 4}, {4, 8}, {8, 8}, 8))
                .find("accumulators per thread"),
            std::string::npos);
  // 256 x 256 tiles of k = 64 need 256 KiB of shared memory in two stages.
  EXPECT_NE(checkSimtSchedule(make({4, 4}, {2, 2}, {4, 8}, {8, 4}, 64), &h100)
                .find("262144 bytes of shared memory"),
            std::string::npos);
  // 8 x 8 repeats x (4 x 4) inner = 256 accumulators: fine structurally,
  // too many registers for the target.
  SimtMatmulSchedule heavy = make({1, 1}, {2, 2}, {4, 8}, {8, 8}, 8);
  EXPECT_EQ(checkSimtSchedule(heavy), "");
  EXPECT_NE(checkSimtSchedule(heavy, &h100).find("registers per thread"),
            std::string::npos);
  SimtMatmulSchedule staged = make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 8);
  staged.stages = 1;
  EXPECT_NE(checkSimtSchedule(staged).find(
                "stages must be 0 (register staging) or in [2, 8]"),
            std::string::npos);
  // The grid fields.
  SimtMatmulSchedule split = make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 8);
  split.grid.splitK = 0;
  EXPECT_NE(checkSimtSchedule(split).find("split_k must be in [1, 64]"),
            std::string::npos);
  split.grid = {0, 1};
  EXPECT_NE(checkSimtSchedule(split).find("swizzle must be in [1, 64]"),
            std::string::npos);
  // The default schedule passes.
  EXPECT_EQ(checkSimtSchedule(make({4, 2}, {2, 2}, {4, 8}, {4, 4}, 8), &h100),
            "");
}

} // namespace
