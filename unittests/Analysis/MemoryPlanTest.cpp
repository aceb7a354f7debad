//===- MemoryPlanTest.cpp - Tests of the arena planner --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Analysis/MemoryPlan.h"

#include "gtest/gtest.h"

#include <random>

using namespace hidet;

namespace {

BufferLiveRange range(uint64_t size, int64_t first, int64_t last) {
  BufferLiveRange b;
  b.size = size;
  b.first = first;
  b.last = last;
  return b;
}

TEST(MemoryPlan, DisjointRangesShareMemory) {
  // A chain: each buffer is read by the op that writes the next.
  std::vector<BufferLiveRange> buffers = {range(1000, 0, 1), range(1000, 1, 2),
                                          range(1000, 2, 3)};
  MemoryPlan plan = planMemory(buffers, 256);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 256));
  // Buffers 0 and 2 do not meet, so two slots of 1024 bytes suffice.
  EXPECT_EQ(plan.arenaSize, 2048u);
  EXPECT_EQ(plan.sumOfSizes, 3072u);
  EXPECT_EQ(plan.offsets[0], plan.offsets[2]);
  EXPECT_NE(plan.offsets[0], plan.offsets[1]);
}

TEST(MemoryPlan, OverlappingRangesAreApart) {
  std::vector<BufferLiveRange> buffers = {range(64, 0, 5), range(64, 3, 4),
                                          range(64, 5, 6)};
  MemoryPlan plan = planMemory(buffers, 64);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 64));
  // The last use of 0 and the first of 2 are the same op: both live there.
  EXPECT_NE(plan.offsets[0], plan.offsets[2]);
  EXPECT_EQ(plan.arenaSize, 128u);
}

TEST(MemoryPlan, AlignmentRoundsEveryBuffer) {
  std::vector<BufferLiveRange> buffers = {range(1, 0, 0), range(17, 0, 0),
                                          range(300, 0, 0), range(0, 0, 0)};
  MemoryPlan plan = planMemory(buffers, 256);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 256));
  for (uint64_t offset : plan.offsets)
    EXPECT_EQ(offset % 256, 0u);
  EXPECT_EQ(plan.arenaSize, 256u + 256u + 512u);
}

TEST(MemoryPlan, BestFitGapIsReused) {
  // A large buffer dies early; a small one placed later fits in its hole
  // rather than at the end of the arena.
  std::vector<BufferLiveRange> buffers = {range(4096, 0, 1), range(1024, 0, 9),
                                          range(512, 2, 9)};
  MemoryPlan plan = planMemory(buffers, 256);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 256));
  EXPECT_EQ(plan.arenaSize, 4096u + 1024u);
  EXPECT_EQ(plan.offsets[2], plan.offsets[0]);
}

TEST(MemoryPlan, InPlaceSharesTheOffset) {
  std::vector<BufferLiveRange> buffers = {range(512, 0, 2), range(512, 2, 4),
                                          range(512, 4, 6)};
  buffers[1].inPlaceOf = 0;
  buffers[2].inPlaceOf = 1;
  MemoryPlan plan = planMemory(buffers, 256);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 256));
  EXPECT_EQ(plan.getNumInPlace(), 2u);
  EXPECT_EQ(plan.offsets[0], plan.offsets[1]);
  EXPECT_EQ(plan.offsets[1], plan.offsets[2]);
  EXPECT_EQ(plan.arenaSize, 512u);
}

TEST(MemoryPlan, InPlaceHintsThatDoNotHoldAreIgnored) {
  // 1 starts before 0 ends; 2 and 3 both want to overwrite 4.
  std::vector<BufferLiveRange> buffers = {range(256, 0, 3), range(256, 1, 5),
                                          range(256, 6, 7), range(256, 6, 7),
                                          range(256, 2, 6)};
  buffers[1].inPlaceOf = 0;
  buffers[2].inPlaceOf = 4;
  buffers[3].inPlaceOf = 4;
  MemoryPlan plan = planMemory(buffers, 256);
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 256));
  EXPECT_FALSE(plan.inPlaceOf[1]);
  EXPECT_EQ(plan.inPlaceOf[2], std::optional<size_t>(4));
  EXPECT_FALSE(plan.inPlaceOf[3]);
  EXPECT_NE(plan.offsets[2], plan.offsets[3]);
}

TEST(MemoryPlan, VerifierFindsOverlaps) {
  std::vector<BufferLiveRange> buffers = {range(256, 0, 2), range(256, 1, 3)};
  MemoryPlan plan;
  plan.offsets = {0, 128};
  plan.arenaSize = 512;
  plan.inPlaceOf.resize(2);
  EXPECT_TRUE(verifyMemoryPlan(buffers, plan, 128));
  plan.offsets = {0, 256};
  EXPECT_FALSE(verifyMemoryPlan(buffers, plan, 128));
  EXPECT_TRUE(verifyMemoryPlan(buffers, plan, 512)); // misaligned
}

TEST(MemoryPlan, RandomProgramsPlanSafelyAndDeterministically) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<BufferLiveRange> buffers;
    int n = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      int64_t first = static_cast<int64_t>(rng() % 50);
      int64_t last = first + static_cast<int64_t>(rng() % 10);
      buffers.push_back(range(rng() % 100000, first, last));
      if (i && rng() % 4 == 0)
        buffers.back().inPlaceOf = rng() % i;
    }
    MemoryPlan plan = planMemory(buffers, 256);
    std::optional<std::string> problem = verifyMemoryPlan(buffers, plan, 256);
    ASSERT_FALSE(problem) << *problem;
    EXPECT_LE(plan.arenaSize, plan.sumOfSizes);
    EXPECT_EQ(planMemory(buffers, 256).offsets, plan.offsets);
  }
}

} // namespace
