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

/// The default SIMT schedule for an M x N output: the largest of four tile
/// shapes (128x128, 64x64, 32x64, 16x32) that still gives every SM a block,
/// or the smallest when none does. The candidates are fixed by the hardware
/// (warp counts, a 32-lane spatial shape, register budgets), not derived
/// from the input size; the input only picks among them.
static SimtMatmulAttr defaultSimtSchedule(MLIRContext *ctx, int64_t m,
                                          int64_t n, int64_t numSMs) {
  struct Candidate {
    int64_t blockWarps[2], warpOuter[2], warpInner[2];
  };
  static const Candidate candidates[] = {
      {{4, 2}, {2, 2}, {4, 4}}, // 128 x 128, 256 threads
      {{2, 2}, {2, 1}, {4, 4}}, //  64 x  64, 128 threads
      {{2, 2}, {1, 1}, {4, 4}}, //  32 x  64, 128 threads
      {{2, 2}, {1, 1}, {2, 2}}, //  16 x  32, 128 threads
  };
  const int64_t mid[2] = {4, 8};
  const Candidate *chosen = &candidates[std::size(candidates) - 1];
  for (const Candidate &c : candidates) {
    int64_t bm = c.blockWarps[0] * c.warpOuter[0] * mid[0] * c.warpInner[0];
    int64_t bn = c.blockWarps[1] * c.warpOuter[1] * mid[1] * c.warpInner[1];
    if (((m + bm - 1) / bm) * ((n + bn - 1) / bn) >= numSMs) {
      chosen = &c;
      break;
    }
  }
  return SimtMatmulAttr::get(ctx, chosen->blockWarps, chosen->warpOuter, mid,
                             chosen->warpInner, /*blockK=*/8);
}

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
      if (!schedule)
        schedule = defaultSimtSchedule(&getContext(), a.getDimSize(0),
                                       bt.getDimSize(1), numSMs);
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
