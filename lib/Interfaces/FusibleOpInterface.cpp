//===- FusibleOpInterface.cpp - Post-scheduling fusion legality -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The interface, and its models for the upstream ops the partition sees on
// tensors: every linalg structured op (one model over LinalgOp, from its
// iterators and indexing maps) and the tensor reshapes, pads and slices.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Interfaces/FusibleOpInterface.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;

#include "Hidet/Interfaces/FusibleOpInterface.cpp.inc"

namespace {

/// A linalg op is injective when all its loops are parallel. It is
/// bijective with respect to an operand whose indexing map is a
/// permutation (no broadcast, no reduced dimension) when its one result's
/// map is a permutation too: the result index of operand index x is then
/// outMap(operandMap^-1(x)).
template <typename OpTy>
struct LinalgFusibleModel
    : public hidet::FusibleOpInterface::ExternalModel<LinalgFusibleModel<OpTy>,
                                                      OpTy> {
  bool isInjective(Operation *op) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    return linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
  }

  FailureOr<AffineMap> getInverseIndexMap(Operation *op,
                                          OpOperand &operand) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    if (!isInjective(op) || op->getNumResults() != 1 ||
        linalgOp.getNumDpsInits() != 1 ||
        !isa<RankedTensorType>(operand.get().getType()))
      return failure();
    AffineMap in = linalgOp.getMatchingIndexingMap(&operand);
    AffineMap out = linalgOp.getIndexingMapMatchingResult(op->getResult(0));
    if (!in.isPermutation() || !out.isPermutation())
      return failure();
    // The init is read only when the payload uses it.
    if (linalgOp.isDpsInit(&operand) &&
        !linalgOp.payloadUsesValueFromOperand(&operand))
      return failure();
    return out.compose(inversePermutation(in));
  }
};

/// An op that stands for a reduction and the elementwise ops around it
/// (linalg.softmax) anchors its group before it is decomposed.
template <typename OpTy>
struct AnchorModel
    : public hidet::FusibleOpInterface::ExternalModel<AnchorModel<OpTy>, OpTy> {
  bool isInjective(Operation *) const { return false; }
  FailureOr<AffineMap> getInverseIndexMap(Operation *, OpOperand &) const {
    return failure();
  }
};

template <typename... OpTys> void attachLinalgModels(MLIRContext *ctx) {
  (OpTys::template attachInterface<LinalgFusibleModel<OpTys>>(*ctx), ...);
}

/// A reshape moves no element: each source element is one result element,
/// found by linearizing each reassociation group of the source and
/// delinearizing it into the result (static shapes only).
template <typename OpTy>
struct ReshapeFusibleModel
    : public hidet::FusibleOpInterface::ExternalModel<ReshapeFusibleModel<OpTy>,
                                                      OpTy> {
  bool isInjective(Operation *) const { return true; }

  FailureOr<AffineMap> getInverseIndexMap(Operation *op,
                                          OpOperand &operand) const {
    auto reshape = cast<OpTy>(op);
    auto src = cast<RankedTensorType>(reshape.getSrc().getType());
    auto dst = cast<RankedTensorType>(reshape.getResult().getType());
    if (operand.getOperandNumber() != 0 || !src.hasStaticShape() ||
        !dst.hasStaticShape())
      return failure();
    MLIRContext *ctx = op->getContext();
    SmallVector<AffineExpr> dims;
    for (unsigned i = 0; i < src.getRank(); ++i)
      dims.push_back(getAffineDimExpr(i, ctx));
    // Groups index the rank-larger side; the other side has one dimension
    // per group.
    bool expand = src.getRank() < dst.getRank();
    ArrayRef<int64_t> large = expand ? dst.getShape() : src.getShape();
    SmallVector<AffineExpr> results;
    for (auto [g, group] : llvm::enumerate(reshape.getReassociationIndices())) {
      // Row-major strides of the group's dimensions.
      SmallVector<int64_t> extents;
      for (int64_t d : group)
        extents.push_back(large[d]);
      SmallVector<int64_t> strides = computeSuffixProduct(extents);
      if (expand) {
        llvm::append_range(results, delinearize(dims[g], strides));
      } else {
        SmallVector<AffineExpr> parts;
        for (int64_t d : group)
          parts.push_back(dims[d]);
        results.push_back(linearize(ctx, parts, strides));
      }
    }
    return AffineMap::get(src.getRank(), 0, results, ctx);
  }
};

/// Pads and slices are injective but not bijective: a pad's result has
/// elements no source element gives, a slice drops source elements.
template <typename OpTy>
struct InjectiveOnlyModel
    : public hidet::FusibleOpInterface::ExternalModel<InjectiveOnlyModel<OpTy>,
                                                      OpTy> {
  bool isInjective(Operation *) const { return true; }
  FailureOr<AffineMap> getInverseIndexMap(Operation *, OpOperand &) const {
    return failure();
  }
};

} // namespace

void hidet::registerFusibleOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, linalg::LinalgDialect *) {
    attachLinalgModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(ctx);
    linalg::SoftmaxOp::attachInterface<AnchorModel<linalg::SoftmaxOp>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, tensor::TensorDialect *) {
    tensor::ExpandShapeOp::attachInterface<
        ReshapeFusibleModel<tensor::ExpandShapeOp>>(*ctx);
    tensor::CollapseShapeOp::attachInterface<
        ReshapeFusibleModel<tensor::CollapseShapeOp>>(*ctx);
    tensor::PadOp::attachInterface<InjectiveOnlyModel<tensor::PadOp>>(*ctx);
    tensor::ExtractSliceOp::attachInterface<
        InjectiveOnlyModel<tensor::ExtractSliceOp>>(*ctx);
  });
}
