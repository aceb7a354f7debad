//===- PropagateTransposes.cpp - Move linalg.transpose ops apart ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-propagate-transposes`: transposes on tensors
// move down, through the ops that can take their input in the other layout,
// until they meet their inverse and vanish; the ones left are folded into
// the elementwise op that produces their input. Passes.td describes the
// rewrites.
//
// Upstream's pieces do not make this: elementwise fusion folds a
// generalized transpose into its consumer but never changes the layout in
// which the consumer writes, so a layout never travels past one op, and
// data-layout propagation moves linalg.pack and linalg.unpack, not
// transposes.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <type_traits>

namespace hidet {
#define GEN_PASS_DEF_PROPAGATETRANSPOSES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// The transpose of `value` by `perm` (result dim i is `value`'s dim
/// perm[i]).
Value transposed(OpBuilder &b, Location loc, Value value,
                 ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape = applyPermutation(type.getShape(), perm);
  Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

/// The map from a transpose's result index to its input index: result dim i
/// is input dim perm[i], so input dim perm[i] reads loop i.
AffineMap inputIndexOf(ArrayRef<int64_t> perm, MLIRContext *ctx) {
  return AffineMap::getPermutationMap(invertPermutationVector(perm), ctx);
}

/// The results of a transpose of a transpose are the inner one's input,
/// transposed once (or not at all).
struct ComposeTransposes : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inner = op.getInput().getDefiningOp<linalg::TransposeOp>();
    if (!inner || !op.hasPureTensorSemantics())
      return failure();
    SmallVector<int64_t> perm =
        applyPermutation(inner.getPermutation(), op.getPermutation());
    if (isIdentityPermutation(perm)) {
      rewriter.replaceOp(op, inner.getInput());
      return success();
    }
    rewriter.replaceOp(
        op, transposed(rewriter, op.getLoc(), inner.getInput(), perm));
    return success();
  }
};

/// The loop that walks an operand's innermost dimension through `map`,
/// if one does.
std::optional<unsigned> innermostLoop(AffineMap map) {
  if (map.getNumResults() == 0)
    return std::nullopt;
  if (auto d = dyn_cast<AffineDimExpr>(map.getResults().back()))
    return d.getPosition();
  return std::nullopt;
}

/// A linalg.generic reads a transpose's input directly, through its
/// indexing map composed with the transpose's. A generic with reductions
/// does so only when the same loop walks the operand's contiguous dim: a
/// reduction along rows that the transpose's input holds across rows (a
/// global average pool of an NHWC tensor) would lose the contiguous reads
/// its kernel is built on, which costs more than the transpose.
struct FoldTransposeIntoGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    bool parallel = op.getNumParallelLoops() == op.getNumLoops();
    for (OpOperand *operand : op.getDpsInputOperands()) {
      auto t = operand->get().getDefiningOp<linalg::TransposeOp>();
      if (!t || !t.hasPureTensorSemantics())
        continue;
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      unsigned i = operand->getOperandNumber();
      AffineMap composed =
          inputIndexOf(t.getPermutation(), getContext()).compose(maps[i]);
      if (!parallel && innermostLoop(composed) != innermostLoop(maps[i]))
        continue;
      maps[i] = composed;
      rewriter.modifyOpInPlace(op, [&] {
        operand->set(t.getInput());
        op.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(maps));
      });
      return success();
    }
    return failure();
  }
};

/// An all-parallel linalg.generic with one result, which it writes in loop
/// order without reading it, is elementwise in any loop order.
bool isLayoutFree(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
    return false;
  return !op.payloadUsesValueFromOperand(op.getDpsInitOperand(0));
}

/// The permutation through which all full-rank permuted inputs of an
/// elementwise generic are read, when there is one and no full-rank input
/// is read in loop order: computing in that order reads every one of them
/// in its own order.
std::optional<AffineMap> commonInputPermutation(linalg::GenericOp op) {
  std::optional<AffineMap> common;
  for (OpOperand *operand : op.getDpsInputOperands()) {
    AffineMap map = op.getMatchingIndexingMap(operand);
    if (!map.isPermutation())
      continue;
    if (map.isIdentity() || (common && *common != map))
      return std::nullopt;
    common = map;
  }
  return common;
}

/// An elementwise generic whose full-rank inputs are all read through one
/// permutation P computes in P's order instead: it reads them in their own
/// order and writes its result in that order, followed by a transpose back
/// (which then moves on to its users).
struct ComputeInInputOrder : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!isLayoutFree(op))
      return failure();
    std::optional<AffineMap> p = commonInputPermutation(op);
    if (!p)
      return failure();
    // New loops e = P(d), so d = P^-1(e): every map m becomes m o P^-1,
    // which is the identity for the permuted inputs.
    AffineMap inverse = inversePermutation(*p);
    SmallVector<AffineMap> maps;
    SmallVector<Value> inputs;
    for (OpOperand *operand : op.getDpsInputOperands()) {
      maps.push_back(op.getMatchingIndexingMap(operand).compose(inverse));
      inputs.push_back(operand->get());
    }
    unsigned rank = op.getNumLoops();
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    auto resultType = cast<RankedTensorType>(op.getResult(0).getType());
    // Result dim k of the new op is loop e_k = d_{perm[k]}.
    SmallVector<int64_t> perm;
    for (AffineExpr e : p->getResults())
      perm.push_back(cast<AffineDimExpr>(e).getPosition());
    Location loc = op.getLoc();
    Value init = tensor::EmptyOp::create(
        rewriter, loc, applyPermutation(resultType.getShape(), perm),
        resultType.getElementType());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, init.getType(), inputs, init, maps,
        op.getIteratorTypesArray());
    rewriter.inlineRegionBefore(op.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    // Back to the old order: old dim i is new dim k where perm[k] = i.
    rewriter.replaceOp(op, transposed(rewriter, loc, generic.getResult(0),
                                      invertPermutationVector(perm)));
    return success();
  }
};

/// A constant tensor.pad of a transpose pads the transpose's input (its
/// pads permuted) and transposes the padded tensor.
struct SwapPadAndTranspose : OpRewritePattern<tensor::PadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::PadOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getSource().getDefiningOp<linalg::TransposeOp>();
    Value padValue = op.getConstantPaddingValue();
    if (!t || !t.hasPureTensorSemantics() || !padValue)
      return failure();
    ArrayRef<int64_t> perm = t.getPermutation();
    SmallVector<OpFoldResult> lo = op.getMixedLowPad(),
                              hi = op.getMixedHighPad();
    // Result dim i of the transpose is source dim perm[i].
    SmallVector<OpFoldResult> newLo(lo.size()), newHi(hi.size());
    auto type = cast<RankedTensorType>(op.getResultType());
    SmallVector<int64_t> shape(type.getRank());
    for (auto [i, p] : llvm::enumerate(perm)) {
      newLo[p] = lo[i];
      newHi[p] = hi[i];
      shape[p] = type.getDimSize(i);
    }
    Location loc = op.getLoc();
    // A constant yielded from inside the region is rebuilt outside it.
    if (padValue.getParentRegion() == &op.getRegion())
      padValue = rewriter.clone(*padValue.getDefiningOp())->getResult(0);
    auto padded = tensor::PadOp::create(
        rewriter, loc, RankedTensorType::get(shape, type.getElementType()),
        t.getInput(), newLo, newHi, padValue, op.getNofold());
    rewriter.replaceOp(op, transposed(rewriter, loc, padded, perm));
    return success();
  }
};

/// A transpose of a linalg.fill is a fill of the transposed shape.
struct TransposeOfFill : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto fill = op.getInput().getDefiningOp<linalg::FillOp>();
    if (!fill || !op.hasPureTensorSemantics() ||
        !fill.hasPureTensorSemantics())
      return failure();
    rewriter.replaceOpWithNewOp<linalg::FillOp>(op, fill.getInputs(),
                                                op.getInit());
    return success();
  }
};

/// NCHW pooling of an NHWC tensor's transpose becomes NHWC pooling of that
/// tensor, transposed.
template <typename NchwOp, typename NhwcOp>
struct PoolChannelsLast : OpRewritePattern<NchwOp> {
  using OpRewritePattern<NchwOp>::OpRewritePattern;
  LogicalResult matchAndRewrite(NchwOp op,
                                PatternRewriter &rewriter) const override {
    Value input = op.getDpsInputOperand(0)->get();
    auto t = input.template getDefiningOp<linalg::TransposeOp>();
    if (!t || !op.hasPureTensorSemantics() || !t.hasPureTensorSemantics() ||
        t.getPermutation() != ArrayRef<int64_t>{0, 3, 1, 2})
      return failure();
    Location loc = op.getLoc();
    Value init = transposed(rewriter, loc, op.getDpsInitOperand(0)->get(),
                            {0, 2, 3, 1});
    auto pool = NhwcOp::create(
        rewriter, loc, init.getType(),
        ValueRange{t.getInput(), op.getDpsInputOperand(1)->get()}, init,
        op.getStrides(), op.getDilations());
    rewriter.replaceOp(
        op, transposed(rewriter, loc, pool.getResult(0), {0, 3, 1, 2}));
    return success();
  }
};

/// A collapse_shape of a transpose whose groups are runs of consecutive
/// dims of the transpose's input collapses the input and transposes the
/// collapsed tensor.
struct SwapCollapseAndTranspose : OpRewritePattern<tensor::CollapseShapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(tensor::CollapseShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getSrc().getDefiningOp<linalg::TransposeOp>();
    if (!t || !t.hasPureTensorSemantics())
      return failure();
    ArrayRef<int64_t> perm = t.getPermutation();
    SmallVector<ReassociationIndices> groups = op.getReassociationIndices();
    // Group g covers input dims [first[g], first[g] + size).
    SmallVector<int64_t> first;
    for (const ReassociationIndices &g : groups) {
      for (size_t k = 1; k < g.size(); ++k)
        if (perm[g[k]] != perm[g[k - 1]] + 1)
          return failure();
      first.push_back(perm[g.front()]);
    }
    // The groups in the input's order.
    SmallVector<int64_t> order =
        llvm::to_vector(llvm::seq<int64_t>(0, groups.size()));
    llvm::sort(order, [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    SmallVector<ReassociationIndices> inputGroups;
    for (int64_t g : order)
      inputGroups.push_back(llvm::to_vector(llvm::seq<int64_t>(
          first[g], first[g] + static_cast<int64_t>(groups[g].size()))));
    Location loc = op.getLoc();
    Value collapsed =
        tensor::CollapseShapeOp::create(rewriter, loc, t.getInput(), inputGroups);
    // Result dim g is collapsed dim q[g], g's place in the input's order.
    rewriter.replaceOp(op, transposed(rewriter, loc, collapsed,
                                      invertPermutationVector(order)));
    return success();
  }
};

/// A transpose that keeps the order of the dims that are not 1 moves no
/// data: it is a reshape.
struct TransposeOfUnitDims : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto from = cast<RankedTensorType>(op.getInput().getType());
    auto to = cast<RankedTensorType>(op.getInit().getType());
    if (!op.hasPureTensorSemantics() || !from.hasStaticShape())
      return failure();
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (from.getDimSize(p) == 1)
        continue;
      if (p < last)
        return failure();
      last = p;
    }
    if (last < 0)
      return failure();
    // Through the tensor of the dims that are not 1.
    SmallVector<int64_t> shape;
    for (int64_t d : from.getShape())
      if (d != 1)
        shape.push_back(d);
    auto middle = RankedTensorType::get(shape, from.getElementType());
    std::optional<SmallVector<ReassociationIndices>> in =
        getReassociationIndicesForCollapse(from.getShape(), shape);
    std::optional<SmallVector<ReassociationIndices>> out =
        getReassociationIndicesForCollapse(to.getShape(), shape);
    if (!in || !out)
      return failure();
    Location loc = op.getLoc();
    Value collapsed = tensor::CollapseShapeOp::create(rewriter, loc, middle,
                                                      op.getInput(), *in);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, to, collapsed,
                                                       *out);
    return success();
  }
};

/// A transpose of the only use of a collapse_shape, whose groups stay
/// runs of consecutive dims, transposes the collapse's source instead, so
/// that it can reach the source's producer.
struct TransposeBeforeCollapse : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto collapse = op.getInput().getDefiningOp<tensor::CollapseShapeOp>();
    if (!collapse || !op.hasPureTensorSemantics() || !collapse->hasOneUse())
      return failure();
    SmallVector<ReassociationIndices> groups =
        collapse.getReassociationIndices();
    ArrayRef<int64_t> perm = op.getPermutation();
    // The source's dims, the groups taken in the result's order.
    SmallVector<int64_t> sourcePerm;
    SmallVector<ReassociationIndices> resultGroups;
    for (int64_t g : perm) {
      ReassociationIndices group;
      for (int64_t d : groups[g]) {
        group.push_back(sourcePerm.size());
        sourcePerm.push_back(d);
      }
      resultGroups.push_back(group);
    }
    Location loc = op.getLoc();
    Value source = transposed(rewriter, loc, collapse.getSrc(), sourcePerm);
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, op.getInit().getType(), source, resultGroups);
    return success();
  }
};

/// A transpose of the only use of a constant tensor.pad transposes the
/// pad's source instead, so that it can reach the source's producer.
struct TransposeBeforePad : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto pad = op.getInput().getDefiningOp<tensor::PadOp>();
    if (!pad || !op.hasPureTensorSemantics() || !pad->hasOneUse())
      return failure();
    Value padValue = pad.getConstantPaddingValue();
    if (!padValue || padValue.getParentRegion() == &pad.getRegion())
      return failure();
    ArrayRef<int64_t> perm = op.getPermutation();
    Location loc = op.getLoc();
    Value source = transposed(rewriter, loc, pad.getSource(), perm);
    rewriter.replaceOpWithNewOp<tensor::PadOp>(
        op, op.getInit().getType(), source,
        applyPermutation(pad.getMixedLowPad(), perm),
        applyPermutation(pad.getMixedHighPad(), perm), padValue,
        pad.getNofold());
    return success();
  }
};

/// A transpose of the only use of an elementwise generic's result: the
/// generic writes its result transposed.
struct WriteTransposed : OpRewritePattern<linalg::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(linalg::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto producer = op.getInput().getDefiningOp<linalg::GenericOp>();
    if (!producer || !op.hasPureTensorSemantics() ||
        !isLayoutFree(producer) || !producer->hasOneUse())
      return failure();
    SmallVector<AffineMap> maps = producer.getIndexingMapsArray();
    // Result index r goes to (r[perm[0]], r[perm[1]], ...).
    maps.back() = AffineMap::getPermutationMap(op.getPermutation(),
                                               getContext())
                      .compose(maps.back());
    Location loc = op.getLoc();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, op.getInit().getType(), producer.getDpsInputs(),
        op.getInit(), maps, producer.getIteratorTypesArray());
    rewriter.inlineRegionBefore(producer.getRegion(), generic.getRegion(),
                                generic.getRegion().begin());
    rewriter.replaceOp(op, generic.getResult(0));
    rewriter.eraseOp(producer);
    return success();
  }
};

/// Whether rows of `extent` elements of `type` start 16 bytes apart, the
/// width of the GEMM templates' vector loads and copies.
bool alignedRows(int64_t extent, Type type) {
  int64_t bits = type.getIntOrFloatBitWidth();
  return (extent * bits) % (16 * 8) == 0;
}

/// A transpose read by a matmul or batch matmul is read through the
/// contraction's indexing map instead, when that makes the operand's rows
/// 16-byte aligned: the transposed copy's innermost extent is not a
/// multiple of 16 bytes and the input's is (attention's K^T over a sequence
/// of 197 tokens). The GEMM templates then read the input with its own dim
/// contiguous (K-major B), with aligned vector loads, and the transposing
/// copy is gone. Aligned transposes stay, for the templates that read only
/// one layout fast (wgmma's N-major B).
template <typename OpTy>
struct TransposeIntoContraction : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return failure();
    SmallVector<Value> inputs(op.getDpsInputs());
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    bool changed = false;
    for (auto [i, input] : llvm::enumerate(inputs)) {
      auto t = input.template getDefiningOp<linalg::TransposeOp>();
      if (!t || !t.hasPureTensorSemantics())
        continue;
      auto from = cast<RankedTensorType>(t.getInput().getType());
      auto to = cast<RankedTensorType>(input.getType());
      Type elt = from.getElementType();
      if (!elt.isIntOrFloat() || alignedRows(to.getShape().back(), elt) ||
          !alignedRows(from.getShape().back(), elt))
        continue;
      // Upstream's batch_matmul takes transposed operands whose batch dim
      // stays first.
      if (std::is_same_v<OpTy, linalg::BatchMatmulOp> &&
          t.getPermutation().front() != 0)
        continue;
      // Operand dim d is the input's dim perm[d]: the input's dim j reads
      // what the operand's dim inverse[j] read.
      SmallVector<int64_t> inverse =
          invertPermutationVector(t.getPermutation());
      SmallVector<AffineExpr> results;
      for (int64_t j : inverse)
        results.push_back(maps[i].getResult(j));
      maps[i] = AffineMap::get(maps[i].getNumDims(), 0, results,
                               op.getContext());
      inputs[i] = t.getInput();
      changed = true;
    }
    if (!changed)
      return failure();
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : op->getAttrs())
      if (a.getName() != "operandSegmentSizes" &&
          a.getName() != "indexing_maps")
        attrs.push_back(a);
    attrs.push_back(rewriter.getNamedAttr(
        "indexing_maps", rewriter.getAffineMapArrayAttr(maps)));
    rewriter.replaceOpWithNewOp<OpTy>(op, op->getResultTypes(), inputs,
                                      op.getDpsInits(), attrs);
    return success();
  }
};

struct PropagateTransposesPass
    : public hidet::impl::PropagateTransposesBase<PropagateTransposesPass> {
  void runOnOperation() final {
    MLIRContext *ctx = &getContext();
    // Down first, to the end: a transpose that meets its inverse is gone.
    RewritePatternSet down(ctx);
    down.add<ComposeTransposes, FoldTransposeIntoGeneric, ComputeInInputOrder,
             SwapPadAndTranspose, SwapCollapseAndTranspose,
             TransposeOfUnitDims, TransposeOfFill,
             TransposeIntoContraction<linalg::MatmulOp>,
             TransposeIntoContraction<linalg::BatchMatmulOp>,
             PoolChannelsLast<linalg::PoolingNchwMaxOp,
                              linalg::PoolingNhwcMaxOp>,
             PoolChannelsLast<linalg::PoolingNchwSumOp,
                              linalg::PoolingNhwcSumOp>>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(down))))
      return signalPassFailure();
    // Then the ones left join their producers.
    RewritePatternSet up(ctx);
    up.add<WriteTransposed, TransposeBeforePad, TransposeBeforeCollapse,
           TransposeOfFill>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(up))))
      return signalPassFailure();
  }
};

} // namespace
