//===- Linear.cpp - MatMul and Gemm ---------------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// MatMul and Gemm become linalg.matmul or linalg.batch_matmul, with Gemm's
// scales and bias as elementwise ops after them (the partitioner fuses those
// as epilogues). Convolutions are in Conv.cpp.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// a @ b for a [..., m, k] and b [..., k, n] with NumPy batch broadcasting.
FailureOr<Value> matmul(NodeContext &ctx, Value a, Value bv) {
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  SmallVector<int64_t> as(tensorTypeOf(a).getShape()),
      bs(tensorTypeOf(bv).getShape());
  Type elem = tensorTypeOf(a).getElementType();
  if (as.empty() || bs.empty())
    return ctx.emitError() << ctx.opType()
                           << " takes tensors of rank 1 or more, not scalars";
  bool aVec = as.size() == 1, bVec = bs.size() == 1;
  if (aVec) {
    as.insert(as.begin(), 1);
    a = reshape(b, loc, a, as);
  }
  if (bVec) {
    bs.push_back(1);
    bv = reshape(b, loc, bv, bs);
  }
  int64_t m = as[as.size() - 2], k = as.back(), n = bs.back();
  if (bs[bs.size() - 2] != k)
    return ctx.emitError() << "MatMul contracts " << k << " with "
                           << bs[bs.size() - 2];
  SmallVector<int64_t> aBatch(as.begin(), as.end() - 2),
      bBatch(bs.begin(), bs.end() - 2);
  std::optional<SmallVector<int64_t>> batch = broadcastShapes({aBatch, bBatch});
  if (!batch)
    return ctx.emitError() << "MatMul batch dimensions do not broadcast";
  SmallVector<int64_t> outShape(*batch);
  outShape.push_back(m);
  outShape.push_back(n);
  Value result;
  if (product(bBatch) == 1 && *batch == aBatch) {
    // One weight for every batch: a single GEMM over the rows of all.
    int64_t rows = product(aBatch) * m;
    Value a2 = reshape(b, loc, a, {rows, k});
    Value b2 = reshape(b, loc, bv, {k, n});
    Value init = zeroFilled(b, loc, {rows, n}, elem);
    result =
        linalg::MatmulOp::create(b, loc, ValueRange{a2, b2}, ValueRange{init})
            .getResult(0);
  } else {
    int64_t count = product(*batch);
    auto broadcastTo = [&](Value v, ArrayRef<int64_t> vBatch, int64_t r,
                           int64_t c) {
      SmallVector<int64_t> full(*batch);
      full.push_back(r);
      full.push_back(c);
      if (ArrayRef<int64_t>(vBatch) != ArrayRef<int64_t>(*batch))
        v = buildElementwise(
            b, loc, Operand{v, {}}, full, elem,
            [](OpBuilder &, Location, ValueRange x) { return x[0]; });
      return reshape(b, loc, v, {count, r, c});
    };
    Value a3 = broadcastTo(a, aBatch, m, k);
    Value b3 = broadcastTo(bv, bBatch, k, n);
    Value init = zeroFilled(b, loc, {count, m, n}, elem);
    result = linalg::BatchMatmulOp::create(b, loc, ValueRange{a3, b3},
                                           ValueRange{init})
                 .getResult(0);
  }
  SmallVector<int64_t> finalShape(*batch);
  if (!aVec)
    finalShape.push_back(m);
  if (!bVec)
    finalShape.push_back(n);
  return reshape(b, loc, result, finalShape);
}

/// A known 2-D right-hand operand [K, N] (input `i`, transposed at import
/// when `trans`): its rows padded with zeros to a multiple of 16 bytes when
/// they are not one (and the padding is at most 1/16 of them), and the first
/// N columns taken as a slice, so that the GEMM templates read aligned rows
/// (TMA and 16-byte copies need them; GPT-2's lm_head has N = 50257).
Value knownRightOperand(NodeContext &ctx, unsigned i, bool trans) {
  Importer &imp = ctx.getImporter();
  const TensorValue &in = ctx.input(i);
  int64_t k = in.shape[trans ? 1 : 0], n = in.shape[trans ? 0 : 1];
  unsigned bytes = dtypeSize(imp.computeType(in.dtype));
  int64_t align =
      bytes ? std::max<int64_t>(kTemplatePieceBytes / bytes, 1) : 1;
  int64_t padded = (n + align - 1) / align * align;
  // Only where the padding is a small part of the weight.
  if ((padded - n) * kMaxPaddingFraction > n)
    padded = n;
  TensorValue v;
  v.dtype = in.dtype;
  v.name = in.name + (trans ? "_transposed" : "");
  if (padded == n && !trans)
    return ctx.value(i);
  HostTensor t = trans ? permuted(*in.constant, {1, 0}) : *in.constant;
  if (padded == n) {
    v.shape = {k, n};
    v.constant = t;
    return imp.materialize(v);
  }
  v.shape = {k, padded};
  v.constant = paddedWithZeros(t, v.shape);
  v.name += "_padded";
  OpBuilder &b = ctx.builder();
  SmallVector<OpFoldResult> offsets = {b.getIndexAttr(0), b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(k), b.getIndexAttr(n)};
  SmallVector<OpFoldResult> strides = {b.getIndexAttr(1), b.getIndexAttr(1)};
  return tensor::ExtractSliceOp::create(b, ctx.getLoc(), imp.materialize(v),
                                        offsets, sizes, strides);
}

LogicalResult convertMatMul(NodeContext &ctx) {
  if (ctx.input(0).dtype != ctx.input(1).dtype)
    return ctx.emitError() << "MatMul of different element types";
  const TensorValue &rhs = ctx.input(1);
  Value b = rhs.constant && rhs.rank() == 2
                ? knownRightOperand(ctx, 1, /*trans=*/false)
                : ctx.value(1);
  FailureOr<Value> r = matmul(ctx, ctx.value(0), b);
  if (failed(r))
    return failure();
  ctx.setOutput(0, *r, ctx.input(0).dtype);
  return success();
}

/// Value of a 2-D input, transposed when `trans`; known tensors are
/// transposed at import (and B's rows padded: knownRightOperand).
Value gemmOperand(NodeContext &ctx, unsigned i, bool trans) {
  const TensorValue &in = ctx.input(i);
  if (i == 1 && in.constant)
    return knownRightOperand(ctx, i, trans);
  if (!trans)
    return ctx.value(i);
  if (in.constant) {
    TensorValue t;
    t.dtype = in.dtype;
    t.shape = {in.shape[1], in.shape[0]};
    t.constant = permuted(*in.constant, {1, 0});
    t.name = in.name + "_transposed";
    return ctx.getImporter().materialize(t);
  }
  return transpose(ctx.builder(), ctx.getLoc(), ctx.value(i), {1, 0});
}

LogicalResult convertGemm(NodeContext &ctx) {
  if (ctx.input(0).rank() != 2 || ctx.input(1).rank() != 2)
    return ctx.emitError() << "Gemm takes 2-D A and B";
  DType dtype = ctx.input(0).dtype;
  Value a = gemmOperand(ctx, 0, ctx.attrInt("transA", 0));
  Value bv = gemmOperand(ctx, 1, ctx.attrInt("transB", 0));
  FailureOr<Value> product = matmul(ctx, a, bv);
  if (failed(product))
    return failure();
  float alpha = ctx.attrFloat("alpha", 1), beta = ctx.attrFloat("beta", 1);
  Value result = *product;
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = tensorTypeOf(result).getElementType();
  bool hasC = ctx.hasInput(2) && beta != 0;
  if (alpha != 1 || hasC) {
    SmallVector<Operand> operands = {{result, {}}};
    if (hasC)
      operands.push_back({ctx.value(2), {}});
    ArrayRef<int64_t> shape = tensorTypeOf(result).getShape();
    if (hasC &&
        !broadcastShapes({SmallVector<int64_t>(shape), ctx.input(2).shape}))
      return ctx.emitError() << "Gemm C does not broadcast to the product";
    result = buildElementwise(
        b, loc, operands, shape, elem,
        [&](OpBuilder &nb, Location l, ValueRange x) -> Value {
          Value y = x[0];
          if (alpha != 1)
            y = mulValues(nb, l, y, scalarConstant(nb, l, elem, alpha));
          if (!hasC)
            return y;
          Value c = x[1];
          if (beta != 1)
            c = mulValues(nb, l, c, scalarConstant(nb, l, elem, beta));
          return addValues(nb, l, y, c);
        });
  }
  ctx.setOutput(0, result, dtype);
  return success();
}

} // namespace

void registerLinearConverters(ConverterTable &table) {
  table["MatMul"] = convertMatMul;
  table["Gemm"] = convertGemm;
}

} // namespace hidet::onnx_import