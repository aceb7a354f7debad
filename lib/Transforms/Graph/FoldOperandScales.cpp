//===- FoldOperandScales.cpp - Operand scales of contractions to results --===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-fold-operand-scales`: a matmul or batch
// matmul whose operand is a constant scalar multiple of a tensor (through
// reshapes only) reads the tensor, and its result is scaled instead, in
// f32, once per output element.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>

namespace hidet {
#define GEN_PASS_DEF_FOLDOPERANDSCALES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// An operand that is `factor` times `source`, seen through `reshapes`
/// (the reshape nearest to the contraction first).
struct ScaledOperand {
  Value source;
  double factor;
  SmallVector<Operation *> reshapes;
};

/// The finite, nonzero constant scalar that `v` is, or nothing (a zero or
/// an infinity would not scale the sums as it scaled each operand: 0 * inf
/// is NaN).
static std::optional<double> constantScalar(Value v) {
  FloatAttr attr;
  if (!matchPattern(v, m_Constant(&attr)))
    return std::nullopt;
  double c = attr.getValueAsDouble();
  if (!std::isfinite(c) || c == 0)
    return std::nullopt;
  return c;
}

/// `v` as a constant multiple of another value: a one-use chain of
/// static reshapes ending in a one-use elementwise `linalg.generic` of one
/// input whose payload multiplies it by a constant scalar (or divides it
/// by one), in its own type and layout.
static std::optional<ScaledOperand> scaledOperand(Value v) {
  ScaledOperand s;
  while (v.hasOneUse()) {
    Operation *def = v.getDefiningOp();
    if (!isa_and_present<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(def) ||
        !cast<RankedTensorType>(v.getType()).hasStaticShape())
      break;
    s.reshapes.push_back(def);
    v = def->getOperand(0);
  }
  auto generic = v.getDefiningOp<linalg::GenericOp>();
  if (!generic || !v.hasOneUse() || generic.getNumDpsInputs() != 1 ||
      generic->getNumResults() != 1 ||
      generic.getNumLoops() != generic.getNumParallelLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }))
    return std::nullopt;
  Value input = generic.getDpsInputOperand(0)->get();
  if (input.getType() != v.getType())
    return std::nullopt;
  Block *body = generic.getBlock();
  if (body->getOperations().size() != 2)
    return std::nullopt;
  Operation *op = &body->front();
  Value arg = body->getArgument(0);
  if (body->getTerminator()->getOperand(0) != op->getResult(0))
    return std::nullopt;
  std::optional<double> c;
  if (isa<arith::MulFOp>(op)) {
    if (op->getOperand(0) == arg)
      c = constantScalar(op->getOperand(1));
    else if (op->getOperand(1) == arg)
      c = constantScalar(op->getOperand(0));
  } else if (isa<arith::DivFOp>(op) && op->getOperand(0) == arg) {
    if ((c = constantScalar(op->getOperand(1))))
      c = 1 / *c;
  }
  if (!c)
    return std::nullopt;
  s.source = input;
  s.factor = *c;
  return s;
}

/// Builds the reshapes of `s` again on its source (the farthest first),
/// folding a reshape that undoes the one before it.
static Value unscaled(PatternRewriter &rewriter, const ScaledOperand &s) {
  Value v = s.source;
  for (Operation *r : llvm::reverse(s.reshapes)) {
    auto type = cast<RankedTensorType>(r->getResult(0).getType());
    if (auto c = dyn_cast<tensor::CollapseShapeOp>(r))
      v = rewriter.createOrFold<tensor::CollapseShapeOp>(
          r->getLoc(), type, v, c.getReassociationIndices());
    else
      v = rewriter.createOrFold<tensor::ExpandShapeOp>(
          r->getLoc(), type, v,
          cast<tensor::ExpandShapeOp>(r).getReassociationIndices());
  }
  return v;
}

/// A contraction from a +0.0 fill (its result is the product alone) with
/// scaled operands reads their sources, accumulates into f32 and scales
/// its result (then rounds it to its type, if 16-bit).
template <typename OpTy> struct ScaleTheResult : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || op->getNumResults() != 1)
      return failure();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || !type.hasStaticShape() ||
        !isa<Float16Type, BFloat16Type, Float32Type>(type.getElementType()))
      return failure();
    auto fill = op.getDpsInits()[0].template getDefiningOp<linalg::FillOp>();
    if (!fill ||
        !matchPattern(fill.getDpsInputOperand(0)->get(), m_PosZeroFloat()))
      return failure();
    SmallVector<Value> inputs(op.getDpsInputs());
    double factor = 1;
    bool scaled = false;
    for (Value &input : inputs) {
      std::optional<ScaledOperand> s = scaledOperand(input);
      if (!s)
        continue;
      input = unscaled(rewriter, *s);
      factor *= s->factor;
      scaled = true;
    }
    if (!scaled)
      return failure();
    Location loc = op.getLoc();
    Type elt = type.getElementType();
    Type f32 = rewriter.getF32Type();
    auto accType = RankedTensorType::get(type.getShape(), f32);
    Value zero = arith::ConstantOp::create(rewriter, loc, f32,
                                           rewriter.getF32FloatAttr(0));
    Value init = linalg::FillOp::create(rewriter, loc, zero,
                                        tensor::EmptyOp::create(
                                            rewriter, loc, type.getShape(), f32)
                                            .getResult())
                     .getResult(0);
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : op->getAttrs())
      if (a.getName() != "operandSegmentSizes")
        attrs.push_back(a);
    Value acc = OpTy::create(rewriter, loc, TypeRange{accType}, inputs,
                             ValueRange{init}, attrs)
                    ->getResult(0);
    Value scale = arith::ConstantOp::create(rewriter, loc, f32,
                                            rewriter.getF32FloatAttr(factor));
    Value out = tensor::EmptyOp::create(rewriter, loc, type.getShape(), elt);
    AffineMap id = rewriter.getMultiDimIdentityMap(type.getRank());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{type}, ValueRange{acc}, ValueRange{out},
        ArrayRef<AffineMap>{id, id},
        SmallVector<utils::IteratorType>(type.getRank(),
                                         utils::IteratorType::parallel),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          Value v = arith::MulFOp::create(b, loc, args[0], scale);
          if (elt != f32)
            v = arith::TruncFOp::create(b, loc, elt, v);
          linalg::YieldOp::create(b, loc, v);
        });
    rewriter.replaceOp(op, generic->getResults());
    return success();
  }
};

struct FoldOperandScalesPass
    : public hidet::impl::FoldOperandScalesBase<FoldOperandScalesPass> {
  void runOnOperation() final {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ScaleTheResult<linalg::MatmulOp>,
                 ScaleTheResult<linalg::BatchMatmulOp>>(ctx);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
