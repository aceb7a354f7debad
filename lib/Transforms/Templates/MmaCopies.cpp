//===- MmaCopies.cpp - Tiles of the tensor-core template ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The shared-memory tiles of the mma.sync template (their XOR-swizzled
// layout) and the copies of the operands' K tiles into them: through
// registers (fetch, stash) for register double buffering, or as masked
// vector transfers (copyTile) that hidet-pipeline-shared-copies turns into
// cp.async copies.
//
//===----------------------------------------------------------------------===//

#include "Mma.h"
#include "Templates.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::mma;

MemRefType SharedTile::type(MLIRContext *ctx, Type elt) const {
  SmallVector<int64_t, 3> shape;
  if (stages)
    shape.push_back(stages);
  shape.append({outer(), inner()});
  return MemRefType::get(
      shape, elt, AffineMap(),
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
}

SmallVector<Value> SharedTile::at(Value stage, Value o, Value i) const {
  if (stage)
    return {stage, o, i};
  return {o, i};
}

Value SharedTile::storedInner(OpBuilder &b, Location loc, Value o,
                              Value i) const {
  int64_t pieces = inner() / piece;
  int64_t rowsPerLine = std::max<int64_t>(1, kPiecesPerLine / pieces);
  int64_t period = std::min<int64_t>(pieces, kPiecesPerLine);
  Value f = arith::RemUIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, o, cst(b, loc, rowsPerLine)),
      cst(b, loc, period));
  Value j = arith::DivUIOp::create(b, loc, i, cst(b, loc, piece));
  Value swizzled = arith::XOrIOp::create(b, loc, j, f);
  return arith::MulIOp::create(b, loc, swizzled, cst(b, loc, piece));
}

SmallVector<Value> SharedTile::element(OpBuilder &b, Location loc, Value stage,
                                       Value r, Value c) const {
  Value o = innerDim == 1 ? r : c, i = innerDim == 1 ? c : r;
  Value within = arith::RemUIOp::create(b, loc, i, cst(b, loc, piece));
  Value start = arith::SubIOp::create(b, loc, i, within);
  return at(
      stage, o,
      arith::AddIOp::create(b, loc, storedInner(b, loc, o, start), within));
}

/// Visits the thread's pieces: (outer, inner start) in the tile and the
/// register slot.
static void
forPieces(OpBuilder &b, Location loc, const TileCopy &t,
          function_ref<void(OpBuilder &, Value, Value, Value)> body) {
  fullyUnrolled(b, loc, {t.rep[0], t.rep[1]}, [&](OpBuilder &b, ValueRange p) {
    Value o = affine(b, loc, p[0], t.spat[0], t.s0);
    Value piece = affine(b, loc, p[1], t.spat[1], t.s1);
    Value i = arith::MulIOp::create(b, loc, piece, cst(b, loc, t.tile.piece));
    body(b, o, i, affine(b, loc, p[0], t.rep[1], p[1]));
  });
}

namespace {
/// Element `e` of a piece, in the operand: global row and column, whether
/// each lies inside the operand, and whether both do.
struct PieceElement {
  Value row, col, inRow, inCol, inside;
};
} // namespace

/// Element `e` of the piece that starts at (`o`, `i`) of `t`'s tile, for the
/// K tile starting at `k0`.
static PieceElement pieceElement(OpBuilder &b, Location loc,
                                 const GemmProblem &p, const GemmBlock &blk,
                                 const TileCopy &t, Value k0, Value o, Value i,
                                 int64_t e) {
  Value ie = arith::AddIOp::create(b, loc, i, cst(b, loc, e));
  Value r = t.tile.innerDim == 1 ? o : ie;
  Value c = t.tile.innerDim == 1 ? ie : o;
  Value gr = arith::AddIOp::create(b, loc, t.isA ? blk.m0 : k0, r);
  Value gc = arith::AddIOp::create(b, loc, t.isA ? k0 : blk.n0, c);
  Value inRow = lessThan(b, loc, gr, t.isA ? p.m : p.k);
  Value inCol = lessThan(b, loc, gc, t.isA ? p.k : p.n);
  return {gr, gc, inRow, inCol,
          insideOperand(b, loc, *t.operand, gr, inRow, gc, inCol)};
}

/// The offset of `at` in `t`'s flattened operand, valid past the edges too.
/// Only its k part changes from one K tile to the next.
static Value pieceOffset(OpBuilder &b, Location loc, const GemmBlock &blk,
                         const TileCopy &t, const PieceElement &at) {
  return clampedOffset(b, loc, *t.operand, blk.batch, at.row, at.inRow, at.col,
                       at.inCol);
}

void hidet::templates::mma::copyTile(OpBuilder &b, Location loc,
                                     const GemmProblem &p, const GemmBlock &blk,
                                     const TileCopy &t, Value k0) {
  // The repeat factor is unrolled here, not in a tm.repeat, so that the
  // copies are ops of the K loop's body, which the pipelining schedules.
  for (int64_t r0 = 0; r0 < t.rep[0]; ++r0)
    for (int64_t r1 = 0; r1 < t.rep[1]; ++r1) {
      Value o = affine(b, loc, cst(b, loc, r0), t.spat[0], t.s0);
      Value i = arith::MulIOp::create(
          b, loc, affine(b, loc, cst(b, loc, r1), t.spat[1], t.s1),
          cst(b, loc, t.tile.piece));
      Value stored = t.tile.storedInner(b, loc, o, i);
      for (int64_t e = 0; e < t.tile.piece; e += t.width) {
        PieceElement at = pieceElement(b, loc, p, blk, t, k0, o, i, e);
        emitMaskedCopy(
            b, loc, at.inside, t.flat, pieceOffset(b, loc, blk, t, at), t.width,
            t.elt, t.tile.buffer,
            t.tile.at(Value(), o,
                      arith::AddIOp::create(b, loc, stored, cst(b, loc, e))));
      }
    }
}

/// Elements per global load of an operand: its vector width along the
/// tile's stored inner dimension, or 1.
static int64_t copyWidth(const GemmOperand &x, int tileInnerDim,
                         int64_t piece) {
  return x.innerDim == tileInnerDim ? std::min<int64_t>(x.vectorWidth, piece)
                                    : 1;
}

std::string hidet::templates::whyNoAsyncCopy(const GemmProblem &p) {
  if (p.a.apply || p.b.apply)
    return "an elementwise prologue is applied to the loaded values in "
           "registers, and cp.async copies raw bytes";
  int64_t bytes = p.aElt.getIntOrFloatBitWidth() / 8;
  int64_t piece = 16 / bytes;
  const std::pair<const GemmOperand *, int> operands[] = {{&p.a, 1}, {&p.b, 0}};
  for (auto [x, kDim] : operands) {
    int inner = x->innerDim >= 0 ? x->innerDim : kDim;
    if (copyWidth(*x, inner, piece) * bytes < 4)
      return std::string("cp.async copies 4, 8 or 16 bytes, but ") +
             (x == &p.a ? "A" : "B") +
             "'s rows allow only 2-byte pieces (an odd contiguous extent)";
  }
  return "";
}

TileCopy MatmulBuilder::makeCopy(const GemmOperand &x, bool isA,
                                 const SharedTile &tile) {
  TileCopy t;
  t.operand = &x;
  t.flat = flatten(b, loc, x.buffer);
  t.isA = isA;
  t.tile = tile;
  t.elt = elt;
  t.width = copyWidth(x, tile.innerDim, kPiece);
  auto pieces = *algebra::TaskMapping::autoMap(
      {tile.outer(), tile.inner() / kPiece}, threads);
  t.rep = pieces.getFactors()[0].getShape();
  t.spat = pieces.getFactors()[1].getShape();
  if (sched.stages == 0)
    t.regs = memref::AllocaOp::create(
        b, loc, MemRefType::get({t.rep[0] * t.rep[1], kPiece}, elt));
  SmallVector<Type, 2> two(2, b.getIndexType());
  auto pos = hidet::tm::SpatialOp::create(
      b, loc, two, tid, hidet::tm::SpatialAttr::get(ctx, t.spat));
  t.s0 = pos.getResult(0);
  t.s1 = pos.getResult(1);
  return t;
}

/// Loads the pieces of the K tile starting at k0 into registers, in loads
/// of `width` elements, each zero past the edges (including a whole tile
/// past K, so the prefetch after the last step reads nothing).
void MatmulBuilder::fetch(const TileCopy &t, Value k0) {
  auto pieceType = VectorType::get({kPiece}, elt);
  forPieces(b, loc, t, [&](OpBuilder &b, Value o, Value i, Value slot) {
    auto partType = VectorType::get({t.width}, elt);
    Value piece = arith::ConstantOp::create(b, loc, b.getZeroAttr(pieceType));
    for (int64_t e = 0; e < kPiece; e += t.width) {
      PieceElement at = pieceElement(b, loc, p, *blk, t, k0, o, i, e);
      // Computed unconditionally, so that its loop-invariant part is
      // hoisted.
      Value off = pieceOffset(b, loc, *blk, t, at);
      Value part = loadOperandOrZero(b, loc, at.inside, *t.operand, t.flat, off,
                                     partType);
      if (t.width == kPiece) {
        piece = part;
        continue;
      }
      // Element by element: the NVVM lowering has no pattern for
      // vector.insert_strided_slice.
      for (int64_t j = 0; j < t.width; ++j)
        piece = vector::InsertOp::create(
            b, loc,
            vector::ExtractOp::create(b, loc, part, ArrayRef<int64_t>{j}),
            piece, ArrayRef<int64_t>{e + j});
    }
    vector::StoreOp::create(b, loc, piece, t.regs,
                            ValueRange{slot, cst(b, loc, 0)});
  });
}

/// Stores the pieces `fetch` loaded to `stage` of the tile.
void MatmulBuilder::stash(const TileCopy &t, Value stage) {
  auto pieceType = VectorType::get({kPiece}, elt);
  forPieces(b, loc, t, [&](OpBuilder &b, Value o, Value i, Value slot) {
    Value v = vector::LoadOp::create(b, loc, pieceType, t.regs,
                                     ValueRange{slot, cst(b, loc, 0)});
    vector::StoreOp::create(
        b, loc, v, t.tile.buffer,
        t.tile.at(stage, o, t.tile.storedInner(b, loc, o, i)),
        /*nontemporal=*/false, vectorAlign(elt, kPiece));
  });
}
