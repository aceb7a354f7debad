//===- Normalization.cpp - Softmax, layer norm, reductions ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Softmax becomes linalg.softmax; LogSoftmax, LayerNormalization and the
// Reduce* family become linalg.generic reductions and elementwise ops, the
// shapes the rule-based scheduler's row-group and reduction kernels read.
// 16-bit inputs are reduced with f32 accumulators.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// The accumulator type for reducing `elem`: f32 for 16-bit floats.
Type accumulatorType(OpBuilder &b, Type elem) {
  if (elem.isF16() || elem.isBF16())
    return b.getF32Type();
  return elem;
}

Value toType(OpBuilder &b, Location loc, Value v, Type t) {
  return convertScalar(b, loc, v, t, false, false);
}

/// `reduced` (the shape of `shape` without `axes`) reshaped to keep the
/// reduced axes as extent 1.
SmallVector<int64_t> keptShape(ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> axes) {
  SmallVector<int64_t> out(shape);
  for (int64_t a : axes)
    out[a] = 1;
  return out;
}

LogicalResult convertSoftmax(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (!isFloat(x.dtype))
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  int64_t rank = x.rank();
  bool legacy = ctx.opset() < 13;
  std::optional<int64_t> axis =
      normalizeAxis(ctx.attrInt("axis", legacy ? 1 : -1), rank);
  if (!axis)
    return ctx.emitError() << ctx.opType() << " axis out of range";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Value in = ctx.value(0);
  // Before opset 13 the input is read as a 2-D [outer, inner] matrix.
  int64_t dim = *axis;
  if (legacy) {
    ArrayRef<int64_t> s = x.shape;
    in = reshape(b, loc, in,
                 {product(s.take_front(dim)), product(s.drop_front(dim))});
    dim = 1;
  }
  RankedTensorType type = tensorTypeOf(in);
  Type elem = type.getElementType();
  Value y;
  if (ctx.opType() == "Softmax") {
    Value init = emptyTensor(b, loc, type.getShape(), elem);
    y = linalg::SoftmaxOp::create(b, loc, type, in, init, dim).getResult()[0];
  } else {
    // log_softmax(x) = x - max - log(sum(exp(x - max)))
    Type acc = accumulatorType(b, elem);
    SmallVector<int64_t> axes = {dim};
    SmallVector<int64_t> kept = keptShape(type.getShape(), axes);
    Value mx =
        buildReduction(b, loc, in, axes, scalarConstant(b, loc, acc, -INFINITY),
                       [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                         return arith::MaximumFOp::create(
                             nb, l, toType(nb, l, v[0], acc), v[1]);
                       });
    mx = reshape(b, loc, mx, kept);
    Value shifted = buildElementwise(
        b, loc, {Operand{in, {}}, Operand{mx, {}}}, type.getShape(), acc,
        [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
          return arith::SubFOp::create(nb, l, toType(nb, l, v[0], acc), v[1]);
        });
    Value sum =
        buildReduction(b, loc, shifted, axes, scalarConstant(b, loc, acc, 0),
                       [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                         return arith::AddFOp::create(
                             nb, l, math::ExpOp::create(nb, l, v[0]), v[1]);
                       });
    sum = reshape(b, loc, sum, kept);
    y = buildElementwise(b, loc, {Operand{shifted, {}}, Operand{sum, {}}},
                         type.getShape(), elem,
                         [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                           Value r = arith::SubFOp::create(
                               nb, l, v[0], math::LogOp::create(nb, l, v[1]));
                           return toType(nb, l, r, elem);
                         });
  }
  if (legacy)
    y = reshape(b, loc, y, x.shape);
  ctx.setOutput(0, y, x.dtype);
  return success();
}

LogicalResult convertLayerNorm(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (!isFloat(x.dtype))
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  int64_t rank = x.rank();
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", -1), rank);
  if (!axis)
    return ctx.emitError() << "LayerNormalization axis out of range";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Importer &imp = ctx.getImporter();
  Type elem = imp.elementType(x.dtype);
  Type acc = accumulatorType(b, elem);
  ArrayRef<int64_t> s = x.shape;
  int64_t outer = product(s.take_front(*axis)),
          inner = product(s.drop_front(*axis));
  SmallVector<int64_t> normShape(s.drop_front(*axis));
  for (unsigned i : {1u, 2u}) {
    if (!ctx.hasInput(i))
      continue;
    std::optional<SmallVector<int64_t>> shape =
        broadcastShapes({ctx.input(i).shape, normShape});
    if (!shape || *shape != normShape)
      return ctx.emitError()
             << "LayerNormalization input " << i
             << " does not broadcast to the normalized dims";
  }
  Value x2 = reshape(b, loc, ctx.value(0), {outer, inner});
  // Scale and bias over the normalized dims, broadcast there if needed.
  auto affine = [&](unsigned i) -> Value {
    if (!ctx.hasInput(i))
      return {};
    Value v = ctx.value(i);
    if (ArrayRef<int64_t>(ctx.input(i).shape) != ArrayRef<int64_t>(normShape))
      v = buildElementwise(
          b, loc, Operand{v, {}}, normShape, tensorTypeOf(v).getElementType(),
          [](OpBuilder &, Location, ValueRange a) { return a[0]; });
    return reshape(b, loc, v, {inner});
  };
  Value scale = affine(1), bias = affine(2);
  Value n = scalarConstant(b, loc, acc, inner);
  Value eps = scalarConstant(b, loc, acc, ctx.attrFloat("epsilon", 1e-5f));
  SmallVector<int64_t> axes = {1};
  Value sum = buildReduction(
      b, loc, x2, axes, scalarConstant(b, loc, acc, 0),
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        return arith::AddFOp::create(nb, l, toType(nb, l, v[0], acc), v[1]);
      });
  Value mean =
      buildElementwise(b, loc, Operand{sum, {}}, {outer}, acc,
                       [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                         return arith::DivFOp::create(nb, l, v[0], n);
                       });
  // The variance reads x and the mean of its row: [outer, inner] and
  // [outer] as a generic with a row map.
  Value meanCol = reshape(b, loc, mean, {outer, 1});
  Value centered = buildElementwise(
      b, loc, {Operand{x2, {}}, Operand{meanCol, {}}}, {outer, inner}, acc,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        return arith::SubFOp::create(nb, l, toType(nb, l, v[0], acc), v[1]);
      });
  Value sq = buildReduction(
      b, loc, centered, axes, scalarConstant(b, loc, acc, 0),
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        return arith::AddFOp::create(
            nb, l, arith::MulFOp::create(nb, l, v[0], v[0]), v[1]);
      });
  Value sqCol = reshape(b, loc, sq, {outer, 1});
  SmallVector<Operand> operands = {{centered, {}}, {sqCol, {}}};
  if (scale)
    operands.push_back({scale, {}});
  if (bias)
    operands.push_back({bias, {}});
  Value y = buildElementwise(
      b, loc, operands, {outer, inner}, elem,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value var = arith::DivFOp::create(nb, l, v[1], n);
        Value rs = math::RsqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, var, eps));
        Value r = arith::MulFOp::create(nb, l, v[0], rs);
        unsigned next = 2;
        if (scale)
          r = arith::MulFOp::create(nb, l, r, toType(nb, l, v[next++], acc));
        if (bias)
          r = arith::AddFOp::create(nb, l, r, toType(nb, l, v[next++], acc));
        return toType(nb, l, r, elem);
      });
  ctx.setOutput(0, reshape(b, loc, y, x.shape), x.dtype);
  // Optional outputs: the mean and 1 / sqrt(var + eps) of each row, with
  // the normalized dims kept as 1, in the stash type (f32 by default).
  if (ctx.hasOutput(1) || ctx.hasOutput(2)) {
    auto stash = static_cast<DType>(ctx.attrInt("stash_type", 1));
    Type stashType = imp.elementType(stash);
    if (!stashType || !isFloat(stash))
      return ctx.unsupported("with this stash_type");
    SmallVector<int64_t> kept(s.take_front(*axis));
    kept.append(rank - *axis, 1);
    Value m = convertTensor(b, loc, mean, stashType, false);
    ctx.setOutput(1, reshape(b, loc, m, kept), stash);
    Value inv =
        buildElementwise(b, loc, Operand{sq, {}}, {outer}, stashType,
                         [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                           Value var = arith::DivFOp::create(nb, l, v[0], n);
                           Value rs = math::RsqrtOp::create(
                               nb, l, arith::AddFOp::create(nb, l, var, eps));
                           return toType(nb, l, rs, stashType);
                         });
    ctx.setOutput(2, reshape(b, loc, inv, kept), stash);
  }
  return success();
}

/// The axes of a reduction (an attribute, or an input from opset 13 for
/// ReduceSum and 18 for the others), normalized and sorted; all axes when
/// none are given, unless noop_with_empty_axes.
FailureOr<SmallVector<int64_t>> reductionAxes(NodeContext &ctx, int64_t rank,
                                              bool &noop) {
  int64_t since = ctx.opType() == "ReduceSum" ? 13 : 18;
  SmallVector<int64_t> axes;
  if (ctx.opset() < since) {
    axes = ctx.attrInts("axes");
  } else if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> a = ctx.constantInts(1);
    if (failed(a))
      return failure();
    axes = *a;
  }
  noop = axes.empty() && ctx.attrInt("noop_with_empty_axes", 0) != 0;
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  SmallVector<int64_t> out;
  for (int64_t a : axes) {
    std::optional<int64_t> n = normalizeAxis(a, rank);
    if (!n)
      return ctx.emitError()
             << ctx.opType() << " axis " << a << " out of range";
    if (!llvm::is_contained(out, *n))
      out.push_back(*n);
  }
  llvm::sort(out);
  return out;
}

LogicalResult convertReduce(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  StringRef kind = ctx.opType().drop_front(strlen("Reduce"));
  bool noop = false;
  FailureOr<SmallVector<int64_t>> axes = reductionAxes(ctx, x.rank(), noop);
  if (failed(axes))
    return failure();
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  bool isF = isa<FloatType>(elem);
  bool uns = isUnsigned(x.dtype);
  if (!isF && kind != "Sum" && kind != "Max" && kind != "Min" &&
      kind != "Prod" && kind != "SumSquare" && kind != "L1")
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  if (noop) {
    ctx.setOutput(0, ctx.value(0), x.dtype);
    return success();
  }
  Type acc = isF ? accumulatorType(b, elem) : elem;
  double init = 0;
  if (kind == "Max")
    init = isF ? -INFINITY : uns ? 0.0 : -9.2233720368547758e18;
  else if (kind == "Min")
    init = isF ? INFINITY : 9.2233720368547758e18;
  else if (kind == "Prod")
    init = 1;
  Value initValue;
  if (!isF && (kind == "Max" || kind == "Min")) {
    unsigned w = elem.getIntOrFloatBitWidth();
    APInt v = kind == "Max"
                  ? (uns ? APInt::getMinValue(w) : APInt::getSignedMinValue(w))
                  : (uns ? APInt::getMaxValue(w) : APInt::getSignedMaxValue(w));
    initValue = arith::ConstantOp::create(b, loc, b.getIntegerAttr(elem, v));
  } else {
    initValue = scalarConstant(b, loc, acc, init);
  }
  std::string k = kind.str();
  Value r = buildReduction(
      b, loc, ctx.value(0), *axes, initValue,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value xv = isF ? toType(nb, l, v[0], acc) : v[0];
        Value a = v[1];
        if (k == "L1")
          xv = isF ? math::AbsFOp::create(nb, l, xv).getResult()
                   : math::AbsIOp::create(nb, l, xv).getResult();
        if (k == "L2" || k == "SumSquare")
          xv = isF ? arith::MulFOp::create(nb, l, xv, xv).getResult()
                   : arith::MulIOp::create(nb, l, xv, xv).getResult();
        if (k == "LogSumExp")
          xv = math::ExpOp::create(nb, l, xv);
        if (k == "Max")
          return maxValues(nb, l, xv, a, uns);
        if (k == "Min")
          return minValues(nb, l, xv, a, uns);
        if (k == "Prod")
          return mulValues(nb, l, xv, a);
        return addValues(nb, l, xv, a);
      });
  SmallVector<int64_t> reducedShape;
  int64_t count = 1;
  for (int64_t d = 0; d < x.rank(); ++d) {
    if (llvm::is_contained(*axes, d))
      count *= x.shape[d];
    else
      reducedShape.push_back(x.shape[d]);
  }
  // Finish (mean, root, log) and return to the element type.
  r = buildElementwise(b, loc, Operand{r, {}}, reducedShape, elem,
                       [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
                         Value y = v[0];
                         if (k == "Mean")
                           y = arith::DivFOp::create(
                               nb, l, y, scalarConstant(nb, l, acc, count));
                         if (k == "L2")
                           y = math::SqrtOp::create(nb, l, y);
                         if (k == "LogSum" || k == "LogSumExp")
                           y = math::LogOp::create(nb, l, y);
                         return isF ? toType(nb, l, y, elem) : y;
                       });
  if (ctx.attrInt("keepdims", 1))
    r = reshape(b, loc, r, keptShape(x.shape, *axes));
  ctx.setOutput(0, r, x.dtype);
  return success();
}

LogicalResult convertArgReduce(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", 0), x.rank());
  if (!axis)
    return ctx.emitError() << ctx.opType() << " axis out of range";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Value r =
      buildArgReduce(b, loc, ctx.value(0), *axis, ctx.opType() == "ArgMax",
                     ctx.attrInt("select_last_index", 0) != 0);
  if (ctx.attrInt("keepdims", 1))
    r = reshape(b, loc, r, keptShape(x.shape, {*axis}));
  ctx.setOutput(0, r, DType::I64);
  return success();
}

/// y = scale * (x - mean) / sqrt(var + eps) + B over each (n, c) plane.
LogicalResult convertInstanceNorm(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (!isFloat(x.dtype) || x.rank() < 3)
    return ctx.unsupported("on this input");
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  Type acc = accumulatorType(b, elem);
  int64_t n = x.shape[0], c = x.shape[1];
  int64_t inner = product(ArrayRef<int64_t>(x.shape).drop_front(2));
  Value x3 = reshape(b, loc, ctx.value(0), {n, c, inner});
  Value count = scalarConstant(b, loc, acc, inner);
  Value eps = scalarConstant(b, loc, acc, ctx.attrFloat("epsilon", 1e-5f));
  SmallVector<int64_t> axes = {2};
  auto sumOf = [&](Value v, bool square) {
    return buildReduction(
        b, loc, v, axes, scalarConstant(b, loc, acc, 0),
        [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
          Value e = toType(nb, l, a[0], acc);
          if (square)
            e = arith::MulFOp::create(nb, l, e, e);
          return arith::AddFOp::create(nb, l, e, a[1]);
        });
  };
  Value mean = reshape(b, loc, sumOf(x3, false), {n, c, 1});
  Value centered = buildElementwise(
      b, loc, {Operand{x3, {}}, Operand{mean, {}}}, {n, c, inner}, acc,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value m = arith::DivFOp::create(nb, l, v[1], count);
        return arith::SubFOp::create(nb, l, toType(nb, l, v[0], acc), m);
      });
  Value sq = reshape(b, loc, sumOf(centered, true), {n, c, 1});
  Value scale = reshape(b, loc, ctx.value(1), {c, 1});
  Value bias = reshape(b, loc, ctx.value(2), {c, 1});
  Value y = buildElementwise(
      b, loc,
      {Operand{centered, {}}, Operand{sq, {}}, Operand{scale, {}},
       Operand{bias, {}}},
      {n, c, inner}, elem,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value var = arith::DivFOp::create(nb, l, v[1], count);
        Value rs = math::RsqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, var, eps));
        Value r =
            arith::MulFOp::create(nb, l, arith::MulFOp::create(nb, l, v[0], rs),
                                  toType(nb, l, v[2], acc));
        r = arith::AddFOp::create(nb, l, r, toType(nb, l, v[3], acc));
        return toType(nb, l, r, elem);
      });
  ctx.setOutput(0, reshape(b, loc, y, x.shape), x.dtype);
  return success();
}

} // namespace

void registerNormalizationConverters(ConverterTable &table) {
  table["Softmax"] = convertSoftmax;
  table["LogSoftmax"] = convertSoftmax;
  table["LayerNormalization"] = convertLayerNorm;
  for (StringRef kind : {"Sum", "Mean", "Max", "Min", "Prod", "L1", "L2",
                         "SumSquare", "LogSum", "LogSumExp"})
    table[(Twine("Reduce") + kind).str()] = convertReduce;
  table["ArgMax"] = convertArgReduce;
  table["ArgMin"] = convertArgReduce;
  table["InstanceNormalization"] = convertInstanceNorm;
}

} // namespace hidet::onnx_import
