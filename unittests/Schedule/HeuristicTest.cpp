//===- HeuristicTest.cpp - Tests of the chip table and the heuristic ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The target table gives each chip its own limits and instructions; the
// heuristic picks a template by element types and the chip's instructions,
// and its schedules lie in the space of the chip they were picked for.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/Heuristic.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace hidet::schedule;

namespace {

GemmDesc gemm(int64_t m, int64_t n, int64_t k, ElementKind elt,
              ElementKind result, bool operandsAllowAsync = true) {
  GemmDesc g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = g.b = elt;
  g.c = result;
  g.asyncCopy = g.wgmma = operandsAllowAsync;
  return g;
}

TEST(TargetTable, KnowsEachChipOnce) {
  std::vector<std::string> chips = knownChips();
  EXPECT_EQ(chips, (std::vector<std::string>{"sm_80", "sm_86", "sm_89",
                                             "sm_90", "sm_90a"}));
  for (const std::string &chip : chips)
    EXPECT_EQ(targetForChip(chip)->chip, chip);
  EXPECT_FALSE(targetForChip("sm_70"));
  EXPECT_FALSE(targetForChip("SM_90A"));
  EXPECT_FALSE(targetForChip(""));
}

TEST(TargetTable, LimitsAndInstructionsPerChip) {
  TargetLimits a100 = *targetForChip("sm_80");
  EXPECT_EQ(a100.numSMs, 108);
  EXPECT_EQ(a100.maxSharedBytesPerBlock, 163 * 1024);
  EXPECT_EQ(a100.sharedBytesPerSM, 164 * 1024);
  EXPECT_TRUE(a100.hasAsyncCopy);
  EXPECT_FALSE(a100.hasTma);
  EXPECT_FALSE(a100.hasWgmma);
  TargetLimits ada = *targetForChip("sm_89");
  EXPECT_EQ(ada.maxSharedBytesPerBlock, 99 * 1024);
  EXPECT_EQ(ada.maxThreadsPerSM, 1536);
  // TMA is sm_90's; wgmma needs the architecture-specific sm_90a.
  TargetLimits sm90 = *targetForChip("sm_90");
  EXPECT_TRUE(sm90.hasTma);
  EXPECT_FALSE(sm90.hasWgmma);
  TargetLimits h100 = TargetLimits::h100();
  EXPECT_EQ(h100.chip, kDefaultChip);
  EXPECT_EQ(h100.numSMs, 132);
  EXPECT_EQ(h100.maxSharedBytesPerBlock, 227 * 1024);
  EXPECT_TRUE(h100.hasTma && h100.hasWgmma);
}

TEST(Heuristic, TemplateByTypesAndChip) {
  TargetLimits h100 = TargetLimits::h100();
  TargetLimits a100 = *targetForChip("sm_80");
  GemmDesc f32 = gemm(1024, 1024, 1024, ElementKind::F32, ElementKind::F32);
  EXPECT_EQ(defaultTemplate(f32, h100, /*tf32=*/false), TemplateKind::Simt);
  EXPECT_EQ(defaultTemplate(f32, h100, /*tf32=*/true), TemplateKind::Mma);
  GemmDesc f16 = gemm(1024, 1024, 1024, ElementKind::F16, ElementKind::F32);
  EXPECT_EQ(defaultTemplate(f16, h100, false), TemplateKind::Wgmma);
  EXPECT_EQ(defaultTemplate(f16, a100, false), TemplateKind::Mma);
  EXPECT_EQ(defaultTemplate(f16, *targetForChip("sm_90"), false),
            TemplateKind::Mma);
  // Fewer rows than a warpgroup tile, or operands wgmma cannot read.
  EXPECT_EQ(defaultTemplate(gemm(16, 1024, 1024, ElementKind::BF16,
                                 ElementKind::BF16),
                            h100, false),
            TemplateKind::Mma);
  EXPECT_EQ(defaultTemplate(gemm(1024, 1024, 1024, ElementKind::F16,
                                 ElementKind::F16, /*operandsAllowAsync=*/false),
                            h100, false),
            TemplateKind::Mma);
  EXPECT_TRUE(isF32Gemm(f32) && !isHalfGemm(f32));
  EXPECT_TRUE(isHalfGemm(f16) && !isF32Gemm(f16));
  // Mixed or other types have no template.
  GemmDesc mixed = f16;
  mixed.b = ElementKind::BF16;
  EXPECT_FALSE(isHalfGemm(mixed));
  EXPECT_EQ(defaultTemplate(mixed, h100, false), TemplateKind::None);
  EXPECT_EQ(defaultTemplate(gemm(8, 8, 8, ElementKind::F16, ElementKind::Other),
                            h100, false),
            TemplateKind::None);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      defaultSchedule(mixed, TemplateKind::None, h100)));
}

TEST(Heuristic, PicksLieInTheChipsSpace) {
  const int64_t shapes[][3] = {{4096, 4096, 1024}, {16, 1024, 4096},
                               {333, 555, 444},    {128, 128, 8192},
                               {100352, 64, 576},  {64, 64, 64}};
  for (const std::string &chip : knownChips()) {
    TargetLimits t = *targetForChip(chip);
    std::vector<MmaMatmulSchedule> mma = enumerateMmaSpace(t, kMma16);
    std::vector<SimtMatmulSchedule> simt = enumerateSimtSpace(t);
    for (auto [m, n, k] : shapes) {
      GemmDesc g = gemm(m, n, k, ElementKind::F16, ElementKind::F16);
      TemplateKind kind = defaultTemplate(g, t, false);
      AnySchedule s = defaultSchedule(g, kind, t);
      if (kind == TemplateKind::Mma) {
        const auto &pick = std::get<MmaMatmulSchedule>(s);
        EXPECT_EQ(checkMmaSchedule(pick, &t), "") << chip;
        EXPECT_NE(std::find(mma.begin(), mma.end(), pick), mma.end()) << chip;
        EXPECT_EQ(pick.mma, kMma16);
      } else {
        ASSERT_EQ(kind, TemplateKind::Wgmma) << chip;
        EXPECT_EQ(checkWgmmaSchedule(std::get<WgmmaMatmulSchedule>(s), &t),
                  "")
            << chip;
      }
      GemmDesc f = gemm(m, n, k, ElementKind::F32, ElementKind::F32);
      // A copy: defaultSchedule returns the variant by value.
      SimtMatmulSchedule pick =
          std::get<SimtMatmulSchedule>(defaultSchedule(f, TemplateKind::Simt, t));
      EXPECT_NE(std::find(simt.begin(), simt.end(), pick), simt.end()) << chip;
      EXPECT_EQ(std::get<MmaMatmulSchedule>(
                    defaultSchedule(f, TemplateKind::Mma, t))
                    .mma,
                kMmaTF32);
    }
  }
}

TEST(Heuristic, SplitKFollowsTheSMCount) {
  // 16 x 64 tiles of a 16 x 1024 output are 16 blocks; K is split until
  // the SMs hold two blocks each: 16 ways on 132 or 108 SMs, 8 on 84.
  GemmDesc g = gemm(16, 1024, 4096, ElementKind::F16, ElementKind::F16);
  auto splitOn = [&](const char *chip) {
    TargetLimits t = *targetForChip(chip);
    return std::get<MmaMatmulSchedule>(defaultSchedule(g, TemplateKind::Mma, t))
        .grid.splitK;
  };
  EXPECT_EQ(splitOn("sm_90a"), 16);
  EXPECT_EQ(splitOn("sm_80"), 16);
  EXPECT_EQ(splitOn("sm_86"), 8);
  // Operands cp.async cannot copy are staged through registers.
  GemmDesc staged = g;
  staged.asyncCopy = false;
  EXPECT_EQ(std::get<MmaMatmulSchedule>(
                defaultSchedule(staged, TemplateKind::Mma,
                                TargetLimits::h100()))
                .stages,
            0);
}

} // namespace
