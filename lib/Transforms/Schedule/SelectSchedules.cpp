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
// against the target and the anchor; with tuning records, an anchor whose
// signature has one takes its schedule. `hidet-schedule-anchors` then
// builds what is written.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Templates/Anchor.h"
#include "../Templates/Attention.h"

#include "Hidet/Tuning/Records.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/MemoryBuffer.h"

#include <memory>

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

  /// The records of `tuning-records`, shared by the pass's copies.
  std::shared_ptr<const std::vector<tuning::TuningRecord>> records;

  LogicalResult initialize(MLIRContext *ctx) final {
    if (tuningRecords.empty())
      return success();
    Location loc = FileLineColLoc::get(ctx, tuningRecords, 0, 0);
    auto file = llvm::MemoryBuffer::getFile(tuningRecords, /*IsText=*/true);
    if (!file)
      return emitError(loc) << kPass << ": cannot read the tuning records: "
                            << file.getError().message();
    std::vector<tuning::RecordProblem> problems;
    std::string error;
    auto parsed = tuning::parseRecords((*file)->getBuffer(), problems, error);
    if (!parsed)
      return emitError(loc) << kPass << ": not a tuning records file: "
                            << error;
    for (const tuning::RecordProblem &problem : problems)
      emitWarning(loc) << kPass << ": tuning record " << problem.index
                       << " is malformed (" << problem.why << "); ignored";
    records = std::make_shared<const std::vector<tuning::TuningRecord>>(
        std::move(*parsed));
    return success();
  }

  /// The attribute of the record of `signature` on `target`'s chip, when
  /// there is one that parses and passes `check` (which says why not, or
  /// nothing); a record that does not is reported on `op`.
  Attribute recordFor(Operation *op, StringRef signature, TargetAttr target,
                      function_ref<std::string(Attribute)> check) {
    if (signatures)
      op->emitRemark(kPass) << ": anchor signature: " << signature;
    const tuning::TuningRecord *r =
        records
            ? tuning::findRecord(*records, signature.str(), target.getChip())
            : nullptr;
    if (!r)
      return {};
    std::string why;
    Attribute attr;
    {
      // The parser's own diagnostic becomes the reason.
      ScopedDiagnosticHandler capture(&getContext(), [&](Diagnostic &d) {
        why = d.str();
        return success();
      });
      attr = parseAttribute(r->schedule, &getContext());
    }
    if (attr && why.empty())
      why = check(attr);
    else if (!attr && why.empty())
      why = "'" + r->schedule + "' is not an attribute";
    if (why.empty()) {
      op->emitRemark(kPass) << ": schedule of tuning record " << r->index
                            << " of '" << tuningRecords << "'";
      return attr;
    }
    op->emitWarning(kPass) << ": tuning record " << r->index << " of '"
                           << tuningRecords << "' is not applied: " << why
                           << "; the heuristic's schedule instead";
    return {};
  }

  /// The schedule of the record for `op` on `target`, when there is one that
  /// parses and verifies; a record that does not is reported on `op`.
  ScheduleAttrInterface recorded(linalg::LinalgOp op,
                                 const fusion::Prologue &prologue,
                                 const GemmProblem &p, TargetAttr target) {
    if (!records && !signatures)
      return {};
    return cast_if_present<ScheduleAttrInterface>(recordFor(
        op, anchorSignature(op, prologue), target, [&](Attribute attr) {
          auto schedule = dyn_cast<ScheduleAttrInterface>(attr);
          if (!schedule)
            return "'" + r2s(attr) + "' is not a schedule attribute";
          std::string why = schedule.checkTarget(target);
          return why.empty() ? schedule.checkProblem(p) : why;
        }));
  }

  /// The #hidet.attention of the record for `chain` on `target`, as
  /// `recorded` for the matmuls' schedules.
  AttentionAttr recordedAttention(const AttentionChain &chain,
                                  TargetAttr target) {
    if (!records && !signatures)
      return {};
    return cast_if_present<AttentionAttr>(recordFor(
        chain.scores, attentionSignature(chain), target, [&](Attribute attr) {
          auto schedule = dyn_cast<AttentionAttr>(attr);
          if (!schedule)
            return "'" + r2s(attr) + "' is not a #hidet.attention";
          return checkAttention(chain, schedule, target);
        }));
  }

  static std::string r2s(Attribute attr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    return text;
  }

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
    if (ScheduleAttrInterface tuned = recorded(op, prologue, p, target)) {
      op->setAttr(kScheduleAttrName, tuned);
      return success();
    }
    schedule::TargetLimits limits = target.getLimits();
    schedule::GemmDesc desc = describeGemm(p, convRowTiles);
    schedule::TemplateKind kind = schedule::defaultTemplate(desc, limits, tf32);
    if (kind == schedule::TemplateKind::None) {
      std::string types;
      llvm::raw_string_ostream os(types);
      os << p.aElt << " x " << p.bElt << " -> " << p.cElt;
      return leave("no template for " + types +
                   " (f32 x f32 -> f32 is SIMT; f16 or bf16 operands with "
                   "f16, bf16 or f32 results are tensor-core)");
    }
    schedule::AnySchedule s = schedule::defaultSchedule(desc, kind, limits);
    schedule::setTF32Terms(s, tf32Terms);
    ScheduleAttrInterface chosen = scheduleAttr(&getContext(), s);
    // The heuristic picks from the target's space; a misfit is a bug of the
    // heuristic, reported rather than built.
    if (failed(verifySchedule(op, kPass, chosen, p, target)))
      return failure();
    op->setAttr(kScheduleAttrName, chosen);
    return success();
  }

  /// Whether `op` is the Q K^T or the P V of an attention built as one
  /// kernel: the one with a (written or chosen) #hidet.attention, or the P
  /// V of such a Q K^T. A written #hidet.attention that does not fit is an
  /// error.
  FailureOr<bool> selectAttention(linalg::LinalgOp op, TargetAttr target) {
    if (Attribute written = op->getAttr(kAttentionAttrName)) {
      AttentionChain chain;
      std::string why;
      if (failed(matchAttention(op, chain, why, kPass)))
        return op->emitError(kPass)
               << ": '" << kAttentionAttrName
               << "' on a batch matmul that is not an attention's Q K^T: "
               << why;
      if (std::string bad =
              checkAttention(chain, cast<AttentionAttr>(written), target);
          !bad.empty())
        return op->emitError(kPass) << ": " << bad;
      valuesOfAttention.insert(chain.values);
      return true;
    }
    if (valuesOfAttention.contains(op))
      return true;
    if (!fuse || !attention)
      return false;
    AttentionChain chain;
    std::string unfit;
    if (!isDefaultAttention(op, target, chain, unfit, kPass)) {
      if (!unfit.empty())
        op->emitRemark(kPass) << ": not a fused attention: " << unfit;
      return false;
    }
    AttentionAttr chosen = recordedAttention(chain, target);
    op->setAttr(kAttentionAttrName,
                chosen ? chosen : defaultAttentionSchedule(chain, target));
    op->emitRemark(kPass) << ": fused attention with the P V at "
                          << chain.values->getLoc();
    valuesOfAttention.insert(chain.values);
    return true;
  }

  /// The P V of the attentions found so far.
  llvm::SmallPtrSet<Operation *, 8> valuesOfAttention;

  void runOnOperation() final {
    valuesOfAttention.clear();
    if (std::string error = schedule::checkTF32Terms(tf32Terms, "tf32-terms");
        !error.empty()) {
      getOperation().emitError(kPass) << ": " << error;
      return signalPassFailure();
    }
    TargetAttr target = TargetAttr::lookup(getOperation());
    SmallVector<linalg::LinalgOp> anchors = collectAnchors(getOperation());
    llvm::SmallPtrSet<Operation *, 8> inAttention;
    for (linalg::LinalgOp op : anchors) {
      FailureOr<bool> fused = selectAttention(op, target);
      if (failed(fused))
        return signalPassFailure();
      if (*fused)
        inAttention.insert(op);
    }
    for (linalg::LinalgOp op : anchors)
      if (!inAttention.contains(op) && failed(select(op, target)))
        return signalPassFailure();
  }
};
} // namespace
