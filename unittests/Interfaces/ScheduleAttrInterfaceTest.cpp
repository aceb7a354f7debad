//===- ScheduleAttrInterfaceTest.cpp - Tests of the schedule interface ----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Each schedule attribute implements ScheduleAttrInterface once the
// project's dialects are registered: its template, its checks against a
// target, and its space, which is the schedule library's space for that
// target.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/InitAllDialects.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace hidet;

namespace {

class ScheduleAttrInterfaceTest : public ::testing::Test {
protected:
  ScheduleAttrInterfaceTest() {
    DialectRegistry registry;
    registerHidetDialects(registry);
    ctx.appendDialectRegistry(registry);
    ctx.loadAllAvailableDialects();
  }

  ScheduleAttrInterface parse(const char *text) {
    auto s = dyn_cast_if_present<ScheduleAttrInterface>(
        parseAttribute(text, &ctx));
    EXPECT_TRUE(s) << text;
    return s;
  }

  TargetAttr target(const char *chip) { return TargetAttr::get(&ctx, chip, 0); }

  MLIRContext ctx;
};

TEST_F(ScheduleAttrInterfaceTest, TemplatesAndKinds) {
  ScheduleAttrInterface simt = parse(
      "#hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], "
      "warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>");
  ScheduleAttrInterface mma = parse("#hidet.mma_matmul<block = [128, 128, 32], "
                                    "warp = [64, 64], mma = [16, 8, 16]>");
  ScheduleAttrInterface wgmma =
      parse("#hidet.wgmma_matmul<block = [128, 256]>");
  EXPECT_EQ(simt.getTemplateName(), "simt_matmul");
  EXPECT_EQ(mma.getTemplateName(), "mma_matmul");
  EXPECT_EQ(wgmma.getTemplateName(), "wgmma_matmul");
  EXPECT_EQ(simt.getTemplateKind(), schedule::TemplateKind::Simt);
  EXPECT_EQ(mma.getTemplateKind(), schedule::TemplateKind::Mma);
  EXPECT_EQ(wgmma.getTemplateKind(), schedule::TemplateKind::Wgmma);
  // The fusion and target attributes are no schedules.
  EXPECT_FALSE(isa<ScheduleAttrInterface>(target("sm_80")));
}

TEST_F(ScheduleAttrInterfaceTest, CheckedAgainstEachChip) {
  ScheduleAttrInterface wgmma =
      parse("#hidet.wgmma_matmul<block = [128, 256]>");
  EXPECT_EQ(wgmma.checkTarget(target("sm_90a")), "");
  EXPECT_EQ(wgmma.checkTarget(target("sm_80")),
            "a #hidet.wgmma_matmul schedule needs wgmma (sm_90a), which sm_80 "
            "lacks");
  EXPECT_NE(wgmma.checkTarget(target("sm_90")), "");
  // 3 stages of 128 x 64 and 64 x 256 f16 tiles (144 KiB) and the 8
  // warps' epilogue chunks (36 KiB) fit the H100's 227 KiB of shared memory
  // per block, not the 99 KiB of sm_86.
  ScheduleAttrInterface mma = parse(
      "#hidet.mma_matmul<block = [128, 256, 64], warp = [64, 64], "
      "mma = [16, 8, 16], stages = 3>");
  EXPECT_EQ(mma.checkTarget(target("sm_90a")), "");
  EXPECT_NE(mma.checkTarget(target("sm_86")).find("bytes of shared memory"),
            std::string::npos);
}

TEST_F(ScheduleAttrInterfaceTest, SpaceIsTheChipsSpace) {
  ScheduleAttrInterface mma = parse("#hidet.mma_matmul<block = [128, 128, 32], "
                                    "warp = [64, 64], mma = [16, 8, 16]>");
  for (const char *chip : {"sm_80", "sm_90a"}) {
    SmallVector<Attribute> space = mma.getSpace(target(chip));
    schedule::TargetLimits limits = *schedule::targetForChip(chip);
    EXPECT_EQ(space.size(),
              schedule::enumerateMmaSpace(limits, schedule::kMma16).size());
    for (Attribute s : space)
      EXPECT_EQ(cast<ScheduleAttrInterface>(s).checkTarget(target(chip)), "");
  }
  // A tf32 schedule's space is the tf32 one.
  ScheduleAttrInterface tf32 = parse("#hidet.mma_matmul<block = [64, 64, 16], "
                                     "warp = [32, 32], mma = [16, 8, 8]>");
  SmallVector<Attribute> space = tf32.getSpace(target("sm_90a"));
  EXPECT_EQ(space.size(), schedule::enumerateMmaSpace(
                              schedule::TargetLimits::h100(),
                              schedule::kMmaTF32)
                              .size());
  EXPECT_EQ(cast<MmaMatmulAttr>(space.front()).toSchedule().mma,
            schedule::kMmaTF32);
}

} // namespace
