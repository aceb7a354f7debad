//===- Data.cpp - Constants, shapes and identities ------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Ops whose results are known at import (Constant, Shape, Size,
// ConstantOfShape, Range on known inputs) and ops that only rename a value
// (Identity, Dropout in inference).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "onnx/onnx_pb.h"

using namespace mlir;

namespace hidet::onnx_import {
namespace {

LogicalResult convertConstant(NodeContext &ctx) {
  if (ctx.hasAttr("value")) {
    FailureOr<HostTensor> t = ctx.attrTensor("value");
    if (failed(t))
      return failure();
    ctx.setOutput(0, std::move(*t));
    return success();
  }
  if (ctx.hasAttr("value_float")) {
    ctx.setOutput(0, HostTensor::fromDoubles(
                         DType::F32, {}, {ctx.attrFloat("value_float", 0)}));
    return success();
  }
  if (ctx.hasAttr("value_int")) {
    ctx.setOutput(
        0, HostTensor::fromInts(DType::I64, {}, {ctx.attrInt("value_int", 0)}));
    return success();
  }
  if (ctx.hasAttr("value_floats")) {
    SmallVector<float> f = ctx.attrFloats("value_floats");
    SmallVector<double> d(f.begin(), f.end());
    ctx.setOutput(0, HostTensor::fromDoubles(
                         DType::F32, {static_cast<int64_t>(d.size())}, d));
    return success();
  }
  if (ctx.hasAttr("value_ints")) {
    SmallVector<int64_t> v = ctx.attrInts("value_ints");
    ctx.setOutput(0, HostTensor::fromInts(DType::I64,
                                          {static_cast<int64_t>(v.size())}, v));
    return success();
  }
  return ctx.unsupported("without a value, value_float(s) or value_int(s) "
                         "attribute");
}

/// Identity, Dropout (inference: its mask output is all true).
LogicalResult convertIdentity(NodeContext &ctx) {
  if (ctx.opType() == "Dropout") {
    // Training mode (input 2 from opset 12, is_test = 0 before opset 7)
    // draws a random mask, which this compiler does not do.
    bool training = ctx.opset() < 7 && ctx.attrInt("is_test", 0) == 0;
    if (ctx.opset() >= 12 && ctx.hasInput(2)) {
      const HostTensor *t = ctx.requireConstant(2);
      if (!t)
        return failure();
      training = t->getInt(0) != 0;
    }
    if (training) {
      // A ratio of 0 drops nothing: the identity even in training.
      const HostTensor *ratio =
          ctx.hasInput(1) ? ctx.requireConstant(1) : nullptr;
      if (ctx.hasInput(1) && !ratio)
        return failure();
      if (!ratio || ratio->getDouble(0) != 0.0)
        return ctx.unsupported("in training mode");
    }
  }
  const TensorValue &in = ctx.input(0);
  if (in.constant)
    ctx.setOutput(0, *in.constant);
  else
    ctx.setOutput(0, ctx.value(0), in.dtype);
  if (ctx.hasOutput(1)) {
    HostTensor mask = HostTensor::zeros(DType::Bool, in.shape);
    for (int64_t i = 0; i < mask.getNumElements(); ++i)
      mask.setInt(i, 1);
    ctx.setOutput(1, std::move(mask));
  }
  return success();
}

LogicalResult convertShape(NodeContext &ctx) {
  ArrayRef<int64_t> shape = ctx.input(0).shape;
  int64_t rank = shape.size();
  int64_t start = ctx.attrInt("start", 0), end = ctx.attrInt("end", rank);
  auto clampAxis = [&](int64_t a) {
    if (a < 0)
      a += rank;
    return std::clamp<int64_t>(a, 0, rank);
  };
  start = clampAxis(start);
  end = clampAxis(end);
  SmallVector<int64_t> dims;
  for (int64_t i = start; i < end; ++i)
    dims.push_back(shape[i]);
  ctx.setOutput(0, HostTensor::fromInts(
                       DType::I64, {static_cast<int64_t>(dims.size())}, dims));
  return success();
}

LogicalResult convertSize(NodeContext &ctx) {
  ctx.setOutput(
      0, HostTensor::fromInts(DType::I64, {}, {product(ctx.input(0).shape)}));
  return success();
}

LogicalResult convertConstantOfShape(NodeContext &ctx) {
  FailureOr<SmallVector<int64_t>> shape = ctx.constantInts(0);
  if (failed(shape))
    return failure();
  HostTensor fill = HostTensor::fromDoubles(DType::F32, {1}, {0.0});
  if (ctx.hasAttr("value")) {
    FailureOr<HostTensor> t = ctx.attrTensor("value");
    if (failed(t))
      return failure();
    fill = *t;
  }
  std::optional<int64_t> count = checkedProduct(*shape);
  if (!count || *count > kMaxFoldedElements)
    return ctx.emitError() << "ConstantOfShape: the shape has a negative "
                              "extent or more than "
                           << kMaxFoldedElements
                           << " elements, which the importer does not fold";
  HostTensor out = HostTensor::zeros(fill.getDType(), *shape);
  for (int64_t i = 0; i < out.getNumElements(); ++i) {
    if (isFloat(fill.getDType()))
      out.setDouble(i, fill.getDouble(0));
    else
      out.setInt(i, fill.getInt(0));
  }
  ctx.setOutput(0, std::move(out));
  return success();
}

LogicalResult convertRange(NodeContext &ctx) {
  const HostTensor *start = ctx.requireConstant(0);
  const HostTensor *limit = start ? ctx.requireConstant(1) : nullptr;
  const HostTensor *delta = limit ? ctx.requireConstant(2) : nullptr;
  if (!delta)
    return failure();
  DType dtype = start->getDType();
  double s = start->getDouble(0), l = limit->getDouble(0),
         d = delta->getDouble(0);
  if (d == 0)
    return ctx.emitError() << "Range with a zero delta";
  double steps = std::ceil((l - s) / d);
  if (!(steps <= static_cast<double>(kMaxFoldedElements)))
    return ctx.emitError() << "Range of more than " << kMaxFoldedElements
                           << " elements (or not a number), which the "
                              "importer does not fold";
  int64_t n = std::max<int64_t>(0, static_cast<int64_t>(steps));
  HostTensor out = HostTensor::zeros(dtype, {n});
  for (int64_t i = 0; i < n; ++i)
    out.setDouble(i, s + i * d);
  ctx.setOutput(0, std::move(out));
  return success();
}

} // namespace

void registerDataConverters(ConverterTable &table) {
  table["Constant"] = convertConstant;
  table["Identity"] = convertIdentity;
  table["Dropout"] = convertIdentity;
  table["Shape"] = convertShape;
  table["Size"] = convertSize;
  table["ConstantOfShape"] = convertConstantOfShape;
  table["Range"] = convertRange;
}

} // namespace hidet::onnx_import
