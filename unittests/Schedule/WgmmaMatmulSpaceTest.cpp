//===- WgmmaMatmulSpaceTest.cpp - Tests of the Hopper schedule space ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The TMA + wgmma matmul schedule space: every enumerated schedule is valid,
// distinct and fits the target (threads, shared memory, the register file
// shared by all warpgroups); the derived quantities (warpgroups, threads,
// stage bytes) follow the template; the heuristic picks by waves; malformed
// schedules are rejected with a message naming the field.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/WgmmaMatmulSpace.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hidet::schedule;

namespace {

bool contains(const std::vector<WgmmaMatmulSchedule> &space,
              const WgmmaMatmulSchedule &s) {
  return std::find(space.begin(), space.end(), s) != space.end();
}

TEST(WgmmaMatmulSpace, DerivedQuantities) {
  WgmmaMatmulSchedule s{{128, 256}, 4, {8, 1}};
  EXPECT_EQ(s.consumers(), 2);
  EXPECT_EQ(s.numThreads(), 384);
  // A 128 x 64 box and four 64 x 64 boxes of 16-bit elements.
  EXPECT_EQ(s.stageBytes(), (128 * 64 + 64 * 256) * 2);
  // 4 stages, each consumer's two epilogue chunks of 64 rows of 64 bytes
  // plus 8 elements of padding (f32 by default, f16 when asked), 1 KiB
  // slack.
  EXPECT_EQ(s.epilogueBuffers(), 2);
  EXPECT_EQ(s.sharedBytes(), 4 * 49152 + 2 * 2 * 64 * (16 + 8) * 4 + 1024);
  EXPECT_EQ(s.sharedBytes(2), 4 * 49152 + 2 * 2 * 64 * (32 + 8) * 2 + 1024);
  // Smaller accumulators keep one chunk per consumer.
  WgmmaMatmulSchedule narrow{{128, 64}, 4, {8, 1}};
  EXPECT_EQ(narrow.epilogueBuffers(), 1);
  EXPECT_EQ(narrow.sharedBytes(2),
            4 * (128 * 128 + 64 * 128) + 2 * 64 * (32 + 8) * 2 + 1024);
  // 64 x 256 f32 accumulators over 128 threads.
  EXPECT_EQ(s.estimatedRegisters(), 128 + 32);
  // Pingpong: two consumers of 64-row tiles, a 64-row A box per stage.
  WgmmaMatmulSchedule pp{{64, 256}, 4, {8, 1}, true, true};
  EXPECT_EQ(pp.consumers(), 2);
  EXPECT_EQ(pp.numThreads(), 384);
  EXPECT_EQ(pp.stageBytes(), (64 * 64 + 64 * 256) * 2);
  EXPECT_EQ(pp.sharedBytes(2), 4 * 40960 + 2 * 2 * 64 * (32 + 8) * 2 + 1024);
  EXPECT_EQ(pp.estimatedRegisters(), 128 + 32);
}

TEST(WgmmaMatmulSpace, EveryScheduleIsValidDistinctAndFits) {
  TargetLimits h100 = TargetLimits::h100();
  std::vector<WgmmaMatmulSchedule> space = enumerateWgmmaSpace(h100);
  ASSERT_GT(space.size(), 50u);
  for (size_t i = 0; i < space.size(); ++i) {
    const WgmmaMatmulSchedule &s = space[i];
    EXPECT_EQ(checkWgmmaSchedule(s, &h100), "");
    EXPECT_LE(s.sharedBytes(), h100.maxSharedBytesPerBlock);
    EXPECT_LE(s.numThreads() * s.estimatedRegisters(), h100.registersPerSM);
    for (size_t j = 0; j < i; ++j)
      EXPECT_FALSE(space[j] == s) << "duplicate at " << i;
  }
  // The measured tiles are in it, persistent or not; 256 x 256 (4
  // warpgroups of 128 accumulators per thread) is not.
  EXPECT_TRUE(contains(space, {{128, 256}, 4, {8, 1}}));
  EXPECT_TRUE(contains(space, {{128, 256}, 4, {8, 1}, true}));
  EXPECT_TRUE(contains(space, {{128, 192}, 4, {8, 1}}));
  EXPECT_TRUE(contains(space, {{256, 128}, 4, {1, 1}}));
  // Split-K, with and without a persistent grid.
  EXPECT_TRUE(contains(space, {{64, 64}, 4, {8, 4}, true}));
  EXPECT_TRUE(contains(space, {{128, 128}, 4, {8, 2}}));
  EXPECT_FALSE(contains(space, {{256, 256}, 2, {1, 1}}));
  // 4 stages of 128 x 256 fill 193 KiB; 5 do not fit.
  EXPECT_FALSE(contains(space, {{128, 256}, 5, {1, 1}}));
  // Pingpong 64-row tiles, persistent only.
  EXPECT_TRUE(contains(space, {{64, 256}, 4, {8, 1}, true, true}));
  EXPECT_FALSE(contains(space, {{64, 256}, 4, {8, 1}, false, true}));
  EXPECT_FALSE(contains(space, {{128, 256}, 4, {8, 1}, true, true}));
}

TEST(WgmmaMatmulSpace, HeuristicPicksByWaves) {
  TargetLimits h100 = TargetLimits::h100();
  // 512 blocks of 128 x 256 are 4 waves; nothing does better.
  WgmmaMatmulSchedule big = defaultWgmmaSchedule(1, 4096, 4096, 4096, h100);
  EXPECT_EQ(big.block, (std::array<int64_t, 2>{128, 256}));
  EXPECT_EQ(big.stages, 4);
  EXPECT_EQ(big.grid.swizzle, 8);
  EXPECT_EQ(defaultWgmmaSchedule(1, 8192, 8192, 8192, h100).block,
            (std::array<int64_t, 2>{128, 256}));
  // 4096 x 768: 128 x 192 makes 128 blocks, one wave on 132 SMs; 128 x 256
  // makes 96 and idles a quarter of the GPU.
  EXPECT_EQ(defaultWgmmaSchedule(1, 4096, 768, 3072, h100).block,
            (std::array<int64_t, 2>{128, 192}));
  // 4096 x 3072: 3 waves of 128 x 256 beat 4 of 128 x 192; with K = 1024
  // (16 K steps) on a persistent grid, which K = 4096 (64 steps) and one
  // wave are not given, as pingpong 64 x 256 tiles.
  WgmmaMatmulSchedule wide = defaultWgmmaSchedule(1, 4096, 3072, 1024, h100);
  EXPECT_EQ(wide.block, (std::array<int64_t, 2>{64, 256}));
  EXPECT_TRUE(wide.persistent);
  EXPECT_TRUE(wide.pingpong);
  EXPECT_FALSE(big.persistent);
  // A B of 77 MB (GPT-2's lm_head) does not stay in L2 for the pingpong
  // tiles' second reads: persistent 128 x 256 tiles.
  WgmmaMatmulSchedule head = defaultWgmmaSchedule(1, 4096, 50257, 768, h100);
  EXPECT_EQ(head.block, (std::array<int64_t, 2>{128, 256}));
  EXPECT_TRUE(head.persistent);
  EXPECT_FALSE(head.pingpong);
  EXPECT_FALSE(defaultWgmmaSchedule(1, 4096, 768, 768, h100).persistent);
  // 64 output channels (a convolution's N): 128 x 64 tiles.
  EXPECT_EQ(defaultWgmmaSchedule(1, 32 * 56 * 56, 64, 576, h100).block,
            (std::array<int64_t, 2>{128, 64}));
  // A 3x3 convolution (9 taps of 64 channels or more) takes 64-row tiles:
  // pingpong 64 x 256 ones from 256 output channels (512 at 7x7: split in
  // two), one 64-row tile of N below.
  WgmmaMatmulSchedule c512 =
      defaultWgmmaSchedule(1, 32 * 7 * 7, 512, 9 * 512, h100, /*windowTaps=*/9);
  EXPECT_EQ(c512.block, (std::array<int64_t, 2>{64, 256}));
  EXPECT_TRUE(c512.persistent);
  EXPECT_TRUE(c512.pingpong);
  EXPECT_EQ(c512.grid.splitK, 2);
  WgmmaMatmulSchedule c256 =
      defaultWgmmaSchedule(1, 32 * 14 * 14, 256, 9 * 256, h100, 9);
  EXPECT_EQ(c256.block, (std::array<int64_t, 2>{64, 256}));
  EXPECT_TRUE(c256.pingpong);
  EXPECT_EQ(c256.grid.splitK, 1);
  WgmmaMatmulSchedule c128 =
      defaultWgmmaSchedule(1, 32 * 28 * 28, 128, 9 * 128, h100, 9);
  EXPECT_EQ(c128.block, (std::array<int64_t, 2>{64, 128}));
  EXPECT_FALSE(c128.persistent);
  WgmmaMatmulSchedule c64 =
      defaultWgmmaSchedule(1, 32 * 56 * 56, 64, 9 * 64, h100, 9);
  EXPECT_EQ(c64.block, (std::array<int64_t, 2>{64, 64}));
  EXPECT_FALSE(c64.persistent);
  EXPECT_EQ(c64.stages, 4);
  // At batch 1 the 14x14 layer makes 4 such tiles, fewer than a quarter of
  // the SMs: the GEMM model's tiles and split.
  EXPECT_EQ(defaultWgmmaSchedule(1, 14 * 14, 256, 9 * 256, h100, 9),
            defaultWgmmaSchedule(1, 14 * 14, 256, 9 * 256, h100, 1));
  // Taps of fewer channels than a K step (a stem of 3 or 8) and 1x1
  // windows keep the GEMM model's tiles.
  EXPECT_EQ(
      defaultWgmmaSchedule(1, 32 * 112 * 112, 64, 49 * 8, h100, 49).block[0],
      128);
  EXPECT_EQ(defaultWgmmaSchedule(1, 32 * 56 * 56, 64, 576, h100, 1).block,
            (std::array<int64_t, 2>{128, 64}));
  // A 64-row output is not given 128-row tiles; 64-row tiles are
  // persistent, with 4 stages.
  WgmmaMatmulSchedule rows64 = defaultWgmmaSchedule(1, 64, 4096, 4096, h100);
  EXPECT_EQ(rows64.block[0], 64);
  EXPECT_TRUE(rows64.persistent);
  EXPECT_EQ(rows64.stages, 4);
  // Every pick is in the space.
  std::vector<WgmmaMatmulSchedule> space = enumerateWgmmaSpace(h100);
  for (int64_t m : {1, 64, 333, 4096})
    for (int64_t n : {64, 768, 4096})
      EXPECT_TRUE(contains(space, defaultWgmmaSchedule(1, m, n, 1024, h100)))
          << m << "x" << n;
  // Fewer SMs, fewer blocks needed to fill a wave: the largest tile wins
  // (128 x 256 on a persistent grid, so as pingpong tiles).
  TargetLimits small = h100;
  small.numSMs = 8;
  WgmmaMatmulSchedule largest = defaultWgmmaSchedule(1, 4096, 768, 1024, small);
  EXPECT_EQ(largest.block, (std::array<int64_t, 2>{64, 256}));
  EXPECT_TRUE(largest.pingpong);
}

TEST(WgmmaMatmulSpace, HeuristicSplitsKWhenTilesAreFew) {
  TargetLimits h100 = TargetLimits::h100();
  // 128 x 768 x 3072: 24 tiles of 64 x 64 leave 108 SMs idle for 48 K
  // steps; 4 slices of 12 steps make 96 blocks (measured 8.5 us, 12.2
  // unsplit).
  WgmmaMatmulSchedule skinny = defaultWgmmaSchedule(1, 128, 768, 3072, h100);
  EXPECT_EQ(skinny.block, (std::array<int64_t, 2>{64, 64}));
  EXPECT_EQ(skinny.grid.splitK, 4);
  EXPECT_TRUE(skinny.persistent);
  // The 512-channel 3x3 convolution (1568 x 512 x 4608): 52 tiles of
  // 128 x 128 in 2 slices (measured 32.5 us; 40.8 for 100 tiles of
  // 64 x 128).
  WgmmaMatmulSchedule conv = defaultWgmmaSchedule(1, 1568, 512, 4608, h100);
  EXPECT_EQ(conv.block, (std::array<int64_t, 2>{128, 128}));
  EXPECT_EQ(conv.grid.splitK, 2);
  // A wave of blocks or more, or short K loops: no split (the reduction
  // would cost more than the idle SMs).
  for (auto [m, n, k] : {std::array<int64_t, 3>{4096, 4096, 4096},
                         {4096, 768, 3072},
                         {6272, 256, 2304},
                         {128, 3072, 768},
                         {128, 768, 768}})
    EXPECT_EQ(defaultWgmmaSchedule(1, m, n, k, h100).grid.splitK, 1)
        << m << "x" << n << "x" << k;
  // Slices keep at least 4 K steps: 12 steps split at most 2 ways.
  EXPECT_LE(defaultWgmmaSchedule(1, 64, 64, 768, h100).grid.splitK, 2);
}

TEST(WgmmaMatmulSpace, HeuristicTakesPingpongForShortKLoops) {
  TargetLimits h100 = TargetLimits::h100();
  // 4096 x 3072 x 768: a persistent grid of 128 x 256 tiles would run 12 K
  // steps each; pingpong 64 x 256 tiles hide each epilogue instead.
  WgmmaMatmulSchedule s = defaultWgmmaSchedule(1, 4096, 3072, 768, h100);
  EXPECT_TRUE((s == WgmmaMatmulSchedule{{64, 256}, 4, {8, 1}, true, true}));
  EXPECT_EQ(checkWgmmaSchedule(s, &h100), "");
  // So do 16 K steps (8192 x 8192 x 1024); long K loops are neither
  // persistent nor pingpong.
  WgmmaMatmulSchedule longer = defaultWgmmaSchedule(1, 8192, 8192, 1024, h100);
  EXPECT_TRUE(
      (longer == WgmmaMatmulSchedule{{64, 256}, 4, {8, 1}, true, true}));
  WgmmaMatmulSchedule longest = defaultWgmmaSchedule(1, 4096, 4096, 4096, h100);
  EXPECT_FALSE(longest.pingpong);
  EXPECT_FALSE(longest.persistent);
}

TEST(WgmmaMatmulSpace, GridBlocks) {
  TargetLimits h100 = TargetLimits::h100();
  // A block per tile; persistent: as many as the SMs hold (2 x 132 blocks
  // of 128 x 64 with 16-bit results), at most one per tile.
  WgmmaMatmulSchedule s{{128, 64}, 4, {8, 1}};
  EXPECT_EQ(s.gridBlocks(784, h100, 2), 784);
  s.persistent = true;
  EXPECT_EQ(s.resident(h100, 2), 2);
  EXPECT_EQ(s.gridBlocks(784, h100, 2), 264);
  EXPECT_EQ(s.gridBlocks(100, h100, 2), 100);
  // Blocks of one consumer are persistent, one per SM.
  WgmmaMatmulSchedule one{{64, 64}, 4, {8, 1}, true};
  EXPECT_EQ(one.resident(h100, 2), 3);
  EXPECT_EQ(one.gridBlocks(1568, h100, 2), 132);
  EXPECT_EQ(one.gridBlocks(24, h100, 2), 24);
}

TEST(WgmmaMatmulSpace, RebalancedRegisters) {
  TargetLimits h100 = TargetLimits::h100();
  using Split = std::array<int64_t, 2>;
  // 384 threads launch with 168 registers each (64 Ki / 384, in multiples
  // of 8); the producer's release pays for the consumers' raise exactly.
  WgmmaMatmulSchedule coop{{128, 256}, 4, {8, 1}};
  EXPECT_EQ(coop.rebalancedRegisters(h100, /*tmaProducer=*/true),
            (Split{40, 232}));
  EXPECT_EQ(coop.rebalancedRegisters(h100, /*tmaProducer=*/false),
            (Split{56, 224}));
  for (bool tma : {true, false}) {
    Split split = coop.rebalancedRegisters(h100, tma);
    EXPECT_LE(split[0] * 128 + 2 * split[1] * 128, 168 * 384);
  }
  WgmmaMatmulSchedule pp{{64, 256}, 4, {8, 1}, true, true};
  EXPECT_EQ(pp.rebalancedRegisters(h100, true), (Split{40, 232}));
  // Smaller accumulators, or one consumer (256 threads, 248 registers
  // each), keep the launch's registers.
  EXPECT_EQ((WgmmaMatmulSchedule{{128, 128}, 4, {8, 1}})
                .rebalancedRegisters(h100, true),
            (Split{0, 0}));
  EXPECT_EQ((WgmmaMatmulSchedule{{64, 256}, 4, {8, 1}, true})
                .rebalancedRegisters(h100, true),
            (Split{0, 0}));
}

TEST(WgmmaMatmulSpace, MalformedSchedulesNameTheField) {
  auto check = [](WgmmaMatmulSchedule s) { return checkWgmmaSchedule(s); };
  EXPECT_NE(check({{96, 128}, 4, {1, 1}}).find("block M must be"),
            std::string::npos);
  EXPECT_NE(check({{128, 320}, 4, {1, 1}}).find("block N must be"),
            std::string::npos);
  EXPECT_NE(check({{128, 32}, 4, {1, 1}}).find("block N must be"),
            std::string::npos);
  EXPECT_NE(check({{128, 128}, 1, {1, 1}}).find("stages must be in [2, 8]"),
            std::string::npos);
  EXPECT_NE(check({{128, 128}, 4, {1, 65}}).find("split_k must be in"),
            std::string::npos);
  EXPECT_EQ(check({{128, 128}, 4, {1, 16}}), "");
  EXPECT_NE(check({{128, 128}, 4, {0, 1}}).find("swizzle must be"),
            std::string::npos);
  EXPECT_EQ(check({{64, 128}, 4, {1, 1}}), "");
  EXPECT_EQ(check({{64, 128}, 4, {1, 1}, true}), "");
  EXPECT_NE(check({{128, 128}, 4, {1, 1}, true, true})
                .find("pingpong = true takes block M = 64"),
            std::string::npos);
  EXPECT_NE(check({{64, 128}, 4, {1, 1}, false, true})
                .find("pingpong = true takes block M = 64"),
            std::string::npos);
  EXPECT_EQ(check({{64, 128}, 4, {1, 1}, true, true}), "");
  // Structurally valid, too large for the H100.
  TargetLimits h100 = TargetLimits::h100();
  EXPECT_NE(
      checkWgmmaSchedule({{256, 256}, 4, {1, 1}}, &h100).find("shared memory"),
      std::string::npos);
  EXPECT_NE(checkWgmmaSchedule({{192, 256}, 2, {1, 1}}, &h100)
                .find("registers for each of 512 threads"),
            std::string::npos);
  // Five stages of 128 x 256 and the f32 epilogue chunks (two a consumer).
  EXPECT_NE(checkWgmmaSchedule({{128, 256}, 5, {1, 1}}, &h100)
                .find("the tiles need 271360 bytes of shared memory"),
            std::string::npos);
}

} // namespace
