//===- Choose.cpp - Which template and default schedule an anchor gets ----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The one place that decides, from element types, the schedule written on
// the op and the tf32 option, which template an anchor gets and what the
// heuristic's schedule is; hidet-schedule-anchors and
// hidet-print-schedule-space both ask it, so they cannot disagree.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

TemplateChoice hidet::templates::chooseTemplate(const GemmProblem &p,
                                                Attribute written, bool tf32,
                                                bool wgmma) {
  TemplateChoice choice;
  if (isa_and_present<WgmmaMatmulAttr>(written)) {
    choice.kind = GemmTemplate::Wgmma;
    return choice;
  }
  bool f32 = p.aElt.isF32() && p.bElt.isF32() && p.cElt.isF32();
  bool half = (p.aElt.isF16() && p.bElt.isF16()) ||
              (p.aElt.isBF16() && p.bElt.isBF16());
  if (f32) {
    // f32 goes to the tensor cores in tf32 when asked: by the option, or by
    // a tensor-core schedule written on the op.
    bool tensorCores =
        isa_and_present<MmaMatmulAttr>(written) || (!written && tf32);
    choice.kind = tensorCores ? GemmTemplate::Mma : GemmTemplate::Simt;
    choice.mma = schedule::kMmaTF32;
  } else if (half && (p.cElt.isF16() || p.cElt.isBF16() || p.cElt.isF32())) {
    choice.kind = GemmTemplate::Mma;
    choice.mma = schedule::kMma16;
    // Outputs of at least one wgmma tile of rows go to the Hopper template:
    // on the H100 it measured faster at every such shape of the GEMM
    // benchmark, the skinny M = 128 ones too (64 x 64 tiles, no split-K),
    // and slower at M = 16, where 3/4 of a tile is padding
    // (bench/results/matmul-wgmma-sweep.md).
    if (!written && wgmma &&
        p.m >= schedule::WgmmaMatmulSchedule::kWarpgroupRows &&
        whyNoWgmma(p).empty())
      choice.kind = GemmTemplate::Wgmma;
  }
  return choice;
}

Attribute
hidet::templates::defaultSchedule(MLIRContext *ctx, const GemmProblem &p,
                                  const TemplateChoice &choice,
                                  const schedule::TargetLimits &limits) {
  if (choice.kind == GemmTemplate::Simt)
    return SimtMatmulAttr::get(
        ctx, schedule::defaultSimtSchedule(p.batch, p.m, p.n, p.k, limits));
  if (choice.kind == GemmTemplate::Wgmma) {
    return WgmmaMatmulAttr::get(
        ctx, schedule::defaultWgmmaSchedule(p.batch, p.m, p.n, p.k, limits));
  }
  if (choice.kind == GemmTemplate::Mma)
    return MmaMatmulAttr::get(ctx, schedule::defaultMmaSchedule(
                                       p.batch, p.m, p.n, p.k, limits,
                                       choice.mma, whyNoAsyncCopy(p).empty()));
  return Attribute();
}
