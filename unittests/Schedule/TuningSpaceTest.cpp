//===- TuningSpaceTest.cpp - The candidates a tuner measures --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/TuningSpace.h"

#include <gtest/gtest.h>

#include <set>

using namespace hidet::schedule;

namespace {

GemmDesc gemm(int64_t batch, int64_t m, int64_t n, int64_t k, ElementKind elt) {
  GemmDesc g;
  g.batch = batch;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = g.b = g.c = elt;
  g.asyncCopy = g.wgmma = true;
  return g;
}

/// The shapes of the models' anchors: BERT's projections and FFN, the
/// attention's batched products, a skinny batch-1 GEMM, ResNet's 3x3
/// convolution at batch 32 as an implicit GEMM.
std::vector<GemmDesc> shapes(ElementKind elt) {
  return {gemm(1, 4096, 768, 768, elt), gemm(1, 4096, 3072, 768, elt),
          gemm(384, 128, 128, 64, elt), gemm(1, 128, 768, 3072, elt),
          gemm(1, 100352, 64, 576, elt)};
}

/// The H100's small space for `g`.
std::vector<AnySchedule> smallSpace(const GemmDesc &g, TemplateKind kind) {
  return tuningCandidates(g, kind, TargetLimits::h100(), SpaceLevel::Small);
}

TEST(TuningSpace, LevelsByName) {
  EXPECT_EQ(parseSpaceLevel("default"), SpaceLevel::Default);
  EXPECT_EQ(parseSpaceLevel("small"), SpaceLevel::Small);
  EXPECT_EQ(parseSpaceLevel("full"), SpaceLevel::Full);
  EXPECT_FALSE(parseSpaceLevel("medium").has_value());
}

TEST(TuningSpace, DefaultLevelIsTheHeuristicAlone) {
  TargetLimits h100 = TargetLimits::h100();
  for (const GemmDesc &g : shapes(ElementKind::F16)) {
    std::vector<AnySchedule> c =
        tuningCandidates(g, TemplateKind::Wgmma, h100, SpaceLevel::Default);
    ASSERT_EQ(c.size(), 1u);
    EXPECT_EQ(std::get<WgmmaMatmulSchedule>(c[0]).block,
              std::get<WgmmaMatmulSchedule>(
                  defaultSchedule(g, TemplateKind::Wgmma, h100))
                  .block);
  }
  EXPECT_TRUE(tuningCandidates(shapes(ElementKind::F16)[0], TemplateKind::None,
                               h100, SpaceLevel::Small)
                  .empty());
}

/// The small space: the heuristic's schedule first, tens of distinct
/// schedules that keep its grid and pipeline depth, and the heuristic's
/// schedule with other split-K factors; all valid on the target, within the
/// full space.
template <typename Schedule>
void checkSmall(const GemmDesc &g, TemplateKind kind,
                std::string (*check)(const Schedule &, const TargetLimits *)) {
  TargetLimits h100 = TargetLimits::h100();
  std::vector<AnySchedule> small =
      tuningCandidates(g, kind, h100, SpaceLevel::Small);
  std::vector<AnySchedule> full =
      tuningCandidates(g, kind, h100, SpaceLevel::Full);
  SCOPED_TRACE(std::to_string(g.batch) + "x" + std::to_string(g.m) + "x" +
               std::to_string(g.n) + "x" + std::to_string(g.k));
  EXPECT_GE(small.size(), 8u);
  EXPECT_LE(small.size(), 100u);
  EXPECT_GT(full.size(), small.size());
  const Schedule &d = std::get<Schedule>(small[0]);
  // A copy: defaultSchedule returns the variant by value.
  Schedule heuristic = std::get<Schedule>(defaultSchedule(g, kind, h100));
  EXPECT_TRUE(d.grid == heuristic.grid);
  for (const AnySchedule &any : small) {
    const Schedule &s = std::get<Schedule>(any);
    EXPECT_EQ(check(s, &h100), "");
    EXPECT_EQ(s.grid.swizzle, d.grid.swizzle);
    if (s.grid.splitK == d.grid.splitK)
      continue;
    // A split-K sibling: the heuristic's schedule but for the split.
    Schedule resplit = s;
    resplit.grid.splitK = d.grid.splitK;
    EXPECT_TRUE(resplit == d);
  }
}

/// Where a few output tiles leave SMs idle (ResNet-50's 3x3 convolution of
/// 512 channels at 7x7, batch 32: 1568 x 512 x 4608), the small space has
/// the heuristic's schedule with each other split-K factor whose slices keep
/// at least 4 K steps (72 steps of 64: up to 16 slices).
TEST(TuningSpace, SmallSpacesTrySplitKFactors) {
  std::vector<AnySchedule> small = smallSpace(
      gemm(1, 1568, 512, 4608, ElementKind::F16), TemplateKind::Wgmma);
  const auto &d = std::get<WgmmaMatmulSchedule>(small[0]);
  std::set<int64_t> splits;
  for (const AnySchedule &any : small) {
    const auto &s = std::get<WgmmaMatmulSchedule>(any);
    if (s.block == d.block && s.persistent == d.persistent &&
        s.pingpong == d.pingpong && s.stages == d.stages)
      splits.insert(s.grid.splitK);
  }
  EXPECT_EQ(splits, (std::set<int64_t>{1, 2, 4, 8, 16}));
  // K = 768 is 12 steps of 64: 2 slices keep 6 steps each, 4 would leave 3.
  GemmDesc shallow = gemm(1, 4096, 768, 768, ElementKind::F16);
  for (const AnySchedule &any : smallSpace(shallow, TemplateKind::Wgmma))
    EXPECT_LE(std::get<WgmmaMatmulSchedule>(any).grid.splitK, 2);
}

TEST(TuningSpace, SmallHopperSpaces) {
  for (const GemmDesc &g : shapes(ElementKind::F16))
    checkSmall<WgmmaMatmulSchedule>(g, TemplateKind::Wgmma, checkWgmmaSchedule);
}

TEST(TuningSpace, SmallTensorCoreSpaces) {
  for (const GemmDesc &g : shapes(ElementKind::F16))
    checkSmall<MmaMatmulSchedule>(g, TemplateKind::Mma, checkMmaSchedule);
}

TEST(TuningSpace, SmallSimtSpaces) {
  for (const GemmDesc &g : shapes(ElementKind::F32))
    checkSmall<SimtMatmulSchedule>(g, TemplateKind::Simt, checkSimtSchedule);
}

/// The SIMT small space is the heuristic's tiles at every staging: for
/// GPT-2's QKV projection at batch 32 (4096 x 2304 x 768), where the
/// heuristic takes the 128 x 128 tile of 128 threads, it holds the 64 x 128
/// tile with 4 cp.async stages and register staging, and no other lane
/// layout.
TEST(TuningSpace, SmallSimtSpaceIsTheHeuristicsTiles) {
  std::vector<AnySchedule> small = smallSpace(
      gemm(1, 4096, 2304, 768, ElementKind::F32), TemplateKind::Simt);
  const auto &d = std::get<SimtMatmulSchedule>(small[0]);
  EXPECT_EQ(d.blockM(), 128);
  EXPECT_EQ(d.blockN(), 128);
  EXPECT_EQ(d.numThreads(), 128);
  std::set<int64_t> halfStages;
  for (const AnySchedule &any : small) {
    const auto &s = std::get<SimtMatmulSchedule>(any);
    EXPECT_TRUE(isHeuristicSimtTile(s));
    EXPECT_EQ(s.warpMid, d.warpMid);
    if (s.blockM() == 64 && s.blockN() == 128 && s.numThreads() == 128 &&
        s.grid == d.grid)
      halfStages.insert(s.stages);
  }
  EXPECT_EQ(halfStages, (std::set<int64_t>{0, 3, 4}));
  // A tile is the heuristic's whatever its grid and stages; another lane
  // layout is not.
  SimtMatmulSchedule other = d;
  other.grid.splitK = 2;
  other.stages = 4;
  EXPECT_TRUE(isHeuristicSimtTile(other));
  other.warpMid = {8, 4};
  EXPECT_FALSE(isHeuristicSimtTile(other));
  EXPECT_LE(small.size(), 40u);
}

TEST(TuningSpace, FullSpaceIsTheTemplatesWithTheHeuristicFirst) {
  TargetLimits h100 = TargetLimits::h100();
  GemmDesc g = shapes(ElementKind::F16)[1];
  std::vector<AnySchedule> full =
      tuningCandidates(g, TemplateKind::Wgmma, h100, SpaceLevel::Full);
  EXPECT_EQ(full.size(), enumerateWgmmaSpace(h100).size());
}

} // namespace
