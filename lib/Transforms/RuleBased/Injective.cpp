//===- Injective.cpp - Injective and permuted kernels
//-----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The rules for all-parallel ops: one task (or 16-byte vector) per output
// element on the global thread id, and, for transposes, a shared-memory tile
// read along the input's contiguous dimension and written along the
// output's.
//
//===----------------------------------------------------------------------===//

#include "RuleBased.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace hidet::kernel;

namespace hidet {
namespace rulebased {

/// The vector width for an all-parallel op, or 1 when it cannot be
/// vectorized.
static int64_t chooseVectorWidth(linalg::LinalgOp op, ArrayRef<int64_t> ranges,
                                 int64_t vectorBytes) {
  if (vectorBytes <= 1 || ranges.empty())
    return 1;
  unsigned last = ranges.size() - 1;
  int64_t maxBytes = widestElementBytes(op);
  if (maxBytes == 0)
    return 1;
  int64_t width = vectorBytes / maxBytes;
  if (width < 2 || ranges[last] % width != 0)
    return 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue; // a scalar is broadcast
    AffineMap map = op.getMatchingIndexingMap(&operand);
    bool usesLast = map.isFunctionOfDim(last);
    if (!usesLast) {
      if (op.isDpsInit(&operand))
        return 1;
      continue; // broadcast along the vector
    }
    if (!readsAlongInnermost(op, operand, last))
      return 1;
  }
  // Only elementwise payloads can be rebuilt on vectors.
  return kernel::hasElementwisePayload(op) && operandsVectorAligned(op, width)
             ? width
             : 1;
}

void scheduleInjective(OpBuilder &b, linalg::LinalgOp op,
                       ArrayRef<int64_t> ranges, int64_t blockSize,
                       int64_t vectorBytes) {
  Location loc = op.getLoc();
  int64_t width = chooseVectorWidth(op, ranges, vectorBytes);
  SmallVector<int64_t> taskShape(ranges);
  if (taskShape.empty())
    taskShape.push_back(1);
  else
    taskShape.back() /= width;
  auto mapping = hidet::tm::SpatialAttr::get(b.getContext(), taskShape);

  createLaunch(
      b, loc, "injective", mapping, blockSize, blockSize,
      [&](OpBuilder &b, gpu::LaunchOp) {
        auto loop = hidet::tm::ForEachOp::create(
            b, loc, mapping, hidet::tm::GPUWorker::global_x);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(loop.getBody().front().getTerminator());
        SmallVector<Value> ivs(loop.getTaskIndices().begin(),
                               loop.getTaskIndices().end());
        if (ranges.empty())
          ivs.clear();
        if (width > 1)
          ivs.back() =
              arith::MulIOp::create(b, loc, ivs.back(), cst(b, loc, width));
        auto load = [&](OpOperand &operand) -> Value {
          Value v = operand.get();
          auto type = dyn_cast<MemRefType>(v.getType());
          if (!type)
            return v;
          AffineMap map = op.getMatchingIndexingMap(&operand);
          SmallVector<Value> idx = applyIndexingMap(b, loc, map, ivs);
          Type elt = type.getElementType();
          if (width == 1 || !map.isFunctionOfDim(ranges.size() - 1)) {
            Value s = memref::LoadOp::create(b, loc, v, idx);
            return s;
          }
          auto vt = VectorType::get({width}, elt);
          return vector::LoadOp::create(
              b, loc, vt, v, idx, /*nontemporal=*/false,
              llvm::MaybeAlign(width *
                               ((elt.getIntOrFloatBitWidth() + 7) / 8)));
        };
        SmallVector<Value> args;
        for (OpOperand &operand : op->getOpOperands()) {
          BlockArgument arg = op.getMatchingBlockArgument(&operand);
          // Outputs are read only when the payload uses them.
          if (op.isDpsInit(&operand) && arg.use_empty()) {
            args.push_back(arg); // placeholder, never used
            continue;
          }
          args.push_back(load(operand));
        }
        SmallVector<Value> results = clonePayload(b, loc, op, args, ivs, width);
        for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
          AffineMap map = op.getMatchingIndexingMap(&init);
          SmallVector<Value> idx = applyIndexingMap(b, loc, map, ivs);
          Value value = results[i];
          if (width > 1 && !isa<VectorType>(value.getType()))
            value = vector::BroadcastOp::create(
                b, loc, VectorType::get({width}, value.getType()), value);
          if (width > 1) {
            Type elt = cast<MemRefType>(init.get().getType()).getElementType();
            vector::StoreOp::create(
                b, loc, value, init.get(), idx, /*nontemporal=*/false,
                llvm::MaybeAlign(width *
                                 ((elt.getIntOrFloatBitWidth() + 7) / 8)));
          } else {
            memref::StoreOp::create(b, loc, value, init.get(), idx);
          }
        }
      });
}

std::optional<PermutedInputs> matchPermutedInputs(linalg::LinalgOp op) {
  unsigned rank = op.getNumLoops();
  if (rank < 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  unsigned l = rank - 1;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<MemRefType>(init->get().getType());
  if (!outType || !op.getMatchingIndexingMap(init).isIdentity() ||
      !isContiguous(outType))
    return std::nullopt;
  PermutedInputs result{0, {}};
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || type.getRank() == 0)
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isProjectedPermutation() || !isContiguous(type))
      return std::nullopt;
    unsigned last = cast<AffineDimExpr>(map.getResults().back()).getPosition();
    if (last == l || !map.isFunctionOfDim(l))
      continue; // contiguous along the output, or broadcast along it
    if (!result.operands.empty() && result.p != last)
      return std::nullopt;
    result.p = last;
    result.operands.push_back(input);
  }
  if (result.operands.empty())
    return std::nullopt;
  return result;
}

/// Vector width of a permuted op: both tiled dimensions must divide into
/// vectors of `vectorBytes` of the widest element type.
static int64_t choosePermutedWidth(linalg::LinalgOp op,
                                   ArrayRef<int64_t> ranges, unsigned p,
                                   int64_t tile, int64_t vectorBytes) {
  int64_t maxBytes = widestElementBytes(op);
  if (maxBytes == 0)
    return 1;
  int64_t width = vectorBytes / maxBytes;
  unsigned l = ranges.size() - 1;
  if (width < 2 || ranges[p] % width || ranges[l] % width || tile % width ||
      !hasElementwisePayload(op) || !operandsVectorAligned(op, width))
    return 1;
  return width;
}

void schedulePermuted(OpBuilder &b, linalg::LinalgOp op,
                      ArrayRef<int64_t> ranges, const PermutedInputs &perm,
                      int64_t tile, int64_t blockSize, int64_t vectorBytes) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  unsigned l = ranges.size() - 1, p = perm.p;
  int64_t width = choosePermutedWidth(op, ranges, p, tile, vectorBytes);
  // One block per tile of the (p, l) plane, per index of the other dims.
  SmallVector<int64_t> tiles(ranges);
  tiles[p] = (ranges[p] + tile - 1) / tile;
  tiles[l] = (ranges[l] + tile - 1) / tile;
  auto blockMapping = hidet::tm::SpatialAttr::get(ctx, tiles);
  // Threads cover the tile as rows of vectors: `lanes` threads per row,
  // the block stepping down the tile.
  // (tile, block size and width are powers of two, so every step divides;
  // a block larger than the tile leaves its extra threads idle.)
  int64_t cols = tile / width;
  int64_t lanes = std::min<int64_t>(cols, blockSize);
  int64_t rowsPerStep = std::min<int64_t>(blockSize / lanes, tile);
  auto threadMapping = hidet::tm::ComposeAttr::get(
      ctx, {hidet::tm::RepeatAttr::get(
                ctx, ArrayRef<int64_t>{tile / rowsPerStep, cols / lanes}),
            hidet::tm::SpatialAttr::get(
                ctx, ArrayRef<int64_t>{rowsPerStep, lanes})});
  // The padded row keeps the column reads of phase 2 off a single bank.
  SmallVector<Type> buffers;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  for (OpOperand *operand : perm.operands)
    buffers.push_back(MemRefType::get({tile, tile + 1},
                                      elementTypeOf(operand->get()),
                                      AffineMap(), workgroup));

  createLaunch(
      b, loc, "transpose", blockMapping, /*workersPerBlock=*/1, blockSize,
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        auto blocks = hidet::tm::ForEachOp::create(
            b, loc, blockMapping, hidet::tm::GPUWorker::block_x);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(blocks.getBody().front().getTerminator());
        SmallVector<Value> ivs(blocks.getTaskIndices().begin(),
                               blocks.getTaskIndices().end());
        Value baseP = arith::MulIOp::create(b, loc, ivs[p], cst(b, loc, tile));
        Value baseL = arith::MulIOp::create(b, loc, ivs[l], cst(b, loc, tile));
        auto add = [&](Value v, int64_t k) -> Value {
          return k == 0 ? v : arith::AddIOp::create(b, loc, v, cst(b, loc, k));
        };
        // Runs `body` for each (row, vector column) of the tile whose loop
        // indices (p = baseP + offP, l = baseL + offL) are in bounds; the
        // vector runs along l when `rowIsL` is false, along p otherwise.
        auto forTile = [&](bool rowIsL,
                           function_ref<void(OpBuilder &, Value, Value,
                                             SmallVector<Value> &)>
                               body) {
          auto threads = hidet::tm::ForEachOp::create(
              b, loc, threadMapping, hidet::tm::GPUWorker::thread_x);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(threads.getBody().front().getTerminator());
          Value row = threads.getTaskIndices()[0];
          Value col = threads.getTaskIndices()[1];
          if (width > 1)
            col = arith::MulIOp::create(b, loc, col, cst(b, loc, width));
          Value offL = rowIsL ? row : col, offP = rowIsL ? col : row;
          SmallVector<Value> loopIvs(ivs);
          loopIvs[p] = arith::AddIOp::create(b, loc, baseP, offP);
          loopIvs[l] = arith::AddIOp::create(b, loc, baseL, offL);
          // The extents divide by the vector width: checking a vector's first
          // element checks all of it.
          Value inP = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            loopIvs[p], cst(b, loc, ranges[p]));
          Value inL = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            loopIvs[l], cst(b, loc, ranges[l]));
          Value inBounds = arith::AndIOp::create(b, loc, inP, inL);
          auto ifOp = scf::IfOp::create(b, loc, inBounds, /*withElse=*/false);
          b.setInsertionPointToStart(&ifOp.getThenRegion().front());
          body(b, offL, offP, loopIvs);
        };
        // Phase 1: neighbouring threads read neighbouring elements along p.
        forTile(/*rowIsL=*/true, [&](OpBuilder &b, Value offL, Value offP,
                                     SmallVector<Value> &loopIvs) {
          for (auto [k, operand] : llvm::enumerate(perm.operands)) {
            Value buffer = launch.getWorkgroupAttributions()[k];
            SmallVector<Value> idx = applyIndexingMap(
                b, loc, op.getMatchingIndexingMap(operand), loopIvs);
            Type elt = elementTypeOf(operand->get());
            if (width == 1) {
              Value v = memref::LoadOp::create(b, loc, operand->get(), idx);
              memref::StoreOp::create(b, loc, v, buffer,
                                      ValueRange{offL, offP});
              continue;
            }
            Value v = vector::LoadOp::create(
                b, loc, VectorType::get({width}, elt), operand->get(), idx,
                /*nontemporal=*/false, vectorAlign(elt, width));
            for (int64_t e = 0; e < width; ++e)
              memref::StoreOp::create(b, loc,
                                      vector::ExtractOp::create(b, loc, v, e),
                                      buffer, ValueRange{offL, add(offP, e)});
          }
        });
        gpu::BarrierOp::create(b, loc);
        // Phase 2: neighbouring threads write neighbouring output elements.
        forTile(/*rowIsL=*/false, [&](OpBuilder &b, Value offL, Value offP,
                                      SmallVector<Value> &loopIvs) {
          SmallVector<Value> args;
          for (OpOperand &operand : op->getOpOperands()) {
            auto staged = llvm::find(perm.operands, &operand);
            if (staged != perm.operands.end()) {
              Value buffer =
                  launch.getWorkgroupAttributions()[staged -
                                                    perm.operands.begin()];
              SmallVector<Value> elems;
              for (int64_t e = 0; e < width; ++e)
                elems.push_back(memref::LoadOp::create(
                    b, loc, buffer, ValueRange{add(offL, e), offP}));
              args.push_back(
                  width == 1 ? elems.front()
                             : vector::FromElementsOp::create(
                                   b, loc,
                                   VectorType::get(
                                       {width}, elementTypeOf(operand.get())),
                                   elems)
                                   .getResult());
              continue;
            }
            Value v = operand.get();
            BlockArgument arg = op.getMatchingBlockArgument(&operand);
            if (op.isDpsInit(&operand) && arg.use_empty()) {
              args.push_back(arg); // never read
              continue;
            }
            auto type = dyn_cast<MemRefType>(v.getType());
            if (!type) {
              args.push_back(v);
              continue;
            }
            AffineMap map = op.getMatchingIndexingMap(&operand);
            SmallVector<Value> idx = applyIndexingMap(b, loc, map, loopIvs);
            // Contiguous along the output (last index l) or broadcast along it.
            if (width > 1 && map.isFunctionOfDim(l))
              v = vector::LoadOp::create(
                  b, loc, VectorType::get({width}, type.getElementType()), v,
                  idx,
                  /*nontemporal=*/false,
                  vectorAlign(type.getElementType(), width));
            else
              v = memref::LoadOp::create(b, loc, v, idx);
            args.push_back(v);
          }
          Value result = clonePayload(b, loc, op, args, loopIvs, width).front();
          Value out = op.getDpsInitOperand(0)->get();
          Type elt = cast<MemRefType>(out.getType()).getElementType();
          if (width > 1 && !isa<VectorType>(result.getType()))
            result = vector::BroadcastOp::create(
                b, loc, VectorType::get({width}, elt), result);
          if (width > 1)
            vector::StoreOp::create(b, loc, result, out, loopIvs,
                                    /*nontemporal=*/false,
                                    vectorAlign(elt, width));
          else
            memref::StoreOp::create(b, loc, result, out, loopIvs);
        });
      },
      buffers);
}

} // namespace rulebased
} // namespace hidet
