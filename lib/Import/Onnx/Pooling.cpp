//===- Pooling.cpp - MaxPool, AveragePool and the global pools ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Windowed pools become linalg's NCHW/NCW pooling ops on an input padded
// with the pool's identity (-inf or 0); averages divide by the number of
// window positions counted (a constant per output position when pads or
// ceil_mode make them differ). Global pools are reductions.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"
#include "Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// MaxPool and AveragePool in 1-D and 2-D.
LogicalResult convertPool(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  bool isMax = ctx.opType() == "MaxPool";
  if (isMax && ctx.hasOutput(1))
    return ctx.unsupported("with an Indices output");
  if (x.rank() != 3 && x.rank() != 4)
    return ctx.unsupported("of rank " + std::to_string(x.rank()));
  if (!isFloat(x.dtype))
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(x.shape).drop_front(2);
  SmallVector<int64_t> kernel = ctx.attrInts("kernel_shape");
  FailureOr<Window> w =
      windowOf(ctx, spatial, kernel, ctx.attrInt("ceil_mode", 0) != 0);
  if (failed(w))
    return failure();
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  double padValue = isMax ? -INFINITY : 0.0;
  Value in = padSpatial(b, loc, ctx.value(0), *w, padValue);
  SmallVector<int64_t> outShape = {x.shape[0], x.shape[1]};
  outShape.append(w->out.begin(), w->out.end());
  Value init =
      filledTensor(b, loc, outShape, scalarConstant(b, loc, elem, padValue));
  Value window = emptyTensor(b, loc, w->kernel, elem);
  auto strides = b.getI64TensorAttr(w->strides);
  auto dilations = b.getI64TensorAttr(w->dilations);
  SmallVector<Value> ins = {in, window};
  Value y;
  if (x.rank() == 4)
    y = isMax ? linalg::PoolingNchwMaxOp::create(b, loc, init.getType(), ins,
                                                 init, strides, dilations)
                    .getResult(0)
              : linalg::PoolingNchwSumOp::create(b, loc, init.getType(), ins,
                                                 init, strides, dilations)
                    .getResult(0);
  else
    y = isMax ? linalg::PoolingNcwMaxOp::create(b, loc, init.getType(), ins,
                                                init, strides, dilations)
                    .getResult(0)
              : linalg::PoolingNcwSumOp::create(b, loc, init.getType(), ins,
                                                init, strides, dilations)
                    .getResult(0);
  if (!isMax) {
    // Divide by the number of window positions counted: inside the input,
    // or also in the explicit pads with count_include_pad.
    bool includePad = ctx.attrInt("count_include_pad", 0) != 0;
    SmallVector<int64_t> pads = ctx.attrInts("pads");
    size_t nd = spatial.size();
    HostTensor counts = HostTensor::zeros(x.dtype, w->out);
    SmallVector<int64_t> idx(nd, 0);
    for (int64_t i = 0; i < counts.getNumElements(); ++i) {
      int64_t count = 1;
      for (size_t d = 0; d < nd; ++d) {
        int64_t lo = includePad ? -w->padBegin[d] : 0;
        int64_t hi =
            spatial[d] + (includePad ? (pads.empty() ? 0 : pads[d + nd]) : 0);
        if (includePad && pads.empty())
          hi = spatial[d] + w->padEnd[d];
        int64_t inWindow = 0;
        for (int64_t k = 0; k < w->kernel[d]; ++k) {
          int64_t pos =
              idx[d] * w->strides[d] - w->padBegin[d] + k * w->dilations[d];
          inWindow += pos >= lo && pos < hi;
        }
        count *= inWindow;
      }
      counts.setDouble(i, count);
      for (int64_t d = nd - 1; d >= 0; --d) {
        if (++idx[d] < w->out[d])
          break;
        idx[d] = 0;
      }
    }
    if (counts.isSplat()) {
      y = buildElementwise(
          b, loc,
          {Operand{y, {}},
           Operand{{}, scalarConstant(b, loc, elem, counts.getDouble(0))}},
          outShape, elem, [](OpBuilder &nb, Location l, ValueRange v) {
            return arith::DivFOp::create(nb, l, v[0], v[1]).getResult();
          });
    } else {
      TensorValue cv;
      cv.dtype = x.dtype;
      cv.shape.assign(w->out.begin(), w->out.end());
      cv.constant = counts;
      cv.name = ctx.outputName(0) + "_counts";
      y = buildElementwise(
          b, loc,
          {Operand{y, {}}, Operand{ctx.getImporter().materialize(cv), {}}},
          outShape, elem, [](OpBuilder &nb, Location l, ValueRange v) {
            return arith::DivFOp::create(nb, l, v[0], v[1]).getResult();
          });
    }
  }
  ctx.setOutput(0, y, x.dtype);
  return success();
}

/// GlobalAveragePool and GlobalMaxPool: reductions over the spatial dims.
LogicalResult convertGlobalPool(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (!isFloat(x.dtype) || x.rank() < 3)
    return ctx.unsupported("on this input");
  bool isMax = ctx.opType() == "GlobalMaxPool";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  SmallVector<int64_t> axes;
  for (int64_t d = 2; d < x.rank(); ++d)
    axes.push_back(d);
  Value init = scalarConstant(b, loc, elem, isMax ? -INFINITY : 0.0);
  Value r = buildReduction(
      b, loc, ctx.value(0), axes, init,
      [&](OpBuilder &nb, Location l, ValueRange v) {
        if (isMax)
          return arith::MaximumFOp::create(nb, l, v[0], v[1]).getResult();
        return arith::AddFOp::create(nb, l, v[0], v[1]).getResult();
      });
  SmallVector<int64_t> shape = {x.shape[0], x.shape[1]};
  if (!isMax) {
    double count = product(ArrayRef<int64_t>(x.shape).drop_front(2));
    r = buildElementwise(
        b, loc,
        {Operand{r, {}}, Operand{{}, scalarConstant(b, loc, elem, count)}},
        shape, elem, [](OpBuilder &nb, Location l, ValueRange v) {
          return arith::DivFOp::create(nb, l, v[0], v[1]).getResult();
        });
  }
  shape.append(x.rank() - 2, 1);
  ctx.setOutput(0, reshape(b, loc, r, shape), x.dtype);
  return success();
}

} // namespace

void registerPoolingConverters(ConverterTable &table) {
  table["MaxPool"] = convertPool;
  table["AveragePool"] = convertPool;
  table["GlobalAveragePool"] = convertGlobalPool;
  table["GlobalMaxPool"] = convertGlobalPool;
}

} // namespace hidet::onnx_import
