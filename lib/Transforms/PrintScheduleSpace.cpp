//===- PrintScheduleSpace.cpp - Print anchor schedule spaces --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-print-schedule-space`: for each anchor op with
// a template, the size of its schedule space, the heuristic's pick and,
// optionally, every schedule, spelled as the attribute that selects it.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Templates/Templates.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/raw_ostream.h"

namespace hidet {
#define GEN_PASS_DEF_PRINTSCHEDULESPACE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

namespace {
struct PrintScheduleSpacePass
    : public hidet::impl::PrintScheduleSpaceBase<PrintScheduleSpacePass> {
  using Base::Base;

  void runOnOperation() final {
    schedule::TargetLimits limits;
    limits.numSMs = numSMs;
    std::vector<schedule::SimtMatmulSchedule> simt =
        schedule::enumerateSimtSpace(limits);
    std::vector<schedule::MmaMatmulSchedule> mma =
        schedule::enumerateMmaSpace(limits, schedule::kMma16);
    std::vector<schedule::MmaMatmulSchedule> mmaTF32 =
        schedule::enumerateMmaSpace(limits, schedule::kMmaTF32);
    std::vector<schedule::WgmmaMatmulSchedule> wgmma =
        schedule::enumerateWgmmaSpace(limits);
    llvm::raw_ostream &os = llvm::outs();
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!templates::isGemmAnchor(op))
        return;
      std::string why;
      FailureOr<templates::GemmProblem> problem =
          templates::matchGemm(op, why, /*onBuffers=*/false);
      if (failed(problem))
        return;
      const templates::GemmProblem &p = *problem;
      os << "anchor " << p.kind << " ";
      if (p.batch > 1)
        os << p.batch << "x";
      os << p.m << "x" << p.n << "x" << p.k << " " << p.aElt << " x " << p.bElt
         << " -> " << p.cElt << ": ";
      templates::TemplateChoice choice = templates::chooseTemplate(
          p, op->getAttr(kScheduleAttrName), tf32, templates::isHopper(chip));
      bool isSimt = choice.kind == templates::GemmTemplate::Simt;
      bool isTF32 = choice.mma == schedule::kMmaTF32;
      const std::vector<schedule::MmaMatmulSchedule> &mmaSpace =
          isTF32 ? mmaTF32 : mma;
      if (choice.kind == templates::GemmTemplate::None) {
        os << "no template\n";
        return;
      }
      bool isWgmma = choice.kind == templates::GemmTemplate::Wgmma;
      if (isSimt)
        os << "template simt_matmul, " << simt.size() << " schedules\n";
      else if (isWgmma)
        os << "template wgmma_matmul, " << wgmma.size() << " schedules\n";
      else
        os << "template mma_matmul" << (isTF32 ? " (tf32)" : "") << ", "
           << mmaSpace.size() << " schedules\n";
      Attribute pick = templates::defaultSchedule(ctx, p, choice, limits);
      os << "  default: " << pick << "\n";
      if (Attribute chosen = op->getAttr(kScheduleAttrName))
        os << "  written on the op: " << chosen << "\n";
      if (!list)
        return;
      if (isSimt)
        for (const schedule::SimtMatmulSchedule &s : simt)
          os << "  " << Attribute(SimtMatmulAttr::get(ctx, s)) << "\n";
      else if (isWgmma)
        for (const schedule::WgmmaMatmulSchedule &s : wgmma)
          os << "  " << Attribute(WgmmaMatmulAttr::get(ctx, s)) << "\n";
      else
        for (const schedule::MmaMatmulSchedule &s : mmaSpace)
          os << "  " << Attribute(MmaMatmulAttr::get(ctx, s)) << "\n";
    });
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
