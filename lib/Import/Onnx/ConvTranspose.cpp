//===- ConvTranspose.cpp - Transposed convolution as a convolution --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// ConvTranspose is the convolution whose input is dilated by the stride
// (zeros between elements: a strided tensor.insert_slice into zeros),
// padded by dilation * (kernel - 1) minus the pads (plus output_padding at
// the end), with the filters' input and output channels swapped and their
// spatial dims reversed (at import for known weights, else by a generic). The
// result is one of linalg's NCW/NCHW/NCDHW convolutions, an anchor like any
// other.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"
#include "Window.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// W [C, M, k...] as the filters [M, C, k...] of the equivalent convolution,
/// reversed along the spatial dims.
HostTensor flipFilters(const HostTensor &w) {
  ArrayRef<int64_t> s = w.getShape();
  SmallVector<int64_t> shape(s);
  std::swap(shape[0], shape[1]);
  return moveData(w, shape, [&](ArrayRef<int64_t> idx) {
    SmallVector<int64_t> src(idx);
    std::swap(src[0], src[1]);
    for (size_t d = 2; d < s.size(); ++d)
      src[d] = s[d] - 1 - idx[d];
    return linearIndex(src, s);
  });
}

/// The filters of the equivalent convolution: flipped at import when known,
/// else by a linalg.generic that reads W reversed.
Value flippedFilters(NodeContext &ctx) {
  const TensorValue &wv = ctx.input(1);
  Importer &imp = ctx.getImporter();
  if (const HostTensor *w = ctx.constant(1)) {
    TensorValue filters;
    filters.dtype = wv.dtype;
    filters.constant = flipFilters(*w);
    filters.shape.assign(filters.constant->getShape().begin(),
                         filters.constant->getShape().end());
    filters.name = wv.name + "_flipped";
    return imp.materialize(filters);
  }
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Value w = ctx.value(1);
  ArrayRef<int64_t> s = wv.shape;
  SmallVector<int64_t> shape(s);
  std::swap(shape[0], shape[1]);
  int64_t rank = s.size();
  Value init = emptyTensor(b, loc, shape, imp.elementType(wv.dtype));
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{}, ValueRange{init}, maps,
             iterators,
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> idx;
               for (int64_t d = 0; d < rank; ++d)
                 idx.push_back(linalg::IndexOp::create(nb, l, d));
               std::swap(idx[0], idx[1]);
               for (int64_t d = 2; d < rank; ++d)
                 idx[d] = arith::SubIOp::create(
                     nb, l, arith::ConstantIndexOp::create(nb, l, s[d] - 1),
                     idx[d]);
               Value v = tensor::ExtractOp::create(nb, l, w, idx);
               linalg::YieldOp::create(nb, l, v);
             })
      .getResult(0);
}

/// The error of a ConvTranspose whose intermediate tensors (the input with
/// its strides' zeros, then padded) would have more elements than int64
/// counts.
LogicalResult tooLarge(NodeContext &ctx) {
  return ctx.emitError() << "ConvTranspose: the input with its strides' zeros "
                            "and pads has more elements than int64 counts";
}

LogicalResult convertConvTranspose(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0), &wv = ctx.input(1);
  int64_t rank = x.rank();
  if (failed(checkConvOperands(ctx)))
    return failure();
  if (ctx.attrInt("group", 1) != 1)
    return ctx.unsupported("with groups");
  size_t n = rank - 2;
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(x.shape).drop_front(2);
  SmallVector<int64_t> kernel = ctx.attrInts("kernel_shape");
  if (kernel.empty())
    kernel.assign(wv.shape.begin() + 2, wv.shape.end());
  SmallVector<int64_t> strides = ctx.attrInts("strides"),
                       dilations = ctx.attrInts("dilations"),
                       pads = ctx.attrInts("pads"),
                       outPad = ctx.attrInts("output_padding"),
                       outShape = ctx.attrInts("output_shape");
  if (strides.empty())
    strides.assign(n, 1);
  if (dilations.empty())
    dilations.assign(n, 1);
  if (outPad.empty())
    outPad.assign(n, 0);
  if (pads.empty())
    pads.assign(2 * n, 0);
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  if (kernel.size() != n || strides.size() != n || dilations.size() != n ||
      outPad.size() != n || pads.size() != 2 * n ||
      (!outShape.empty() && outShape.size() != n))
    return ctx.emitError() << "ConvTranspose attributes do not match the "
                              "input's spatial rank "
                           << n;
  if (failed(checkWindowValues(ctx, kernel, strides, dilations, pads)) ||
      failed(checkWindowValues(ctx, {}, {}, {}, outPad)))
    return failure();
  if (!outShape.empty() || autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    // Pads from the output shape (SAME: the input times the stride).
    for (size_t i = 0; i < n; ++i) {
      int64_t out = outShape.empty() ? spatial[i] * strides[i] : outShape[i];
      int64_t total = strides[i] * (spatial[i] - 1) + outPad[i] +
                      (kernel[i] - 1) * dilations[i] + 1 - out;
      bool upper = autoPad == "SAME_UPPER";
      pads[i] = upper ? total / 2 : total - total / 2;
      pads[i + n] = upper ? total - total / 2 : total / 2;
      // An output_shape larger than the full result grows it at the end
      // (as output_padding would).
      if (total < 0 && autoPad != "SAME_UPPER" && autoPad != "SAME_LOWER") {
        pads[i] = 0;
        pads[i + n] = total;
      }
    }
  } else if (autoPad == "VALID") {
    pads.assign(2 * n, 0);
  }
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Importer &imp = ctx.getImporter();
  Type elem = imp.elementType(x.dtype);
  int64_t batch = x.shape[0], c = x.shape[1], m = wv.shape[1];
  // The input with stride - 1 zeros between its elements.
  Value in = ctx.value(0);
  SmallVector<int64_t> dilated = {batch, c};
  for (size_t i = 0; i < n; ++i) {
    int64_t extent = 0;
    if (llvm::MulOverflow(spatial[i] - 1, strides[i], extent))
      return tooLarge(ctx);
    dilated.push_back(extent + 1);
  }
  if (!checkedProduct(dilated))
    return tooLarge(ctx);
  if (llvm::any_of(strides, [](int64_t s) { return s != 1; })) {
    Value zeros =
        filledTensor(b, loc, dilated, scalarConstant(b, loc, elem, 0));
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
        steps = {b.getIndexAttr(1), b.getIndexAttr(1)};
    for (int64_t d : x.shape)
      sizes.push_back(b.getIndexAttr(d));
    for (int64_t s : strides)
      steps.push_back(b.getIndexAttr(s));
    in =
        tensor::InsertSliceOp::create(b, loc, in, zeros, offsets, sizes, steps);
  }
  // Pad by dilation * (kernel - 1) - pads; a negative amount crops.
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0), padded(dilated);
  bool crops = false;
  for (size_t i = 0; i < n; ++i) {
    int64_t span = dilations[i] * (kernel[i] - 1);
    lo[i + 2] = span - pads[i];
    hi[i + 2] = span - pads[i + n] + outPad[i];
    crops |= lo[i + 2] < 0 || hi[i + 2] < 0;
    if (llvm::AddOverflow(padded[i + 2], lo[i + 2] + hi[i + 2], padded[i + 2]))
      return tooLarge(ctx);
  }
  if (!crops && !checkedProduct(padded))
    return tooLarge(ctx);
  if (crops)
    return ctx.unsupported("with pads larger than the kernel's span");
  SmallVector<OpFoldResult> loAttr, hiAttr;
  for (size_t d = 0; d < lo.size(); ++d) {
    loAttr.push_back(b.getIndexAttr(lo[d]));
    hiAttr.push_back(b.getIndexAttr(hi[d]));
  }
  in = tensor::PadOp::create(b, loc, RankedTensorType::get(padded, elem), in,
                             loAttr, hiAttr, scalarConstant(b, loc, elem, 0),
                             /*nofold=*/false);
  Value weights = flippedFilters(ctx);
  SmallVector<int64_t> out = {batch, m};
  for (size_t i = 0; i < n; ++i)
    out.push_back(padded[i + 2] - dilations[i] * (kernel[i] - 1));
  Value init = filledTensor(b, loc, out, scalarConstant(b, loc, elem, 0));
  auto unit = b.getI64TensorAttr(SmallVector<int64_t>(n, 1));
  auto dil = b.getI64TensorAttr(dilations);
  Value y = buildConvolution(b, loc, in, weights, init, unit, dil);
  if (ctx.hasInput(2))
    y = addChannelBias(b, loc, y, ctx.value(2));
  ctx.setOutput(0, y, x.dtype);
  return success();
}

} // namespace

void registerConvTransposeConverters(ConverterTable &table) {
  table["ConvTranspose"] = convertConvTranspose;
}

} // namespace hidet::onnx_import
