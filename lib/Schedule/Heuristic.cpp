//===- Heuristic.cpp - The default schedule of a GEMM anchor --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Schedule/Heuristic.h"

using namespace hidet::schedule;

static bool isHalf(ElementKind e) {
  return e == ElementKind::F16 || e == ElementKind::BF16;
}

bool hidet::schedule::isF32Gemm(const GemmDesc &g) {
  return g.a == ElementKind::F32 && g.b == ElementKind::F32 &&
         g.c == ElementKind::F32;
}

bool hidet::schedule::isHalfGemm(const GemmDesc &g) {
  return isHalf(g.a) && g.a == g.b &&
         (isHalf(g.c) || g.c == ElementKind::F32);
}

std::array<int64_t, 3> hidet::schedule::mmaShapeFor(const GemmDesc &g) {
  return g.a == ElementKind::F32 ? kMmaTF32 : kMma16;
}

TemplateKind hidet::schedule::defaultTemplate(const GemmDesc &g,
                                              const TargetLimits &target,
                                              bool tf32) {
  if (isF32Gemm(g))
    return tf32 ? TemplateKind::Mma : TemplateKind::Simt;
  if (!isHalfGemm(g))
    return TemplateKind::None;
  // Outputs of at least one wgmma tile of rows go to the Hopper template:
  // on the H100 it measured faster at every such shape of the GEMM
  // benchmark, the skinny M = 128 ones too (64 x 64 tiles, no split-K),
  // and slower at M = 16, where 3/4 of a tile is padding (a sweep of
  // schedules over bench/matmul-mma's shapes).
  if (target.hasWgmma && g.wgmma &&
      g.m >= WgmmaMatmulSchedule::kWarpgroupRows)
    return TemplateKind::Wgmma;
  return TemplateKind::Mma;
}

void hidet::schedule::setTF32Terms(AnySchedule &s, int64_t terms) {
  auto *mma = std::get_if<MmaMatmulSchedule>(&s);
  if (!mma || mma->mma != kMmaTF32)
    return;
  mma->tf32Terms = terms;
  // Split operands hold twice the fragments: with 64 x 64 warp tiles (128
  // accumulators a thread) ptxas spills at 255 registers, so the warps
  // take 64 x 32 tiles instead (twice as many warps a block).
  if (terms == 3 && mma->warp[1] == 64) {
    MmaMatmulSchedule narrower = *mma;
    narrower.warp[1] = 32;
    if (checkMmaSchedule(narrower).empty())
      *mma = narrower;
  }
}

AnySchedule hidet::schedule::defaultSchedule(const GemmDesc &g,
                                             TemplateKind kind,
                                             const TargetLimits &target) {
  switch (kind) {
  case TemplateKind::None:
    return std::monostate();
  case TemplateKind::Simt:
    return defaultSimtSchedule(g.batch, g.m, g.n, g.k, target,
                               g.asyncCopy && target.hasAsyncCopy);
  case TemplateKind::Mma:
    return defaultMmaSchedule(g.batch, g.m, g.n, g.k, target, mmaShapeFor(g),
                              g.asyncCopy && target.hasAsyncCopy);
  case TemplateKind::Wgmma:
    return defaultWgmmaSchedule(g.batch, g.m, g.n, g.k, target, g.windowTaps);
  }
  return std::monostate();
}
