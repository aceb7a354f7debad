//===- MergeProjections.cpp - Sibling matmuls of one input into one -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-merge-projections`: the linalg.matmul ops of
// one function that read the same left operand and a constant right operand
// each (attention's query, key and value projections; a gated MLP's gate
// and up projections) become one matmul of the constants side by side, and
// each old result a slice of the new one. Where every member's result is
// only read, through an optional expand_shape, by the addition of a
// constant bias along its columns, the biases are merged too and the slices
// are taken after the one addition.
//
// The weights must be constants here: a pass cannot concatenate function
// arguments once. hidet-compile runs this before constants become weights
// (hidet-constants-to-weights), also for libraries whose weights live in a
// file of their own.
//
//===----------------------------------------------------------------------===//

#include "../Utils/LinalgPayload.h"

#include "Hidet/Runtime/ManifestTypes.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace hidet {
#define GEN_PASS_DEF_MERGEPROJECTIONS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

using hidet::constantBytes;

/// A float constant's value, when it is one with its bytes at hand.
ElementsAttr floatConstant(Value v) {
  ElementsAttr value;
  if (!matchPattern(v, m_Constant(&value)) ||
      !isa<FloatType>(value.getElementType()) || !constantBytes(value))
    return {};
  return value;
}

/// One projection: `matmul` = x * weight from a zero fill, and optionally
/// `bias` = the addition of a constant along the columns that alone reads
/// it (through `expand`, a tensor.expand_shape, or directly).
struct Projection {
  linalg::MatmulOp matmul;
  ElementsAttr weight;
  tensor::ExpandShapeOp expand;
  linalg::GenericOp add;
  ElementsAttr bias;
};

/// Whether `op` starts from zeros: its init a linalg.fill of +0.0.
bool startsFromZero(linalg::MatmulOp op) {
  auto fill = op.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  FloatAttr zero;
  return fill &&
         matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&zero)) &&
         zero.getValue().isPosZero();
}

/// The addition of a constant bias along the last dimension that alone
/// reads `v`: a generic over v's shape with v through the identity and the
/// bias through the last loop, yielding their sum; fills `p`.
bool matchBias(Value v, Projection &p) {
  if (!v.hasOneUse())
    return false;
  auto add = dyn_cast<linalg::GenericOp>(*v.getUsers().begin());
  if (!add || add.getNumDpsInputs() != 2 || add.getNumDpsInits() != 1 ||
      add.getNumParallelLoops() != add.getNumLoops() ||
      add.getNumResults() != 1)
    return false;
  unsigned rank = add.getNumLoops();
  OpOperand *x = nullptr, *bias = nullptr;
  for (OpOperand *in : add.getDpsInputOperands())
    (in->get() == v ? x : bias) = in;
  if (!x || !bias || x == bias)
    return false;
  MLIRContext *ctx = add.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap column =
      AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx);
  if (add.getMatchingIndexingMap(x) != identity ||
      add.getMatchingIndexingMap(bias) != column ||
      add.getIndexingMapMatchingResult(add->getResult(0)) != identity)
    return false;
  if (!hidet::kernel::isBinaryPayload<arith::AddFOp>(add, /*commutative=*/true))
    return false;
  p.bias = floatConstant(bias->get());
  if (!p.bias)
    return false;
  p.add = add;
  return true;
}

/// `parts` side by side along their last dimension, as one constant of
/// `type`: row r of the result is rows r of the parts, in order.
ElementsAttr concatenate(ArrayRef<ElementsAttr> parts, RankedTensorType type,
                         StringRef key) {
  int64_t bytes = type.getElementTypeBitWidth() / 8;
  int64_t rows = type.getNumElements() / type.getShape().back();
  std::string data;
  data.reserve(type.getNumElements() * bytes);
  for (int64_t r = 0; r < rows; ++r)
    for (ElementsAttr part : parts) {
      int64_t row = cast<ShapedType>(part.getType()).getShape().back() * bytes;
      ArrayRef<char> all = *constantBytes(part);
      data.append(all.data() + r * row, row);
    }
  auto blob = HeapAsmResourceBlob::allocateAndCopyWithAlign(
      ArrayRef<char>(data.data(), data.size()), bytes);
  return DenseResourceElementsAttr::get(type, key, std::move(blob));
}

/// The name the merged constants are keyed by: the first weight's resource
/// key, where it has one.
std::string mergedKey(ElementsAttr weight, StringRef what) {
  std::string base = "merged";
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(weight))
    base = resource.getRawHandle().getKey().str();
  return base + "_" + what.str();
}

/// After its matmul is gone: `fill` is erased when nothing else reads it,
/// or moved to its first remaining reader (a later matmul that shared it),
/// so that it stays beside the contraction it starts.
void releaseFill(linalg::FillOp fill) {
  Value result = fill.getResult(0);
  if (result.use_empty()) {
    Value init = fill.getDpsInitOperand(0)->get();
    fill->erase();
    if (init.use_empty())
      if (Operation *def = init.getDefiningOp<tensor::EmptyOp>())
        def->erase();
    return;
  }
  Operation *first = nullptr;
  for (Operation *user : result.getUsers())
    if (user->getBlock() == fill->getBlock() &&
        (!first || user->isBeforeInBlock(first)))
      first = user;
  if (first && fill->isBeforeInBlock(first))
    fill->moveBefore(first);
}

/// Replaces the group's matmuls (and biases, when every member has one)
/// by one of each and slices of the result.
void merge(MutableArrayRef<Projection> group) {
  Projection &first = group.front();
  bool biased = llvm::all_of(group, [](Projection &p) {
    return p.add && p.bias &&
           p.bias.getElementType() == p.weight.getElementType();
  });
  // With biases, every member reaches its addition the same way.
  if (biased)
    biased = llvm::all_of(group, [&](Projection &p) {
      return static_cast<bool>(p.expand) == static_cast<bool>(first.expand) &&
             (!p.expand ||
              p.expand.getReassociationIndices() ==
                  first.expand.getReassociationIndices());
    });
  // The new ops go before the first member's matmul; each member's value
  // is read after its own op, so after the first.
  linalg::MatmulOp anchor = first.matmul;
  for (Projection &p : group)
    if (p.matmul->isBeforeInBlock(anchor))
      anchor = p.matmul;
  OpBuilder b(anchor);
  Location loc = first.matmul.getLoc();
  auto weightType = cast<RankedTensorType>(first.weight.getType());
  int64_t k = weightType.getShape()[0], n = 0;
  SmallVector<int64_t> offsets;
  SmallVector<ElementsAttr> weights, biases;
  for (Projection &p : group) {
    offsets.push_back(n);
    n += cast<ShapedType>(p.weight.getType()).getShape()[1];
    weights.push_back(p.weight);
    biases.push_back(p.bias);
  }
  Type elt = weightType.getElementType();
  auto mergedType = RankedTensorType::get({k, n}, elt);
  Value weight = arith::ConstantOp::create(
      b, loc, cast<TypedAttr>(concatenate(
                  weights, mergedType, mergedKey(first.weight, "weight"))));
  Value x = first.matmul.getDpsInputOperand(0)->get();
  auto resultType = cast<RankedTensorType>(first.matmul.getResult(0).getType());
  int64_t m = resultType.getShape()[0];
  auto outType = RankedTensorType::get({m, n}, resultType.getElementType());
  auto fill = first.matmul.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
  Value init = linalg::FillOp::create(
                   b, loc, fill.getDpsInputOperand(0)->get(),
                   tensor::EmptyOp::create(b, loc, outType.getShape(),
                                           outType.getElementType())
                       .getResult())
                   .getResult(0);
  Value product =
      linalg::MatmulOp::create(b, loc, TypeRange{outType}, ValueRange{x, weight},
                               ValueRange{init})
          .getResult(0);

  // The value each member's slice is taken from: the product, or, with
  // biases, the product (expanded as the members expand theirs) plus the
  // merged bias.
  Value whole = product;
  if (biased) {
    if (first.expand) {
      SmallVector<int64_t> shape(first.expand.getResultType().getShape());
      shape.back() = n;
      whole = tensor::ExpandShapeOp::create(
          b, loc, RankedTensorType::get(shape, outType.getElementType()),
          whole, first.expand.getReassociationIndices());
    }
    auto wholeType = cast<RankedTensorType>(whole.getType());
    auto biasType = RankedTensorType::get({n}, elt);
    Value bias = arith::ConstantOp::create(
        b, loc, cast<TypedAttr>(concatenate(biases, biasType,
                                            mergedKey(first.weight, "bias"))));
    unsigned rank = wholeType.getRank();
    MLIRContext *ctx = b.getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap column =
        AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx), ctx);
    Value empty = tensor::EmptyOp::create(b, loc, wholeType.getShape(),
                                          wholeType.getElementType());
    whole = linalg::GenericOp::create(
                b, first.add.getLoc(), TypeRange{wholeType},
                ValueRange{whole, bias}, ValueRange{empty},
                ArrayRef<AffineMap>{identity, column, identity},
                SmallVector<utils::IteratorType>(rank,
                                                 utils::IteratorType::parallel),
                [](OpBuilder &nb, Location l, ValueRange args) {
                  linalg::YieldOp::create(
                      nb, l,
                      arith::AddFOp::create(nb, l, args[0], args[1])
                          .getResult());
                })
                .getResult(0);
  }
  auto wholeType = cast<RankedTensorType>(whole.getType());
  for (auto [p, offset] : llvm::zip_equal(group, offsets)) {
    Value old = biased ? p.add->getResult(0) : p.matmul.getResult(0);
    auto oldType = cast<RankedTensorType>(old.getType());
    unsigned rank = wholeType.getRank();
    SmallVector<OpFoldResult> starts(rank, b.getIndexAttr(0)),
        strides(rank, b.getIndexAttr(1)), sizes;
    starts.back() = b.getIndexAttr(offset);
    for (int64_t d : oldType.getShape())
      sizes.push_back(b.getIndexAttr(d));
    Value slice = tensor::ExtractSliceOp::create(b, p.matmul.getLoc(), oldType,
                                                 whole, starts, sizes, strides);
    old.replaceAllUsesWith(slice);
  }
  for (Projection &p : group) {
    if (biased) {
      p.add->erase();
      if (p.expand)
        p.expand->erase();
    }
    auto fill = p.matmul.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    p.matmul->erase();
    releaseFill(fill);
  }
}

/// Whether an elementwise computation combines the values of two members
/// (a gated MLP's silu(gate) * up, as elementwise ops on both): apart, it
/// becomes the epilogue of the second GEMM, which reads the first's
/// result; merged, it would read two column ranges of one result and be a
/// kernel of its own, and the merged GEMM's output would go to memory and
/// back.
bool combined(ArrayRef<Projection> group) {
  llvm::DenseMap<Operation *, unsigned> reached;
  for (const Projection &p : group) {
    // The elementwise ops that the member's value flows into.
    llvm::SmallPtrSet<Operation *, 16> mine;
    SmallVector<Value> worklist = {p.matmul->getResult(0)};
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      for (Operation *user : v.getUsers()) {
        auto generic = dyn_cast<linalg::GenericOp>(user);
        bool flows = isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user) ||
                     (generic && generic.getNumParallelLoops() ==
                                     generic.getNumLoops());
        if (!flows || !mine.insert(user).second)
          continue;
        for (Value r : user->getResults())
          worklist.push_back(r);
      }
    }
    for (Operation *op : mine)
      if (isa<linalg::GenericOp>(op) && ++reached[op] > 1)
        return true;
  }
  return false;
}

struct MergeProjectionsPass
    : public hidet::impl::MergeProjectionsBase<MergeProjectionsPass> {
  void runOnOperation() final {
    // Projections by (x, K, element types), in program order.
    llvm::MapVector<std::tuple<Value, int64_t, Type, Type>,
                    SmallVector<Projection>>
        groups;
    getOperation().walk([&](linalg::MatmulOp op) {
      if (!op.hasPureTensorSemantics() || !startsFromZero(op) ||
          op.hasUserDefinedMaps())
        return;
      Projection p{op, floatConstant(op.getDpsInputOperand(1)->get()), {}, {},
                   {}};
      if (!p.weight || floatConstant(op.getDpsInputOperand(0)->get()))
        return;
      Value result = op.getResult(0);
      if (result.hasOneUse())
        if (auto expand =
                dyn_cast<tensor::ExpandShapeOp>(*result.getUsers().begin()))
          if (matchBias(expand.getResult(), p))
            p.expand = expand;
      if (!p.add)
        matchBias(result, p);
      auto weightType = cast<ShapedType>(p.weight.getType());
      Type out = cast<ShapedType>(result.getType()).getElementType();
      groups[{op.getDpsInputOperand(0)->get(), weightType.getShape()[0],
              weightType.getElementType(), out}]
          .push_back(p);
    });
    for (auto &entry : groups)
      if (entry.second.size() >= 2 && !combined(entry.second))
        merge(entry.second);
  }
};

} // namespace
