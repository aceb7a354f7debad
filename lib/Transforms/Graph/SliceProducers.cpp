//===- SliceProducers.cpp - Compute each slice of a value on its own ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-slice-producers`: a value that is only read
// through disjoint static slices (GPT-2's fused query/key/value projection,
// split three ways) is computed slice by slice, each by a clone of its
// producer on slices of the producer's operands, so that each slice's
// consumers (a head transpose) can fuse into the anchor that produces it.
//
// Upstream's linalg bubble-up-extract-slice pattern does this for a
// producer of one use only; the tiling interface
// (tensor::replaceExtractSliceWithTiledProducer) and upstream's reshape
// bubbling patterns do the rewriting, and this pass decides where: only
// where the slices are disjoint, so that no element is computed twice.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace hidet {
#define GEN_PASS_DEF_SLICEPRODUCERS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// The slices that read `value`, when every use of it is a static,
/// unit-stride, rank-keeping tensor.extract_slice of at least `minElements`
/// elements and no two of them share an element; empty otherwise.
static SmallVector<tensor::ExtractSliceOp> disjointSlicesOf(Value value,
                                                           int64_t minElements) {
  SmallVector<tensor::ExtractSliceOp> slices;
  for (Operation *user : value.getUsers()) {
    auto slice = dyn_cast<tensor::ExtractSliceOp>(user);
    if (!slice || slice.getSource() != value || !slice.hasUnitStride() ||
        slice.getType().getRank() != slice.getSourceType().getRank() ||
        ShapedType::isDynamicShape(slice.getStaticOffsets()) ||
        ShapedType::isDynamicShape(slice.getStaticSizes()) ||
        slice.getType().getNumElements() < minElements)
      return {};
    slices.push_back(slice);
  }
  // Two boxes are disjoint when their ranges miss each other in some
  // dimension.
  for (auto [i, s] : llvm::enumerate(slices))
    for (tensor::ExtractSliceOp t : ArrayRef(slices).drop_front(i + 1)) {
      bool apart = false;
      for (int64_t d = 0, e = s.getType().getRank(); d < e && !apart; ++d) {
        int64_t s0 = s.getStaticOffsets()[d], t0 = t.getStaticOffsets()[d];
        apart = s0 + s.getStaticSizes()[d] <= t0 ||
                t0 + t.getStaticSizes()[d] <= s0;
      }
      if (!apart)
        return {};
    }
  return slices;
}

/// A structured op on tensors with one result, which the tiling interface
/// can compute a slice of.
static bool isSliceableProducer(Operation *op) {
  auto linalgOp = dyn_cast_or_null<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.hasPureTensorSemantics() &&
         op->getNumResults() == 1 && isa<TilingInterface>(op);
}

struct SliceProducersPass
    : public hidet::impl::SliceProducersBase<SliceProducersPass> {
  using SliceProducersBase::SliceProducersBase;

  void runOnOperation() final {
    if (minElements < 0) {
      getOperation()->emitError("hidet-slice-producers: min-elements must "
                                "be at least 0, got ")
          << static_cast<int64_t>(minElements);
      return signalPassFailure();
    }
    MLIRContext *ctx = &getContext();
    RewritePatternSet reshapePatterns(ctx);
    tensor::populateBubbleUpExtractSliceOpPatterns(reshapePatterns);
    FrozenRewritePatternSet frozenReshape(std::move(reshapePatterns));
    // The offsets those patterns compute (affine.apply of constants) fold
    // back to static ones, and a slice of a tensor.empty is a smaller one,
    // so that each slice's producer writes a value of its own.
    RewritePatternSet foldPatterns(ctx);
    tensor::ExtractSliceOp::getCanonicalizationPatterns(foldPatterns, ctx);
    affine::AffineApplyOp::getCanonicalizationPatterns(foldPatterns, ctx);
    tensor::populateFoldTensorEmptyPatterns(foldPatterns);
    FrozenRewritePatternSet frozenFold(std::move(foldPatterns));

    // Each round moves the slices one producer up; a chain of n ops takes n
    // rounds. Each round removes a producer, so the rounds end.
    for (bool changed = true; changed;) {
      changed = false;
      // Slices of a reshape of a sliceable producer that only the reshape
      // reads move above the reshape.
      SmallVector<Operation *> reshapes, throughReshapes;
      getOperation()->walk([&](Operation *op) {
        if (!isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op))
          return;
        Operation *src = op->getOperand(0).getDefiningOp();
        if (!isSliceableProducer(src) || !src->getResult(0).hasOneUse())
          return;
        SmallVector<tensor::ExtractSliceOp> slices =
            disjointSlicesOf(op->getResult(0), minElements);
        if (slices.empty())
          return;
        reshapes.push_back(op);
        llvm::append_range(throughReshapes, slices);
      });
      if (!throughReshapes.empty()) {
        bool rewritten = false;
        GreedyRewriteConfig config;
        config.setStrictness(GreedyRewriteStrictness::ExistingOps);
        if (failed(applyOpPatternsGreedily(throughReshapes, frozenReshape,
                                           config, &rewritten)))
          return signalPassFailure();
        changed |= rewritten;
        // The reshapes the slices left (the driver erases only the ops it
        // was given).
        for (Operation *reshape : reshapes)
          if (reshape->use_empty())
            reshape->erase();
        if (failed(applyPatternsGreedily(getOperation(), frozenFold)))
          return signalPassFailure();
      }
      // Slices of a sliceable producer become producers of slices.
      SmallVector<std::pair<Operation *, SmallVector<tensor::ExtractSliceOp>>>
          work;
      getOperation()->walk([&](Operation *op) {
        if (!isSliceableProducer(op))
          return;
        SmallVector<tensor::ExtractSliceOp> slices =
            disjointSlicesOf(op->getResult(0), minElements);
        if (!slices.empty())
          work.push_back({op, std::move(slices)});
      });
      IRRewriter rewriter(ctx);
      for (auto &[producer, slices] : work) {
        // Each slice's computation gets a name of its own, the producer's
        // (an ONNX node's) and the slice's index (`<name>/slice<i>`: ONNX
        // names its nodes `<name>_<i>`), so that its kernel is
        // named, profiled and tuned apart from its siblings.
        // The index is the slice's place in the order of their offsets.
        StringRef name = hidet::kernel::locationName(producer->getLoc());
        llvm::sort(slices,
                   [](tensor::ExtractSliceOp a, tensor::ExtractSliceOp b) {
                     return a.getStaticOffsets() < b.getStaticOffsets();
                   });
        for (auto [index, slice] : llvm::enumerate(slices)) {
          rewriter.setInsertionPoint(slice);
          FailureOr<TilingResult> tiled =
              tensor::replaceExtractSliceWithTiledProducer(
                  rewriter, slice, cast<OpResult>(producer->getResult(0)));
          if (failed(tiled) || tiled->tiledValues.size() != 1)
            continue;
          if (!name.empty())
            for (Operation *op : tiled->tiledOps)
              op->setLoc(NameLoc::get(
                  StringAttr::get(ctx, name + "/slice" + Twine(index)),
                  op->getLoc()));
          rewriter.replaceOp(slice, tiled->tiledValues.front());
          changed = true;
        }
        if (producer->use_empty())
          rewriter.eraseOp(producer);
      }
      if (!work.empty() &&
          failed(applyPatternsGreedily(getOperation(), frozenFold)))
        return signalPassFailure();
    }
  }
};

} // namespace
