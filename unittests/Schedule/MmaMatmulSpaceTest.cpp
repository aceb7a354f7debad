//===- MmaMatmulSpaceTest.cpp - Tests of the tensor-core schedule space ---===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The mma.sync matmul schedule space: every enumerated schedule is valid
// and distinct and fits the target, the heuristic's picks are in the space
// and follow the shape classes, and malformed schedules are rejected with a
// message naming the field.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/MmaMatmulSpace.h"
#include "Hidet/Schedule/Heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hidet::schedule;

namespace {

MmaMatmulSchedule make(std::array<int64_t, 3> block,
                       std::array<int64_t, 2> warp) {
  return MmaMatmulSchedule{block, warp};
}

bool contains(const std::vector<MmaMatmulSchedule> &space,
              const MmaMatmulSchedule &s) {
  return std::find(space.begin(), space.end(), s) != space.end();
}

TEST(MmaMatmulSpace, EveryScheduleIsValidDistinctAndFits) {
  TargetLimits h100 = TargetLimits::h100();
  std::vector<MmaMatmulSchedule> space = enumerateMmaSpace(h100);
  ASSERT_GT(space.size(), 100u);
  for (size_t i = 0; i < space.size(); ++i) {
    const MmaMatmulSchedule &s = space[i];
    EXPECT_EQ(checkMmaSchedule(s, &h100), "");
    EXPECT_LE(s.numThreads(), h100.maxThreadsPerBlock);
    EXPECT_LE(s.sharedBytes(), h100.maxSharedBytesPerBlock);
    EXPECT_LE(s.estimatedRegisters(), h100.maxRegistersPerThread);
    // Warp tiles are whole mma tiles, block tiles whole warp tiles.
    EXPECT_EQ(s.warp[0] % 16, 0);
    EXPECT_EQ(s.warp[1] % 16, 0);
    EXPECT_EQ(s.block[0] % s.warp[0], 0);
    EXPECT_EQ(s.block[1] % s.warp[1], 0);
    for (size_t j = i + 1; j < space.size(); ++j)
      EXPECT_FALSE(s == space[j]);
  }
  // Every grid field value appears.
  for (int64_t split : kSplitKValues)
    EXPECT_TRUE(std::any_of(space.begin(), space.end(),
                            [&](auto &s) { return s.grid.splitK == split; }));
  // Fixed by the hardware: the same schedules in the same order again.
  EXPECT_TRUE(space == enumerateMmaSpace(h100));
}

TEST(MmaMatmulSpace, TighterTargetsGiveSmallerSpaces) {
  TargetLimits small = TargetLimits::h100();
  small.maxSharedBytesPerBlock = 8 * 1024;
  small.maxRegistersPerThread = 128;
  std::vector<MmaMatmulSchedule> tight = enumerateMmaSpace(small);
  EXPECT_LT(tight.size(), enumerateMmaSpace(TargetLimits::h100()).size());
  EXPECT_FALSE(tight.empty());
  for (const MmaMatmulSchedule &s : tight) {
    EXPECT_LE(s.sharedBytes(), 8 * 1024);
    EXPECT_LE(s.estimatedRegisters(), 128);
  }
}

TEST(MmaMatmulSpace, HeuristicFollowsShapeClasses) {
  TargetLimits limits; // 132 SMs
  std::vector<MmaMatmulSchedule> space = enumerateMmaSpace(limits);
  // Large outputs: 128 x 128 block tiles of 4 warps, grouped by 8 rows.
  MmaMatmulSchedule large = defaultMmaSchedule(1, 4096, 4096, 4096, limits);
  EXPECT_EQ(large.block, (std::array<int64_t, 3>{128, 128, 32}));
  EXPECT_EQ(large.numWarps(), 4);
  EXPECT_EQ(large.grid.swizzle, 8);
  EXPECT_EQ(large.grid.splitK, 1);
  // 1024 x 1024: 64 blocks of 128 x 128 do not fill 132 SMs; 128 x 64
  // gives 128, 97% of them: enough.
  MmaMatmulSchedule mid = defaultMmaSchedule(1, 1024, 1024, 1024, limits);
  EXPECT_EQ(mid.block[1], 64);
  EXPECT_EQ(mid.grid.splitK, 1);
  // N = 64 (a ResNet convolution as a GEMM): 128-wide tiles would be half
  // padding, so 128 x 64.
  MmaMatmulSchedule narrow = defaultMmaSchedule(1, 100352, 64, 576, limits);
  EXPECT_EQ(narrow.block[0], 128);
  EXPECT_EQ(narrow.block[1], 64);
  // M = 1: 16-row tiles, and split-K when K is long: 64 blocks for
  // N = 4096, 8 slices give 512, within the 6 such blocks an SM holds.
  MmaMatmulSchedule skinny = defaultMmaSchedule(1, 1, 4096, 4096, limits);
  EXPECT_EQ(skinny.block[0], 16);
  EXPECT_EQ(skinny.grid.splitK, 8);
  // A tall output that only the 16-row tile would fill gets 64 x 64 tiles
  // (ResNet's last 3x3 convolution at batch 32 as a GEMM).
  MmaMatmulSchedule tall = defaultMmaSchedule(1, 1568, 512, 4608, limits);
  EXPECT_EQ(tall.block[0], 64);
  EXPECT_EQ(tall.block[1], 64);
  // A tall output filled by large tiles is not split.
  EXPECT_EQ(defaultMmaSchedule(1, 4096, 768, 3072, limits).grid.splitK, 1);
  // A batch of 32 small matrices fills the SMs without split-K.
  EXPECT_EQ(defaultMmaSchedule(32, 128, 128, 4096, limits).grid.splitK, 1);
  for (const MmaMatmulSchedule &s : {large, mid, narrow, skinny, tall})
    EXPECT_TRUE(contains(space, s));
}

TEST(MmaMatmulSpace, AsyncCopyStages) {
  TargetLimits h100 = TargetLimits::h100();
  // Three cp.async stages of 128 x 128 x 32 f16 tiles take 48 KiB, and the
  // 4 warps' epilogue chunks (16 rows of 64 + 8 f32) 18 KiB; no staging
  // registers.
  MmaMatmulSchedule s = make({128, 128, 32}, {64, 64});
  s.stages = 3;
  EXPECT_EQ(s.epilogueBytes(), 18 * 1024);
  EXPECT_EQ(s.sharedBytes(), 66 * 1024);
  EXPECT_EQ(checkMmaSchedule(s, &h100), "");
  MmaMatmulSchedule staged = make({128, 128, 32}, {64, 64});
  EXPECT_LT(s.estimatedRegisters(), staged.estimatedRegisters());
  // Eight stages of 128 x 128 x 64 take 256 KiB (and the chunks 18), past
  // the 227 KiB a block of the H100 may opt into.
  s.block[2] = 64;
  s.stages = 8;
  EXPECT_NE(checkMmaSchedule(s, &h100).find("280576 bytes of shared memory"),
            std::string::npos);
  s.stages = 1;
  EXPECT_NE(checkMmaSchedule(s).find("stages must be 0"), std::string::npos);
  // The heuristic pipelines when the operands allow cp.async, with K tiles
  // of 64, and 4 stages for 64 x 64 tiles.
  MmaMatmulSchedule async =
      defaultMmaSchedule(1, 4096, 4096, 4096, h100, kMma16, true);
  EXPECT_EQ(async.stages, 3);
  EXPECT_EQ(async.block, (std::array<int64_t, 3>{128, 128, 64}));
  MmaMatmulSchedule small =
      defaultMmaSchedule(1, 1568, 512, 4608, h100, kMma16, true);
  EXPECT_EQ(small.block, (std::array<int64_t, 3>{64, 64, 64}));
  EXPECT_EQ(small.stages, 4);
  EXPECT_EQ(defaultMmaSchedule(1, 4096, 4096, 4096, h100, kMmaTF32, true)
                .block[2],
            32);
  EXPECT_EQ(defaultMmaSchedule(1, 4096, 4096, 4096, h100).stages, 0);
  std::vector<MmaMatmulSchedule> space = enumerateMmaSpace(h100);
  EXPECT_TRUE(std::find(space.begin(), space.end(),
                        defaultMmaSchedule(1, 4096, 4096, 4096, h100, kMma16,
                                           true)) != space.end());
}

TEST(MmaMatmulSpace, TF32SpaceAndHeuristic) {
  TargetLimits h100 = TargetLimits::h100();
  std::vector<MmaMatmulSchedule> space = enumerateMmaSpace(h100, kMmaTF32);
  ASSERT_FALSE(space.empty());
  for (const MmaMatmulSchedule &s : space) {
    EXPECT_EQ(s.mma, kMmaTF32);
    EXPECT_EQ(s.elementBytes(), 4);
    EXPECT_EQ(checkMmaSchedule(s, &h100), "");
  }
  // f32 tiles take twice the shared memory: 3 stages of 256 x 128 x 64
  // fit in f16 (144 KiB, and 36 KiB of the 8 warps' epilogue chunks), not
  // in f32.
  MmaMatmulSchedule deep = make({256, 128, 64}, {64, 64});
  deep.stages = 3;
  EXPECT_TRUE(contains(enumerateMmaSpace(h100), deep));
  deep.mma = kMmaTF32;
  EXPECT_FALSE(contains(space, deep));
  // The heuristic halves the K tiles.
  MmaMatmulSchedule large =
      defaultMmaSchedule(1, 4096, 4096, 4096, h100, kMmaTF32);
  EXPECT_EQ(large.block, (std::array<int64_t, 3>{128, 128, 16}));
  EXPECT_EQ(large.mma, kMmaTF32);
  EXPECT_TRUE(std::find(space.begin(), space.end(), large) != space.end());
}

TEST(MmaMatmulSpace, SplitTF32Terms) {
  TargetLimits h100 = TargetLimits::h100();
  // Three terms only for tf32, and only 1 or 3.
  MmaMatmulSchedule s = make({128, 128, 16}, {64, 32});
  s.mma = kMmaTF32;
  s.tf32Terms = 3;
  EXPECT_EQ(checkMmaSchedule(s, &h100), "");
  s.tf32Terms = 2;
  EXPECT_EQ(checkMmaSchedule(s, &h100), "tf32_terms must be 1 or 3, got 2");
  MmaMatmulSchedule half = make({128, 128, 32}, {64, 32});
  half.tf32Terms = 3;
  EXPECT_EQ(checkMmaSchedule(half, &h100),
            "tf32_terms = 3 splits tf32 operands: mma must be [16, 8, 8]");
  // The split fragments count in the register estimate.
  MmaMatmulSchedule wide = make({128, 128, 16}, {64, 64});
  wide.mma = kMmaTF32;
  int64_t one = wide.estimatedRegisters();
  wide.tf32Terms = 3;
  EXPECT_GT(wide.estimatedRegisters(), one);
  // Setting three terms narrows 64 x 64 warp tiles to 64 x 32 (twice the
  // warps); a schedule that is not tf32 mma.sync is left alone.
  AnySchedule any = defaultMmaSchedule(1, 4096, 4096, 4096, h100, kMmaTF32);
  ASSERT_EQ(std::get<MmaMatmulSchedule>(any).warp,
            (std::array<int64_t, 2>{64, 64}));
  setTF32Terms(any, 3);
  const MmaMatmulSchedule &split = std::get<MmaMatmulSchedule>(any);
  EXPECT_EQ(split.tf32Terms, 3);
  EXPECT_EQ(split.warp, (std::array<int64_t, 2>{64, 32}));
  EXPECT_EQ(split.block, (std::array<int64_t, 3>{128, 128, 16}));
  EXPECT_EQ(checkMmaSchedule(split, &h100), "");
  AnySchedule f16 = defaultMmaSchedule(1, 4096, 4096, 4096, h100);
  AnySchedule before = f16;
  setTF32Terms(f16, 3);
  EXPECT_EQ(f16, before);
}

TEST(MmaMatmulSpace, ChecksNameTheField) {
  TargetLimits h100 = TargetLimits::h100();
  auto why = [&](const MmaMatmulSchedule &s, const TargetLimits *l) {
    return checkMmaSchedule(s, l);
  };
  auto has = [](const std::string &msg, const char *part) {
    return msg.find(part) != std::string::npos;
  };
  EXPECT_TRUE(has(why(make({96, 128, 32}, {32, 32}), nullptr),
                  "block M must be a power of two in [16, 256], got 96"));
  EXPECT_TRUE(has(why(make({128, 128, 8}, {64, 32}), nullptr),
                  "block K must be 16, 32 or 64, got 8"));
  EXPECT_TRUE(has(why(make({128, 128, 32}, {24, 32}), nullptr),
                  "warp M must be a positive multiple of 16, got 24"));
  EXPECT_TRUE(has(why(make({64, 128, 32}, {128, 32}), nullptr),
                  "warp M = 128 does not divide block M = 64"));
  EXPECT_TRUE(has(why(make({256, 256, 32}, {16, 16}), nullptr),
                  "8192 threads per block"));
  // 2 warps, but the 16 x 16 tile of A is 32 pieces.
  EXPECT_TRUE(has(why(make({16, 32, 16}, {16, 16}), nullptr),
                  "cannot be split evenly into 16-byte pieces over 64"));
  MmaMatmulSchedule odd = make({128, 128, 32}, {64, 32});
  odd.mma = {16, 8, 4};
  EXPECT_TRUE(has(why(odd, nullptr), "mma must be [16, 8, 16] (f16/bf16) or "
                                     "[16, 8, 8] (tf32), got [16, 8, 4]"));
  // tf32 tiles are f32: 4 stages of 256 x 128 x 64 need 384 KiB (and 36
  // KiB of epilogue chunks).
  MmaMatmulSchedule tf32 = make({256, 128, 64}, {64, 64});
  tf32.mma = kMmaTF32;
  tf32.stages = 4;
  EXPECT_TRUE(has(why(tf32, &h100), "430080 bytes of shared memory"));
  tf32.block[2] = 16;
  EXPECT_EQ(why(tf32, &h100), "");
  MmaMatmulSchedule split = make({128, 128, 32}, {64, 32});
  split.grid.splitK = 100;
  EXPECT_TRUE(has(why(split, nullptr), "split_k must be in [1, 64]"));
  // 8 stages of 256 x 256 x 64 tiles need 512 KiB of shared memory, and
  // the 16 warps' epilogue chunks 72 KiB.
  MmaMatmulSchedule huge = make({256, 256, 64}, {64, 64});
  huge.stages = 8;
  EXPECT_TRUE(has(why(huge, &h100), "598016 bytes of shared memory"));
  // A 128 x 128 warp tile: 256 accumulators per thread.
  MmaMatmulSchedule heavy = make({128, 128, 32}, {128, 128});
  EXPECT_EQ(why(heavy, nullptr), "");
  EXPECT_TRUE(has(why(heavy, &h100), "registers per thread"));
}

} // namespace
