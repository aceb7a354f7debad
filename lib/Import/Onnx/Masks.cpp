//===- Masks.cpp - Ops driven by element indices --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Trilu, EyeLike, OneHot, Hardmax and CumSum: each element is chosen by
// comparing its indices (linalg.index), so each is one linalg.generic
// (CumSum with an extra reduction dimension over the scanned axis).
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hidet::onnx_import {
namespace {

Value index(OpBuilder &b, Location loc, int64_t d) {
  return linalg::IndexOp::create(b, loc, d);
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

LogicalResult convertTrilu(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (x.rank() < 2)
    return ctx.emitError() << "Trilu needs a rank of 2 or more";
  int64_t k = 0;
  if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> kv = ctx.constantInts(1);
    if (failed(kv))
      return failure();
    k = (*kv)[0];
  }
  bool upper = ctx.attrInt("upper", 1) != 0;
  int64_t r = x.rank();
  Type elem = ctx.getImporter().elementType(x.dtype);
  Value zero = scalarConstant(ctx.builder(), ctx.getLoc(), elem, 0);
  Value y = buildElementwise(
      ctx.builder(), ctx.getLoc(), Operand{ctx.value(0), {}}, x.shape, elem,
      [&](OpBuilder &b, Location l, ValueRange v) -> Value {
        // Keep x[..., i, j] where j - i >= k (upper) or j - i <= k (lower).
        Value diff =
            arith::SubIOp::create(b, l, index(b, l, r - 1), index(b, l, r - 2));
        Value keep = arith::CmpIOp::create(
            b, l, upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
            diff, indexConst(b, l, k));
        return arith::SelectOp::create(b, l, keep, v[0], zero);
      });
  ctx.setOutput(0, y, x.dtype);
  return success();
}

LogicalResult convertEyeLike(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (x.rank() != 2)
    return ctx.emitError() << "EyeLike needs a 2-D input";
  DType dtype =
      static_cast<DType>(ctx.attrInt("dtype", static_cast<int64_t>(x.dtype)));
  if (!ctx.getImporter().elementType(dtype))
    return ctx.unsupported(Twine("of ") + dtypeName(dtype));
  int64_t k = ctx.attrInt("k", 0);
  HostTensor eye = HostTensor::zeros(dtype, x.shape);
  for (int64_t i = 0; i < x.shape[0]; ++i)
    if (i + k >= 0 && i + k < x.shape[1])
      eye.setDouble(i * x.shape[1] + i + k, 1.0);
  ctx.setOutput(0, std::move(eye));
  return success();
}

LogicalResult convertOneHot(NodeContext &ctx) {
  const TensorValue &indices = ctx.input(0);
  const HostTensor *depthT = ctx.requireConstant(1);
  const HostTensor *values = depthT ? ctx.requireConstant(2) : nullptr;
  if (!values)
    return failure();
  int64_t depth = depthT->getInt(0);
  int64_t outRank = indices.rank() + 1;
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", -1), outRank);
  if (!axis || depth <= 0)
    return ctx.emitError() << "OneHot axis or depth out of range";
  SmallVector<int64_t> shape(indices.shape);
  shape.insert(shape.begin() + *axis, depth);
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Importer &imp = ctx.getImporter();
  Type elem = imp.elementType(values->getDType());
  Value off = scalarConstant(b, loc, elem, values->getDouble(0));
  Value on = scalarConstant(b, loc, elem, values->getDouble(1));
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < outRank; ++d)
    if (d != *axis)
      exprs.push_back(b.getAffineDimExpr(d));
  Value init = emptyTensor(b, loc, shape, elem);
  SmallVector<AffineMap> maps = {
      AffineMap::get(outRank, 0, exprs, b.getContext()),
      b.getMultiDimIdentityMap(outRank)};
  SmallVector<utils::IteratorType> iterators(outRank,
                                             utils::IteratorType::parallel);
  bool isF = isFloat(indices.dtype);
  Value y =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{ctx.value(0)}, ValueRange{init},
          maps, iterators,
          [&](OpBuilder &nb, Location l, ValueRange v) {
            Value k = v[0];
            k = isF ? arith::FPToSIOp::create(nb, l, nb.getI64Type(), k)
                          .getResult()
                    : convertScalar(nb, l, k, nb.getI64Type(), false, false);
            // Negative indices count from the end.
            Value d =
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(depth));
            Value neg = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, k,
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0)));
            k = arith::SelectOp::create(nb, l, neg,
                                        arith::AddIOp::create(nb, l, k, d), k);
            Value i = arith::IndexCastOp::create(nb, l, nb.getI64Type(),
                                                 index(nb, l, *axis));
            Value hit =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, k);
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, hit, on, off).getResult());
          })
          .getResult(0);
  ctx.setOutput(0, y, values->getDType());
  return success();
}

LogicalResult convertHardmax(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (ctx.opset() < 13)
    return ctx.unsupported("before opset 13 (2-D coercion)");
  std::optional<int64_t> axis =
      normalizeAxis(ctx.attrInt("axis", -1), x.rank());
  if (!axis)
    return ctx.emitError() << "Hardmax axis out of range";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Value arg = buildArgReduce(b, loc, ctx.value(0), *axis, /*isMax=*/true,
                             /*last=*/false);
  SmallVector<int64_t> kept(x.shape);
  kept[*axis] = 1;
  arg = reshape(b, loc, arg, kept);
  Type elem = ctx.getImporter().elementType(x.dtype);
  Value y = buildElementwise(
      b, loc, {Operand{ctx.value(0), {}}, Operand{arg, {}}}, x.shape, elem,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value i = arith::IndexCastOp::create(nb, l, nb.getI64Type(),
                                             index(nb, l, *axis));
        Value hit =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, v[1]);
        return arith::SelectOp::create(nb, l, hit,
                                       scalarConstant(nb, l, elem, 1),
                                       scalarConstant(nb, l, elem, 0));
      });
  ctx.setOutput(0, y, x.dtype);
  return success();
}

/// y[..., i, ...] = sum of x[..., j, ...] over j <= i (j < i when
/// exclusive; j >= i, j > i when reversed), as a reduction over an extra
/// dimension j.
LogicalResult convertCumSum(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  FailureOr<SmallVector<int64_t>> axisV = ctx.constantInts(1);
  if (failed(axisV))
    return failure();
  int64_t rank = x.rank();
  std::optional<int64_t> axis = normalizeAxis((*axisV)[0], rank);
  if (!axis)
    return ctx.emitError() << "CumSum axis out of range";
  bool exclusive = ctx.attrInt("exclusive", 0) != 0;
  bool reverse = ctx.attrInt("reverse", 0) != 0;
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  Value zero = scalarConstant(b, loc, elem, 0);
  Value acc = filledTensor(b, loc, x.shape, zero);
  // Dims: the output's, then j (the scanned source position).
  SmallVector<AffineExpr> inExprs;
  for (int64_t d = 0; d < rank; ++d)
    inExprs.push_back(b.getAffineDimExpr(d == *axis ? rank : d));
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(b.getAffineDimExpr(d));
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, inExprs, b.getContext()),
      AffineMap::get(rank + 1, 0, outExprs, b.getContext())};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  iterators.push_back(utils::IteratorType::reduction);
  arith::CmpIPredicate pred =
      reverse
          ? (exclusive ? arith::CmpIPredicate::sgt : arith::CmpIPredicate::sge)
          : (exclusive ? arith::CmpIPredicate::slt : arith::CmpIPredicate::sle);
  Value y = linalg::GenericOp::create(
                b, loc, acc.getType(), ValueRange{ctx.value(0)},
                ValueRange{acc}, maps, iterators,
                [&](OpBuilder &nb, Location l, ValueRange v) {
                  Value take = arith::CmpIOp::create(
                      nb, l, pred, index(nb, l, rank), index(nb, l, *axis));
                  Value term = arith::SelectOp::create(nb, l, take, v[0], zero);
                  linalg::YieldOp::create(nb, l, addValues(nb, l, v[1], term));
                })
                .getResult(0);
  ctx.setOutput(0, y, x.dtype);
  return success();
}

} // namespace

void registerMaskConverters(ConverterTable &table) {
  table["Trilu"] = convertTrilu;
  table["EyeLike"] = convertEyeLike;
  table["OneHot"] = convertOneHot;
  table["Hardmax"] = convertHardmax;
  table["CumSum"] = convertCumSum;
}

} // namespace hidet::onnx_import
