//===- Reductions.cpp - Reduction kernels
//-----------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The rules for reductions: a warp (or, for long rows, a block) per output
// element with lanes strided over the contiguous reduced dimension and a
// shuffle butterfly, or a thread per output element with a sequential loop.
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

/// Elements per lane load in a warp reduction: inputs that walk the reduced
/// dimension are read `vectorBytes` at a time when the extent divides.
static int64_t chooseReductionWidth(linalg::LinalgOp op, unsigned r,
                                    int64_t extent, int64_t vectorBytes) {
  int64_t maxBytes = 0;
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type || !op.getMatchingIndexingMap(input).isFunctionOfDim(r))
      continue;
    Type t = type.getElementType();
    if (!kernel::isVectorizableElement(t))
      return 1;
    maxBytes = std::max<int64_t>(maxBytes, (t.getIntOrFloatBitWidth() + 7) / 8);
  }
  if (maxBytes == 0)
    return 1;
  int64_t width = vectorBytes / maxBytes;
  return width >= 2 && extent % width == 0 && operandsVectorAligned(op, width)
             ? width
             : 1;
}

/// A reduction of each output element by a warp, or, for long rows
/// (`blockPerRow`), by a whole block: lanes combine with a butterfly, the
/// warps' partials meet in shared memory and the first warp combines them.
void scheduleWarpReduction(OpBuilder &b, linalg::LinalgOp op,
                           ArrayRef<int64_t> ranges, const WarpReduction &red,
                           int64_t blockSize, int64_t vectorBytes,
                           bool blockPerRow, StoreResult storeResult,
                           TypedAttr initialValue) {
  Location loc = op.getLoc();
  SmallVector<unsigned> parallelDims;
  op.getParallelDims(parallelDims);
  SmallVector<int64_t> outShape;
  for (unsigned d : parallelDims)
    outShape.push_back(ranges[d]);
  if (outShape.empty())
    outShape.push_back(1);
  int64_t extent = ranges[red.reductionDim];
  int64_t width =
      chooseReductionWidth(op, red.reductionDim, extent, vectorBytes);
  int64_t vectors = extent / width;
  int64_t threads = blockPerRow ? blockSize : kWarpSize;
  int64_t steps = (vectors + threads - 1) / threads;
  MLIRContext *ctx = b.getContext();
  auto rowMapping = hidet::tm::SpatialAttr::get(ctx, outShape);
  auto laneMapping = hidet::tm::ComposeAttr::get(
      ctx, {hidet::tm::RepeatAttr::get(ctx, ArrayRef<int64_t>{steps}),
            hidet::tm::SpatialAttr::get(ctx, ArrayRef<int64_t>{threads})});
  int64_t warpsPerBlock = blockSize / kWarpSize;
  Type accType = red.combiner->getResult(0).getType();
  OpOperand *init = op.getDpsInitOperand(0);
  SmallVector<Type> shared;
  if (blockPerRow)
    shared.push_back(MemRefType::get(
        {warpsPerBlock}, accType, AffineMap(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup)));

  createLaunch(
      b, loc, "reduce_rows", rowMapping, blockPerRow ? 1 : warpsPerBlock,
      blockSize,
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        std::pair<Value, Value> warpLane =
            getWarpAndLane(b, loc, launch, warpsPerBlock);
        Value warp = warpLane.first, lane = warpLane.second;
        Value tid = launch.getThreadIds().x;
        auto rows =
            blockPerRow
                ? hidet::tm::ForEachOp::create(b, loc, rowMapping,
                                               hidet::tm::GPUWorker::block_x)
                : hidet::tm::ForEachOp::create(b, loc, rowMapping, warp);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(rows.getBody().front().getTerminator());
        auto accBuf =
            memref::AllocaOp::create(b, loc, MemRefType::get({}, accType));
        memref::StoreOp::create(b, loc,
                                arith::ConstantOp::create(b, loc, red.neutral),
                                accBuf, ValueRange{});

        auto lanes = hidet::tm::ForEachOp::create(b, loc, laneMapping,
                                                  blockPerRow ? tid : lane,
                                                  /*upperBound=*/threads);
        {
          OpBuilder::InsertionGuard inner(b);
          b.setInsertionPoint(lanes.getBody().front().getTerminator());
          // Lane task r is the r-th vector of `width` elements of the row.
          Value r = lanes.getTaskIndices()[0];
          auto step = [&](OpBuilder &b) {
            SmallVector<Value> ivs(ranges.size());
            for (auto [k, d] : llvm::enumerate(parallelDims))
              ivs[d] = rows.getTaskIndices()[k];
            Value first = width == 1 ? r
                                     : arith::MulIOp::create(b, loc, r,
                                                             cst(b, loc, width))
                                           .getResult();
            ivs[red.reductionDim] = first;
            SmallVector<Value> loaded;
            for (OpOperand &operand : op->getOpOperands()) {
              Value v = operand.get();
              if (&operand == init || !isa<MemRefType>(v.getType())) {
                loaded.push_back(v);
                continue;
              }
              AffineMap map = op.getMatchingIndexingMap(&operand);
              SmallVector<Value> idx = applyIndexingMap(b, loc, map, ivs);
              Type elt = cast<MemRefType>(v.getType()).getElementType();
              if (width > 1 && map.isFunctionOfDim(red.reductionDim))
                loaded.push_back(vector::LoadOp::create(
                    b, loc, VectorType::get({width}, elt), v, idx,
                    /*nontemporal=*/false,
                    llvm::MaybeAlign(width *
                                     ((elt.getIntOrFloatBitWidth() + 7) / 8))));
              else
                loaded.push_back(memref::LoadOp::create(b, loc, v, idx));
            }
            accumulateElements(b, loc, op, init, loaded, accBuf, width, ivs,
                               red.reductionDim, first);
          };
          if (vectors % threads == 0) {
            step(b);
          } else {
            // Ragged tail: the last lanes of the last step have no element.
            Value inRange = arith::CmpIOp::create(
                b, loc, arith::CmpIPredicate::ult, r, cst(b, loc, vectors));
            auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(&ifOp.getThenRegion().front());
            step(b);
          }
        }
        Value partial = memref::LoadOp::create(b, loc, accBuf, ValueRange{});
        partial = warpAllReduce(b, loc, red.combiner, partial);
        if (blockPerRow) {
          // Each warp's lane 0 publishes its partial; every warp then reduces
          // the published partials (the neutral element past the last warp).
          Value partials = launch.getWorkgroupAttributions()[0];
          Value warpInBlock =
              arith::DivUIOp::create(b, loc, tid, cst(b, loc, kWarpSize));
          auto publish = scf::IfOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                    cst(b, loc, 0)),
              /*withElse=*/false);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(&publish.getThenRegion().front());
            memref::StoreOp::create(b, loc, partial, partials, warpInBlock);
          }
          gpu::BarrierOp::create(b, loc);
          Value hasPartial =
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, lane,
                                    cst(b, loc, warpsPerBlock));
          auto pick = scf::IfOp::create(b, loc, accType, hasPartial,
                                        /*withElse=*/true);
          {
            OpBuilder::InsertionGuard g(b);
            b.setInsertionPointToStart(&pick.getThenRegion().front());
            scf::YieldOp::create(
                b, loc,
                memref::LoadOp::create(b, loc, partials, lane).getResult());
            b.setInsertionPointToStart(&pick.getElseRegion().front());
            scf::YieldOp::create(
                b, loc,
                arith::ConstantOp::create(b, loc, red.neutral).getResult());
          }
          partial = warpAllReduce(b, loc, red.combiner, pick.getResult(0));
        }
        Value isLeader =
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                  blockPerRow ? tid : lane, cst(b, loc, 0));
        auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElse=*/false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        SmallVector<Value> ivs(ranges.size());
        for (auto [k, d] : llvm::enumerate(parallelDims))
          ivs[d] = rows.getTaskIndices()[k];
        ivs[red.reductionDim] = cst(b, loc, 0);
        SmallVector<Value> outIdx =
            applyIndexingMap(b, loc, op.getMatchingIndexingMap(init), ivs);
        Value initial =
            initialValue
                ? arith::ConstantOp::create(b, loc, initialValue).getResult()
                : memref::LoadOp::create(b, loc, init->get(), outIdx)
                      .getResult();
        Value result = combine(b, red.combiner, partial, initial);
        if (storeResult)
          storeResult(b, loc, outIdx, result);
        else
          memref::StoreOp::create(b, loc, result, init->get(), outIdx);
      },
      shared);
}

/// The loop dims of `op` in the order of its first output's dimensions.
static SmallVector<unsigned> parallelDimsInOutputOrder(linalg::LinalgOp op) {
  SmallVector<unsigned> parallelDims;
  op.getParallelDims(parallelDims);
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  auto outPosition = [&](unsigned d) -> int64_t {
    for (auto [i, e] : llvm::enumerate(outMap.getResults()))
      if (auto dim = dyn_cast<AffineDimExpr>(e); dim && dim.getPosition() == d)
        return static_cast<int64_t>(i);
    return -1;
  };
  llvm::stable_sort(parallelDims, [&](unsigned x, unsigned y) {
    return outPosition(x) < outPosition(y);
  });
  return parallelDims;
}

int64_t chooseSerialWidth(linalg::LinalgOp op, ArrayRef<int64_t> ranges,
                          int64_t vectorBytes, int64_t maxSteps) {
  if (vectorBytes <= 1 || op.getNumDpsInits() != 1 ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return 1;
  // A long reduction keeps a thread per output: its loop is a chain of
  // dependent steps, and fewer, wider threads would keep fewer loads in
  // flight.
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  int64_t steps = 1;
  for (unsigned d : reductionDims)
    steps *= ranges[d];
  if (steps > maxSteps)
    return 1;
  SmallVector<unsigned> parallelDims = parallelDimsInOutputOrder(op);
  if (parallelDims.empty())
    return 1;
  // The vector runs along the output's innermost dimension.
  unsigned c = parallelDims.back();
  OpOperand *init = op.getDpsInitOperand(0);
  auto outLast = dyn_cast<AffineDimExpr>(
      op.getMatchingIndexingMap(init).getResults().back());
  if (!outLast || outLast.getPosition() != c)
    return 1;
  int64_t maxBytes = widestElementBytes(op);
  if (maxBytes == 0)
    return 1;
  int64_t width = vectorBytes / maxBytes;
  if (width < 2 || ranges[c] % width != 0)
    return 1;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    AffineMap map = op.getMatchingIndexingMap(&operand);
    if (!type || !map.isFunctionOfDim(c))
      continue; // read once per task, broadcast along the vector
    if (!readsAlongInnermost(op, operand, c) || !vectorAligned(type, width))
      return 1;
  }
  return kernel::hasElementwisePayload(op) ? width : 1;
}

void scheduleSerialReduction(OpBuilder &b, linalg::LinalgOp op,
                             ArrayRef<int64_t> ranges, int64_t blockSize,
                             const SerialReduction &how,
                             StoreResult storeResult) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  int64_t width = how.width;
  assert((width == 1 || op.getNumDpsInits() == 1) && "vectors need one output");
  // Threads take the outputs in the first output's order, so that
  // neighbouring threads write (and mostly read) neighbouring elements; the
  // loop order may differ: linalg.depthwise_conv_2d_nchw_chw iterates
  // (n, oh, ow, c) over an NCHW output.
  SmallVector<unsigned> parallelDims = parallelDimsInOutputOrder(op);
  SmallVector<unsigned> reductionDims;
  op.getReductionDims(reductionDims);
  SmallVector<int64_t> outShape, redShape;
  for (unsigned d : parallelDims)
    outShape.push_back(ranges[d]);
  for (unsigned d : reductionDims)
    redShape.push_back(ranges[d]);
  if (outShape.empty())
    outShape.push_back(1);
  // A task is `width` consecutive outputs along the innermost dimension.
  outShape.back() /= width;
  auto mapping = hidet::tm::SpatialAttr::get(ctx, outShape);
  // Small windows (a pooling's or a convolution's 3x3) are unrolled, so
  // that their loads are in flight together; longer reductions stay
  // rolled: their extents are input sizes.
  int64_t windowSize = 1;
  for (int64_t e : redShape)
    windowSize *= e;
  SmallVector<int64_t> unroll(redShape.size(),
                              windowSize <= how.unrollMax ? 0 : 1);
  auto redMapping = hidet::tm::RepeatAttr::get(
      ctx, redShape, llvm::to_vector(llvm::seq<int64_t>(0, redShape.size())),
      unroll);
  auto vectorOf = [&](Type elt) -> Type {
    return width > 1 ? Type(VectorType::get({width}, elt)) : elt;
  };

  createLaunch(
      b, loc, "reduce", mapping, blockSize, blockSize,
      [&](OpBuilder &b, gpu::LaunchOp) {
        auto outer = hidet::tm::ForEachOp::create(
            b, loc, mapping, hidet::tm::GPUWorker::global_x);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(outer.getBody().front().getTerminator());
        SmallVector<Value> ivs(ranges.size());
        for (auto [k, d] : llvm::enumerate(parallelDims))
          ivs[d] = outer.getTaskIndices()[k];
        if (width > 1)
          ivs[parallelDims.back()] = arith::MulIOp::create(
              b, loc, ivs[parallelDims.back()], cst(b, loc, width));
        // The accumulators start from the outputs' initial values, or from
        // the constant a folded fill would have written.
        SmallVector<Value> accBufs;
        SmallVector<SmallVector<Value>> outIdx;
        for (auto [k, d] : llvm::enumerate(reductionDims))
          ivs[d] = cst(b, loc, 0);
        Value zero = width > 1 ? cst(b, loc, 0) : Value();
        for (OpOperand &init : op.getDpsInitsMutable()) {
          Type elt = cast<MemRefType>(init.get().getType()).getElementType();
          // A scalar accumulator is a memref of rank 0, a vector one holds
          // its elements.
          auto buf =
              memref::AllocaOp::create(b, loc,
                                       width > 1 ? MemRefType::get({width}, elt)
                                                 : MemRefType::get({}, elt));
          outIdx.push_back(
              applyIndexingMap(b, loc, op.getMatchingIndexingMap(&init), ivs));
          Value start;
          if (how.initial) {
            start = arith::ConstantOp::create(b, loc, how.initial);
            if (width > 1)
              start = vector::BroadcastOp::create(b, loc, vectorOf(elt), start);
          } else if (width > 1) {
            start = vector::LoadOp::create(
                b, loc, cast<VectorType>(vectorOf(elt)), init.get(),
                outIdx.back(), /*nontemporal=*/false, vectorAlign(elt, width));
          } else {
            start = memref::LoadOp::create(b, loc, init.get(), outIdx.back());
          }
          if (width > 1)
            vector::StoreOp::create(b, loc, start, buf, ValueRange{zero});
          else
            memref::StoreOp::create(b, loc, start, buf, ValueRange{});
          accBufs.push_back(buf);
        }
        auto loadAcc = [&](Value buf) -> Value {
          if (width > 1)
            return vector::LoadOp::create(
                b, loc,
                VectorType::get(
                    {width}, cast<MemRefType>(buf.getType()).getElementType()),
                buf, ValueRange{zero});
          return memref::LoadOp::create(b, loc, buf, ValueRange{});
        };
        auto loop = hidet::tm::RepeatOp::create(b, loc, redMapping);
        {
          OpBuilder::InsertionGuard inner(b);
          Block *body = b.createBlock(&loop.getBody());
          for (size_t i = 0; i < redShape.size(); ++i)
            body->addArgument(b.getIndexType(), loc);
          for (auto [k, d] : llvm::enumerate(reductionDims))
            ivs[d] = body->getArgument(k);
          unsigned c = parallelDims.back();
          SmallVector<Value> args;
          unsigned initIdx = 0;
          for (OpOperand &operand : op->getOpOperands()) {
            Value v = operand.get();
            if (op.isDpsInit(&operand)) {
              args.push_back(loadAcc(accBufs[initIdx++]));
              continue;
            }
            // An input the payload ignores (a pooling's window shape) is
            // not read.
            if (!op.payloadUsesValueFromOperand(&operand)) {
              args.push_back(op.getMatchingBlockArgument(&operand));
              continue;
            }
            if (isa<MemRefType>(v.getType())) {
              AffineMap map = op.getMatchingIndexingMap(&operand);
              SmallVector<Value> idx = applyIndexingMap(b, loc, map, ivs);
              int64_t w = width > 1 && map.isFunctionOfDim(c) ? width : 1;
              if (how.prologue)
                v = how.prologue->read(operand.getOperandNumber())
                        .loadPadded(b, loc, idx, w);
              else if (w > 1)
                v = vector::LoadOp::create(
                    b, loc, cast<VectorType>(vectorOf(elementTypeOf(v))), v,
                    idx, /*nontemporal=*/false,
                    vectorAlign(elementTypeOf(v), width));
              else
                v = memref::LoadOp::create(b, loc, v, idx);
            }
            args.push_back(v);
          }
          SmallVector<Value> next = clonePayload(b, loc, op, args, ivs, width);
          for (auto [v, buf] : llvm::zip(next, accBufs)) {
            if (width > 1 && !isa<VectorType>(v.getType()))
              v = vector::BroadcastOp::create(b, loc, vectorOf(v.getType()), v);
            if (width > 1)
              vector::StoreOp::create(b, loc, v, buf, ValueRange{zero});
            else
              memref::StoreOp::create(b, loc, v, buf, ValueRange{});
          }
          hidet::tm::YieldOp::create(b, loc);
        }
        for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable())) {
          Value result = loadAcc(accBufs[i]);
          if (storeResult)
            storeResult(b, loc, outIdx[i], result);
          else if (width > 1)
            vector::StoreOp::create(
                b, loc, result, init.get(), outIdx[i],
                /*nontemporal=*/false,
                vectorAlign(elementTypeOf(init.get()), width));
          else
            memref::StoreOp::create(b, loc, result, init.get(), outIdx[i]);
        }
      });
}

} // namespace rulebased
} // namespace hidet
