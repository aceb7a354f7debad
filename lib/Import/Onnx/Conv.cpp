//===- Conv.cpp - Convolutions and batch norm ------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Conv becomes linalg's convolutions (window arithmetic shared with pooling:
// Window.h), with biases and batch norms as elementwise ops after them (the
// partitioner fuses those as epilogues). A BatchNormalization whose input is
// a Conv with known weights, read by nothing else, is folded into the
// convolution's weights and bias.
//
// Layout: a 2-D Conv with known filters, of one group or depthwise, is
// computed channels-last under ImportOptions::convLayout NHWC (the
// default), between transposes of its input and output that
// hidet-propagate-transposes cancels; other convolutions are channels-first
// (linalg's NCHW, NGCHW and depthwise NCHW ops).
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"
#include "Window.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// When the only reader of the Conv's output is a BatchNormalization with
/// known parameters, and the Conv's weights (and bias) are known, returns
/// the folded weights and bias and the node to absorb.
struct FoldedConv {
  HostTensor weights, bias;
  const onnx::NodeProto *batchNorm = nullptr;
};

std::optional<FoldedConv> foldBatchNorm(NodeContext &ctx) {
  const HostTensor *w = ctx.constant(1);
  if (!w || !isFloat(w->getDType()))
    return std::nullopt;
  const onnx::NodeProto *bn = ctx.soleConsumer(0);
  if (!bn || bn->op_type() != "BatchNormalization" || bn->input_size() < 5 ||
      bn->output_size() > 1 || bn->input(0) != ctx.outputName(0))
    return std::nullopt;
  SmallVector<const HostTensor *> params;
  for (int i = 1; i < 5; ++i) {
    TensorValue *v = ctx.getImporter().lookup(bn->input(i));
    if (!v || !v->constant)
      return std::nullopt;
    params.push_back(&*v->constant);
  }
  float eps = 1e-5f;
  for (const onnx::AttributeProto &a : bn->attribute())
    if (a.name() == "epsilon")
      eps = a.f();
  int64_t m = w->getShape()[0];
  // Per-channel parameters of another size are not folded (the batch norm
  // then reports them).
  auto perChannel = [&](const HostTensor *t) {
    return t->getShape().size() == 1 && t->getShape()[0] == m;
  };
  if (m == 0 || !llvm::all_of(params, perChannel))
    return std::nullopt;
  int64_t per = w->getNumElements() / m;
  FoldedConv f;
  f.weights = HostTensor::zeros(w->getDType(), w->getShape());
  f.bias = HostTensor::zeros(w->getDType(), {m});
  const HostTensor *bias = ctx.constant(2);
  if (ctx.hasInput(2) && (!bias || !perChannel(bias)))
    return std::nullopt;
  for (int64_t o = 0; o < m; ++o) {
    double scale = params[0]->getDouble(o), shift = params[1]->getDouble(o);
    double mean = params[2]->getDouble(o), var = params[3]->getDouble(o);
    double a = scale / std::sqrt(var + eps);
    for (int64_t i = 0; i < per; ++i)
      f.weights.setDouble(o * per + i, w->getDouble(o * per + i) * a);
    double b0 = bias ? bias->getDouble(o) : 0.0;
    f.bias.setDouble(o, (b0 - mean) * a + shift);
  }
  f.batchNorm = bn;
  return f;
}

/// The filters of a Conv (input 1), or the ones a batch norm was folded
/// into.
struct ConvFilters {
  Value weights, bias;
  /// The filters' values, when known at import.
  const HostTensor *known = nullptr;
};

ConvFilters convFilters(NodeContext &ctx,
                        const std::optional<FoldedConv> &folded) {
  const TensorValue &wv = ctx.input(1);
  Importer &imp = ctx.getImporter();
  ConvFilters f;
  if (folded) {
    TensorValue fw, fb;
    fw.dtype = fb.dtype = wv.dtype;
    fw.shape = wv.shape;
    fw.constant = folded->weights;
    fw.name = wv.name + "_bn";
    fb.shape = {wv.shape[0]};
    fb.constant = folded->bias;
    fb.name = wv.name + "_bn_bias";
    f.weights = imp.materialize(fw);
    f.bias = imp.materialize(fb);
    f.known = &folded->weights;
    return f;
  }
  f.weights = ctx.value(1);
  if (ctx.hasInput(2))
    f.bias = ctx.value(2);
  f.known = ctx.constant(1);
  return f;
}

/// A 2-D Conv of one group, or a depthwise one, computed channels-last: the
/// input transposed to NHWC, the known filters permuted at import (to HWCF,
/// or HWC for a depthwise convolution), the bias added in NHWC and the
/// result transposed back. hidet-propagate-transposes then cancels the
/// transposes between consecutive convolutions, so that the tensors between
/// them stay channels-last, the layout in which the implicit GEMM reads
/// 16-byte pieces of channels.
Value channelsLastConv(NodeContext &ctx, const Window &w,
                       const ConvFilters &f, bool depthwise) {
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Importer &imp = ctx.getImporter();
  const TensorValue &x = ctx.input(0), &wv = ctx.input(1);
  int64_t n = x.shape[0], m = wv.shape[0];
  Type elem = imp.elementType(x.dtype);
  TensorValue filters;
  filters.dtype = wv.dtype;
  filters.name = wv.name + (depthwise ? "_hwc" : "_hwcf");
  // Fewer channels than a 16-byte piece holds (an image's 3 colours) are
  // padded with zero channels, in the input and the filters, so that the
  // implicit GEMM reads whole pieces of channels.
  int64_t c = x.shape[1], paddedC = c;
  unsigned bytes = dtypeSize(imp.computeType(x.dtype));
  if (!depthwise && bytes && bytes < kTemplatePieceBytes &&
      c < kTemplatePieceBytes / bytes)
    paddedC = kTemplatePieceBytes / bytes;
  if (depthwise) {
    // [M, 1, KH, KW] -> [KH, KW, M].
    filters.constant = permuted(
        f.known->reshaped({m, wv.shape[2], wv.shape[3]}), {1, 2, 0});
  } else {
    // [F, C, KH, KW] -> [KH, KW, C, F], and zero filters of the padding
    // channels.
    HostTensor hwcf = permuted(*f.known, {2, 3, 1, 0});
    if (paddedC != c) {
      hwcf = paddedWithZeros(hwcf, {wv.shape[2], wv.shape[3], paddedC, m});
      filters.name += "_padded";
    }
    filters.constant = hwcf;
  }
  filters.shape.assign(filters.constant->getShape().begin(),
                       filters.constant->getShape().end());
  Value weights = imp.materialize(filters);
  Value in = transpose(b, loc, ctx.value(0), {0, 2, 3, 1});
  if (paddedC != c) {
    // One pad of rows, columns and channels.
    Window channels = w;
    channels.padBegin.push_back(0);
    channels.padEnd.push_back(paddedC - c);
    in = padSpatial(b, loc, in, channels, 0.0, /*firstSpatial=*/1);
  } else {
    in = padSpatial(b, loc, in, w, 0.0, /*firstSpatial=*/1);
  }
  Value init = zeroFilled(b, loc, {n, w.out[0], w.out[1], m}, elem);
  auto strides = b.getI64TensorAttr(w.strides);
  auto dilations = b.getI64TensorAttr(w.dilations);
  Value y;
  if (depthwise)
    y = linalg::DepthwiseConv2DNhwcHwcOp::create(b, loc, init.getType(),
                                                 ValueRange{in, weights}, init,
                                                 strides, dilations)
            .getResult(0);
  else
    y = linalg::Conv2DNhwcHwcfOp::create(b, loc, init.getType(),
                                         ValueRange{in, weights}, init,
                                         strides, dilations)
            .getResult(0);
  if (f.bias) {
    // [M] broadcasts along the last dim.
    RankedTensorType type = tensorTypeOf(y);
    y = buildElementwise(b, loc, {Operand{y, {}}, Operand{f.bias, {}}},
                         type.getShape(), elem,
                         [](OpBuilder &nb, Location l, ValueRange v) {
                           return addValues(nb, l, v[0], v[1]);
                         });
  }
  return transpose(b, loc, y, {0, 3, 1, 2});
}

LogicalResult convertConv(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0), &wv = ctx.input(1);
  int64_t rank = x.rank();
  if (failed(checkConvOperands(ctx)))
    return failure();
  ArrayRef<int64_t> spatial = ArrayRef<int64_t>(x.shape).drop_front(2);
  SmallVector<int64_t> kernel = ctx.attrInts("kernel_shape");
  if (kernel.empty())
    kernel.assign(wv.shape.begin() + 2, wv.shape.end());
  FailureOr<Window> w = windowOf(ctx, spatial, kernel, false);
  if (failed(w))
    return failure();
  int64_t group = ctx.attrInt("group", 1);
  int64_t n = x.shape[0], c = x.shape[1], m = wv.shape[0];
  if (group < 1)
    return ctx.emitError() << "Conv: group must be positive, got " << group;
  if (c % group || m % group || wv.shape[1] * group != c)
    return ctx.emitError() << "Conv: " << c << " input channels, " << m
                           << " filters of " << wv.shape[1]
                           << " channels and group " << group
                           << " do not agree";
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(x.dtype);

  std::optional<FoldedConv> folded = foldBatchNorm(ctx);
  ConvFilters f = convFilters(ctx, folded);
  bool depthwise = group == c && m == c;
  Value y;
  if (rank == 4 && f.known && (group == 1 || depthwise) &&
      ctx.options().convLayout == ConvLayout::NHWC) {
    y = channelsLastConv(ctx, *w, f, depthwise);
  } else {
    Value in = padSpatial(b, loc, ctx.value(0), *w, 0.0);
    SmallVector<int64_t> outShape = {n, m};
    outShape.append(w->out.begin(), w->out.end());
    auto strides = b.getI64TensorAttr(w->strides);
    auto dilations = b.getI64TensorAttr(w->dilations);
    if (group == 1) {
      Value init = zeroFilled(b, loc, outShape, elem);
      y = buildConvolution(b, loc, in, f.weights, init, strides, dilations);
    } else if (rank == 4 && depthwise) {
      Value init = zeroFilled(b, loc, outShape, elem);
      Value w3 = reshape(b, loc, f.weights, {m, kernel[0], kernel[1]});
      y = linalg::DepthwiseConv2DNchwChwOp::create(b, loc, init.getType(),
                                                   ValueRange{in, w3}, init,
                                                   strides, dilations)
              .getResult(0);
    } else if (rank == 4) {
      RankedTensorType inType = tensorTypeOf(in);
      Value in5 = reshape(
          b, loc, in,
          {n, group, c / group, inType.getDimSize(2), inType.getDimSize(3)});
      Value w5 = reshape(b, loc, f.weights,
                         {group, m / group, c / group, kernel[0], kernel[1]});
      SmallVector<int64_t> out5 = {n, group, m / group, w->out[0], w->out[1]};
      Value init = zeroFilled(b, loc, out5, elem);
      Value y5 = linalg::Conv2DNgchwGfchwOp::create(b, loc, init.getType(),
                                                    ValueRange{in5, w5}, init,
                                                    strides, dilations)
                     .getResult(0);
      y = reshape(b, loc, y5, outShape);
    } else {
      return ctx.unsupported("with groups in " + std::to_string(rank - 2) +
                             "-D");
    }
    if (f.bias)
      y = addChannelBias(b, loc, y, f.bias);
  }
  if (folded) {
    ctx.absorb(folded->batchNorm, y, x.dtype);
    return success();
  }
  ctx.setOutput(0, y, x.dtype);
  return success();
}

LogicalResult convertBatchNorm(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (ctx.numOutputs() > 1 && ctx.hasOutput(1))
    return ctx.unsupported("in training mode");
  if (!isFloat(x.dtype) || x.rank() < 2)
    return ctx.unsupported("on this input");
  int64_t c = x.shape[1];
  for (unsigned i = 1; i < 5; ++i)
    if (ctx.input(i).rank() != 1 || ctx.input(i).shape[0] != c)
      return ctx.emitError() << "BatchNormalization input " << i
                             << " must hold one value per channel (" << c
                             << ")";
  float eps = ctx.attrFloat("epsilon", 1e-5f);
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Importer &imp = ctx.getImporter();
  SmallVector<int64_t> chShape = {c};
  chShape.append(x.rank() - 2, 1);
  SmallVector<Operand> operands = {{ctx.value(0), {}}};
  bool known = true;
  for (unsigned i = 1; i < 5; ++i)
    known &= ctx.constant(i) != nullptr;
  if (known) {
    // y = x * a + s with a = scale / sqrt(var + eps), s = B - mean * a.
    HostTensor a = HostTensor::zeros(x.dtype, chShape);
    HostTensor s = HostTensor::zeros(x.dtype, chShape);
    for (int64_t i = 0; i < c; ++i) {
      double ai = ctx.constant(1)->getDouble(i) /
                  std::sqrt(ctx.constant(4)->getDouble(i) + eps);
      a.setDouble(i, ai);
      s.setDouble(i, ctx.constant(2)->getDouble(i) -
                         ctx.constant(3)->getDouble(i) * ai);
    }
    TensorValue av, sv;
    av.dtype = sv.dtype = x.dtype;
    av.shape = sv.shape = chShape;
    av.constant = a;
    sv.constant = s;
    av.name = ctx.outputName(0) + "_scale";
    sv.name = ctx.outputName(0) + "_shift";
    operands.push_back({imp.materialize(av), {}});
    operands.push_back({imp.materialize(sv), {}});
    Value y = buildElementwise(
        b, loc, operands, x.shape, imp.elementType(x.dtype),
        [](OpBuilder &nb, Location l, ValueRange v) -> Value {
          return arith::AddFOp::create(
              nb, l, arith::MulFOp::create(nb, l, v[0], v[1]), v[2]);
        });
    ctx.setOutput(0, y, x.dtype);
    return success();
  }
  for (unsigned i = 1; i < 5; ++i)
    operands.push_back({reshape(b, loc, ctx.value(i), chShape), {}});
  Type elem = imp.elementType(x.dtype);
  Value y = buildElementwise(
      b, loc, operands, x.shape, elem,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        Value var = arith::AddFOp::create(nb, l, v[4],
                                          scalarConstant(nb, l, elem, eps));
        Value inv = math::RsqrtOp::create(nb, l, var);
        Value centered = arith::SubFOp::create(nb, l, v[0], v[3]);
        Value scaled = arith::MulFOp::create(
            nb, l, arith::MulFOp::create(nb, l, centered, inv), v[1]);
        return arith::AddFOp::create(nb, l, scaled, v[2]);
      });
  ctx.setOutput(0, y, x.dtype);
  return success();
}

} // namespace

Value addChannelBias(OpBuilder &b, Location loc, Value y, Value bias) {
  RankedTensorType type = tensorTypeOf(y);
  SmallVector<int64_t> bshape = {type.getDimSize(1)};
  bshape.append(type.getRank() - 2, 1);
  Value b3 = reshape(b, loc, bias, bshape);
  return buildElementwise(b, loc, {Operand{y, {}}, Operand{b3, {}}},
                          type.getShape(), type.getElementType(),
                          [](OpBuilder &nb, Location l, ValueRange x) {
                            return addValues(nb, l, x[0], x[1]);
                          });
}

LogicalResult checkConvOperands(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0), &w = ctx.input(1);
  if (w.rank() != x.rank())
    return ctx.emitError() << ctx.opType() << ": the filters have rank "
                           << w.rank() << ", the input rank " << x.rank();
  if (x.rank() < 3 || x.rank() > 5)
    return ctx.unsupported("of rank " + std::to_string(x.rank()));
  if (!isFloat(x.dtype))
    return ctx.unsupported(Twine("on ") + dtypeName(x.dtype));
  if (ctx.hasInput(2)) {
    // One bias per output channel: Conv's filters are [M, C/group, ...],
    // ConvTranspose's [C, M/group, ...] (of one group here).
    int64_t m = ctx.opType() == "ConvTranspose" ? w.shape[1] : w.shape[0];
    const TensorValue &bias = ctx.input(2);
    if (bias.rank() != 1 || bias.shape[0] != m)
      return ctx.emitError() << ctx.opType()
                             << ": the bias must hold one value per output "
                                "channel ("
                             << m << ")";
  }
  return success();
}

LogicalResult checkWindowValues(NodeContext &ctx, ArrayRef<int64_t> kernel,
                                ArrayRef<int64_t> strides,
                                ArrayRef<int64_t> dilations,
                                ArrayRef<int64_t> pads) {
  auto positive = [](int64_t v) { return v > 0; };
  if (!llvm::all_of(kernel, positive) || !llvm::all_of(strides, positive) ||
      !llvm::all_of(dilations, positive))
    return ctx.emitError() << ctx.opType()
                           << ": kernel extents, strides and dilations must "
                              "be positive";
  if (!llvm::all_of(pads, [](int64_t v) { return v >= 0; }))
    return ctx.emitError() << ctx.opType() << ": pads must not be negative";
  auto small = [](int64_t v) { return v <= kMaxWindowValue; };
  if (!llvm::all_of(kernel, small) || !llvm::all_of(strides, small) ||
      !llvm::all_of(dilations, small) || !llvm::all_of(pads, small))
    return ctx.emitError() << ctx.opType()
                           << ": kernel extents, strides, dilations and pads "
                              "must be at most 2^31";
  return success();
}

FailureOr<Window> windowOf(NodeContext &ctx, ArrayRef<int64_t> spatial,
                           ArrayRef<int64_t> kernel, bool ceilMode) {
  size_t n = spatial.size();
  Window w;
  w.kernel.assign(kernel.begin(), kernel.end());
  w.strides = ctx.attrInts("strides");
  w.dilations = ctx.attrInts("dilations");
  if (w.strides.empty())
    w.strides.assign(n, 1);
  if (w.dilations.empty())
    w.dilations.assign(n, 1);
  SmallVector<int64_t> pads = ctx.attrInts("pads");
  if (pads.empty())
    pads.assign(2 * n, 0);
  if (w.kernel.size() != n || w.strides.size() != n ||
      w.dilations.size() != n || pads.size() != 2 * n)
    return ctx.emitError() << ctx.opType()
                           << ": kernel, strides, dilations or pads do not "
                              "match the input's spatial rank "
                           << n;
  if (failed(checkWindowValues(ctx, w.kernel, w.strides, w.dilations, pads)))
    return failure();
  std::string autoPad = ctx.attrString("auto_pad", "NOTSET");
  for (size_t i = 0; i < n; ++i) {
    int64_t eff = (w.kernel[i] - 1) * w.dilations[i] + 1;
    int64_t begin = pads[i], end = pads[i + n];
    if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
      int64_t outSize = (spatial[i] + w.strides[i] - 1) / w.strides[i];
      int64_t total =
          std::max<int64_t>(0, (outSize - 1) * w.strides[i] + eff - spatial[i]);
      begin = autoPad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    } else if (autoPad == "VALID") {
      begin = end = 0;
    } else if (autoPad != "NOTSET") {
      return ctx.unsupported("auto_pad '" + autoPad + "'");
    }
    int64_t span = spatial[i] + begin + end - eff;
    if (span < 0)
      return ctx.emitError()
             << ctx.opType() << ": the window is larger than the input";
    int64_t out = ceilMode ? (span + w.strides[i] - 1) / w.strides[i] + 1
                           : span / w.strides[i] + 1;
    // A window must start inside the input or its leading pad.
    if (ceilMode && (out - 1) * w.strides[i] >= spatial[i] + begin)
      --out;
    // The trailing pad the windows reach (ceil mode may reach further).
    end = std::max<int64_t>(end, (out - 1) * w.strides[i] + eff - spatial[i] -
                                     begin);
    w.padBegin.push_back(begin);
    w.padEnd.push_back(end);
    w.out.push_back(out);
  }
  return w;
}

Value padSpatial(OpBuilder &b, Location loc, Value x, const Window &w,
                 double value, unsigned firstSpatial) {
  bool any = llvm::any_of(w.padBegin, [](int64_t p) { return p != 0; }) ||
             llvm::any_of(w.padEnd, [](int64_t p) { return p != 0; });
  if (!any)
    return x;
  RankedTensorType type = tensorTypeOf(x);
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> lo(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> hi = lo;
  for (size_t i = 0; i < w.padBegin.size(); ++i) {
    lo[i + firstSpatial] = b.getIndexAttr(w.padBegin[i]);
    hi[i + firstSpatial] = b.getIndexAttr(w.padEnd[i]);
    shape[i + firstSpatial] += w.padBegin[i] + w.padEnd[i];
  }
  Value pad = scalarConstant(b, loc, type.getElementType(), value);
  return tensor::PadOp::create(
      b, loc, RankedTensorType::get(shape, type.getElementType()), x, lo, hi,
      pad, /*nofold=*/false);
}

Value buildConvolution(OpBuilder &b, Location loc, Value input, Value weights,
                       Value init, DenseIntElementsAttr strides,
                       DenseIntElementsAttr dilations) {
  SmallVector<Value> ins = {input, weights};
  Type type = init.getType();
  switch (tensorTypeOf(init).getRank()) {
  case 3:
    return linalg::Conv1DNcwFcwOp::create(b, loc, type, ins, init, strides,
                                          dilations)
        .getResult(0);
  case 4:
    return linalg::Conv2DNchwFchwOp::create(b, loc, type, ins, init, strides,
                                            dilations)
        .getResult(0);
  default:
    return linalg::Conv3DNcdhwFcdhwOp::create(b, loc, type, ins, init, strides,
                                              dilations)
        .getResult(0);
  }
}

void registerConvConverters(ConverterTable &table) {
  table["Conv"] = convertConv;
  table["BatchNormalization"] = convertBatchNorm;
}

} // namespace hidet::onnx_import
