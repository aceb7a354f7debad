//===- GemmKernel.cpp - The skeleton of the matmul templates --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Operand addressing and masked loads, fully unrolled loops, and the grid
// of blocks.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;
using hidet::kernel::cst;

void hidet::templates::fullyUnrolled(
    OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
    function_ref<void(OpBuilder &, ValueRange)> body) {
  MLIRContext *ctx = b.getContext();
  SmallVector<int64_t> ranks, unroll(shape.size(), /*full=*/0);
  for (size_t i = 0; i < shape.size(); ++i)
    ranks.push_back(i);
  auto loop = hidet::tm::RepeatOp::create(
      b, loc, hidet::tm::RepeatAttr::get(ctx, shape, ranks, unroll));
  OpBuilder::InsertionGuard guard(b);
  Block *block = b.createBlock(&loop.getBody());
  for (size_t i = 0; i < shape.size(); ++i)
    block->addArgument(b.getIndexType(), loc);
  hidet::tm::YieldOp::create(b, loc);
  b.setInsertionPointToStart(block);
  body(b, block->getArguments());
}

Value hidet::templates::loadOrZero(
    OpBuilder &b, Location loc, Value cond, Value buffer,
    function_ref<SmallVector<Value>(OpBuilder &)> indices, Type type,
    llvm::MaybeAlign align, function_ref<Value(OpBuilder &, Value)> transform,
    Type loadType) {
  if (!loadType)
    loadType = type;
  auto ifOp = scf::IfOp::create(b, loc, type, cond, /*withElse=*/true);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  SmallVector<Value> idx = indices(b);
  Value loaded;
  if (auto vt = dyn_cast<VectorType>(loadType))
    loaded = vector::LoadOp::create(b, loc, vt, buffer, idx,
                                    /*nontemporal=*/false, align);
  else
    loaded = memref::LoadOp::create(b, loc, buffer, idx);
  if (transform)
    loaded = transform(b, loaded);
  scf::YieldOp::create(b, loc, loaded);
  b.setInsertionPointToStart(&ifOp.getElseRegion().front());
  scf::YieldOp::create(
      b, loc,
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type)).getResult());
  return ifOp.getResult(0);
}

Value hidet::templates::loadOperandOrZero(OpBuilder &b, Location loc,
                                          Value cond, const GemmOperand &x,
                                          Value flat, Value offset, Type type) {
  auto vec = dyn_cast<VectorType>(type);
  int64_t width = vec ? vec.getNumElements() : 1;
  Type stored = x.apply ? x.storedElt : getElementTypeOrSelf(type);
  return loadOrZero(
      b, loc, cond, flat,
      [&](OpBuilder &) { return SmallVector<Value>{offset}; }, type,
      kernel::vectorAlign(stored, width),
      // Only where the element exists: past the edges the operand is 0,
      // which the prologue may not map to 0.
      x.apply ? [&](OpBuilder &b, Value v) { return x.apply(b, loc, v); }
              : function_ref<Value(OpBuilder &, Value)>(),
      vec ? Type(VectorType::get({width}, stored)) : stored);
}

void hidet::templates::emitMaskedCopy(OpBuilder &b, Location loc, Value inside,
                                      Value flat, Value offset, int64_t width,
                                      Type elt, Value dst, ValueRange indices) {
  Value srcElements = arith::SelectOp::create(
      b, loc, inside, cst(b, loc, width), cst(b, loc, 0));
  Value mask = vector::CreateMaskOp::create(
      b, loc, VectorType::get({width}, b.getI1Type()), srcElements);
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elt));
  Value v = vector::TransferReadOp::create(
      b, loc, VectorType::get({width}, elt), flat, ValueRange{offset},
      AffineMapAttr::get(b.getDimIdentityMap()), zero, mask,
      b.getBoolArrayAttr({true}));
  vector::TransferWriteOp::create(b, loc, v, dst, indices,
                                  /*inBounds=*/ArrayRef<bool>{true});
}

Value hidet::templates::flatten(OpBuilder &b, Location loc, Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 1)
    return buffer;
  ReassociationIndices all(type.getRank());
  std::iota(all.begin(), all.end(), 0);
  return memref::CollapseShapeOp::create(b, loc, buffer,
                                         ArrayRef<ReassociationIndices>{all});
}

Value hidet::templates::clampedOffset(OpBuilder &b, Location loc,
                                      const GemmOperand &x, Value batch,
                                      Value row, Value inRow, Value col,
                                      Value inCol) {
  Value zero = cst(b, loc, 0);
  Value offset = elementOffset(
      b, loc, x, batch, arith::SelectOp::create(b, loc, inRow, row, zero),
      arith::SelectOp::create(b, loc, inCol, col, zero));
  if (!x.valid)
    return offset;
  return arith::SelectOp::create(b, loc, x.valid(b, loc, row, col), offset,
                                 zero);
}

Value hidet::templates::insideOperand(OpBuilder &b, Location loc,
                                      const GemmOperand &x, Value row,
                                      Value inRow, Value col, Value inCol) {
  Value inside = arith::AndIOp::create(b, loc, inRow, inCol);
  if (!x.valid)
    return inside;
  return arith::AndIOp::create(b, loc, inside, x.valid(b, loc, row, col));
}

Value hidet::templates::elementOffset(OpBuilder &b, Location loc,
                                      const GemmOperand &x, Value batch,
                                      Value row, Value col) {
  return arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, x.offset(b, loc, GemmPart::Batch, batch),
                            x.offset(b, loc, GemmPart::Row, row)),
      x.offset(b, loc, GemmPart::Col, col));
}

SmallVector<Value> hidet::templates::allocateShared(OpBuilder &b, Location loc,
                                                    TypeRange types) {
  SmallVector<Value> buffers;
  for (Type t : types)
    buffers.push_back(memref::AllocOp::create(b, loc, cast<MemRefType>(t)));
  return buffers;
}

Value hidet::templates::affine(OpBuilder &b, Location loc, Value x,
                               int64_t scale, Value y) {
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, x, cst(b, loc, scale)), y);
}

std::pair<Value, Value>
hidet::templates::swizzleTile(OpBuilder &b, Location loc, Value tile,
                              int64_t tilesM, int64_t tilesN, int64_t group) {
  if (group <= 1 || tilesM <= 1) {
    Value n = cst(b, loc, tilesN);
    return {arith::DivUIOp::create(b, loc, tile, n),
            arith::RemUIOp::create(b, loc, tile, n)};
  }
  // Group g holds tile rows [g*group, g*group + size) where the last group
  // may be shorter; inside a group, tiles go down a column first.
  Value perGroup = cst(b, loc, group * tilesN);
  Value g = arith::DivUIOp::create(b, loc, tile, perGroup);
  Value inGroup = arith::RemUIOp::create(b, loc, tile, perGroup);
  Value first = arith::MulIOp::create(b, loc, g, cst(b, loc, group));
  Value size = arith::MinUIOp::create(
      b, loc, cst(b, loc, group),
      arith::SubIOp::create(b, loc, cst(b, loc, tilesM), first));
  return {arith::AddIOp::create(b, loc, first,
                                arith::RemUIOp::create(b, loc, inGroup, size)),
          arith::DivUIOp::create(b, loc, inGroup, size)};
}

Value hidet::templates::castTo(OpBuilder &b, Location loc, Value v, Type elt) {
  Type fromElt = getElementTypeOrSelf(v.getType());
  if (fromElt == elt)
    return v;
  Type type = elt;
  if (auto vec = dyn_cast<VectorType>(v.getType()))
    type = vec.clone(elt);
  if (elt.getIntOrFloatBitWidth() < fromElt.getIntOrFloatBitWidth())
    return arith::TruncFOp::create(b, loc, type, v);
  return arith::ExtFOp::create(b, loc, type, v);
}

//===----------------------------------------------------------------------===//
// GemmGrid
//===----------------------------------------------------------------------===//

GemmGrid::GemmGrid(const GemmProblem &p, int64_t blockM, int64_t blockN,
                   int64_t blockK, int64_t swizzle, int64_t splits)
    : blockM(blockM), blockN(blockN), blockK(blockK),
      tilesM((p.m + blockM - 1) / blockM), tilesN((p.n + blockN - 1) / blockN),
      kTiles((p.k + blockK - 1) / blockK), swizzle(swizzle) {
  // No empty slices: a split larger than the K tiles is clamped.
  this->splits = std::max<int64_t>(1, std::min(splits, kTiles));
  kTilesPerSplit = (kTiles + this->splits - 1) / this->splits;
  this->splits = (kTiles + kTilesPerSplit - 1) / kTilesPerSplit;
}

hidet::tm::SpatialAttr GemmGrid::mapping(MLIRContext *ctx,
                                         const GemmProblem &p) const {
  return hidet::tm::SpatialAttr::get(
      ctx, ArrayRef<int64_t>{p.batch, splits, tilesM * tilesN});
}

GemmBlock hidet::templates::gemmBlockAt(OpBuilder &b, Location loc,
                                        const GemmProblem &p,
                                        const GemmGrid &grid, Value batch,
                                        Value split, Value tile) {
  GemmBlock blk;
  blk.flatC = flatten(b, loc, p.c.buffer);
  blk.batch = batch;
  blk.split = split;
  auto [tm, tn] =
      swizzleTile(b, loc, tile, grid.tilesM, grid.tilesN, grid.swizzle);
  blk.m0 = arith::MulIOp::create(b, loc, tm, cst(b, loc, grid.blockM));
  blk.n0 = arith::MulIOp::create(b, loc, tn, cst(b, loc, grid.blockN));
  if (grid.splits == 1) {
    blk.kBegin = cst(b, loc, 0);
    blk.kEnd = cst(b, loc, grid.kTiles);
    return blk;
  }
  blk.kBegin =
      arith::MulIOp::create(b, loc, split, cst(b, loc, grid.kTilesPerSplit));
  blk.kEnd = arith::MinUIOp::create(
      b, loc, cst(b, loc, grid.kTiles),
      arith::AddIOp::create(b, loc, blk.kBegin,
                            cst(b, loc, grid.kTilesPerSplit)));
  return blk;
}

void hidet::templates::forEachGemmBlock(
    OpBuilder &b, Location loc, const GemmProblem &p, const GemmGrid &grid,
    function_ref<void(OpBuilder &, const GemmBlock &)> body) {
  auto blocks = hidet::tm::ForEachOp::create(
      b, loc, grid.mapping(b.getContext(), p), hidet::tm::GPUWorker::block_x);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(blocks.getBody().front().getTerminator());
  ValueRange task = blocks.getTaskIndices();
  body(b, gemmBlockAt(b, loc, p, grid, task[0], task[1], task[2]));
}
