//===- PrintScheduleSpace.cpp - Print anchor schedule spaces --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-print-schedule-space`: for each anchor op with
// a template, the size of its schedule space on the target, the heuristic's
// pick and, optionally, every schedule, spelled as the attribute that
// selects it.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Templates/Anchor.h"

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
    TargetAttr target = TargetAttr::lookup(getOperation());
    schedule::TargetLimits limits = target.getLimits();
    llvm::raw_ostream &os = llvm::outs();
    // Spaces are the same for every anchor of a template and instruction.
    llvm::StringMap<size_t> spaceSizes;
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
      schedule::GemmDesc desc = templates::describeGemm(p, convRowTiles);
      auto written =
          dyn_cast_if_present<ScheduleAttrInterface>(op->getAttr(
              kScheduleAttrName));
      schedule::TemplateKind kind =
          written ? written.getTemplateKind()
                  : schedule::defaultTemplate(desc, limits, tf32);
      ScheduleAttrInterface pick = templates::scheduleAttr(
          &getContext(), schedule::defaultSchedule(desc, kind, limits));
      if (!pick) {
        os << "no template\n";
        return;
      }
      // The space of the pick: for the tensor-core template, of the
      // instruction shape the operands need (tf32 for f32).
      bool isTF32 = kind == schedule::TemplateKind::Mma &&
                    desc.a == schedule::ElementKind::F32;
      std::string key = (pick.getTemplateName() + (isTF32 ? "/tf32" : "")).str();
      SmallVector<Attribute> space;
      if (list || !spaceSizes.count(key)) {
        space = pick.getSpace(target);
        spaceSizes[key] = space.size();
      }
      os << "template " << pick.getTemplateName()
         << (isTF32 ? " (tf32)" : "") << ", " << spaceSizes[key]
         << " schedules\n";
      os << "  default: " << pick << "\n";
      if (Attribute chosen = op->getAttr(kScheduleAttrName))
        os << "  written on the op: " << chosen << "\n";
      if (!list)
        return;
      for (Attribute s : space)
        os << "  " << s << "\n";
    });
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
