//===- Shape.cpp - Reshapes, transposes, concatenation, broadcast ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat and Expand. Each
// folds on known inputs (through moveData) and otherwise becomes tensor
// reshapes, linalg.transpose, insert_slice or a broadcasting generic.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// Defines output 0 as `value` reshaped, folding a known input.
LogicalResult reshapeTo(NodeContext &ctx, ArrayRef<int64_t> shape) {
  const TensorValue &in = ctx.input(0);
  if (product(shape) != product(in.shape))
    return ctx.emitError() << ctx.opType() << ": cannot reshape "
                           << product(in.shape) << " elements into "
                           << product(shape);
  if (in.constant) {
    ctx.setOutput(0, in.constant->reshaped(shape));
    return success();
  }
  ctx.setOutput(0, reshape(ctx.builder(), ctx.getLoc(), ctx.value(0), shape),
                in.dtype);
  return success();
}

LogicalResult convertReshape(NodeContext &ctx) {
  SmallVector<int64_t> requested;
  if (ctx.opset() < 5) {
    requested = ctx.attrInts("shape");
  } else {
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(1);
    if (failed(s))
      return failure();
    requested = *s;
  }
  ArrayRef<int64_t> inShape = ctx.input(0).shape;
  bool allowZero = ctx.attrInt("allowzero", 0) != 0;
  SmallVector<int64_t> shape;
  int64_t inferred = -1, known = 1;
  for (auto [i, d] : llvm::enumerate(requested)) {
    if (d == 0 && !allowZero) {
      if (i >= inShape.size())
        return ctx.emitError() << "Reshape copies dimension " << i
                               << " of a rank-" << inShape.size() << " input";
      d = inShape[i];
    }
    if (d == -1) {
      if (inferred >= 0)
        return ctx.emitError() << "Reshape with two -1 dimensions";
      inferred = i;
      shape.push_back(1);
      continue;
    }
    if (d < 0)
      return ctx.emitError() << "Reshape to a negative dimension " << d;
    if (llvm::MulOverflow(known, d, known))
      return ctx.emitError() << "Reshape to more elements than int64 counts";
    shape.push_back(d);
  }
  if (inferred >= 0) {
    if (known == 0 || product(inShape) % known != 0)
      return ctx.emitError() << "Reshape cannot infer the -1 dimension";
    shape[inferred] = product(inShape) / known;
  }
  return reshapeTo(ctx, shape);
}

LogicalResult convertFlatten(NodeContext &ctx) {
  ArrayRef<int64_t> in = ctx.input(0).shape;
  int64_t rank = in.size();
  int64_t axis = ctx.attrInt("axis", 1);
  if (axis < 0)
    axis += rank;
  if (axis < 0 || axis > rank)
    return ctx.emitError() << "Flatten axis out of range";
  return reshapeTo(
      ctx, {product(in.take_front(axis)), product(in.drop_front(axis))});
}

/// The axes of Squeeze/Unsqueeze: an attribute before opset 13, an input
/// from 13 on.
FailureOr<SmallVector<int64_t>> axesOf(NodeContext &ctx, unsigned input,
                                       int64_t sinceOpset) {
  if (ctx.opset() < sinceOpset)
    return ctx.attrInts("axes");
  if (!ctx.hasInput(input))
    return SmallVector<int64_t>();
  return ctx.constantInts(input);
}

LogicalResult convertSqueeze(NodeContext &ctx) {
  FailureOr<SmallVector<int64_t>> axes = axesOf(ctx, 1, 13);
  if (failed(axes))
    return failure();
  ArrayRef<int64_t> in = ctx.input(0).shape;
  int64_t rank = in.size();
  SmallVector<bool> drop(rank, false);
  for (int64_t a : *axes) {
    std::optional<int64_t> n = normalizeAxis(a, rank);
    if (!n || in[*n] != 1)
      return ctx.emitError()
             << "Squeeze axis " << a << " is not a dimension of extent 1";
    drop[*n] = true;
  }
  SmallVector<int64_t> shape;
  for (int64_t i = 0; i < rank; ++i)
    if (!(axes->empty() ? in[i] == 1 : drop[i]))
      shape.push_back(in[i]);
  return reshapeTo(ctx, shape);
}

LogicalResult convertUnsqueeze(NodeContext &ctx) {
  FailureOr<SmallVector<int64_t>> axes = axesOf(ctx, 1, 13);
  if (failed(axes))
    return failure();
  ArrayRef<int64_t> in = ctx.input(0).shape;
  int64_t outRank = in.size() + axes->size();
  SmallVector<bool> inserted(outRank, false);
  for (int64_t a : *axes) {
    std::optional<int64_t> n = normalizeAxis(a, outRank);
    if (!n || inserted[*n])
      return ctx.emitError() << "Unsqueeze axis " << a << " is invalid";
    inserted[*n] = true;
  }
  SmallVector<int64_t> shape;
  size_t next = 0;
  for (int64_t i = 0; i < outRank; ++i)
    shape.push_back(inserted[i] ? 1 : in[next++]);
  return reshapeTo(ctx, shape);
}

LogicalResult convertTranspose(NodeContext &ctx) {
  const TensorValue &in = ctx.input(0);
  int64_t rank = in.rank();
  SmallVector<int64_t> perm = ctx.attrInts("perm");
  if (perm.empty())
    for (int64_t i = rank - 1; i >= 0; --i)
      perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != rank)
    return ctx.emitError() << "Transpose perm has " << perm.size()
                           << " entries for a rank-" << rank << " input";
  if (!isPermutationVector(perm))
    return ctx.emitError() << "Transpose perm is not a permutation of 0 to "
                           << rank - 1;
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(in.shape[p]);
  if (in.constant && ctx.canFold(shape)) {
    ctx.setOutput(0, permuted(*in.constant, perm));
    return success();
  }
  ctx.setOutput(0, transpose(ctx.builder(), ctx.getLoc(), ctx.value(0), perm),
                in.dtype);
  return success();
}

LogicalResult convertConcat(NodeContext &ctx) {
  const TensorValue &first = ctx.input(0);
  int64_t rank = first.rank();
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", 0), rank);
  if (!axis)
    return ctx.emitError() << "Concat axis out of range";
  SmallVector<int64_t> shape(first.shape);
  shape[*axis] = 0;
  for (unsigned i = 0; i < ctx.numInputs(); ++i) {
    const TensorValue &in = ctx.input(i);
    if (in.rank() != rank)
      return ctx.emitError() << "Concat inputs of different ranks";
    if (in.dtype != first.dtype)
      return ctx.emitError() << "Concat inputs of different element types";
    for (int64_t d = 0; d < rank; ++d)
      if (d != *axis && in.shape[d] != first.shape[d])
        return ctx.emitError()
               << "Concat input " << i << " has extent " << in.shape[d]
               << " in dim " << d << ", input 0 has " << first.shape[d];
    if (llvm::AddOverflow(shape[*axis], in.shape[*axis], shape[*axis]))
      return ctx.emitError()
             << "Concat to more than int64 counts in dim " << *axis;
  }
  if (ctx.allInputsKnown() && ctx.canFold(shape)) {
    // Concatenate row blocks: outer x (extent along axis x inner).
    int64_t outer = product(ArrayRef<int64_t>(shape).take_front(*axis));
    int64_t inner = product(ArrayRef<int64_t>(shape).drop_front(*axis + 1));
    unsigned size = dtypeSize(first.dtype);
    HostTensor out = HostTensor::zeros(first.dtype, shape);
    char *dst = out.getMutableData();
    for (int64_t o = 0; o < outer; ++o) {
      for (unsigned i = 0; i < ctx.numInputs(); ++i) {
        const HostTensor &c = *ctx.constant(i);
        int64_t block = c.getShape()[*axis] * inner * size;
        // An empty input has no data to copy (and may have no buffer).
        if (block == 0)
          continue;
        std::memcpy(dst, c.getData() + o * block, block);
        dst += block;
      }
    }
    ctx.setOutput(0, std::move(out));
    return success();
  }
  OpBuilder &b = ctx.builder();
  Importer &imp = ctx.getImporter();
  Value result =
      emptyTensor(b, ctx.getLoc(), shape, imp.elementType(first.dtype));
  int64_t offset = 0;
  for (unsigned i = 0; i < ctx.numInputs(); ++i) {
    const TensorValue &in = ctx.input(i);
    if (in.shape[*axis] == 0)
      continue;
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
    offsets[*axis] = b.getIndexAttr(offset);
    SmallVector<OpFoldResult> sizes, strides(rank, b.getIndexAttr(1));
    for (int64_t d : in.shape)
      sizes.push_back(b.getIndexAttr(d));
    result = tensor::InsertSliceOp::create(b, ctx.getLoc(), ctx.value(i),
                                           result, offsets, sizes, strides);
    offset += in.shape[*axis];
  }
  ctx.setOutput(0, result, first.dtype);
  return success();
}

LogicalResult convertExpand(NodeContext &ctx) {
  FailureOr<SmallVector<int64_t>> requested = ctx.constantInts(1);
  if (failed(requested))
    return failure();
  const TensorValue &in = ctx.input(0);
  if (llvm::any_of(*requested, [](int64_t d) { return d < 0; }))
    return ctx.emitError() << "Expand to a negative extent";
  std::optional<SmallVector<int64_t>> shape =
      broadcastShapes({in.shape, *requested});
  if (!shape)
    return ctx.emitError() << "Expand: the shapes do not broadcast";
  if (in.constant && ctx.canFold(*shape)) {
    int64_t offset = shape->size() - in.shape.size();
    ctx.setOutput(0, moveData(*in.constant, *shape, [&](ArrayRef<int64_t> o) {
                    SmallVector<int64_t> src;
                    for (size_t d = 0; d < in.shape.size(); ++d)
                      src.push_back(in.shape[d] == 1 ? 0 : o[offset + d]);
                    return linearIndex(src, in.shape);
                  }));
    return success();
  }
  Type elem = ctx.getImporter().elementType(in.dtype);
  Value result = buildElementwise(
      ctx.builder(), ctx.getLoc(), Operand{ctx.value(0), {}}, *shape, elem,
      [](OpBuilder &, Location, ValueRange a) { return a[0]; });
  ctx.setOutput(0, result, in.dtype);
  return success();
}

} // namespace

void registerShapeConverters(ConverterTable &table) {
  table["Reshape"] = convertReshape;
  table["Flatten"] = convertFlatten;
  table["Squeeze"] = convertSqueeze;
  table["Unsqueeze"] = convertUnsqueeze;
  table["Transpose"] = convertTranspose;
  table["Concat"] = convertConcat;
  table["Expand"] = convertExpand;
}

} // namespace hidet::onnx_import
