//===- Indexing.cpp - Slices, splits, gathers, tiles and pads -------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Split, Slice, Gather, GatherElements, Tile, Pad, DepthToSpace and
// SpaceToDepth. Each folds on known inputs; positive
// strides are tensor.extract_slice and constant pads tensor.pad; the rest is
// a linalg.generic that reads its source with tensor.extract at indices
// computed from linalg.index.
//
//===----------------------------------------------------------------------===//

#include "Builders.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// A strided slice of input 0 (all steps positive) as output `out`.
void sliceOutput(NodeContext &ctx, unsigned out, ArrayRef<int64_t> starts,
                 ArrayRef<int64_t> sizes, ArrayRef<int64_t> steps) {
  const TensorValue &in = ctx.input(0);
  if (product(sizes) == 0) {
    // An empty slice: nothing to read (its offsets may lie at the end).
    ctx.setOutput(out, HostTensor::zeros(in.dtype, sizes));
    return;
  }
  if (in.constant && ctx.canFold(sizes)) {
    ctx.setOutput(out,
                  moveData(*in.constant, sizes, [&](ArrayRef<int64_t> idx) {
                    SmallVector<int64_t> src;
                    for (size_t d = 0; d < idx.size(); ++d)
                      src.push_back(starts[d] + idx[d] * steps[d]);
                    return linearIndex(src, in.shape);
                  }));
    return;
  }
  OpBuilder &b = ctx.builder();
  auto attrs = [&](ArrayRef<int64_t> v) {
    SmallVector<OpFoldResult> r;
    for (int64_t x : v)
      r.push_back(b.getIndexAttr(x));
    return r;
  };
  auto type =
      RankedTensorType::get(sizes, ctx.getImporter().elementType(in.dtype));
  Value slice =
      tensor::ExtractSliceOp::create(b, ctx.getLoc(), type, ctx.value(0),
                                     attrs(starts), attrs(sizes), attrs(steps));
  ctx.setOutput(out, slice, in.dtype);
}

LogicalResult convertSplit(NodeContext &ctx) {
  const TensorValue &in = ctx.input(0);
  std::optional<int64_t> axis =
      normalizeAxis(ctx.attrInt("axis", 0), in.rank());
  if (!axis)
    return ctx.emitError() << "Split axis out of range";
  int64_t extent = in.shape[*axis];
  SmallVector<int64_t> split;
  if (ctx.opset() < 13) {
    split = ctx.attrInts("split");
  } else if (ctx.hasInput(1)) {
    FailureOr<SmallVector<int64_t>> s = ctx.constantInts(1);
    if (failed(s))
      return failure();
    split = *s;
  }
  unsigned n = ctx.numOutputs();
  if (split.empty()) {
    // Equal parts; from opset 18 `num_outputs` may leave a smaller last one.
    int64_t parts = ctx.attrInt("num_outputs", n);
    if (parts < 1)
      return ctx.emitError() << "Split into " << parts << " parts";
    int64_t chunk = (extent + parts - 1) / parts;
    for (int64_t i = 0, left = extent; i < parts; ++i, left -= chunk)
      split.push_back(std::min(chunk, left));
  }
  if (split.size() != n)
    return ctx.emitError() << "Split into " << split.size() << " parts with "
                           << n << " outputs";
  int64_t total = 0;
  for (int64_t part : split)
    if (part < 0 || llvm::AddOverflow(total, part, total))
      return ctx.emitError() << "Split parts must not be negative";
  if (total != extent)
    return ctx.emitError() << "Split parts sum to " << total
                           << ", the axis has " << extent;
  int64_t offset = 0;
  for (unsigned i = 0; i < n; ++i) {
    SmallVector<int64_t> starts(in.rank(), 0), sizes(in.shape),
        steps(in.rank(), 1);
    starts[*axis] = offset;
    sizes[*axis] = split[i];
    offset += split[i];
    sliceOutput(ctx, i, starts, sizes, steps);
  }
  return success();
}

/// An index value for tensor.extract from an integer scalar.
Value toIndex(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isIndex())
    return v;
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
}

Value indexConst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// The index of a gather's integer scalar `v` into a dimension of `extent`:
/// negative values count from the end (checked against the extent at run
/// time by hidet-check-indices, not here).
Value wrappedIndex(OpBuilder &b, Location loc, Value v, int64_t extent) {
  Value k = toIndex(b, loc, v);
  Value neg = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, k,
                                    indexConst(b, loc, 0));
  Value wrapped = arith::AddIOp::create(b, loc, k, indexConst(b, loc, extent));
  return arith::SelectOp::create(b, loc, neg, wrapped, k);
}

/// A linalg.generic over `shape` whose element is `source` read at the
/// indices `indexFn` computes from the output's (linalg.index) indices and
/// from the scalars of `inputs`.
Value gatherGeneric(
    OpBuilder &b, Location loc, Value source, ArrayRef<int64_t> shape,
    ArrayRef<Value> inputs, ArrayRef<AffineMap> inputMaps,
    llvm::function_ref<SmallVector<Value>(
        OpBuilder &, Location, ArrayRef<Value> outIdx, ValueRange scalars)>
        indexFn) {
  Type elem = tensorTypeOf(source).getElementType();
  int64_t rank = shape.size();
  Value init = emptyTensor(b, loc, shape, elem);
  SmallVector<AffineMap> maps(inputMaps.begin(), inputMaps.end());
  maps.push_back(b.getMultiDimIdentityMap(rank));
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, init.getType(), inputs, ValueRange{init}, maps, iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               SmallVector<Value> outIdx;
               for (int64_t d = 0; d < rank; ++d)
                 outIdx.push_back(linalg::IndexOp::create(nb, nloc, d));
               SmallVector<Value> srcIdx =
                   indexFn(nb, nloc, outIdx, args.drop_back());
               Value v = tensor::ExtractOp::create(nb, nloc, source, srcIdx);
               linalg::YieldOp::create(nb, nloc, v);
             })
      .getResult(0);
}

LogicalResult convertSlice(NodeContext &ctx) {
  const TensorValue &in = ctx.input(0);
  int64_t rank = in.rank();
  SmallVector<int64_t> starts, ends, axes, steps;
  if (ctx.opset() < 10) {
    starts = ctx.attrInts("starts");
    ends = ctx.attrInts("ends");
    axes = ctx.attrInts("axes");
  } else {
    for (auto [i, dst] : llvm::enumerate(SmallVector<SmallVector<int64_t> *>{
             &starts, &ends, &axes, &steps})) {
      if (!ctx.hasInput(i + 1))
        continue;
      FailureOr<SmallVector<int64_t>> v = ctx.constantInts(i + 1);
      if (failed(v))
        return failure();
      *dst = *v;
    }
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    return ctx.emitError() << "Slice starts, ends, axes and steps differ in "
                              "length";
  SmallVector<int64_t> first(rank, 0), sizes(in.shape), stride(rank, 1);
  for (size_t i = 0; i < starts.size(); ++i) {
    std::optional<int64_t> a = normalizeAxis(axes[i], rank);
    if (!a)
      return ctx.emitError() << "Slice axis " << axes[i] << " out of range";
    int64_t dim = in.shape[*a], step = steps[i];
    if (step == 0)
      return ctx.emitError() << "Slice with a zero step";
    auto clampIndex = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v += dim;
      return std::clamp(v, lo, hi);
    };
    int64_t s, e;
    if (step > 0) {
      s = clampIndex(starts[i], 0, dim);
      e = clampIndex(ends[i], 0, dim);
    } else {
      s = clampIndex(starts[i], 0, dim - 1);
      e = ends[i] < -dim ? -1 : clampIndex(ends[i], -1, dim - 1);
    }
    // The elements from s towards e, in steps of any size (a step of
    // INT64_MAX or INT64_MIN takes one): no sum or negation that overflows.
    int64_t count = 0;
    if (step > 0 && e > s)
      count = (e - s - 1) / step + 1;
    else if (step < 0 && s > e)
      count = step == std::numeric_limits<int64_t>::min()
                  ? 1
                  : (s - e - 1) / -step + 1;
    first[*a] = s;
    sizes[*a] = count;
    stride[*a] = step;
  }
  bool positive = llvm::all_of(stride, [](int64_t s) { return s > 0; });
  if (positive || (in.constant && ctx.canFold(sizes))) {
    sliceOutput(ctx, 0, first, sizes, stride);
    return success();
  }
  OpBuilder &b = ctx.builder();
  Value result = gatherGeneric(
      b, ctx.getLoc(), ctx.value(0), sizes, {}, {},
      [&](OpBuilder &nb, Location l, ArrayRef<Value> idx, ValueRange) {
        SmallVector<Value> src;
        for (int64_t d = 0; d < rank; ++d) {
          Value scaled = arith::MulIOp::create(nb, l, idx[d],
                                               indexConst(nb, l, stride[d]));
          src.push_back(arith::AddIOp::create(nb, l, scaled,
                                              indexConst(nb, l, first[d])));
        }
        return src;
      });
  ctx.setOutput(0, result, in.dtype);
  return success();
}

LogicalResult convertGather(NodeContext &ctx) {
  const TensorValue &data = ctx.input(0), &indices = ctx.input(1);
  int64_t rank = data.rank(), q = indices.rank();
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", 0), rank);
  if (!axis)
    return ctx.emitError() << "Gather axis out of range";
  if (isFloat(indices.dtype))
    return ctx.emitError() << "Gather indices must be integers, not "
                           << dtypeName(indices.dtype);
  SmallVector<int64_t> shape(data.shape.begin(), data.shape.begin() + *axis);
  shape.append(indices.shape.begin(), indices.shape.end());
  shape.append(data.shape.begin() + *axis + 1, data.shape.end());
  int64_t extent = data.shape[*axis];
  if (data.constant && indices.constant && ctx.canFold(shape)) {
    const HostTensor &idx = *indices.constant;
    for (int64_t i = 0; i < idx.getNumElements(); ++i)
      if (idx.getInt(i) < -extent || idx.getInt(i) >= extent)
        return ctx.emitError() << "Gather index " << idx.getInt(i)
                               << " out of range for extent " << extent;
    ctx.setOutput(0, moveData(*data.constant, shape, [&](ArrayRef<int64_t> o) {
                    SmallVector<int64_t> src(o.take_front(*axis));
                    int64_t k = idx.getInt(
                        linearIndex(o.slice(*axis, q), indices.shape));
                    src.push_back(k < 0 ? k + extent : k);
                    src.append(o.begin() + *axis + q, o.end());
                    return linearIndex(src, data.shape);
                  }));
    return success();
  }
  OpBuilder &b = ctx.builder();
  if (indices.constant && indices.constant->getNumElements() == 1) {
    // One known index (a transformer's query, key and value picked from a
    // stacked projection): a slice of the data, which later passes see
    // through, instead of a copy that reads it element by element.
    int64_t k = indices.constant->getInt(0);
    if (k < -extent || k >= extent)
      return ctx.emitError() << "Gather index " << k
                             << " out of range for extent " << extent;
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)),
        strides(rank, b.getIndexAttr(1)), sizes;
    offsets[*axis] = b.getIndexAttr(k < 0 ? k + extent : k);
    for (int64_t d = 0; d < rank; ++d)
      sizes.push_back(b.getIndexAttr(d == *axis ? 1 : data.shape[d]));
    SmallVector<int64_t> sliceShape(data.shape);
    sliceShape[*axis] = 1;
    auto type = RankedTensorType::get(
        sliceShape, ctx.getImporter().elementType(data.dtype));
    Value slice = tensor::ExtractSliceOp::create(
        b, ctx.getLoc(), type, ctx.value(0), offsets, sizes, strides);
    ctx.setOutput(0, reshape(b, ctx.getLoc(), slice, shape), data.dtype);
    return success();
  }
  int64_t outRank = shape.size();
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d < q; ++d)
    idxExprs.push_back(b.getAffineDimExpr(*axis + d));
  AffineMap idxMap = AffineMap::get(outRank, 0, idxExprs, b.getContext());
  Value result = gatherGeneric(
      b, ctx.getLoc(), ctx.value(0), shape, {ctx.value(1)}, {idxMap},
      [&](OpBuilder &nb, Location l, ArrayRef<Value> o, ValueRange s) {
        SmallVector<Value> src(o.begin(), o.begin() + *axis);
        src.push_back(wrappedIndex(nb, l, s[0], extent));
        src.append(o.begin() + *axis + q, o.end());
        return src;
      });
  ctx.setOutput(0, result, data.dtype);
  return success();
}

/// GatherND: the index tuples of the last dimension of `indices`, each of M
/// coordinates, pick slices of the data after its first `batch_dims`
/// dimensions, which the data and the indices share. Negative coordinates
/// count from the end; a coordinate out of range is a run-time error (the
/// index checks of tensor.extract).
LogicalResult convertGatherND(NodeContext &ctx) {
  const TensorValue &data = ctx.input(0), &indices = ctx.input(1);
  int64_t r = data.rank(), q = indices.rank();
  int64_t batch = ctx.attrInt("batch_dims", 0);
  if (isFloat(indices.dtype))
    return ctx.emitError() << "GatherND indices must be integers, not "
                           << dtypeName(indices.dtype);
  if (q < 1 || r < 1 || batch < 0 || batch >= std::min(q, r))
    return ctx.emitError() << "GatherND batch_dims " << batch
                           << " must be less than the ranks of the data (" << r
                           << ") and the indices (" << q << ")";
  int64_t m = indices.shape[q - 1];
  if (m < 1 || batch + m > r)
    return ctx.emitError() << "GatherND index tuples of " << m
                           << " coordinates address more than the data's "
                           << r - batch << " dimensions after batch_dims";
  for (int64_t d = 0; d < batch; ++d)
    if (indices.shape[d] != data.shape[d])
      return ctx.emitError() << "GatherND batch dimension " << d << " is "
                             << data.shape[d] << " in the data and "
                             << indices.shape[d] << " in the indices";
  SmallVector<int64_t> shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.append(data.shape.begin() + batch + m, data.shape.end());
  int64_t outRank = shape.size();
  OpBuilder &b = ctx.builder();
  // The index tuple's coordinate j, read at the output's leading q - 1
  // indices.
  SmallVector<Value> inputs(m, ctx.value(1));
  SmallVector<AffineMap> maps;
  for (int64_t j = 0; j < m; ++j) {
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d + 1 < q; ++d)
      exprs.push_back(b.getAffineDimExpr(d));
    exprs.push_back(b.getAffineConstantExpr(j));
    maps.push_back(AffineMap::get(outRank, 0, exprs, b.getContext()));
  }
  Value result = gatherGeneric(
      b, ctx.getLoc(), ctx.value(0), shape, inputs, maps,
      [&](OpBuilder &nb, Location l, ArrayRef<Value> o, ValueRange s) {
        SmallVector<Value> src(o.begin(), o.begin() + batch);
        for (int64_t j = 0; j < m; ++j)
          src.push_back(wrappedIndex(nb, l, s[j], data.shape[batch + j]));
        src.append(o.begin() + q - 1, o.end());
        return src;
      });
  ctx.setOutput(0, result, data.dtype);
  return success();
}

LogicalResult convertTile(NodeContext &ctx) {
  FailureOr<SmallVector<int64_t>> repeats = ctx.constantInts(1);
  if (failed(repeats))
    return failure();
  const TensorValue &in = ctx.input(0);
  if (static_cast<int64_t>(repeats->size()) != in.rank())
    return ctx.emitError() << "Tile repeats must have one entry per dimension";
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < in.rank(); ++d) {
    int64_t repeat = (*repeats)[d], extent = 0;
    if (repeat < 0)
      return ctx.emitError() << "Tile repeats must not be negative, got "
                             << repeat << " for dimension " << d;
    if (llvm::MulOverflow(in.shape[d], repeat, extent))
      return ctx.emitError()
             << "Tile of dimension " << d << " (" << in.shape[d] << " x "
             << repeat << ") to more elements than int64 counts";
    shape.push_back(extent);
  }
  if (in.constant && ctx.canFold(shape)) {
    ctx.setOutput(0, moveData(*in.constant, shape, [&](ArrayRef<int64_t> o) {
                    SmallVector<int64_t> src;
                    for (int64_t d = 0; d < in.rank(); ++d)
                      src.push_back(o[d] % in.shape[d]);
                    return linearIndex(src, in.shape);
                  }));
    return success();
  }
  Value result = gatherGeneric(
      ctx.builder(), ctx.getLoc(), ctx.value(0), shape, {}, {},
      [&](OpBuilder &nb, Location l, ArrayRef<Value> o, ValueRange) {
        SmallVector<Value> src;
        for (int64_t d = 0; d < in.rank(); ++d)
          src.push_back(arith::RemUIOp::create(nb, l, o[d],
                                               indexConst(nb, l, in.shape[d])));
        return src;
      });
  ctx.setOutput(0, result, in.dtype);
  return success();
}

LogicalResult convertPad(NodeContext &ctx) {
  const TensorValue &in = ctx.input(0);
  int64_t rank = in.rank();
  std::string mode = ctx.attrString("mode", "constant");
  SmallVector<int64_t> pads;
  double padValue = 0;
  SmallVector<int64_t> axes;
  if (ctx.opset() < 11) {
    pads = ctx.attrInts("pads");
    padValue = ctx.attrFloat("value", 0);
  } else {
    FailureOr<SmallVector<int64_t>> p = ctx.constantInts(1);
    if (failed(p))
      return failure();
    pads = *p;
    if (ctx.hasInput(2)) {
      const HostTensor *c = ctx.requireConstant(2);
      if (!c)
        return failure();
      padValue = c->getDouble(0);
    }
    if (ctx.hasInput(3)) {
      FailureOr<SmallVector<int64_t>> a = ctx.constantInts(3);
      if (failed(a))
        return failure();
      axes = *a;
    }
  }
  if (axes.empty())
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  if (pads.size() != 2 * axes.size())
    return ctx.emitError() << "Pad has " << pads.size() << " pads for "
                           << axes.size() << " axes";
  SmallVector<int64_t> low(rank, 0), high(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    std::optional<int64_t> a = normalizeAxis(axes[i], rank);
    if (!a)
      return ctx.emitError() << "Pad axis out of range";
    low[*a] = pads[i];
    high[*a] = pads[i + axes.size()];
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t extent = 0;
    if (llvm::AddOverflow(in.shape[d], low[d], extent) ||
        llvm::AddOverflow(extent, high[d], extent))
      return ctx.emitError()
             << "Pad of dimension " << d << " past what int64 counts";
    if (extent < 0)
      return ctx.emitError()
             << "Pad of dimension " << d << " to a negative extent " << extent;
    shape.push_back(extent);
  }
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Type elem = ctx.getImporter().elementType(in.dtype);
  if (mode == "constant" &&
      llvm::all_of(low, [](int64_t v) { return v >= 0; }) &&
      llvm::all_of(high, [](int64_t v) { return v >= 0; })) {
    Value pad = scalarConstant(b, loc, elem, padValue);
    auto type = RankedTensorType::get(shape, elem);
    SmallVector<OpFoldResult> lo, hi;
    for (int64_t d = 0; d < rank; ++d) {
      lo.push_back(b.getIndexAttr(low[d]));
      hi.push_back(b.getIndexAttr(high[d]));
    }
    Value result = tensor::PadOp::create(b, loc, type, ctx.value(0), lo, hi,
                                         pad, /*nofold=*/false);
    ctx.setOutput(0, result, in.dtype);
    return success();
  }
  if (mode != "constant" && mode != "edge" && mode != "reflect")
    return ctx.unsupported("mode '" + mode + "'");
  // Every output element reads the input at a source index (clamped for
  // `edge`, mirrored for `reflect`), or is the pad value (`constant` with
  // negative pads, which crop).
  Value source = ctx.value(0);
  Value padScalar = scalarConstant(b, loc, elem, padValue);
  Value init = emptyTensor(b, loc, shape, elem);
  SmallVector<AffineMap> maps = {b.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value result =
      linalg::GenericOp::create(
          b, loc, init.getType(), ValueRange{}, ValueRange{init}, maps,
          iterators,
          [&](OpBuilder &nb, Location l, ValueRange) {
            SmallVector<Value> src;
            Value inside =
                arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
            for (int64_t d = 0; d < rank; ++d) {
              Value i = linalg::IndexOp::create(nb, l, d);
              Value s =
                  arith::SubIOp::create(nb, l, i, indexConst(nb, l, low[d]));
              Value zero = indexConst(nb, l, 0);
              Value last = indexConst(nb, l, in.shape[d] - 1);
              if (mode == "edge") {
                s = arith::MaxSIOp::create(nb, l, s, zero);
                s = arith::MinSIOp::create(nb, l, s, last);
              } else if (mode == "reflect") {
                // -s for s < 0, 2 * last - s for s > last.
                s = arith::SelectOp::create(
                    nb, l,
                    arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, s,
                                          zero),
                    arith::SubIOp::create(nb, l, zero, s), s);
                Value twice = indexConst(nb, l, 2 * (in.shape[d] - 1));
                s = arith::SelectOp::create(
                    nb, l,
                    arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sgt, s,
                                          last),
                    arith::SubIOp::create(nb, l, twice, s), s);
              } else {
                Value ge = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::sge, s, zero);
                Value le = arith::CmpIOp::create(
                    nb, l, arith::CmpIPredicate::sle, s, last);
                inside = arith::AndIOp::create(
                    nb, l, inside, arith::AndIOp::create(nb, l, ge, le));
                s = arith::MaxSIOp::create(nb, l, s, zero);
                s = arith::MinSIOp::create(nb, l, s, last);
              }
              src.push_back(s);
            }
            Value v = tensor::ExtractOp::create(nb, l, source, src);
            if (mode == "constant")
              v = arith::SelectOp::create(nb, l, inside, v, padScalar);
            linalg::YieldOp::create(nb, l, v);
          })
          .getResult(0);
  ctx.setOutput(0, result, in.dtype);
  return success();
}

LogicalResult convertGatherElements(NodeContext &ctx) {
  const TensorValue &data = ctx.input(0), &indices = ctx.input(1);
  int64_t rank = data.rank();
  std::optional<int64_t> axis = normalizeAxis(ctx.attrInt("axis", 0), rank);
  if (!axis || indices.rank() != rank)
    return ctx.emitError() << "GatherElements needs indices of the data's "
                              "rank and an axis in range";
  int64_t extent = data.shape[*axis];
  OpBuilder &b = ctx.builder();
  Value result = gatherGeneric(
      b, ctx.getLoc(), ctx.value(0), indices.shape, {ctx.value(1)},
      {b.getMultiDimIdentityMap(rank)},
      [&](OpBuilder &nb, Location l, ArrayRef<Value> o, ValueRange s) {
        SmallVector<Value> src(o.begin(), o.end());
        src[*axis] = wrappedIndex(nb, l, s[0], extent);
        return src;
      });
  ctx.setOutput(0, result, data.dtype);
  return success();
}

/// DepthToSpace and SpaceToDepth: a reshape, a transpose and a reshape.
LogicalResult convertDepthSpace(NodeContext &ctx) {
  const TensorValue &x = ctx.input(0);
  if (x.rank() != 4)
    return ctx.unsupported("of rank " + std::to_string(x.rank()));
  int64_t bs = ctx.attrInt("blocksize", 0);
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  OpBuilder &b = ctx.builder();
  Location loc = ctx.getLoc();
  Value v = ctx.value(0);
  if (ctx.opType() == "DepthToSpace") {
    int64_t square = 0;
    if (bs <= 0 || llvm::MulOverflow(bs, bs, square) || c % square)
      return ctx.emitError() << "DepthToSpace blocksize " << bs
                             << " does not divide " << c << " channels";
    int64_t cc = c / square;
    bool crd = ctx.attrString("mode", "DCR") == "CRD";
    v = reshape(b, loc, v,
                crd ? SmallVector<int64_t>{n, cc, bs, bs, h, w}
                    : SmallVector<int64_t>{n, bs, bs, cc, h, w});
    v = transpose(b, loc, v,
                  crd ? SmallVector<int64_t>{0, 1, 4, 2, 5, 3}
                      : SmallVector<int64_t>{0, 3, 4, 1, 5, 2});
    v = reshape(b, loc, v, {n, cc, h * bs, w * bs});
  } else {
    if (bs <= 0 || h % bs || w % bs)
      return ctx.emitError() << "SpaceToDepth blocksize " << bs
                             << " does not divide the spatial extents";
    v = reshape(b, loc, v, {n, c, h / bs, bs, w / bs, bs});
    v = transpose(b, loc, v, {0, 3, 5, 1, 2, 4});
    v = reshape(b, loc, v, {n, c * bs * bs, h / bs, w / bs});
  }
  ctx.setOutput(0, v, x.dtype);
  return success();
}

} // namespace

void registerIndexingConverters(ConverterTable &table) {
  table["Split"] = convertSplit;
  table["Slice"] = convertSlice;
  table["Gather"] = convertGather;
  table["Tile"] = convertTile;
  table["Pad"] = convertPad;
  table["GatherElements"] = convertGatherElements;
  table["GatherND"] = convertGatherND;
  table["DepthToSpace"] = convertDepthSpace;
  table["SpaceToDepth"] = convertDepthSpace;
}

} // namespace hidet::onnx_import
