//===- SelectSchedules.cpp - Choose the schedule of every anchor ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-select-schedules`, the one place where an
// anchor's schedule is chosen: every anchor with a template and no
// `hidet.schedule` gets the heuristic's (Hidet/Schedule/Heuristic.h) for
// the target; a schedule already there (a user's or a tuner's) is checked
// against the target and the anchor. `hidet-schedule-anchors` then builds
// what is written.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Templates/Anchor.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace hidet {
#define GEN_PASS_DEF_SELECTSCHEDULES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

static constexpr llvm::StringLiteral kPass = "hidet-select-schedules";

namespace {
struct SelectSchedulesPass
    : public hidet::impl::SelectSchedulesBase<SelectSchedulesPass> {
  using Base::Base;

  LogicalResult select(linalg::LinalgOp op, TargetAttr target) {
    auto leave = [&](const Twine &why) {
      op->emitRemark(kPass) << ": left to the rule-based scheduler: " << why;
      return success();
    };
    FailureOr<ScheduleAttrInterface> written = writtenSchedule(op, kPass);
    if (failed(written))
      return failure();
    GemmProblem p;
    fusion::Prologue prologue;
    std::string why;
    switch (matchAnchor(op, *written, fuse, /*remarks=*/false, kPass, p,
                        prologue, why)) {
    case AnchorMatch::NoTemplate:
      return leave(why);
    case AnchorMatch::Error:
      return failure();
    case AnchorMatch::Gemm:
      break;
    }
    if (*written)
      return verifySchedule(op, kPass, *written, p, target);
    schedule::TargetLimits limits = target.getLimits();
    schedule::GemmDesc desc = describeGemm(p);
    schedule::TemplateKind kind = schedule::defaultTemplate(desc, limits, tf32);
    if (kind == schedule::TemplateKind::None) {
      std::string types;
      llvm::raw_string_ostream os(types);
      os << p.aElt << " x " << p.bElt << " -> " << p.cElt;
      return leave("no template for " + types +
                   " (f32 x f32 -> f32 is SIMT; f16 or bf16 operands with "
                   "f16, bf16 or f32 results are tensor-core)");
    }
    ScheduleAttrInterface chosen = scheduleAttr(
        &getContext(), schedule::defaultSchedule(desc, kind, limits));
    // The heuristic picks from the target's space; a misfit is a bug of the
    // heuristic, reported rather than built.
    if (failed(verifySchedule(op, kPass, chosen, p, target)))
      return failure();
    op->setAttr(kScheduleAttrName, chosen);
    return success();
  }

  void runOnOperation() final {
    TargetAttr target = TargetAttr::lookup(getOperation());
    for (linalg::LinalgOp op : collectAnchors(getOperation()))
      if (failed(select(op, target)))
        return signalPassFailure();
  }
};
} // namespace
