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
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace hidet {
#define GEN_PASS_DEF_SCHEDULEANCHORS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

/// Why `op` has no template, or empty when it has one.
static std::string whyNoTemplate(linalg::MatmulOp op) {
  if (!op.hasPureBufferSemantics())
    return "the op works on tensors (bufferize first)";
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || !type.hasStaticShape())
      return "dynamic shapes have no template yet";
    if (!type.getElementType().isF32())
      return "only f32 has a template yet (the SIMT one)";
    if (!type.getLayout().isIdentity())
      return "only row-major buffers have a template yet";
  }
  // Transposed or broadcast forms carry other indexing maps.
  MLIRContext *ctx = op.getContext();
  AffineExpr m, n, k;
  bindDims(ctx, m, n, k);
  SmallVector<AffineMap> plain = {AffineMap::get(3, 0, {m, k}, ctx),
                                  AffineMap::get(3, 0, {k, n}, ctx),
                                  AffineMap::get(3, 0, {m, n}, ctx)};
  if (op.getIndexingMapsArray() != plain)
    return "transposed or broadcast operands have no template yet";
  return "";
}

namespace {
struct ScheduleAnchorsPass
    : public hidet::impl::ScheduleAnchorsBase<ScheduleAnchorsPass> {
  using Base::Base;
  void runOnOperation() final {
    SmallVector<linalg::MatmulOp> matmuls;
    getOperation()->walk([&](linalg::MatmulOp op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        matmuls.push_back(op);
    });
    OpBuilder b(&getContext());
    for (linalg::MatmulOp op : matmuls) {
      if (std::string why = whyNoTemplate(op); !why.empty()) {
        op->emitRemark("hidet-schedule-anchors: left to the rule-based "
                       "scheduler: ")
            << why;
        continue;
      }
      Attribute attr = op->getAttr(kScheduleAttrName);
      auto schedule = dyn_cast_if_present<SimtMatmulAttr>(attr);
      if (attr && !schedule) {
        op->emitError("hidet-schedule-anchors: '")
            << kScheduleAttrName << "' of a linalg.matmul must be a "
            << "#hidet.simt_matmul, got " << attr;
        return signalPassFailure();
      }
      auto a = cast<MemRefType>(op.getDpsInputOperand(0)->get().getType());
      auto bt = cast<MemRefType>(op.getDpsInputOperand(1)->get().getType());
      schedule::TargetLimits limits;
      limits.numSMs = numSMs;
      if (!schedule)
        schedule = SimtMatmulAttr::get(
            &getContext(), schedule::defaultSimtSchedule(
                               a.getDimSize(0), bt.getDimSize(1), limits));
      // A written schedule is structurally valid (its verifier ran) but may
      // not fit the target.
      if (std::string why =
              schedule::checkSimtSchedule(schedule.toSchedule(), &limits);
          !why.empty()) {
        op->emitError("hidet-schedule-anchors: the schedule does not fit the "
                      "target: ")
            << why;
        return signalPassFailure();
      }
      b.setInsertionPoint(op);
      templates::buildSimtMatmul(b, op, schedule);
      // Record the decision on the kernel it produced.
      Operation *launch = op->getPrevNode();
      while (launch && !isa<gpu::LaunchOp>(launch))
        launch = launch->getPrevNode();
      if (launch)
        launch->setAttr(kScheduleAttrName, schedule);
      op->erase();
    }
  }
};
} // namespace
