//===- PlanTuning.cpp - The candidates of a module's anchors --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-plan-tuning`, which writes the tuning plan of
// a module (Passes.td): each distinct anchor's candidate schedules and the
// rounds' records files that put them in libraries.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Templates/Anchor.h"
#include "../Templates/Attention.h"
#include "../Utils/KernelBuilder.h"

#include "Hidet/Schedule/TuningSpace.h"
#include "Hidet/Tuning/Records.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace hidet {
#define GEN_PASS_DEF_PLANTUNING
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

static constexpr llvm::StringLiteral kPass = "hidet-plan-tuning";

namespace {
/// The anchors of one signature.
struct PlannedAnchor {
  std::string signature;
  SmallVector<std::string> candidates;
  SmallVector<std::string> kernels;
  void addKernel(std::string name) {
    if (!llvm::is_contained(kernels, name))
      kernels.push_back(std::move(name));
  }
};

struct PlanTuningPass : public hidet::impl::PlanTuningBase<PlanTuningPass> {
  using Base::Base;

  /// Writes `text` to `name` in `dir`, whole or not at all (upstream's
  /// writeToOutput: a temporary file, renamed).
  LogicalResult write(StringRef name, StringRef text) {
    SmallString<256> path(dir);
    llvm::sys::path::append(path, name);
    llvm::Error error = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
      os << text;
      return llvm::Error::success();
    });
    if (!error)
      return success();
    // The message names the file: "'path': reason".
    return getOperation()->emitError(kPass)
           << ": cannot write " << llvm::toString(std::move(error));
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    std::optional<schedule::SpaceLevel> level =
        schedule::parseSpaceLevel(space);
    if (std::string error = schedule::checkTF32Terms(tf32Terms, "tf32-terms");
        !error.empty()) {
      module.emitError(kPass) << ": " << error;
      return signalPassFailure();
    }
    if (!level) {
      module.emitError(kPass) << ": unknown space '" << space
                              << "' (default, small or full)";
      return signalPassFailure();
    }
    if (dir.empty()) {
      module.emitError(kPass) << ": no directory (dir=...) to write to";
      return signalPassFailure();
    }
    TargetAttr target = TargetAttr::lookup(module);
    schedule::TargetLimits limits = target.getLimits();
    // Signatures measured before, on this chip, by this tuner's version.
    std::vector<tuning::TuningRecord> knownRecords;
    if (!known.empty()) {
      auto file = llvm::MemoryBuffer::getFile(known, /*IsText=*/true);
      std::vector<tuning::RecordProblem> problems;
      std::string error;
      std::optional<std::vector<tuning::TuningRecord>> parsed;
      if (file)
        parsed = tuning::parseRecords((*file)->getBuffer(), problems, error);
      else
        error = file.getError().message();
      if (!parsed) {
        module.emitError(kPass) << ": cannot read the known records '"
                                << known << "': " << error;
        return signalPassFailure();
      }
      knownRecords = std::move(*parsed);
    }
    size_t knownCount = 0;
    // The signatures in order of first appearance.
    std::vector<PlannedAnchor> anchors;
    llvm::StringMap<size_t> bySignature;
    // The entry of `signature` (its candidates from `candidates` the first
    // time), or null when the known records hold a current measurement.
    auto entry = [&](const std::string &signature,
                     function_ref<SmallVector<std::string>()> candidates)
        -> PlannedAnchor * {
      if (const tuning::TuningRecord *r =
              tuning::findRecord(knownRecords, signature, target.getChip());
          r && tuning::isCurrentMeasurement(*r)) {
        ++knownCount;
        return nullptr;
      }
      auto [it, added] = bySignature.try_emplace(signature, anchors.size());
      if (added) {
        anchors.emplace_back();
        anchors.back().signature = signature;
        anchors.back().candidates = candidates();
      }
      return &anchors[it->second];
    };
    auto print = [](Attribute attr) {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << attr;
      return text;
    };
    for (auto func : module.getOps<func::FuncOp>()) {
      // A fused attention is one entry; its matmuls have no schedule of
      // their own.
      llvm::SmallPtrSet<Operation *, 8> inAttention;
      for (linalg::LinalgOp op : collectAnchors(func)) {
        AttentionChain chain;
        std::string unfit;
        if (op->hasAttr(kAttentionAttrName)) {
          inAttention.insert(op);
          if (succeeded(matchAttention(op, chain, unfit, kPass)))
            inAttention.insert(chain.values);
          continue;
        }
        if (!fuse || !attention ||
            !isDefaultAttention(op, target, chain, unfit, kPass))
          continue;
        inAttention.insert(op);
        inAttention.insert(chain.values);
        PlannedAnchor *planned = entry(attentionSignature(chain), [&]() {
          SmallVector<std::string> texts;
          for (AttentionAttr s : attentionCandidates(chain, target, space))
            texts.push_back(print(s));
          return texts;
        });
        if (planned)
          planned->addKernel(
              kernel::kernelName(op.getLoc(), "attention", func.getName()));
      }
      for (linalg::LinalgOp op : collectAnchors(func)) {
        if (op->hasAttr(kScheduleAttrName) || inAttention.contains(op))
          continue;
        GemmProblem p;
        fusion::Prologue prologue;
        std::string why;
        if (matchAnchor(op, Attribute(), fuse, /*remarks=*/false, kPass, p,
                        prologue, why) != AnchorMatch::Gemm)
          continue;
        schedule::GemmDesc desc = describeGemm(p, convRowTiles);
        schedule::TemplateKind kind =
            schedule::defaultTemplate(desc, limits, tf32);
        if (kind == schedule::TemplateKind::None)
          continue;
        PlannedAnchor *planned = entry(anchorSignature(op, prologue), [&]() {
          SmallVector<std::string> texts;
          for (schedule::AnySchedule s :
               schedule::tuningCandidates(desc, kind, limits, *level)) {
            schedule::setTF32Terms(s, tf32Terms);
            ScheduleAttrInterface attr = scheduleAttr(&getContext(), s);
            if (!attr || !attr.checkTarget(target).empty() ||
                !attr.checkProblem(p).empty())
              continue;
            // Candidates that setTF32Terms narrowed may meet others.
            std::string text = print(attr);
            if (!llvm::is_contained(texts, text))
              texts.push_back(text);
          }
          return texts;
        });
        if (!planned)
          continue;
        planned->addKernel(
            kernel::kernelName(op.getLoc(), kernelKind(kind), func.getName()));
        planned->addKernel(
            kernel::kernelName(op.getLoc(), kSplitKReduceKind, func.getName()));
      }
    }

    if (std::error_code ec = llvm::sys::fs::create_directories(dir)) {
      module.emitError(kPass) << ": cannot create '" << dir
                              << "': " << ec.message();
      return signalPassFailure();
    }
    size_t rounds = 0;
    for (const PlannedAnchor &planned : anchors)
      rounds = std::max(rounds, planned.candidates.size());
    std::string plan;
    llvm::raw_string_ostream os(plan);
    llvm::json::OStream j(os, /*IndentSize=*/2);
    j.object([&] {
      j.attribute("format", "hidet-tuning-plan");
      j.attribute("version", 1);
      j.attribute("chip", target.getChip());
      j.attribute("space", space);
      j.attribute("rounds", static_cast<int64_t>(rounds));
      j.attribute("known", static_cast<int64_t>(knownCount));
      j.attributeArray("anchors", [&] {
        for (const PlannedAnchor &planned : anchors)
          j.object([&] {
            j.attribute("signature", planned.signature);
            j.attributeArray("kernels", [&] {
              for (const std::string &k : planned.kernels)
                j.value(k);
            });
            j.attributeArray("candidates", [&] {
              for (const std::string &c : planned.candidates)
                j.value(c);
            });
          });
      });
    });
    os << "\n";
    if (failed(write("plan.json", plan)))
      return signalPassFailure();
    for (size_t round = 0; round < rounds; ++round) {
      std::vector<tuning::TuningRecord> records;
      for (const PlannedAnchor &planned : anchors) {
        if (round >= planned.candidates.size())
          continue;
        tuning::TuningRecord r;
        r.signature = planned.signature;
        r.chip = target.getChip().str();
        r.schedule = planned.candidates[round];
        r.defaultSchedule = planned.candidates.front();
        r.tool = "hidet-plan-tuning round " + std::to_string(round);
        records.push_back(std::move(r));
      }
      if (failed(write("round-" + std::to_string(round) + ".json",
                       tuning::printRecords(records))))
        return signalPassFailure();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
