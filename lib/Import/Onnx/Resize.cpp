//===- Resize.cpp - Resize (nearest and linear) ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Resize as one linalg.generic over the output: each resized dimension maps
// its output index back to a source coordinate (the node's
// coordinate_transformation_mode) and reads the source with tensor.extract,
// at the nearest index (nearest_mode) or at the two neighbours weighted by
// the fraction (linear; multilinear over several resized dims). Indices are
// clamped to the source, as ONNX's edge handling does.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

LogicalResult convertResize(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  int64_t rank = x.rank();
  std::string mode = ctx.attrString("mode", "nearest");
  std::string transform =
      ctx.attrString("coordinate_transformation_mode", "half_pixel");
  std::string nearestMode =
      ctx.attrString("nearest_mode", "round_prefer_floor");
  if (mode != "nearest" && mode != "linear")
    return ctx.unsupported("mode '" + mode + "'");
  if (transform != "half_pixel" && transform != "asymmetric" &&
      transform != "align_corners" && transform != "pytorch_half_pixel" &&
      transform != "tf_half_pixel_for_nn")
    return ctx.unsupported("coordinate_transformation_mode '" + transform +
                           "'");
  if (!isFloat(x.dtype))
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  // Scales (input 1 before opset 11, else 2) or sizes (input 3).
  unsigned scalesInput = ctx.opset() < 11 ? 1 : 2;
  SmallVector<double> scales(rank, 1.0);
  SmallVector<int64_t> outShape(x.shape);
  const HostTensor *sizes =
      ctx.opset() >= 11 && ctx.hasInput(3) ? ctx.requireConstant(3) : nullptr;
  if (ctx.opset() >= 11 && ctx.hasInput(3) && !sizes)
    return failure();
  const HostTensor *sc = nullptr;
  if (!sizes && ctx.hasInput(scalesInput)) {
    sc = ctx.requireConstant(scalesInput);
    if (!sc)
      return failure();
  }
  if (sizes && sizes->getNumElements() == rank) {
    for (int64_t d = 0; d < rank; ++d) {
      outShape[d] = sizes->getInt(d);
      if (outShape[d] < 0)
        return ctx.emitError() << "Resize to a negative size " << outShape[d]
                               << " in dimension " << d;
      scales[d] = double(outShape[d]) / double(x.shape[d]);
    }
  } else if (sc && sc->getNumElements() == rank) {
    for (int64_t d = 0; d < rank; ++d) {
      scales[d] = sc->getDouble(d);
      double extent = std::floor(x.shape[d] * scales[d]);
      // Also false for NaN: the comparisons keep the cast in int64's range.
      if (!(scales[d] > 0 && extent < 0x1p62))
        return ctx.emitError()
               << "Resize scales must be positive and give extents below "
                  "2^62, got "
               << scales[d] << " in dimension " << d;
      outShape[d] = static_cast<int64_t>(extent);
    }
  } else {
    return ctx.unsupported("without scales or sizes for every dimension");
  }
  SmallVector<int64_t> resized;
  for (int64_t d = 0; d < rank; ++d)
    if (outShape[d] != x.shape[d] || scales[d] != 1.0)
      resized.push_back(d);
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);
  Value source = ctx.value(0);
  Value init = emptyTensor(b, loc, outShape, elem);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto f32 = b.getF32Type();
  Value y =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{}, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange) {
            auto fc = [&](double v) { return scalarConstant(nb, l, f32, v); };
            auto ic = [&](int64_t v) {
              return arith::ConstantIndexOp::create(nb, l, v).getResult();
            };
            SmallVector<Value> base;
            for (int64_t d = 0; d < rank; ++d)
              base.push_back(linalg::IndexOp::create(nb, l, d));
            // The source coordinate of each resized dim.
            SmallVector<Value> coords;
            for (int64_t d : resized) {
              Value o = arith::SIToFPOp::create(
                  nb, l, f32,
                  arith::IndexCastOp::create(nb, l, nb.getI64Type(), base[d]));
              double s = scales[d];
              int64_t in = x.shape[d], out = outShape[d];
              Value c;
              if (transform == "asymmetric")
                c = arith::DivFOp::create(nb, l, o, fc(s));
              else if (transform == "align_corners")
                // ONNX's reference divides by the scaled length, not the
                // floored output extent.
                c = in * s == 1.0
                        ? fc(0)
                        : arith::MulFOp::create(
                              nb, l, o, fc(double(in - 1) / (in * s - 1.0)));
              else if (transform == "tf_half_pixel_for_nn")
                c = arith::DivFOp::create(
                    nb, l, arith::AddFOp::create(nb, l, o, fc(0.5)), fc(s));
              else if (transform == "pytorch_half_pixel" && out == 1)
                c = fc(0);
              else
                c = arith::SubFOp::create(
                    nb, l,
                    arith::DivFOp::create(
                        nb, l, arith::AddFOp::create(nb, l, o, fc(0.5)), fc(s)),
                    fc(0.5));
              coords.push_back(c);
            }
            auto toIndex = [&](Value f, int64_t extent) {
              Value i = arith::IndexCastOp::create(
                  nb, l, nb.getIndexType(),
                  arith::FPToSIOp::create(nb, l, nb.getI64Type(), f));
              i = arith::MaxSIOp::create(nb, l, i, ic(0));
              return arith::MinSIOp::create(nb, l, i, ic(extent - 1))
                  .getResult();
            };
            Value result;
            if (mode == "nearest") {
              SmallVector<Value> idx(base);
              for (auto [k, d] : llvm::enumerate(resized)) {
                Value c = coords[k];
                Value r;
                if (nearestMode == "floor")
                  r = math::FloorOp::create(nb, l, c);
                else if (nearestMode == "ceil")
                  r = math::CeilOp::create(nb, l, c);
                else if (nearestMode == "round_prefer_ceil")
                  r = math::FloorOp::create(
                      nb, l, arith::AddFOp::create(nb, l, c, fc(0.5)));
                else // round_prefer_floor
                  r = math::CeilOp::create(
                      nb, l, arith::SubFOp::create(nb, l, c, fc(0.5)));
                idx[d] = toIndex(r, x.shape[d]);
              }
              result = tensor::ExtractOp::create(nb, l, source, idx);
            } else {
              // Multilinear: a corner per subset of the resized dims.
              SmallVector<Value> lo, frac;
              for (Value c : coords) {
                Value f = math::FloorOp::create(nb, l, c);
                lo.push_back(f);
                frac.push_back(arith::SubFOp::create(nb, l, c, f));
              }
              Value acc = fc(0);
              for (unsigned corner = 0; corner < (1u << resized.size());
                   ++corner) {
                SmallVector<Value> idx(base);
                Value weight = fc(1);
                for (auto [k, d] : llvm::enumerate(resized)) {
                  bool up = corner & (1u << k);
                  Value at = up ? arith::AddFOp::create(nb, l, lo[k], fc(1))
                                      .getResult()
                                : lo[k];
                  idx[d] = toIndex(at, x.shape[d]);
                  Value w = up ? frac[k]
                               : arith::SubFOp::create(nb, l, fc(1), frac[k])
                                     .getResult();
                  weight = arith::MulFOp::create(nb, l, weight, w);
                }
                Value v = tensor::ExtractOp::create(nb, l, source, idx);
                v = convertScalar(nb, l, v, f32, false, false);
                acc = arith::AddFOp::create(
                    nb, l, acc, arith::MulFOp::create(nb, l, weight, v));
              }
              result = convertScalar(nb, l, acc, elem, false, false);
            }
            linalg::YieldOp::create(nb, l, result);
          })
          .getResult(0);
  ctx.setOutput(0, y, x.dtype);
  return success();
}

} // namespace

void registerResizeConverters(ConverterTable &table) {
  table["Resize"] = convertResize;
  table["Upsample"] = convertResize;
}

} // namespace hidet::onnx_import
