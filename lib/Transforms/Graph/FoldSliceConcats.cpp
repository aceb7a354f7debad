//===- FoldSliceConcats.cpp - Concatenated slices as one elementwise op ---===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-fold-slice-concats`: a concatenation (a chain
// of tensor.insert_slice ops that tiles a tensor.empty along one dimension)
// whose pieces are slices of existing tensors, each optionally through a
// one-input elementwise generic, becomes one linalg.generic that reads each
// element where its piece takes it from (tensor.extract at the position
// along that dimension) and applies the piece's elementwise op. The
// rotary embedding's rotate_half, cat(-x[..., h:], x[..., :h]), is then one
// elementwise op that hidet-fuse-elementwise joins with x cos + rotate_half
// (x) sin, instead of two slices, a negation and two copies.
//
// A slice of a transpose is read from the transpose's input.
//
// Concatenations of values that are not slices stay: there each piece can
// be computed into its place of the result (bufferization writes it in
// place), which reading it back at other positions would not improve.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace hidet {
#define GEN_PASS_DEF_FOLDSLICECONCATS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// One piece of the concatenation: positions [at, at + size) of the
/// result along the dimension, taken from `source` at [from, from + size),
/// through `op` (a one-input elementwise generic) when there is one.
struct Piece {
  int64_t at, size;
  Value source;
  int64_t from;
  linalg::GenericOp op;
  tensor::ExtractSliceOp slice;
};

/// The offsets of `op` as constants, when all are; its strides must be 1.
std::optional<SmallVector<int64_t>>
unitStrideOffsets(OffsetSizeAndStrideOpInterface op) {
  if (!llvm::all_of(op.getStaticStrides(), [](int64_t s) { return s == 1; }))
    return std::nullopt;
  SmallVector<int64_t> offsets(op.getStaticOffsets());
  if (llvm::any_of(offsets, ShapedType::isDynamic))
    return std::nullopt;
  return offsets;
}

/// Whether `op` is an elementwise generic of one input read through the
/// identity, whose payload reads neither its output nor positions.
bool isUnaryElementwise(linalg::GenericOp op) {
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }) ||
      !op->getResult(0).hasOneUse())
    return false;
  Block &body = op.getRegion().front();
  if (!body.getArgument(1).use_empty())
    return false;
  for (Operation &inner : body.without_terminator())
    if (isa<linalg::IndexOp, tensor::ExtractOp>(inner) ||
        inner.getNumRegions() != 0)
      return false;
  return true;
}

/// The piece that `value`, inserted at `at` along `dim` of a result of
/// `shape`, is: a slice of a tensor along `dim` alone, through an optional
/// unary elementwise op.
std::optional<Piece> matchPiece(Value value, int64_t at, unsigned dim,
                                ArrayRef<int64_t> shape) {
  Piece piece{at, cast<RankedTensorType>(value.getType()).getDimSize(dim),
              Value(), 0, {}, {}};
  if (auto op = value.getDefiningOp<linalg::GenericOp>();
      isUnaryElementwise(op)) {
    piece.op = op;
    value = op.getDpsInputOperand(0)->get();
  }
  auto slice = value.getDefiningOp<tensor::ExtractSliceOp>();
  if (!slice || !slice.getResult().hasOneUse() ||
      slice.getSourceType().getRank() != static_cast<int64_t>(shape.size()) ||
      slice.getResultType().getRank() != static_cast<int64_t>(shape.size()))
    return std::nullopt;
  std::optional<SmallVector<int64_t>> offsets = unitStrideOffsets(slice);
  if (!offsets)
    return std::nullopt;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != dim && ((*offsets)[d] != 0 ||
                     slice.getSourceType().getDimSize(d) != shape[d]))
      return std::nullopt;
  piece.source = slice.getSource();
  piece.from = (*offsets)[dim];
  piece.slice = slice;
  return piece;
}

/// The concatenation that `last` ends, as its pieces in order of position,
/// and the ops that make it (the inserts, then each piece's ops), or
/// nothing.
struct Concat {
  tensor::EmptyOp empty;
  unsigned dim;
  SmallVector<Piece> pieces;
  SmallVector<tensor::InsertSliceOp> inserts;
};

std::optional<Concat> matchConcat(tensor::InsertSliceOp last) {
  Concat c;
  RankedTensorType type = last.getResultType();
  if (!type.hasStaticShape())
    return std::nullopt;
  std::optional<unsigned> dim;
  Value dest = last.getResult();
  for (auto insert = last; insert;
       insert = insert.getDest().getDefiningOp<tensor::InsertSliceOp>()) {
    if (insert != last && !insert.getResult().hasOneUse())
      return std::nullopt;
    std::optional<SmallVector<int64_t>> offsets = unitStrideOffsets(insert);
    RankedTensorType piece = insert.getSourceType();
    if (!offsets || piece.getRank() != type.getRank())
      return std::nullopt;
    // The one dimension along which the piece is narrower than the result.
    for (unsigned d = 0; d < type.getRank(); ++d) {
      bool full = (*offsets)[d] == 0 && piece.getDimSize(d) == type.getDimSize(d);
      if (full)
        continue;
      if (dim && *dim != d)
        return std::nullopt;
      dim = d;
    }
    c.inserts.push_back(insert);
    dest = insert.getDest();
  }
  c.empty = dest.getDefiningOp<tensor::EmptyOp>();
  if (!c.empty || !dim || c.inserts.size() < 2)
    return std::nullopt;
  c.dim = *dim;
  for (tensor::InsertSliceOp insert : c.inserts) {
    std::optional<Piece> piece =
        matchPiece(insert.getSource(), insert.getStaticOffsets()[*dim], *dim,
                   type.getShape());
    if (!piece)
      return std::nullopt;
    c.pieces.push_back(*piece);
  }
  // Disjoint pieces that cover the dimension (a later insert of the chain
  // overwriting an earlier one is not a concatenation).
  llvm::sort(c.pieces, [](const Piece &a, const Piece &b) { return a.at < b.at; });
  int64_t next = 0;
  for (const Piece &p : c.pieces) {
    if (p.at != next)
      return std::nullopt;
    next += p.size;
  }
  if (next != type.getDimSize(*dim))
    return std::nullopt;
  return c;
}

/// The one generic that computes `c`.
Value buildConcat(OpBuilder &b, Location loc, Concat &c,
                  RankedTensorType type) {
  unsigned rank = type.getRank();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, b.getContext());
  bool oneSource = llvm::all_of(c.pieces, [&](const Piece &p) {
    return p.source == c.pieces.front().source;
  });
  auto body = [&](OpBuilder &nb, Location l, ValueRange) {
    auto cst = [&](int64_t v) -> Value {
      return arith::ConstantIndexOp::create(nb, l, v);
    };
    SmallVector<Value> at;
    for (unsigned d = 0; d < rank; ++d)
      at.push_back(linalg::IndexOp::create(nb, l, d));
    Value pos = at[c.dim];
    // Whether the position is in piece i (the last takes the rest), and
    // where its source has the element; clamped into the piece so that
    // every read is in bounds.
    SmallVector<Value> inPiece, from;
    for (const Piece &p : c.pieces) {
      if (&p != &c.pieces.back())
        inPiece.push_back(arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::ult, pos, cst(p.at + p.size)));
      Value shifted = arith::AddIOp::create(nb, l, pos, cst(p.from - p.at));
      Value lo = cst(p.from), hi = cst(p.from + p.size - 1);
      from.push_back(arith::MinSIOp::create(
          nb, l, arith::MaxSIOp::create(nb, l, shifted, lo), hi));
    }
    // Reads: one where every piece comes from one tensor.
    SmallVector<Value> read(c.pieces.size());
    // A transposed source is read where the transpose reads (result
    // dimension k is dimension perm[k] of its input), so that the
    // transpose need not be written out for these reads.
    auto extract = [&](Value source, Value index) {
      SmallVector<Value> indices(at);
      indices[c.dim] = index;
      if (auto t = source.getDefiningOp<linalg::TransposeOp>();
          t && t.hasPureTensorSemantics()) {
        SmallVector<Value> permuted(indices.size());
        for (auto [k, d] : llvm::enumerate(t.getPermutation()))
          permuted[d] = indices[k];
        return tensor::ExtractOp::create(nb, l, t.getInput(), permuted)
            .getResult();
      }
      return tensor::ExtractOp::create(nb, l, source, indices).getResult();
    };
    if (oneSource) {
      Value index = from.back();
      for (int i = static_cast<int>(c.pieces.size()) - 2; i >= 0; --i)
        index = arith::SelectOp::create(nb, l, inPiece[i], from[i], index);
      Value v = extract(c.pieces.front().source, index);
      read.assign(c.pieces.size(), v);
    } else {
      for (auto [i, p] : llvm::enumerate(c.pieces))
        read[i] = extract(p.source, from[i]);
    }
    // Each piece's elementwise op, then the value of the piece the
    // position is in.
    SmallVector<Value> values;
    for (auto [p, v] : llvm::zip_equal(c.pieces, read)) {
      if (!p.op) {
        values.push_back(v);
        continue;
      }
      IRMapping map;
      Block &pb = p.op.getRegion().front();
      map.map(pb.getArgument(0), v);
      for (Operation &inner : pb.without_terminator())
        nb.clone(inner, map);
      values.push_back(map.lookup(pb.getTerminator()->getOperand(0)));
    }
    Value result = values.back();
    for (int i = static_cast<int>(c.pieces.size()) - 2; i >= 0; --i)
      result = arith::SelectOp::create(nb, l, inPiece[i], values[i], result);
    linalg::YieldOp::create(nb, l, result);
  };
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(),
                                       type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{}, ValueRange{init},
             ArrayRef<AffineMap>{identity},
             SmallVector<utils::IteratorType>(rank,
                                              utils::IteratorType::parallel),
             body)
      .getResult(0);
}

struct FoldSliceConcatsPass
    : public hidet::impl::FoldSliceConcatsBase<FoldSliceConcatsPass> {
  void runOnOperation() final {
    // The ends of insert chains: an insert whose result no insert extends.
    SmallVector<tensor::InsertSliceOp> ends;
    getOperation().walk([&](tensor::InsertSliceOp op) {
      if (!llvm::any_of(op.getResult().getUsers(), [&](Operation *user) {
            auto next = dyn_cast<tensor::InsertSliceOp>(user);
            return next && next.getDest() == op.getResult();
          }))
        ends.push_back(op);
    });
    for (tensor::InsertSliceOp last : ends) {
      std::optional<Concat> c = matchConcat(last);
      if (!c)
        continue;
      OpBuilder b(last);
      Value folded = buildConcat(b, last.getLoc(), *c, last.getResultType());
      last.getResult().replaceAllUsesWith(folded);
      // The inserts (last first), then the pieces' ops, which only they
      // read.
      for (tensor::InsertSliceOp insert : c->inserts)
        insert->erase();
      for (Piece &p : c->pieces) {
        if (p.op)
          p.op->erase();
        if (!p.slice.getResult().use_empty())
          continue;
        Operation *source = p.slice.getSource().getDefiningOp();
        p.slice->erase();
        // A transpose read from its input now (or any pure producer
        // nothing else reads).
        if (source && isOpTriviallyDead(source))
          source->erase();
      }
    }
  }
};

} // namespace
