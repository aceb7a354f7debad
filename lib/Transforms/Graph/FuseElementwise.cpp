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

namespace hidet {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

/// A linalg.generic on tensors whose loops are all parallel.
static bool isElementwiseGeneric(Operation *op) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  return generic && generic.hasPureTensorSemantics() &&
         generic.getNumParallelLoops() == generic.getNumLoops();
}

namespace {
struct FuseElementwisePass
    : public hidet::impl::FuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() final {
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *operand) {
          Operation *producer = operand->get().getDefiningOp();
          if (!isElementwiseGeneric(operand->getOwner()) ||
              !isElementwiseGeneric(producer))
            return false;
          // A producer that something else needs stays, so fusing it
          // recomputes it; only where all its users are elementwise, so
          // that they all absorb it and it goes. Otherwise each link of a
          // chain of residual adds (x_k+1 = x_k + f(x_k), x_k also read by
          // a normalization) would recompute the whole chain.
          return llvm::all_of(producer->getUsers(), isElementwiseGeneric);
        });
    // Operands that fusion duplicates or leaves unused are folded away.
    linalg::GenericOp::getCanonicalizationPatterns(patterns, &getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};
} // namespace
