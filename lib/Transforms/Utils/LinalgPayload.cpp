//===- LinalgPayload.cpp - Linalg ops read into kernels -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Static loop extents and element types of linalg ops, operand indexing
// through indexing maps, and payload cloning (scalar or on vectors).
//
//===----------------------------------------------------------------------===//

#include "LinalgPayload.h"
#include "KernelBuilder.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;

namespace hidet {
namespace kernel {

/// Static loop extents, or failure for dynamic shapes.
FailureOr<SmallVector<int64_t>> getStaticRanges(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();
  return ranges;
}

/// Element type of an operand (the type itself for scalars).
Type elementTypeOf(Value v) {
  if (auto shaped = dyn_cast<ShapedType>(v.getType()))
    return shaped.getElementType();
  return v.getType();
}

/// Whether every op of the payload can be rebuilt on vectors.
bool hasElementwisePayload(linalg::LinalgOp op) {
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
    return OpTrait::hasElementwiseMappableTraits(&o) ||
           isa<arith::ConstantOp>(o);
  });
}

/// Indices of an operand for the loop indices `ivs`, by its indexing map.
SmallVector<Value> applyIndexingMap(OpBuilder &b, Location loc, AffineMap map,
                                    ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[d.getPosition()]);
    else if (auto c = dyn_cast<AffineConstantExpr>(e))
      indices.push_back(cst(b, loc, c.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, e), ivs));
  }
  return indices;
}

// Upstream's reassociation helpers (getReassociationIndicesForReshape)
// handle a pure collapse or expansion only; a reshape in an epilogue chain
// may do both ([6, 4] -> [3, 8]), so the groups are found here.
SmallVector<Value> reshapedIndex(OpBuilder &b, Location loc, ValueRange index,
                                 ArrayRef<int64_t> from, ArrayRef<int64_t> to) {
  if (from == to)
    return SmallVector<Value>(index);
  auto flags =
      arith::IntegerOverflowFlags::nuw | arith::IntegerOverflowFlags::nsw;
  SmallVector<Value> result;
  size_t i = 0, j = 0;
  while (i < from.size() || j < to.size()) {
    // The next group: from[i0, i) and to[j0, j) of equal products. Unit
    // extents left on one side close the group on the other.
    size_t i0 = i, j0 = j;
    int64_t pf = 1, pt = 1;
    do {
      if (j < to.size() && (pt < pf || i == from.size()))
        pt *= to[j++];
      else if (i < from.size())
        pf *= from[i++];
      else
        break;
    } while (pf != pt || (i == i0 && i < from.size()) ||
             (j == j0 && j < to.size()));
    assert(pf == pt && "a reshape keeps the number of elements");
    if (i - i0 == 1 && j - j0 == 1) {
      result.push_back(index[i0]);
      continue;
    }
    Value flat = i0 < i ? index[i0] : cst(b, loc, 0);
    for (size_t d = i0 + 1; d < i; ++d) {
      flat = arith::MulIOp::create(b, loc, flat, cst(b, loc, from[d]), flags);
      flat = arith::AddIOp::create(b, loc, flat, index[d], flags);
    }
    int64_t stride = pt;
    for (size_t d = j0; d < j; ++d) {
      stride /= to[d];
      Value v = flat;
      if (d != j0)
        v = arith::RemUIOp::create(b, loc, v, cst(b, loc, stride * to[d]));
      if (stride != 1)
        v = arith::DivUIOp::create(b, loc, v, cst(b, loc, stride));
      result.push_back(v);
    }
  }
  return result;
}

/// Clones the payload of `op` (all but the terminator) and returns the
/// yielded values. `linalg.index` becomes the corresponding loop index.
/// Every op that takes a vector operand (of `width` elements) is rebuilt on
/// vectors, broadcasting its scalar operands.
SmallVector<Value> clonePayload(OpBuilder &b, Location loc, linalg::LinalgOp op,
                                ValueRange args, ValueRange ivs,
                                int64_t width) {
  Block *block = op.getBlock();
  IRMapping map;
  map.map(block->getArguments(), args);
  for (Operation &inner : block->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    bool anyVector = llvm::any_of(inner.getOperands(), [&](Value v) {
      return isa<VectorType>(map.lookupOrDefault(v).getType());
    });
    // A vector of one element (a K of 1 loaded as vector<1xf16>) is still
    // a vector: only ops on scalars are cloned as they are.
    if (!anyVector) {
      b.clone(inner, map);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      Value m = map.lookupOrDefault(v);
      if (!isa<VectorType>(m.getType()))
        m = vector::BroadcastOp::create(
            b, loc, VectorType::get({width}, m.getType()), m);
      operands.push_back(m);
    }
    SmallVector<Type> types;
    for (Type t : inner.getResultTypes())
      types.push_back(VectorType::get({width}, t));
    OperationState state(loc, inner.getName(), operands, types,
                         inner.getAttrs());
    Operation *vectorOp = b.create(state);
    map.map(inner.getResults(), vectorOp->getResults());
  }
  SmallVector<Value> yielded;
  for (Value v : block->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

} // namespace kernel
} // namespace hidet
