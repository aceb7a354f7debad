//===- ScheduleAnchors.cpp - Build the kernels of scheduled anchors -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-schedule-anchors`: every anchor op that
// carries a `hidet.schedule` becomes the kernel its schedule's template
// builds, with its fusion group's prologue and epilogue folded in, and the
// schedule recorded on the kernel's launch. The pass decides nothing:
// `hidet-select-schedules` (or a user, or a tuner) chose the schedule.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Fusion/Buffers.h"
#include "../Templates/Anchor.h"
#include "../Templates/Attention.h"
#include "../Utils/KernelBuilder.h"

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

static constexpr llvm::StringLiteral kPass = "hidet-schedule-anchors";

namespace {
struct ScheduleAnchorsPass
    : public hidet::impl::ScheduleAnchorsBase<ScheduleAnchorsPass> {
  using Base::Base;

  /// Builds the kernel of `op` as `schedule` says.
  LogicalResult build(linalg::LinalgOp op, ScheduleAttrInterface schedule,
                      TargetAttr target) {
    GemmProblem p;
    fusion::Prologue prologue;
    std::string why;
    switch (matchAnchor(op, schedule, fuse, /*remarks=*/true, kPass, p,
                        prologue, why)) {
    case AnchorMatch::NoTemplate:
      // hidet-select-schedules said why; the rule-based scheduler takes it.
      return success();
    case AnchorMatch::Error:
      return failure();
    case AnchorMatch::Gemm:
      break;
    }
    // The anchor's epilogue chain, applied to each result in the kernel,
    // which then runs where the chain's last op was.
    fusion::Epilogue epilogue;
    if (fuse)
      epilogue = fusion::Epilogue::match(
          op, p.c.buffer, {p.a.buffer, p.b.buffer}, scatterMaxBytes);
    if (!epilogue.empty())
      p.epilogue = &epilogue;
    // A schedule written or edited after selection is checked again.
    if (failed(verifySchedule(op, kPass, schedule, p, target)))
      return failure();
    // A linalg.fill of C right before the anchor (bufferized `C = 0; C +=
    // A * B`) becomes the accumulators' start: no fill kernel, no read of C.
    // (Not when C is also read as A or B: they would miss the fill.)
    linalg::FillOp fill =
        fusion::fillBefore(op, p.c.buffer, {p.a.buffer, p.b.buffer});
    if (fill)
      p.cInit = fill.getDpsInputOperand(0)->get();
    p.splitKInKernel = splitKInKernel;
    p.wgmmaTmaB = wgmmaTmaB;
    p.wgmmaAsyncArrive = wgmmaAsyncArrive;
    Operation *at =
        epilogue.empty() ? op.getOperation() : epilogue.insertionPoint();
    OpBuilder b(at);
    if (fill)
      fill->erase();
    Operation *before = at->getPrevNode();
    schedule.buildKernel(b, op.getLoc(), p, target, reduceBlockSize);
    // Record the decision on the GEMM kernel (the first launch it built),
    // and what it computes and fused.
    kernel::recordOnFirstLaunch(before, at, kScheduleAttrName, schedule);
    MLIRContext *ctx = op->getContext();
    kernel::describeFirstLaunch(
        before, at, "anchor",
        StringAttr::get(ctx, op->getName().stripDialect()));
    kernel::describeFirstLaunch(
        before, at, "gemm",
        DenseI64ArrayAttr::get(ctx, {p.batch, p.m, p.n, p.k, p.windowTaps}));
    if (!prologue.empty())
      kernel::describeFirstLaunch(
          before, at, "prologue", kernel::stringArray(ctx, prologue.kinds()));
    if (!epilogue.empty())
      kernel::describeFirstLaunch(
          before, at, "epilogue", kernel::stringArray(ctx, epilogue.kinds()));
    op->erase();
    if (!epilogue.empty())
      epilogue.erase();
    prologue.erase();
    return success();
  }

  void runOnOperation() final {
    if (reduceBlockSize <= 0 || reduceBlockSize > 1024 ||
        reduceBlockSize % 32 != 0) {
      getOperation()->emitError(kPass)
          << ": reduce-block-size must be a multiple of 32 in [32, 1024], got "
          << static_cast<int64_t>(reduceBlockSize);
      return signalPassFailure();
    }
    if (scatterMaxBytes < 0) {
      getOperation()->emitError(kPass)
          << ": scatter-max-bytes must be at least 0, got "
          << static_cast<int64_t>(scatterMaxBytes);
      return signalPassFailure();
    }
    TargetAttr target = TargetAttr::lookup(getOperation());
    // The P V of an attention goes with its Q K^T.
    llvm::SmallPtrSet<Operation *, 8> built;
    for (linalg::LinalgOp op : collectAnchors(getOperation())) {
      if (built.contains(op))
        continue;
      if (auto attention =
              op->getAttrOfType<AttentionAttr>(kAttentionAttrName)) {
        AttentionChain chain;
        std::string why;
        if (failed(matchAttention(op, chain, why, kPass))) {
          op->emitError(kPass) << ": '" << kAttentionAttrName
                               << "' on a batch matmul that is not an "
                                  "attention's Q K^T: "
                               << why;
          return signalPassFailure();
        }
        if (std::string bad = checkAttention(chain, attention, target);
            !bad.empty()) {
          op->emitError(kPass) << ": " << bad;
          return signalPassFailure();
        }
        built.insert(chain.values);
        buildAttention(chain, attention, attentionSkipMasked);
        continue;
      }
      FailureOr<ScheduleAttrInterface> schedule = writtenSchedule(op, kPass);
      if (failed(schedule) ||
          (*schedule && failed(build(op, *schedule, target))))
        return signalPassFailure();
    }
  }
};
} // namespace
