//===- Builders.cpp - linalg and tensor building blocks -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "HostTensor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {

RankedTensorType tensorTypeOf(Value value) {
  return cast<RankedTensorType>(value.getType());
}

Value addValues(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::AddFOp::create(b, loc, x, y);
  return arith::AddIOp::create(b, loc, x, y);
}

Value mulValues(OpBuilder &b, Location loc, Value x, Value y) {
  if (isa<FloatType>(x.getType()))
    return arith::MulFOp::create(b, loc, x, y);
  return arith::MulIOp::create(b, loc, x, y);
}

Value maxValues(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MaximumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MaxUIOp::create(b, loc, x, y);
  return arith::MaxSIOp::create(b, loc, x, y);
}

Value minValues(OpBuilder &b, Location loc, Value x, Value y, bool isUnsigned) {
  if (isa<FloatType>(x.getType()))
    return arith::MinimumFOp::create(b, loc, x, y);
  if (isUnsigned)
    return arith::MinUIOp::create(b, loc, x, y);
  return arith::MinSIOp::create(b, loc, x, y);
}

std::optional<int64_t> normalizeAxis(int64_t axis, int64_t rank) {
  // A scalar has no axis: every op with an axis attribute needs rank >= 1.
  if (axis < -rank || axis >= rank)
    return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::optional<SmallVector<int64_t>>
broadcastShapes(ArrayRef<SmallVector<int64_t>> shapes) {
  size_t rank = 0;
  for (const auto &s : shapes)
    rank = std::max(rank, s.size());
  SmallVector<int64_t> out(rank, 1);
  for (const auto &s : shapes) {
    size_t offset = rank - s.size();
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t &o = out[offset + i];
      if (s[i] == o || s[i] == 1)
        continue;
      if (o != 1)
        return std::nullopt;
      o = s[i];
    }
  }
  return out;
}

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elem) {
  return tensor::EmptyOp::create(b, loc, shape, elem);
}

Value scalarConstant(OpBuilder &b, Location loc, Type type, double value) {
  if (auto ft = dyn_cast<FloatType>(type))
    return arith::ConstantOp::create(b, loc, b.getFloatAttr(ft, value));
  // Integers saturate to the type's range (NaN as 0), as folded values do.
  unsigned width = type.getIntOrFloatBitWidth();
  int64_t v = width == 1 ? value != 0 && !std::isnan(value)
                         : saturatingInt(value, width);
  return arith::ConstantOp::create(b, loc, b.getIntegerAttr(type, v));
}

Value zeroFilled(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                 Type elem) {
  return filledTensor(b, loc, shape, scalarConstant(b, loc, elem, 0));
}

Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value scalar) {
  Value empty = emptyTensor(b, loc, shape, scalar.getType());
  return linalg::FillOp::create(b, loc, scalar, empty).getResult(0);
}

/// Collapses away the dims of `value` that are 1 where `outShape` (aligned
/// at the right) is not, and returns the map from the output's dims.
static std::pair<Value, AffineMap>
alignForBroadcast(OpBuilder &b, Location loc, Value value,
                  ArrayRef<int64_t> outShape) {
  ArrayRef<int64_t> shape = tensorTypeOf(value).getShape();
  int64_t rank = outShape.size();
  int64_t offset = rank - shape.size();
  SmallVector<AffineExpr> exprs;
  SmallVector<ReassociationIndices> groups;
  ReassociationIndices pending;
  SmallVector<int64_t> keptShape;
  for (int64_t j = 0; j < static_cast<int64_t>(shape.size()); ++j) {
    pending.push_back(j);
    bool dropped = shape[j] == 1 && outShape[offset + j] != 1;
    if (dropped)
      continue;
    exprs.push_back(b.getAffineDimExpr(offset + j));
    keptShape.push_back(shape[j]);
    groups.push_back(pending);
    pending.clear();
  }
  if (!pending.empty() && !groups.empty())
    groups.back().append(pending.begin(), pending.end());
  if (keptShape.size() != shape.size()) {
    auto type =
        RankedTensorType::get(keptShape, tensorTypeOf(value).getElementType());
    value = tensor::CollapseShapeOp::create(b, loc, type, value, groups);
  }
  return {value, AffineMap::get(rank, 0, exprs, b.getContext())};
}

Value buildElementwise(OpBuilder &b, Location loc, ArrayRef<Operand> operands,
                       ArrayRef<int64_t> outShape, Type outElem, BodyFn body) {
  int64_t rank = outShape.size();
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (const Operand &op : operands) {
    if (!op.tensor)
      continue;
    auto [value, map] = alignForBroadcast(b, loc, op.tensor, outShape);
    inputs.push_back(value);
    maps.push_back(map);
  }
  maps.push_back(b.getMultiDimIdentityMap(rank));
  Value init = emptyTensor(b, loc, outShape, outElem);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> scalars;
        unsigned next = 0;
        for (const Operand &op : operands)
          scalars.push_back(op.tensor ? args[next++] : op.scalar);
        linalg::YieldOp::create(nb, nloc, body(nb, nloc, scalars));
      });
  return generic.getResult(0);
}

Value buildReduction(OpBuilder &b, Location loc, Value input,
                     ArrayRef<int64_t> axes, Value init, BodyFn combine) {
  ArrayRef<int64_t> shape = tensorTypeOf(input).getShape();
  int64_t rank = shape.size();
  // Adjacent reduced axes are one axis of the collapsed (contiguous)
  // input: GlobalAveragePool's H and W become one innermost axis, which the
  // GPU schedulers reduce a warp per output with vector loads, rather than
  // a thread per output over two loops.
  SmallVector<ReassociationIndices> groups;
  SmallVector<int64_t> merged;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = llvm::is_contained(axes, i);
    if (reduced && !groups.empty() && !merged.empty() &&
        merged.back() == static_cast<int64_t>(groups.size()) - 1 &&
        llvm::is_contained(axes, i - 1)) {
      groups.back().push_back(i);
      continue;
    }
    if (reduced)
      merged.push_back(groups.size());
    groups.push_back({i});
  }
  if (static_cast<int64_t>(groups.size()) < rank) {
    SmallVector<int64_t> collapsedShape;
    for (const ReassociationIndices &group : groups) {
      int64_t size = 1;
      for (int64_t i : group)
        size *= shape[i];
      collapsedShape.push_back(size);
    }
    Value collapsed = tensor::CollapseShapeOp::create(
        b, loc,
        RankedTensorType::get(collapsedShape,
                              tensorTypeOf(input).getElementType()),
        input, groups);
    return buildReduction(b, loc, collapsed, merged, init, combine);
  }
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t i = 0; i < rank; ++i) {
    bool reduced = llvm::is_contained(axes, i);
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced) {
      outShape.push_back(shape[i]);
      outExprs.push_back(b.getAffineDimExpr(i));
    }
  }
  Value acc = filledTensor(b, loc, outShape, init);
  SmallVector<AffineMap> maps = {
      b.getMultiDimIdentityMap(rank),
      AffineMap::get(rank, 0, outExprs, b.getContext())};
  auto generic = linalg::GenericOp::create(
      b, loc, acc.getType(), ValueRange{input}, ValueRange{acc}, maps,
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        linalg::YieldOp::create(nb, nloc, combine(nb, nloc, args));
      });
  return generic.getResult(0);
}

Value reshape(OpBuilder &b, Location loc, Value value,
              ArrayRef<int64_t> shape) {
  RankedTensorType type = tensorTypeOf(value);
  if (type.getShape() == shape)
    return value;
  auto target = RankedTensorType::get(shape, type.getElementType());
  int64_t rank = shape.size();
  if (rank < type.getRank()) {
    if (auto groups =
            getReassociationIndicesForCollapse(type.getShape(), shape))
      return tensor::CollapseShapeOp::create(b, loc, target, value, *groups);
  } else if (rank > type.getRank()) {
    if (auto groups =
            getReassociationIndicesForCollapse(shape, type.getShape()))
      return tensor::ExpandShapeOp::create(b, loc, target, value, *groups);
  }
  // Through 1-D (or rank 0 when either side is a scalar).
  int64_t n = type.getNumElements();
  if (type.getRank() == 0 || shape.empty()) {
    Value flat = value;
    if (type.getRank() != 0)
      flat = tensor::CollapseShapeOp::create(
          b, loc, RankedTensorType::get({}, type.getElementType()), value,
          SmallVector<ReassociationIndices>{});
    if (shape.empty())
      return flat;
    return tensor::ExpandShapeOp::create(b, loc, target, flat,
                                         SmallVector<ReassociationIndices>{});
  }
  auto flatType = RankedTensorType::get({n}, type.getElementType());
  ReassociationIndices all;
  for (int64_t i = 0; i < type.getRank(); ++i)
    all.push_back(i);
  Value flat = tensor::CollapseShapeOp::create(
      b, loc, flatType, value, SmallVector<ReassociationIndices>{all});
  ReassociationIndices allOut;
  for (size_t i = 0; i < shape.size(); ++i)
    allOut.push_back(i);
  return tensor::ExpandShapeOp::create(
      b, loc, target, flat, SmallVector<ReassociationIndices>{allOut});
}

Value transpose(OpBuilder &b, Location loc, Value value,
                ArrayRef<int64_t> perm) {
  RankedTensorType type = tensorTypeOf(value);
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity &= perm[i] == static_cast<int64_t>(i);
  if (identity)
    return value;
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  Value init = emptyTensor(b, loc, shape, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

Value convertScalar(OpBuilder &b, Location loc, Value value, Type to,
                    bool srcUnsigned, bool dstUnsigned) {
  Type from = value.getType();
  if (from == to)
    return value;
  bool fromFloat = isa<FloatType>(from), toFloat = isa<FloatType>(to);
  srcUnsigned |= from.isInteger(1);
  if (to.isInteger(1)) {
    Value zero = scalarConstant(b, loc, from, 0);
    if (fromFloat)
      return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, value,
                                   zero);
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, value, zero);
  }
  if (fromFloat && toFloat) {
    if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
      return arith::ExtFOp::create(b, loc, to, value);
    if (from.getIntOrFloatBitWidth() > to.getIntOrFloatBitWidth())
      return arith::TruncFOp::create(b, loc, to, value);
    // f16 <-> bf16: through f32.
    Value wide = arith::ExtFOp::create(b, loc, b.getF32Type(), value);
    return arith::TruncFOp::create(b, loc, to, wide);
  }
  if (fromFloat) {
    if (dstUnsigned)
      return arith::FPToUIOp::create(b, loc, to, value);
    return arith::FPToSIOp::create(b, loc, to, value);
  }
  if (toFloat) {
    if (srcUnsigned)
      return arith::UIToFPOp::create(b, loc, to, value);
    return arith::SIToFPOp::create(b, loc, to, value);
  }
  unsigned fw = from.getIntOrFloatBitWidth(), tw = to.getIntOrFloatBitWidth();
  if (fw > tw)
    return arith::TruncIOp::create(b, loc, to, value);
  if (srcUnsigned)
    return arith::ExtUIOp::create(b, loc, to, value);
  return arith::ExtSIOp::create(b, loc, to, value);
}

Value convertTensor(OpBuilder &b, Location loc, Value value, Type elem,
                    bool srcUnsigned) {
  RankedTensorType type = tensorTypeOf(value);
  if (type.getElementType() == elem)
    return value;
  return buildElementwise(b, loc, Operand{value, {}}, type.getShape(), elem,
                          [&](OpBuilder &nb, Location nloc, ValueRange args) {
                            return convertScalar(nb, nloc, args[0], elem,
                                                 srcUnsigned, false);
                          });
}

Value buildArgReduce(OpBuilder &b, Location loc, Value input, int64_t axis,
                     bool isMax, bool last) {
  RankedTensorType type = tensorTypeOf(input);
  Type elem = type.getElementType();
  ArrayRef<int64_t> shape = type.getShape();
  bool isF = isa<FloatType>(elem);
  int64_t rank = shape.size();
  SmallVector<int64_t> outShape;
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iterators;
  for (int64_t d = 0; d < rank; ++d) {
    bool reduced = d == axis;
    iterators.push_back(reduced ? utils::IteratorType::reduction
                                : utils::IteratorType::parallel);
    if (!reduced) {
      outShape.push_back(shape[d]);
      outExprs.push_back(b.getAffineDimExpr(d));
    }
  }
  Value best = filledTensor(
      b, loc, outShape,
      isF ? scalarConstant(b, loc, elem, isMax ? -INFINITY : INFINITY)
          : arith::ConstantOp::create(
                b, loc,
                b.getIntegerAttr(elem, isMax
                                           ? APInt::getSignedMinValue(
                                                 elem.getIntOrFloatBitWidth())
                                           : APInt::getSignedMaxValue(
                                                 elem.getIntOrFloatBitWidth())))
                .getResult());
  Value index =
      filledTensor(b, loc, outShape, scalarConstant(b, loc, b.getI64Type(), 0));
  AffineMap outMap = AffineMap::get(rank, 0, outExprs, b.getContext());
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank), outMap,
                                 outMap};
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{best.getType(), index.getType()}, ValueRange{input},
      ValueRange{best, index}, maps, iterators,
      [&](OpBuilder &nb, Location l, ValueRange v) {
        Value i = arith::IndexCastOp::create(
            nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
        Value better;
        if (isF)
          better =
              arith::CmpFOp::create(nb, l,
                                    isMax ? (last ? arith::CmpFPredicate::OGE
                                                  : arith::CmpFPredicate::OGT)
                                          : (last ? arith::CmpFPredicate::OLE
                                                  : arith::CmpFPredicate::OLT),
                                    v[0], v[1]);
        else
          better =
              arith::CmpIOp::create(nb, l,
                                    isMax ? (last ? arith::CmpIPredicate::sge
                                                  : arith::CmpIPredicate::sgt)
                                          : (last ? arith::CmpIPredicate::sle
                                                  : arith::CmpIPredicate::slt),
                                    v[0], v[1]);
        Value nv = arith::SelectOp::create(nb, l, better, v[0], v[1]);
        Value ni = arith::SelectOp::create(nb, l, better, i, v[2]);
        linalg::YieldOp::create(nb, l, ValueRange{nv, ni});
      });
  return generic.getResult(1);
}

} // namespace hidet::onnx_import
