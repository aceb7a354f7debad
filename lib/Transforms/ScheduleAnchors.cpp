//===- ScheduleAnchors.cpp - Instantiate anchor-op templates --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-schedule-anchors`: anchor ops that have a
// template become kernels, with the schedule the op carries or the one the
// heuristic picks (recorded on the launch). Everything else is left to the
// rule-based scheduler, with a remark.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Templates/Templates.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

namespace hidet {
#define GEN_PASS_DEF_SCHEDULEANCHORS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

namespace {
struct ScheduleAnchorsPass
    : public hidet::impl::ScheduleAnchorsBase<ScheduleAnchorsPass> {
  using Base::Base;

  /// Instantiates the template of `op`, or leaves it with a remark.
  LogicalResult schedule(linalg::LinalgOp op) {
    auto leave = [&](const Twine &why) {
      op->emitRemark("hidet-schedule-anchors: left to the rule-based "
                     "scheduler: ")
          << why;
      return success();
    };
    std::string why;
    FailureOr<GemmProblem> problem = matchGemm(op, why);
    if (failed(problem))
      return leave(why);
    // The producers of A and B in the anchor's group (a convolution's: the
    // zero padding of its input) fold into the kernel's reads.
    fusion::Prologue prologue;
    if (fuse) {
      bool conv = isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp>(op);
      // Elementwise producers are applied to loaded values in registers,
      // which a written schedule with raw byte copies does not have.
      Attribute written = op->getAttr(kScheduleAttrName);
      auto mma = dyn_cast_if_present<MmaMatmulAttr>(written);
      StringRef computeWhyNot =
          isa_and_present<WgmmaMatmulAttr>(written) ||
                  (mma && mma.getStages() != 0)
              ? "the written schedule's raw byte copies (TMA or cp.async) "
                "cannot apply"
              : "";
      prologue =
          fusion::Prologue::match(op, {problem->c.buffer}, computeWhyNot, conv);
      if (!prologue.empty())
        problem = matchGemm(op, why, /*onBuffers=*/true, &prologue);
      if (failed(problem))
        return op->emitError("hidet-schedule-anchors: the reads of the "
                             "folded prologue have no template: ")
               << why;
    }
    GemmProblem &p = *problem;
    // The anchor's epilogue chain, applied to each result in the kernel,
    // which then runs where the chain's last op was (the heuristic takes
    // it into account).
    fusion::Epilogue epilogue;
    if (fuse)
      epilogue =
          fusion::Epilogue::match(op, p.c.buffer, {p.a.buffer, p.b.buffer});
    if (!epilogue.empty())
      p.epilogue = &epilogue;
    Attribute attr = op->getAttr(kScheduleAttrName);
    schedule::TargetLimits limits;
    limits.numSMs = numSMs;
    TemplateChoice choice = chooseTemplate(p, attr, tf32, isHopper(chip));
    GemmTemplate kind = choice.kind;
    if (kind == GemmTemplate::None) {
      std::string types;
      llvm::raw_string_ostream os(types);
      os << p.aElt << " x " << p.bElt << " -> " << p.cElt;
      return leave("no template for " + types +
                   " (f32 x f32 -> f32 is SIMT; f16 or bf16 operands with "
                   "f16, bf16 or f32 results are tensor-core)");
    }
    // A linalg.fill of C right before the anchor (bufferized `C = 0; C +=
    // A * B`) becomes the accumulators' start: no fill kernel, no read of C.
    // (Not when C is also read as A or B: they would miss the fill.)
    auto fill = dyn_cast_if_present<linalg::FillOp>(op->getPrevNode());
    if (fill && fill.hasPureBufferSemantics() &&
        fill.getDpsInitOperand(0)->get() == p.c.buffer &&
        p.a.buffer != p.c.buffer && p.b.buffer != p.c.buffer)
      p.cInit = fill.getDpsInputOperand(0)->get();
    else
      fill = nullptr;
    Attribute chosen;
    std::string misfit;
    std::array<int64_t, 3> mmaShape = choice.mma;
    if (kind == GemmTemplate::Simt) {
      auto s = dyn_cast_if_present<SimtMatmulAttr>(attr);
      if (attr && !s)
        return op->emitError("hidet-schedule-anchors: '")
               << kScheduleAttrName << "' of this f32 " << p.kind
               << " must be a #hidet.simt_matmul (or a #hidet.mma_matmul "
                  "with mma = [16, 8, 8] for tf32), got "
               << attr;
      if (!s)
        s = cast<SimtMatmulAttr>(
            defaultSchedule(&getContext(), p, choice, limits));
      misfit = schedule::checkSimtSchedule(s.toSchedule(), &limits);
      chosen = s;
    } else if (kind == GemmTemplate::Wgmma) {
      if (!isHopper(chip))
        return op->emitError("hidet-schedule-anchors: a #hidet.wgmma_matmul "
                             "schedule needs chip = sm_90a (wgmma), got ")
               << chip;
      if (std::string why = whyNoWgmma(p); !why.empty())
        return op->emitError("hidet-schedule-anchors: this ")
               << p.kind
               << " cannot take a #hidet.wgmma_matmul schedule: " << why;
      auto s = dyn_cast_if_present<WgmmaMatmulAttr>(attr);
      if (!s)
        s = cast<WgmmaMatmulAttr>(
            defaultSchedule(&getContext(), p, choice, limits));
      misfit = schedule::checkWgmmaSchedule(s.toSchedule(), &limits);
      chosen = s;
    } else {
      auto s = dyn_cast_if_present<MmaMatmulAttr>(attr);
      if (attr && !s)
        return op->emitError("hidet-schedule-anchors: '")
               << kScheduleAttrName << "' of this " << p.aElt << " " << p.kind
               << " must be a #hidet.mma_matmul (or, on sm_90a, a "
                  "#hidet.wgmma_matmul), got "
               << attr;
      if (s && s.toSchedule().mma != mmaShape)
        return op->emitError("hidet-schedule-anchors: mma = [")
               << llvm::make_range(s.getMma().begin(), s.getMma().end())
               << "] does not match the " << p.aElt << " operands of this "
               << p.kind << "; they need [" << mmaShape[0] << ", "
               << mmaShape[1] << ", " << mmaShape[2] << "]";
      if (!s)
        s = cast<MmaMatmulAttr>(
            defaultSchedule(&getContext(), p, choice, limits));
      misfit = schedule::checkMmaSchedule(s.toSchedule(), &limits);
      if (misfit.empty() && s.getStages() != 0)
        misfit = whyNoAsyncCopy(p);
      chosen = s;
    }
    // A written schedule is structurally valid (its verifier ran) but may
    // not fit the target.
    if (!misfit.empty())
      return op->emitError("hidet-schedule-anchors: the schedule does not "
                           "fit the target: ")
             << misfit;
    Operation *at =
        epilogue.empty() ? op.getOperation() : epilogue.insertionPoint();
    OpBuilder b(at);
    if (fill)
      fill->erase();
    Operation *before = at->getPrevNode();
    if (kind == GemmTemplate::Simt)
      buildSimtMatmul(b, op.getLoc(), p, cast<SimtMatmulAttr>(chosen),
                      reduceBlockSize);
    else if (kind == GemmTemplate::Wgmma)
      buildWgmmaMatmul(b, op.getLoc(), p, cast<WgmmaMatmulAttr>(chosen), limits,
                       reduceBlockSize);
    else
      buildMmaMatmul(b, op.getLoc(), p, cast<MmaMatmulAttr>(chosen),
                     reduceBlockSize);
    // Record the decision on the GEMM kernel (the first launch it built).
    Block::iterator it =
        before ? std::next(before->getIterator()) : at->getBlock()->begin();
    for (; &*it != at; ++it)
      if (isa<gpu::LaunchOp>(*it)) {
        it->setAttr(kScheduleAttrName, chosen);
        break;
      }
    op->erase();
    if (!epilogue.empty())
      epilogue.erase();
    prologue.erase();
    return success();
  }

  void runOnOperation() final {
    if (reduceBlockSize <= 0 || reduceBlockSize > 1024 ||
        reduceBlockSize % 32 != 0) {
      getOperation()->emitError("hidet-schedule-anchors: reduce-block-size "
                                "must be a multiple of 32 in [32, 1024], got ")
          << static_cast<int64_t>(reduceBlockSize);
      return signalPassFailure();
    }
    SmallVector<linalg::LinalgOp> anchors;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>() && isGemmAnchor(op))
        anchors.push_back(op);
    });
    for (linalg::LinalgOp op : anchors)
      if (failed(schedule(op)))
        return signalPassFailure();
  }
};
} // namespace
