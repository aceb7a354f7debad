//===- GemmMatch.cpp - Read anchor ops as batched GEMMs -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Contractions are recognized through upstream's contraction interface
// (inferContractionDims), so transposed matmuls, batch matmuls with a
// broadcast operand and linalg.generic contractions are all one case.
// Convolutions are mapped to implicit GEMMs: m = (image, output row,
// output column), k = the filter window and input channels in the filter's
// memory order, so B and C are plain matrices in memory and only A's
// addresses need the im2col arithmetic.
//
//===----------------------------------------------------------------------===//

#include "GemmProblem.h"

#include "../Fusion/Buffers.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"

#include <numeric>

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;
using hidet::kernel::cst;
using hidet::kernel::lessThan;

int64_t hidet::templates::vectorWidthFor(Type elt, int64_t extent) {
  int64_t bytes = std::max<int64_t>(1, elt.getIntOrFloatBitWidth() / 8);
  int64_t w = 16 / bytes;
  while (w > 1 && extent % w != 0)
    w /= 2;
  return w;
}

/// `x * s` (0 when `s` is).
static Value scaled(OpBuilder &b, Location loc, Value x, int64_t s) {
  if (s == 0)
    return cst(b, loc, 0);
  if (s == 1)
    return x;
  return arith::MulIOp::create(b, loc, x, cst(b, loc, s));
}

/// `sum_i xs[i] * ss[i]`.
static Value linear(OpBuilder &b, Location loc, ArrayRef<Value> xs,
                    ArrayRef<int64_t> ss) {
  Value sum;
  for (auto [x, s] : llvm::zip_equal(xs, ss)) {
    Value term = scaled(b, loc, x, s);
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  }
  return sum;
}

/// `x + d`.
static Value shifted(OpBuilder &b, Location loc, Value x, int64_t d) {
  if (d == 0)
    return x;
  return arith::AddIOp::create(b, loc, x, cst(b, loc, d));
}

std::function<Value(OpBuilder &, Location, GemmPart, Value)>
hidet::templates::stridedOffset(std::array<int64_t, 3> strides, int64_t base) {
  return [=](OpBuilder &b, Location loc, GemmPart part, Value index) {
    Value v = scaled(b, loc, index, strides[static_cast<int>(part)]);
    return part == GemmPart::Batch ? shifted(b, loc, v, base) : v;
  };
}

static std::string checkOperands(linalg::LinalgOp op, bool onBuffers) {
  if (onBuffers && !op.hasPureBufferSemantics())
    return "the op works on tensors (bufferize first)";
  for (OpOperand &operand : op->getOpOperands()) {
    Value v = operand.get();
    auto type = dyn_cast<ShapedType>(v.getType());
    if (!type)
      return "an operand is not a tensor or buffer";
    if (!type.hasStaticShape())
      return "dynamic shapes have no template yet";
    auto memref = dyn_cast<MemRefType>(type);
    // Contractions also read slices (static subviews) of such buffers.
    if (memref && !memref.getLayout().isIdentity() &&
        !(linalg::isaContractionOpInterface(op) && op.isDpsInput(&operand) &&
          succeeded(fusion::slicedBuffer(v))))
      return "only buffers with the identity layout (or static slices of "
             "them, as a contraction's inputs) have a template yet";
    if (!isa<FloatType>(type.getElementType()))
      return "only floating-point operands have a template";
  }
  return "";
}

/// A contraction with one m, n and k dimension and at most one batch
/// dimension, each operand indexed by a projected permutation.
static FailureOr<GemmProblem>
matchContraction(linalg::LinalgOp op, std::string &why,
                 const fusion::Prologue *prologue) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || !linalg::isaContractionOpInterface(op)) {
    why = "not a multiply-add contraction";
    return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // A batch that only one operand has (the other is broadcast) is an extra
  // m or n dimension to upstream's analysis; the outer one in C is the
  // batch.
  if (dims->batch.empty() && dims->k.size() == 1 &&
      dims->m.size() + dims->n.size() == 3) {
    auto &two = dims->m.size() == 2 ? dims->m : dims->n;
    auto posInC = [&](unsigned d) {
      return *maps[2].getResultPosition(getAffineDimExpr(d, op.getContext()));
    };
    unsigned outer = posInC(two[0]) < posInC(two[1]) ? 0 : 1;
    dims->batch.push_back(two[outer]);
    two.erase(two.begin() + outer);
  }
  if (dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1 ||
      dims->batch.size() > 1) {
    why = "the contraction has " + std::to_string(dims->batch.size()) +
          " batch, " + std::to_string(dims->m.size()) + " m, " +
          std::to_string(dims->n.size()) + " n and " +
          std::to_string(dims->k.size()) +
          " k dimensions; the templates take at most one batch and exactly "
          "one of the others";
    return failure();
  }
  // The inputs as the kernel reads them: through the folded prologue.
  SmallVector<Value> buffers = op->getOperands();
  if (prologue)
    for (unsigned i = 0; i < 2; ++i) {
      buffers[i] = prologue->read(i).buffer;
      maps[i] = prologue->read(i).map;
    }
  // A prologue read through a reshape of unit dimensions indexes them by
  // the constant 0.
  for (AffineMap map : maps)
    if (!map.isProjectedPermutation(/*allowZeroInResults=*/true)) {
      why = "an operand is indexed by more than a permutation of the loops";
      return failure();
    }
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  GemmProblem p;
  int64_t bDim =
      dims->batch.empty() ? -1 : static_cast<int64_t>(dims->batch[0]);
  unsigned mDim = dims->m[0], nDim = dims->n[0], kDim = dims->k[0];
  p.batch = bDim < 0 ? 1 : ranges[bDim];
  p.m = ranges[mDim];
  p.n = ranges[nDim];
  p.k = ranges[kDim];
  p.kind = op->getName().getStringRef().str();
  // Operand i's logical (row, column) loop dimensions.
  const std::pair<unsigned, unsigned> roles[] = {
      {mDim, kDim}, {kDim, nDim}, {mDim, nDim}};
  GemmOperand *operands[] = {&p.a, &p.b, &p.c};
  Type *elts[] = {&p.aElt, &p.bElt, &p.cElt};
  for (unsigned i = 0; i < 3; ++i) {
    auto type = cast<ShapedType>(buffers[i].getType());
    AffineMap map = maps[i];
    unsigned rowDim = roles[i].first, colDim = roles[i].second;
    GemmOperand &g = *operands[i];
    *elts[i] = getElementTypeOrSelf(op->getOperand(i).getType());
    g.buffer = g.view = buffers[i];
    if (prologue && i < 2 && !prologue->read(i).computes.empty()) {
      fusion::PrologueRead read = prologue->read(i);
      g.apply = [read](OpBuilder &b, Location loc, Value v) {
        return read.apply(b, loc, v);
      };
      g.storedElt = type.getElementType();
    }
    g.broadcast = bDim >= 0 && !map.isFunctionOfDim(bDim);
    auto last = map.getNumResults() > 0
                    ? dyn_cast<AffineDimExpr>(map.getResults().back())
                    : nullptr;
    if (last) {
      g.innerDim = last.getPosition() == rowDim   ? 0
                   : last.getPosition() == colDim ? 1
                                                  : -1;
      if (g.innerDim >= 0)
        g.vectorWidth =
            vectorWidthFor(type.getElementType(), type.getShape().back());
    }
    // The stride of each logical part: that of the buffer dimension its loop
    // indexes (none for a broadcast batch). A slice is addressed in the
    // buffer it slices, from its offset there.
    SmallVector<int64_t> strides = computeSuffixProduct(type.getShape());
    int64_t sliceOffset = 0;
    auto memref = dyn_cast<MemRefType>(type);
    if (memref && !memref.getLayout().isIdentity()) {
      auto [base, layout] = *fusion::slicedBuffer(buffers[i]);
      g.buffer = base;
      strides = layout.first;
      sliceOffset = layout.second;
      g.sliceOffset = sliceOffset;
      // Vectors stay inside rows and aligned: the width divides the
      // offset and the outer strides too.
      if (g.innerDim >= 0 && strides.back() == 1) {
        int64_t common = std::accumulate(
            strides.begin(), strides.end() - 1, sliceOffset,
            [](int64_t a, int64_t b) { return std::gcd(a, b); });
        g.vectorWidth =
            std::min(g.vectorWidth,
                     vectorWidthFor(type.getElementType(),
                                    std::gcd(common, type.getShape().back())));
      } else {
        g.innerDim = -1;
        g.vectorWidth = 1;
      }
    }
    std::array<int64_t, 3> partStride = {0, 0, 0};
    for (auto [j, e] : llvm::enumerate(map.getResults())) {
      auto dim = dyn_cast<AffineDimExpr>(e);
      if (!dim)
        continue;
      unsigned d = dim.getPosition();
      if (static_cast<int64_t>(d) == bDim)
        partStride[0] = strides[j];
      else if (d == rowDim)
        partStride[1] = strides[j];
      else if (d == colDim)
        partStride[2] = strides[j];
    }
    g.offset = stridedOffset(partStride, sliceOffset);
    if (&g == &p.c) {
      SmallVector<unsigned> dimsOfC;
      for (AffineExpr e : map.getResults())
        dimsOfC.push_back(cast<AffineDimExpr>(e).getPosition());
      g.position = [=](OpBuilder &, Location, Value batch, Value row,
                       Value col) {
        SmallVector<Value> pos;
        for (unsigned d : dimsOfC)
          pos.push_back(static_cast<int64_t>(d) == bDim ? batch
                        : d == mDim                     ? row
                                                        : col);
        return pos;
      };
    }
  }
  return p;
}

/// `x / d` and `x % d` for a constant `d`.
static std::pair<Value, Value> divMod(OpBuilder &b, Location loc, Value x,
                                      int64_t d) {
  Value dv = cst(b, loc, d);
  return {arith::DivUIOp::create(b, loc, x, dv).getResult(),
          arith::RemUIOp::create(b, loc, x, dv).getResult()};
}

/// A 2-D convolution (NHWC/HWCF or NCHW/FCHW) as an implicit GEMM. With
/// `pad`, the input is read from its source through a folded zero padding.
template <typename ConvOp>
static GemmProblem matchConv(ConvOp op, bool nhwc,
                             const fusion::PrologueRead *pad) {
  if (pad && pad->padLow.empty())
    pad = nullptr;
  auto in = cast<ShapedType>(
      (pad ? pad->buffer : op.getDpsInputOperand(0)->get()).getType());
  auto filter = cast<ShapedType>(op.getDpsInputOperand(1)->get().getType());
  auto out = cast<ShapedType>(op.getDpsInitOperand(0)->get().getType());
  SmallVector<int64_t> strides(op.getStrides().template getValues<int64_t>());
  SmallVector<int64_t> dilations(
      op.getDilations().template getValues<int64_t>());
  // NHWC: in [N, H, W, C], filter [KH, KW, C, F], out [N, OH, OW, F].
  // NCHW: in [N, C, H, W], filter [F, C, KH, KW], out [N, F, OH, OW].
  int64_t c = in.getDimSize(nhwc ? 3 : 1);
  int64_t h = in.getDimSize(nhwc ? 1 : 2), w = in.getDimSize(nhwc ? 2 : 3);
  int64_t f = filter.getDimSize(nhwc ? 3 : 0);
  int64_t kh = filter.getDimSize(nhwc ? 0 : 2),
          kw = filter.getDimSize(nhwc ? 1 : 3);
  int64_t n = out.getDimSize(0), oh = out.getDimSize(nhwc ? 1 : 2),
          ow = out.getDimSize(nhwc ? 2 : 3);
  GemmProblem p;
  p.m = n * oh * ow;
  p.n = f;
  p.k = kh * kw * c;
  p.windowTaps = kh * kw;
  p.kind = op->getName().getStringRef().str();
  p.aElt = in.getElementType();
  p.bElt = filter.getElementType();
  p.cElt = out.getElementType();
  p.a.buffer = pad ? pad->buffer : op.getDpsInputOperand(0)->get();
  p.b.buffer = op.getDpsInputOperand(1)->get();
  p.c.buffer = op.getDpsInitOperand(0)->get();
  int64_t sh = strides[0], sw = strides[1], dh = dilations[0],
          dw = dilations[1];
  // The zero padding before the source's rows and columns.
  int64_t padT = pad ? pad->padLow[nhwc ? 1 : 2] : 0;
  int64_t padL = pad ? pad->padLow[nhwc ? 2 : 3] : 0;
  // m -> (image, output row, output column).
  auto outPos = [=](OpBuilder &b, Location loc, Value m) {
    auto [img, pix] = divMod(b, loc, m, oh * ow);
    auto [y, x] = divMod(b, loc, pix, ow);
    return std::array<Value, 3>{img, y, x};
  };
  // Whether output pixel (y, x) at tap (ty, tx) reads the source, not the
  // padding: its source row y sh + ty dh - padT and column lie inside (as
  // unsigned values, so that negative ones do not).
  auto insidePadded = [=](OpBuilder &b, Location loc, Value y, Value ty,
                          Value x, Value tx) {
    Value row = shifted(b, loc, linear(b, loc, {y, ty}, {sh, dh}), -padT);
    Value col = shifted(b, loc, linear(b, loc, {x, tx}, {sw, dw}), -padL);
    return arith::AndIOp::create(b, loc, lessThan(b, loc, row, h),
                                 lessThan(b, loc, col, w))
        .getResult();
  };
  if (nhwc) {
    // k = (kh, kw, c), channels fastest: the filter is a K x F matrix.
    auto tap = [=](OpBuilder &b, Location loc, Value k) {
      auto [r, ch] = divMod(b, loc, k, c);
      auto [ty, tx] = divMod(b, loc, r, kw);
      return std::array<Value, 3>{ty, tx, ch};
    };
    // The input position of output pixel (img, y, x) and tap (ty, tx, ch)
    // is (img, y sh + ty dh, x sw + tx dw, ch): a sum of a part of m and a
    // part of k.
    p.a.offset = [=](OpBuilder &b, Location loc, GemmPart part, Value i) {
      if (part == GemmPart::Batch)
        return cst(b, loc, 0);
      if (part == GemmPart::Row) {
        auto [img, y, x] = outPos(b, loc, i);
        return shifted(
            b, loc,
            linear(b, loc, {img, y, x}, {h * w * c, sh * w * c, sw * c}),
            -(padT * w * c + padL * c));
      }
      auto [ty, tx, ch] = tap(b, loc, i);
      return linear(b, loc, {ty, tx, ch}, {dh * w * c, dw * c, 1});
    };
    if (pad)
      p.a.valid = [=](OpBuilder &b, Location loc, Value m, Value k) {
        auto [img, y, x] = outPos(b, loc, m);
        auto [ty, tx, ch] = tap(b, loc, k);
        return insidePadded(b, loc, y, ty, x, tx);
      };
    p.a.innerDim = 1;
    p.a.vectorWidth = vectorWidthFor(p.aElt, c);
    // k runs over (kh, kw, c) in the filter's memory order: B is a K x F
    // matrix, and C an M x F one.
    p.b.offset = stridedOffset({0, f, 1});
    p.b.innerDim = 1;
    p.b.vectorWidth = vectorWidthFor(p.bElt, f);
    p.c.offset = stridedOffset({0, f, 1});
    p.c.position = [=](OpBuilder &b, Location loc, Value, Value m, Value n) {
      auto [img, y, x] = outPos(b, loc, m);
      return SmallVector<Value>{img, y, x, n};
    };
    p.c.innerDim = 1;
    p.c.vectorWidth = vectorWidthFor(p.cElt, f);
    return p;
  }
  // k = (c, kh, kw), window fastest: the filter is an F x K matrix.
  auto tap = [=](OpBuilder &b, Location loc, Value k) {
    auto [ch, r] = divMod(b, loc, k, kh * kw);
    auto [ty, tx] = divMod(b, loc, r, kw);
    return std::array<Value, 3>{ch, ty, tx};
  };
  p.a.offset = [=](OpBuilder &b, Location loc, GemmPart part, Value i) {
    if (part == GemmPart::Batch)
      return cst(b, loc, 0);
    if (part == GemmPart::Row) {
      auto [img, y, x] = outPos(b, loc, i);
      return shifted(b, loc,
                     linear(b, loc, {img, y, x}, {c * h * w, sh * w, sw}),
                     -(padT * w + padL));
    }
    auto [ch, ty, tx] = tap(b, loc, i);
    return linear(b, loc, {ch, ty, tx}, {h * w, dh * w, dw});
  };
  if (pad)
    p.a.valid = [=](OpBuilder &b, Location loc, Value m, Value k) {
      auto [img, y, x] = outPos(b, loc, m);
      auto [ch, ty, tx] = tap(b, loc, k);
      return insidePadded(b, loc, y, ty, x, tx);
    };
  // k runs over (c, kh, kw) in the filter's memory order: B is an F x K
  // matrix.
  p.b.offset = stridedOffset({0, 1, c * kh * kw});
  p.b.innerDim = 0;
  p.b.vectorWidth = vectorWidthFor(p.bElt, c * kh * kw);
  p.c.offset = [=](OpBuilder &b, Location loc, GemmPart part, Value i) {
    if (part == GemmPart::Batch)
      return cst(b, loc, 0);
    if (part == GemmPart::Col)
      return scaled(b, loc, i, oh * ow);
    auto [img, pix] = divMod(b, loc, i, oh * ow);
    return linear(b, loc, {img, pix}, {f * oh * ow, 1});
  };
  p.c.position = [=](OpBuilder &b, Location loc, Value, Value m, Value n) {
    auto [img, y, x] = outPos(b, loc, m);
    return SmallVector<Value>{img, n, y, x};
  };
  p.c.innerDim = 0;
  p.c.vectorWidth = vectorWidthFor(p.cElt, oh * ow);
  return p;
}

bool hidet::templates::isGemmAnchor(linalg::LinalgOp op) {
  return isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp>(op) ||
         linalg::isaContractionOpInterface(op);
}

FailureOr<GemmProblem>
hidet::templates::matchGemm(linalg::LinalgOp op, std::string &why,
                            bool onBuffers, const fusion::Prologue *prologue) {
  why = checkOperands(op, onBuffers);
  if (!why.empty())
    return failure();
  const fusion::PrologueRead *input = prologue ? &prologue->read(0) : nullptr;
  if (auto conv = dyn_cast<linalg::Conv2DNhwcHwcfOp>(op.getOperation()))
    return matchConv(conv, /*nhwc=*/true, input);
  if (auto conv = dyn_cast<linalg::Conv2DNchwFchwOp>(op.getOperation()))
    return matchConv(conv, /*nhwc=*/false, input);
  return matchContraction(op, why, prologue);
}
