//===- FuseElementwise.cpp - Fuse elementwise linalg.generic ops ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-fuse-elementwise`: upstream's elementwise
// fusion patterns, with a control function that admits only an
// all-parallel linalg.generic producer into an all-parallel linalg.generic
// consumer, on tensors, when all the producer's users are such generics. The decision which ops share a kernel stays with
// hidet-partition; this pass only merges what is one elementwise
// computation into one op.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace hidet {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using linalg::ControlFusionFn;

/// A linalg.generic on tensors whose loops are all parallel.
static bool isElementwiseGeneric(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() &&
         generic.getNumParallelLoops() == generic.getNumLoops();
}

/// A linalg.generic on tensors with reduction loops.
static bool isReductionGeneric(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() &&
         generic.getNumReductionLoops() > 0;
}

/// Whether `operand`'s producer is elementwise and only the reduction that
/// owns it reads it (RMSNorm's x * x under its sum): the reduction then
/// computes it.
static bool isAbsorbedByReduction(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  return isElementwiseGeneric(producer) &&
         isReductionGeneric(operand->getOwner()) && producer->hasOneUse();
}

/// Whether fusing `operand`'s producer into its owner merges one
/// elementwise computation: an elementwise producer whose users are all
/// elementwise, into one of them.
static bool isFusibleElementwise(OpOperand *operand) {
  Operation *producer = operand->get().getDefiningOp();
  // A producer that something else needs stays, so fusing it recomputes
  // it; only where all its users are elementwise, so that they all absorb
  // it and it goes. Otherwise each link of a chain of residual adds
  // (x_k+1 = x_k + f(x_k), x_k also read by a normalization) would
  // recompute the whole chain.
  return isElementwiseGeneric(producer) &&
         isElementwiseGeneric(operand->getOwner()) &&
         llvm::all_of(producer->getUsers(), isElementwiseGeneric);
}

namespace {
struct FuseElementwisePass
    : public hidet::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() final {
    MLIRContext *ctx = &getContext();
    // Unit dimensions of elementwise generics go first (upstream's
    // dropUnitDims, on these ops only): a normalization's row statistics
    // reshaped to [rows, 1] (ONNX's keepdims) and computed on there are
    // then elementwise ops on [rows], which fuse with the reduction's
    // other readers of that shape.
    linalg::ControlDropUnitDims unitDims;
    unitDims.controlFn = [](Operation *op) -> SmallVector<unsigned> {
      if (!isElementwiseGeneric(op))
        return {};
      return llvm::to_vector(
          llvm::seq<unsigned>(0, cast<linalg::GenericOp>(op).getNumLoops()));
    };
    {
      RewritePatternSet patterns(ctx);
      linalg::populateFoldUnitExtentDimsPatterns(patterns, unitDims);
      // The upstream patterns are not for a greedy driver.
      walkAndApplyPatterns(getOperation(), std::move(patterns));
    }
    // Reductions take their own elementwise inputs first, so that a value
    // that a reduction and elementwise ops read (a norm's input, also
    // read by its last op) is seen as the reduction's input, computed
    // once, rather than recomputed in the elementwise ops.
    for (ControlFusionFn control : {ControlFusionFn(isAbsorbedByReduction),
                                    ControlFusionFn(isFusibleElementwise)}) {
      RewritePatternSet patterns(ctx);
      linalg::populateFoldUnitExtentDimsCanonicalizationPatterns(patterns,
                                                                  unitDims);
      linalg::populateElementwiseOpsFusionPatterns(patterns, control);
      // Operands that fusion duplicates or leaves unused are folded away.
      linalg::GenericOp::getCanonicalizationPatterns(patterns, ctx);
      if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
        return signalPassFailure();
    }
  }
};
} // namespace
