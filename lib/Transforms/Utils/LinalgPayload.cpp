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

/// Clones the payload of `op` (all but the terminator) and returns the
/// yielded values. `linalg.index` becomes the corresponding loop index. In
/// vector mode (`width` > 1) every op that takes a vector operand is rebuilt
/// on vectors, broadcasting its scalar operands.
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
    if (width == 1 || !anyVector) {
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
