//===- AccumulateInF32.cpp - f32 accumulators for 16-bit anchors ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-accumulate-in-f32`, which the CPU pipelines
// (not the GPU path) run so that their 16-bit matmuls, convolutions and
// softmaxes accumulate in f32 as the GPU kernels do.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace hidet {
#define GEN_PASS_DEF_ACCUMULATEINF32
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// `value` (a tensor) with its elements converted to `elt` by one generic.
Value convert(OpBuilder &b, Location loc, Value value, Type elt) {
  auto type = cast<RankedTensorType>(value.getType());
  auto result = RankedTensorType::get(type.getShape(), elt);
  Value empty = tensor::EmptyOp::create(b, loc, type.getShape(), elt);
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  SmallVector<utils::IteratorType> parallel(type.getRank(),
                                            utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{result}, ValueRange{value}, ValueRange{empty},
      ArrayRef<AffineMap>{id, id}, parallel,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = args[0];
        Value c = elt.getIntOrFloatBitWidth() >
                          type.getElementType().getIntOrFloatBitWidth()
                      ? arith::ExtFOp::create(nb, nloc, elt, v).getResult()
                      : arith::TruncFOp::create(nb, nloc, elt, v).getResult();
        linalg::YieldOp::create(nb, nloc, c);
      });
  return generic.getResult(0);
}

/// The named ops rewritten: the matmuls and convolutions the importer
/// writes. `recreate` builds `op` again with the f32 init `init` (named ops
/// extend their operands to the init's element type in their bodies), or
/// returns null for other ops.
template <typename... OpTys> struct NamedAnchors {
  static bool contains(Operation *op) { return isa<OpTys...>(op); }

  static Value recreate(OpBuilder &b, Operation *op, Value init) {
    Value wide;
    ((wide = wide ? wide : recreateAs<OpTys>(b, op, init)), ...);
    return wide;
  }

private:
  template <typename OpTy>
  static Value recreateAs(OpBuilder &b, Operation *op, Value init) {
    auto named = dyn_cast<OpTy>(op);
    if (!named)
      return Value();
    SmallVector<NamedAttribute> attrs;
    for (NamedAttribute a : op->getAttrs())
      if (a.getName() != "operandSegmentSizes")
        attrs.push_back(a);
    return OpTy::create(b, op->getLoc(), TypeRange{init.getType()},
                        named.getDpsInputs(), ValueRange{init}, attrs)
        .getResult(0);
  }
};

using Anchors =
    NamedAnchors<linalg::MatmulOp, linalg::BatchMatmulOp,
                 linalg::Conv1DNcwFcwOp, linalg::Conv2DNchwFchwOp,
                 linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNgchwGfchwOp,
                 linalg::Conv3DNcdhwFcdhwOp, linalg::DepthwiseConv2DNchwChwOp>;

/// A `linalg.generic` contraction (an Einsum's, a matmul with transposed
/// operands) again, into the f32 `init`: its body multiplies and adds the
/// operands extended to f32.
Value recreateContraction(OpBuilder &b, linalg::GenericOp op, Value init) {
  Type f32 = b.getF32Type();
  auto generic = linalg::GenericOp::create(
      b, op.getLoc(), TypeRange{init.getType()}, op.getDpsInputs(),
      ValueRange{init}, op.getIndexingMapsArray(),
      op.getIteratorTypesArray(),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        auto wide = [&](Value v) -> Value {
          return v.getType() == f32
                     ? v
                     : arith::ExtFOp::create(nb, loc, f32, v).getResult();
        };
        Value product =
            arith::MulFOp::create(nb, loc, wide(args[0]), wide(args[1]));
        linalg::YieldOp::create(
            nb, loc,
            arith::AddFOp::create(nb, loc, args[2], product).getResult());
      });
  return generic.getResult(0);
}

/// Whether `op` is a generic contraction of floats: two inputs multiplied
/// and added to the init (upstream's contraction interface checks the
/// body).
bool isFloatGenericContraction(Operation *op) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  return generic && generic.getNumDpsInputs() == 2 &&
         linalg::isaContractionOpInterface(generic) &&
         llvm::all_of(generic->getOperandTypes(), [](Type t) {
           return isa<FloatType>(getElementTypeOrSelf(t));
         });
}

struct AccumulateInF32 : hidet::impl::AccumulateInF32Base<AccumulateInF32> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> anchors;
    getOperation().walk([&](linalg::LinalgOp op) {
      if ((!Anchors::contains(op) && !isFloatGenericContraction(op)) ||
          !op.hasPureTensorSemantics() || op->getNumResults() != 1)
        return;
      Type elt = getElementTypeOrSelf(op->getResult(0).getType());
      if (elt.isF16() || elt.isBF16())
        anchors.push_back(op);
    });
    // 16-bit softmaxes: computed in f32 (as PyTorch computes them, and the
    // fused attention its rows) and rounded once.
    SmallVector<linalg::SoftmaxOp> softmaxes;
    getOperation().walk([&](linalg::SoftmaxOp op) {
      Type elt = getElementTypeOrSelf(op.getType(0));
      if (op.hasPureTensorSemantics() && (elt.isF16() || elt.isBF16()))
        softmaxes.push_back(op);
    });
    for (linalg::SoftmaxOp op : softmaxes) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Type elt = getElementTypeOrSelf(op.getType(0));
      Value in = convert(b, loc, op.getInput(), b.getF32Type());
      auto shape = cast<RankedTensorType>(in.getType()).getShape();
      Value init = tensor::EmptyOp::create(b, loc, shape, b.getF32Type());
      Value wide = linalg::SoftmaxOp::create(b, loc, in.getType(), in, init,
                                             op.getDimension())
                       .getResult()[0];
      op.getResult()[0].replaceAllUsesWith(convert(b, loc, wide, elt));
      op->erase();
    }
    for (linalg::LinalgOp op : anchors) {
      OpBuilder b(op);
      Location loc = op.getLoc();
      Type elt = getElementTypeOrSelf(op->getResult(0).getType());
      Value init = convert(b, loc, op.getDpsInits()[0], b.getF32Type());
      auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      Value wide = generic ? recreateContraction(b, generic, init)
                           : Anchors::recreate(b, op, init);
      op->getResult(0).replaceAllUsesWith(convert(b, loc, wide, elt));
      op->erase();
    }
  }
};

} // namespace
