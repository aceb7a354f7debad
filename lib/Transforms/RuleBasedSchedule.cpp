//===- RuleBasedSchedule.cpp - GPU kernels for template-less ops ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-rule-based-schedule`: every structured linalg
// op on memrefs becomes a `gpu.launch` whose body iterates its tasks with
// `tm.foreach`. Three rules, chosen per op:
//
//   injective      one task per output element (or per 16-byte vector of
//                  them) on the global thread id;
//   warp reduce    one warp per output element, lanes strided over the
//                  contiguous reduced dimension, then a shuffle butterfly;
//   serial reduce  one thread per output element, a sequential loop over the
//                  reduction (neighbouring threads read neighbouring
//                  addresses).
//
// The payload of the linalg op is cloned into the kernel, so any
// elementwise computation the op carries (casts, math, comparisons) is kept
// without being recognized.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/MathExtras.h"

namespace hidet {
#define GEN_PASS_DEF_RULEBASEDSCHEDULE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

/// The warp size of every NVIDIA GPU.
static constexpr int64_t kWarpSize = 32;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) / perBlock)
/// blocks of `blockSize` threads and calls `body` inside it. The grid size is
/// computed from the mapping in the IR, so it cannot drift from it.
static void createLaunch(OpBuilder &b, Location loc,
                         hidet::tm::TaskMappingAttrInterface mapping,
                         int64_t workersPerBlock, int64_t blockSize,
                         function_ref<void(OpBuilder &, gpu::LaunchOp)> body,
                         TypeRange workgroupBuffers = {}) {
  Value workers =
      hidet::tm::NumWorkersOp::create(b, loc, b.getIndexType(), mapping);
  Value block = cst(b, loc, blockSize);
  Value perBlock =
      workersPerBlock == blockSize ? block : cst(b, loc, workersPerBlock);
  Value grid = arith::CeilDivUIOp::create(b, loc, workers, perBlock);
  Value one = cst(b, loc, 1);
  auto launch = gpu::LaunchOp::create(
      b, loc, grid, one, one, block, one, one,
      /*dynamicSharedMemorySize=*/nullptr, /*asyncTokenType=*/nullptr,
      /*asyncDependencies=*/{}, workgroupBuffers);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&launch.getBody().front());
  body(b, launch);
  gpu::TerminatorOp::create(b, loc);
}

/// Indices of an operand for the loop indices `ivs`, by its indexing map.
static SmallVector<Value> applyIndexingMap(OpBuilder &b, Location loc,
                                           AffineMap map, ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr e : map.getResults()) {
    if (auto d = dyn_cast<AffineDimExpr>(e))
      indices.push_back(ivs[d.getPosition()]);
    else if (auto c = dyn_cast<AffineConstantExpr>(e))
      indices.push_back(cst(b, loc, c.getValue()));
    else
      indices.push_back(affine::AffineApplyOp::create(
          b, loc, AffineMap::get(map.getNumDims(), 0, e), ivs));
  }
  return indices;
}

/// Whether the innermost stride of `type` is 1 and its offset 0 (so that
/// aligned vector accesses stay aligned).
static bool isContiguous(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return offset == 0 && !strides.empty() && strides.back() == 1 &&
         type.isStrided();
}

/// Clones the payload of `op` (all but the terminator) and returns the
/// yielded values. `linalg.index` becomes the corresponding loop index. In
/// vector mode (`width` > 1) every op that takes a vector operand is rebuilt
/// on vectors, broadcasting its scalar operands.
static SmallVector<Value> clonePayload(OpBuilder &b, Location loc,
                                       linalg::LinalgOp op, ValueRange args,
                                       ValueRange ivs, int64_t width = 1) {
  Block *block = op.getBlock();
  IRMapping map;
  map.map(block->getArguments(), args);
  for (Operation &inner : block->without_terminator()) {
    if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
      map.map(index.getResult(), ivs[index.getDim()]);
      continue;
    }
    bool anyVector = llvm::any_of(inner.getOperands(), [&](Value v) {
      return isa<VectorType>(map.lookupOrDefault(v).getType());
    });
    if (width == 1 || !anyVector) {
      b.clone(inner, map);
      continue;
    }
    SmallVector<Value> operands;
    for (Value v : inner.getOperands()) {
      Value m = map.lookupOrDefault(v);
      if (!isa<VectorType>(m.getType()))
        m = vector::BroadcastOp::create(
            b, loc, VectorType::get({width}, m.getType()), m);
      operands.push_back(m);
    }
    SmallVector<Type> types;
    for (Type t : inner.getResultTypes())
      types.push_back(VectorType::get({width}, t));
    OperationState state(loc, inner.getName(), operands, types,
                         inner.getAttrs());
    Operation *vectorOp = b.create(state);
    map.map(inner.getResults(), vectorOp->getResults());
  }
  SmallVector<Value> yielded;
  for (Value v : block->getTerminator()->getOperands())
    yielded.push_back(map.lookupOrDefault(v));
  return yielded;
}

/// Static loop extents, or failure for dynamic shapes.
static FailureOr<SmallVector<int64_t>> getStaticRanges(linalg::LinalgOp op) {
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return failure();
  return ranges;
}

/// Element type of an operand (the type itself for scalars).
static Type elementTypeOf(Value v) {
  if (auto shaped = dyn_cast<ShapedType>(v.getType()))
    return shaped.getElementType();
  return v.getType();
}

/// Bytes of the widest element type among the operands of `op`, or 0 when
/// one is not an integer or float (such ops are not vectorized).
static int64_t widestElementBytes(linalg::LinalgOp op) {
  int64_t maxBytes = 1;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = elementTypeOf(operand.get());
    if (!t.isIntOrFloat())
      return 0;
    maxBytes = std::max<int64_t>(maxBytes, (t.getIntOrFloatBitWidth() + 7) / 8);
  }
  return maxBytes;
}

//===----------------------------------------------------------------------===//
// Injective ops
//===----------------------------------------------------------------------===//

/// The vector width for an all-parallel op, or 1 when it cannot be
/// vectorized.
static int64_t chooseVectorWidth(linalg::LinalgOp op,
                                 ArrayRef<int64_t> ranges,
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
    auto lastExpr = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!lastExpr || lastExpr.getPosition() != last || !isContiguous(type))
      return 1;
    for (AffineExpr e : map.getResults().drop_back())
      if (e.isFunctionOfDim(last))
        return 1;
  }
  // Only elementwise payloads can be rebuilt on vectors.
  for (Operation &inner : op.getBlock()->without_terminator())
    if (!OpTrait::hasElementwiseMappableTraits(&inner) &&
        !isa<arith::ConstantOp>(inner))
      return 1;
  return width;
}

static void scheduleInjective(OpBuilder &b, linalg::LinalgOp op,
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

  createLaunch(b, loc, mapping, blockSize, blockSize,
               [&](OpBuilder &b, gpu::LaunchOp) {
    auto loop = hidet::tm::ForEachOp::create(b, loc, mapping, hidet::tm::GPUWorker::global_x);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody().front().getTerminator());
    SmallVector<Value> ivs(loop.getTaskIndices().begin(),
                           loop.getTaskIndices().end());
    if (ranges.empty())
      ivs.clear();
    if (width > 1)
      ivs.back() = arith::MulIOp::create(b, loc, ivs.back(),
                                         cst(b, loc, width));
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
          llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) / 8)));
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
            llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) / 8)));
      } else {
        memref::StoreOp::create(b, loc, value, init.get(), idx);
      }
    }
  });
}

//===----------------------------------------------------------------------===//
// Permuted injective ops (transposes)
//===----------------------------------------------------------------------===//

/// An all-parallel op whose output is written in loop order while some
/// input is contiguous along another loop dimension `p`: reading that input
/// in output order would stride through memory. Such inputs are staged
/// through a shared-memory tile, read along `p` and written along the
/// output's innermost dimension, so both global accesses coalesce.
struct PermutedInputs {
  unsigned p;                        ///< loop dim contiguous in the inputs
  SmallVector<OpOperand *> operands; ///< inputs staged through the tile
};

static std::optional<PermutedInputs> matchPermutedInputs(linalg::LinalgOp op) {
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

/// Whether every op of the payload can be rebuilt on vectors.
static bool hasElementwisePayload(linalg::LinalgOp op) {
  return llvm::all_of(op.getBlock()->without_terminator(), [](Operation &o) {
    return OpTrait::hasElementwiseMappableTraits(&o) ||
           isa<arith::ConstantOp>(o);
  });
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
      !hasElementwisePayload(op))
    return 1;
  return width;
}

static llvm::MaybeAlign vectorAlign(Type elt, int64_t width) {
  return llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) / 8));
}

static void schedulePermuted(OpBuilder &b, linalg::LinalgOp op,
                             ArrayRef<int64_t> ranges,
                             const PermutedInputs &perm, int64_t tile,
                             int64_t blockSize, int64_t vectorBytes) {
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
  auto workgroup = gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  for (OpOperand *operand : perm.operands)
    buffers.push_back(MemRefType::get(
        {tile, tile + 1}, elementTypeOf(operand->get()), AffineMap(),
        workgroup));

  createLaunch(b, loc, blockMapping, /*workersPerBlock=*/1, blockSize,
               [&](OpBuilder &b, gpu::LaunchOp launch) {
    auto blocks = hidet::tm::ForEachOp::create(b, loc, blockMapping,
                                               hidet::tm::GPUWorker::block_x);
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
    // indices (p = baseP + offP, l = baseL + offL) are in bounds; the vector
    // runs along l when `rowIsL` is false, along p otherwise.
    auto forTile = [&](bool rowIsL,
                       function_ref<void(OpBuilder &, Value, Value,
                                         SmallVector<Value> &)> body) {
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
          memref::StoreOp::create(b, loc, v, buffer, ValueRange{offL, offP});
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
              launch.getWorkgroupAttributions()[staged - perm.operands.begin()];
          SmallVector<Value> elems;
          for (int64_t e = 0; e < width; ++e)
            elems.push_back(memref::LoadOp::create(
                b, loc, buffer, ValueRange{add(offL, e), offP}));
          args.push_back(
              width == 1 ? elems.front()
                         : vector::FromElementsOp::create(
                               b, loc,
                               VectorType::get({width},
                                               elementTypeOf(operand.get())),
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
              b, loc, VectorType::get({width}, type.getElementType()), v, idx,
              /*nontemporal=*/false, vectorAlign(type.getElementType(), width));
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
                                /*nontemporal=*/false, vectorAlign(elt, width));
      else
        memref::StoreOp::create(b, loc, result, out, loopIvs);
    });
  }, buffers);
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// A reduction the warp rule can split: one output, one reduction dimension
/// that is the innermost dimension of every input that uses it, and a
/// payload `acc = combiner(f(inputs), acc)` with a neutral element.
struct WarpReduction {
  unsigned reductionDim;
  Operation *combiner;
  TypedAttr neutral;
};

static std::optional<WarpReduction> matchWarpReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  unsigned r = dims.front();
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(r))
      continue;
    auto lastExpr = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!lastExpr || lastExpr.getPosition() != r || !isContiguous(type))
      return std::nullopt;
  }
  SmallVector<Operation *> combiners;
  Block *block = op.getBlock();
  unsigned accPos = op.getDpsInitOperand(0)->getOperandNumber();
  // matchReduction indexes the yielded values: pass the output arguments.
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return std::nullopt;
  Operation *combiner = combiners.front();
  // The accumulator must feed nothing but the combiner.
  BlockArgument acc = block->getArgument(accPos);
  if (!acc.hasOneUse() || *acc.user_begin() != combiner)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return std::nullopt;
  Type t = combiner->getResult(0).getType();
  if (!t.isIntOrFloat() || t.getIntOrFloatBitWidth() > 64 ||
      (t.isInteger() && t.getIntOrFloatBitWidth() < 32))
    return std::nullopt;
  return WarpReduction{r, combiner, *neutral};
}

/// Applies the combiner op to (lhs, rhs).
static Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  IRMapping map;
  map.map(combiner->getOperand(0), lhs);
  map.map(combiner->getOperand(1), rhs);
  return b.clone(*combiner, map)->getResult(0);
}

/// `gpu.shuffle xor` of a 16-, 32- or 64-bit float or a 32/64-bit integer;
/// 16-bit floats travel as f32, which holds them exactly.
static Value shuffleXor(OpBuilder &b, Location loc, Value v, int64_t offset) {
  Type t = v.getType();
  bool widen = t.isF16() || t.isBF16();
  Value x = widen ? arith::ExtFOp::create(b, loc, b.getF32Type(), v) : v;
  auto shuffle = gpu::ShuffleOp::create(b, loc, x, offset, kWarpSize,
                                        gpu::ShuffleMode::XOR);
  Value r = shuffle.getShuffleResult();
  return widen ? arith::TruncFOp::create(b, loc, t, r).getResult() : r;
}

/// The global warp id (blocks of `warpsPerBlock` warps) and the lane id.
static std::pair<Value, Value> getWarpAndLane(OpBuilder &b, Location loc,
                                              gpu::LaunchOp launch,
                                              int64_t warpsPerBlock) {
  Value tid = launch.getThreadIds().x;
  Value warp = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cst(b, loc, warpsPerBlock)),
      arith::DivUIOp::create(b, loc, tid, cst(b, loc, kWarpSize)));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(b, loc, kWarpSize));
  return {warp, lane};
}

/// Combines `value` across the warp with an xor butterfly; every lane ends
/// with the result.
static Value warpAllReduce(OpBuilder &b, Location loc, Operation *combiner,
                           Value value) {
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2)
    value = combine(b, combiner, value, shuffleXor(b, loc, value, offset));
  return value;
}

/// Runs the reduction payload of `op` on each of the `width` elements of the
/// loaded operands (vectors, or scalars used as they are), in order,
/// accumulating into `accBuf`; `ivs[dim]` walks from `first` for payloads
/// that read linalg.index.
static void accumulateElements(OpBuilder &b, Location loc, linalg::LinalgOp op,
                               OpOperand *init, ArrayRef<Value> loaded,
                               Value accBuf, int64_t width,
                               SmallVector<Value> &ivs, unsigned dim,
                               Value first) {
  for (int64_t e = 0; e < width; ++e) {
    SmallVector<Value> args;
    for (auto [operand, v] : llvm::zip(op->getOpOperands(), loaded)) {
      if (&operand == init)
        args.push_back(memref::LoadOp::create(b, loc, accBuf, ValueRange{}));
      else if (isa<VectorType>(v.getType()))
        args.push_back(vector::ExtractOp::create(b, loc, v, e));
      else
        args.push_back(v);
    }
    ivs[dim] = e == 0 ? first
                      : arith::AddIOp::create(b, loc, first, cst(b, loc, e))
                            .getResult();
    Value next = clonePayload(b, loc, op, args, ivs).front();
    memref::StoreOp::create(b, loc, next, accBuf, ValueRange{});
  }
}

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
    if (!t.isIntOrFloat())
      return 1;
    maxBytes = std::max<int64_t>(maxBytes, (t.getIntOrFloatBitWidth() + 7) / 8);
  }
  if (maxBytes == 0)
    return 1;
  int64_t width = vectorBytes / maxBytes;
  return width >= 2 && extent % width == 0 ? width : 1;
}

/// A reduction of each output element by a warp, or, for long rows
/// (`blockPerRow`), by a whole block: lanes combine with a butterfly, the
/// warps' partials meet in shared memory and the first warp combines them.
static void scheduleWarpReduction(OpBuilder &b, linalg::LinalgOp op,
                                  ArrayRef<int64_t> ranges,
                                  const WarpReduction &red, int64_t blockSize,
                                  int64_t vectorBytes, bool blockPerRow) {
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

  createLaunch(b, loc, rowMapping, blockPerRow ? 1 : warpsPerBlock, blockSize,
               [&](OpBuilder &b, gpu::LaunchOp launch) {
    auto [warp, lane] = getWarpAndLane(b, loc, launch, warpsPerBlock);
    Value tid = launch.getThreadIds().x;
    auto rows = blockPerRow
                    ? hidet::tm::ForEachOp::create(b, loc, rowMapping,
                                                   hidet::tm::GPUWorker::block_x)
                    : hidet::tm::ForEachOp::create(b, loc, rowMapping, warp);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rows.getBody().front().getTerminator());
    auto accBuf = memref::AllocaOp::create(b, loc, MemRefType::get({}, accType));
    memref::StoreOp::create(
        b, loc, arith::ConstantOp::create(b, loc, red.neutral), accBuf,
        ValueRange{});

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
        Value first =
            width == 1 ? r
                       : arith::MulIOp::create(b, loc, r, cst(b, loc, width))
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
                llvm::MaybeAlign(width * ((elt.getIntOrFloatBitWidth() + 7) /
                                          8))));
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
        Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              r, cst(b, loc, vectors));
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
      Value hasPartial = arith::CmpIOp::create(
          b, loc, arith::CmpIPredicate::ult, lane, cst(b, loc, warpsPerBlock));
      auto pick = scf::IfOp::create(b, loc, accType, hasPartial,
                                    /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&pick.getThenRegion().front());
        scf::YieldOp::create(
            b, loc, memref::LoadOp::create(b, loc, partials, lane).getResult());
        b.setInsertionPointToStart(&pick.getElseRegion().front());
        scf::YieldOp::create(
            b, loc, arith::ConstantOp::create(b, loc, red.neutral).getResult());
      }
      partial = warpAllReduce(b, loc, red.combiner, pick.getResult(0));
    }
    Value isLeader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           blockPerRow ? tid : lane,
                                           cst(b, loc, 0));
    auto ifOp = scf::IfOp::create(b, loc, isLeader, /*withElse=*/false);
    b.setInsertionPointToStart(&ifOp.getThenRegion().front());
    SmallVector<Value> ivs(ranges.size());
    for (auto [k, d] : llvm::enumerate(parallelDims))
      ivs[d] = rows.getTaskIndices()[k];
    ivs[red.reductionDim] = cst(b, loc, 0);
    SmallVector<Value> outIdx = applyIndexingMap(
        b, loc, op.getMatchingIndexingMap(init), ivs);
    Value initial = memref::LoadOp::create(b, loc, init->get(), outIdx);
    memref::StoreOp::create(b, loc, combine(b, red.combiner, partial, initial),
                            init->get(), outIdx);
  }, shared);
}

static void scheduleSerialReduction(OpBuilder &b, linalg::LinalgOp op,
                                    ArrayRef<int64_t> ranges,
                                    int64_t blockSize) {
  Location loc = op.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<unsigned> parallelDims, reductionDims;
  op.getParallelDims(parallelDims);
  op.getReductionDims(reductionDims);
  SmallVector<int64_t> outShape, redShape;
  for (unsigned d : parallelDims)
    outShape.push_back(ranges[d]);
  for (unsigned d : reductionDims)
    redShape.push_back(ranges[d]);
  if (outShape.empty())
    outShape.push_back(1);
  auto mapping = hidet::tm::SpatialAttr::get(ctx, outShape);
  // Keep the reduction loops rolled: their extents are input sizes.
  SmallVector<int64_t> keep(redShape.size(), 1);
  auto redMapping = hidet::tm::RepeatAttr::get(
      ctx, redShape, llvm::to_vector(llvm::seq<int64_t>(0, redShape.size())),
      keep);

  createLaunch(b, loc, mapping, blockSize, blockSize,
               [&](OpBuilder &b, gpu::LaunchOp) {
    auto outer = hidet::tm::ForEachOp::create(b, loc, mapping,
                                       hidet::tm::GPUWorker::global_x);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(outer.getBody().front().getTerminator());
    SmallVector<Value> ivs(ranges.size());
    for (auto [k, d] : llvm::enumerate(parallelDims))
      ivs[d] = outer.getTaskIndices()[k];
    // The accumulators start from the outputs' initial values.
    SmallVector<Value> accBufs;
    SmallVector<SmallVector<Value>> outIdx;
    for (auto [k, d] : llvm::enumerate(reductionDims))
      ivs[d] = cst(b, loc, 0);
    for (OpOperand &init : op.getDpsInitsMutable()) {
      Type elt = cast<MemRefType>(init.get().getType()).getElementType();
      auto buf = memref::AllocaOp::create(b, loc, MemRefType::get({}, elt));
      outIdx.push_back(applyIndexingMap(
          b, loc, op.getMatchingIndexingMap(&init), ivs));
      memref::StoreOp::create(
          b, loc, memref::LoadOp::create(b, loc, init.get(), outIdx.back()),
          buf, ValueRange{});
      accBufs.push_back(buf);
    }
    auto loop = hidet::tm::RepeatOp::create(b, loc, redMapping);
    {
      OpBuilder::InsertionGuard inner(b);
      Block *body = b.createBlock(&loop.getBody());
      for (size_t i = 0; i < redShape.size(); ++i)
        body->addArgument(b.getIndexType(), loc);
      for (auto [k, d] : llvm::enumerate(reductionDims))
        ivs[d] = body->getArgument(k);
      SmallVector<Value> args;
      unsigned initIdx = 0;
      for (OpOperand &operand : op->getOpOperands()) {
        Value v = operand.get();
        if (op.isDpsInit(&operand)) {
          args.push_back(memref::LoadOp::create(b, loc, accBufs[initIdx++],
                                                ValueRange{}));
          continue;
        }
        if (isa<MemRefType>(v.getType()))
          v = memref::LoadOp::create(
              b, loc, v,
              applyIndexingMap(b, loc, op.getMatchingIndexingMap(&operand),
                               ivs));
        args.push_back(v);
      }
      SmallVector<Value> next = clonePayload(b, loc, op, args, ivs);
      for (auto [v, buf] : llvm::zip(next, accBufs))
        memref::StoreOp::create(b, loc, v, buf, ValueRange{});
      hidet::tm::YieldOp::create(b, loc);
    }
    for (auto [i, init] : llvm::enumerate(op.getDpsInitsMutable()))
      memref::StoreOp::create(
          b, loc, memref::LoadOp::create(b, loc, accBufs[i], ValueRange{}),
          init.get(), outIdx[i]);
  });
}

//===----------------------------------------------------------------------===//
// Row groups (softmax, layer norm, reductions with their neighbours)
//===----------------------------------------------------------------------===//
//
// A run of consecutive ops that all work row by row on the same rows
// (elementwise over [rows..., n], reductions over n, elementwise or fills
// over [rows...]) becomes one kernel: a warp owns a row and runs the ops in
// program order. Every lane walks the columns with the same mapping and
// vector width, so each element a lane reads back was written by that lane;
// row values (reduction results) are computed by every lane of the warp and
// stored by all of them (the same value), so each lane also reads its own
// store. Intermediates still go through their buffers, but in one launch,
// where they stay in L1/L2.

namespace {
/// How an operand of a row-group op is indexed.
enum class RowAccess { Full, Row, Col, None, Other };

/// A row-group op: its loops are the row dims (rank `rowRank`) followed, for
/// 2-D ops, by the column dim.
struct RowOp {
  linalg::LinalgOp op;
  bool hasColumn;
  std::optional<WarpReduction> reduction; // for 2-D reductions over n
};
} // namespace

static RowAccess classifyAccess(AffineMap map, unsigned rowRank,
                                bool hasColumn) {
  unsigned n = rowRank; // the column loop dim, when present
  ArrayRef<AffineExpr> results = map.getResults();
  auto isDim = [](AffineExpr e, unsigned d) {
    auto dim = dyn_cast<AffineDimExpr>(e);
    return dim && dim.getPosition() == d;
  };
  if (results.empty())
    return RowAccess::None;
  if (hasColumn && results.size() == 1 && isDim(results[0], n))
    return RowAccess::Col;
  bool leadingRows = results.size() >= rowRank;
  for (unsigned d = 0; leadingRows && d < rowRank; ++d)
    leadingRows = isDim(results[d], d);
  if (leadingRows && results.size() == rowRank)
    return RowAccess::Row;
  if (leadingRows && hasColumn && results.size() == rowRank + 1 &&
      isDim(results[rowRank], n))
    return RowAccess::Full;
  return RowAccess::Other;
}

/// Classifies `op` against rows `rowShape` and column extent `columns`.
static std::optional<RowOp> matchRowOp(linalg::LinalgOp op,
                                       ArrayRef<int64_t> rowShape,
                                       int64_t columns) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1)
    return std::nullopt;
  FailureOr<SmallVector<int64_t>> ranges = getStaticRanges(op);
  if (failed(ranges))
    return std::nullopt;
  unsigned rowRank = rowShape.size();
  bool hasColumn;
  if (ranges->size() == rowRank + 1 && (*ranges)[rowRank] == columns)
    hasColumn = true;
  else if (ranges->size() == rowRank)
    hasColumn = false;
  else
    return std::nullopt;
  for (unsigned d = 0; d < rowRank; ++d)
    if ((*ranges)[d] != rowShape[d])
      return std::nullopt;
  SmallVector<utils::IteratorType> iters = op.getIteratorTypesArray();
  for (unsigned d = 0; d < rowRank; ++d)
    if (iters[d] != utils::IteratorType::parallel)
      return std::nullopt;
  RowOp result{op, hasColumn, std::nullopt};
  bool reducesColumn =
      hasColumn && iters[rowRank] == utils::IteratorType::reduction;
  for (OpOperand &operand : op->getOpOperands()) {
    auto type = dyn_cast<MemRefType>(operand.get().getType());
    if (!type)
      continue;
    if (!isContiguous(type))
      return std::nullopt;
    RowAccess access =
        classifyAccess(op.getMatchingIndexingMap(&operand), rowRank, hasColumn);
    if (access == RowAccess::Other)
      return std::nullopt;
    if (op.isDpsInit(&operand) &&
        access != (hasColumn && !reducesColumn ? RowAccess::Full
                                               : RowAccess::Row))
      return std::nullopt;
  }
  if (reducesColumn) {
    result.reduction = matchWarpReduction(op);
    if (!result.reduction)
      return std::nullopt;
  } else if (!hasElementwisePayload(op)) {
    return std::nullopt;
  }
  return result;
}

/// Finds the row groups of `block`: maximal runs of row ops on the same rows
/// and columns that contain a reduction and at least two ops.
static SmallVector<SmallVector<RowOp>> findRowGroups(Block &block) {
  SmallVector<SmallVector<RowOp>> groups;
  SmallVector<RowOp> current;
  // Ops met since the last group that may still open the next one (fills
  // of a reduction's initial value come before the reduction).
  SmallVector<linalg::LinalgOp> pending;
  SmallVector<int64_t> rowShape;
  int64_t columns = 0;
  auto flush = [&]() {
    bool hasReduction = llvm::any_of(
        current, [](const RowOp &r) { return r.reduction.has_value(); });
    if (current.size() >= 2 && hasReduction)
      groups.push_back(current);
    current.clear();
  };
  for (Operation &o : block) {
    auto op = dyn_cast<linalg::LinalgOp>(&o);
    if (!op) {
      // Allocations, views and constants may sit between the ops of a group.
      if (isa<memref::AllocOp, memref::SubViewOp, memref::ExpandShapeOp,
              memref::CollapseShapeOp, arith::ConstantOp>(o))
        continue;
      flush();
      pending.clear();
      continue;
    }
    if (!current.empty())
      if (std::optional<RowOp> r = matchRowOp(op, rowShape, columns)) {
        current.push_back(*r);
        continue;
      }
    flush();
    FailureOr<SmallVector<int64_t>> ranges = getStaticRanges(op);
    std::optional<RowOp> opened;
    if (succeeded(ranges) && ranges->size() >= 2) {
      rowShape.assign(ranges->begin(), ranges->end() - 1);
      columns = ranges->back();
      opened = matchRowOp(op, rowShape, columns);
    }
    if (!opened || !opened->hasColumn) {
      pending.push_back(op);
      continue;
    }
    // Take the longest run of pending ops, ending here, that are row ops.
    size_t start = pending.size();
    while (start > 0 && matchRowOp(pending[start - 1], rowShape, columns))
      --start;
    for (size_t i = start; i < pending.size(); ++i)
      current.push_back(*matchRowOp(pending[i], rowShape, columns));
    pending.clear();
    current.push_back(*opened);
  }
  flush();
  return groups;
}

/// Largest number of elements per lane kept in registers for one
/// intermediate row buffer (larger rows go through memory).
static constexpr int64_t kMaxPrivateElements = 64;

/// Schedules `group` as one kernel. Returns the group's temporary buffers
/// that now live in registers (their allocations are dead).
static SmallVector<memref::AllocOp>
scheduleRowGroup(OpBuilder &b, ArrayRef<RowOp> group, int64_t blockSize,
                 int64_t vectorBytes) {
  linalg::LinalgOp first = group.front().op;
  Location loc = first.getLoc();
  MLIRContext *ctx = b.getContext();
  // The rows and columns come from the group's 2-D ops.
  linalg::LinalgOp shaped =
      llvm::find_if(group, [](const RowOp &r) { return r.hasColumn; })->op;
  SmallVector<int64_t> ranges = *getStaticRanges(shaped);
  unsigned rowRank = ranges.size() - 1;
  SmallVector<int64_t> rowShape(ranges.begin(), ranges.end() - 1);
  int64_t columns = ranges.back();
  // One vector width (in elements) for the whole group keeps lane
  // ownership identical. It is set by the narrowest column-indexed memory
  // operand, so that its accesses are 16 bytes; wider types take several
  // 16-byte accesses per vector.
  int64_t narrowest = 0;
  bool vectorizable = true;
  for (const RowOp &r : group) {
    vectorizable &= widestElementBytes(r.op) != 0;
    linalg::LinalgOp rop = r.op;
    for (OpOperand &operand : rop->getOpOperands()) {
      auto type = dyn_cast<MemRefType>(operand.get().getType());
      if (!type || !r.hasColumn)
        continue;
      RowAccess access =
          classifyAccess(rop.getMatchingIndexingMap(&operand), rowRank, true);
      if (access != RowAccess::Full && access != RowAccess::Col)
        continue;
      int64_t bytes = (type.getElementTypeBitWidth() + 7) / 8;
      narrowest = narrowest == 0 ? bytes : std::min(narrowest, bytes);
    }
  }
  int64_t width = narrowest == 0 ? 1 : vectorBytes / narrowest;
  if (!vectorizable || width < 2 || columns % width != 0)
    width = 1;
  int64_t vectors = columns / width;
  int64_t steps = (vectors + kWarpSize - 1) / kWarpSize;
  SmallVector<int64_t> rows(rowShape);
  if (rows.empty())
    rows.push_back(1);
  auto rowMapping = hidet::tm::SpatialAttr::get(ctx, rows);
  auto laneMapping = hidet::tm::ComposeAttr::get(
      ctx, {hidet::tm::RepeatAttr::get(ctx, ArrayRef<int64_t>{steps}),
            hidet::tm::SpatialAttr::get(ctx, ArrayRef<int64_t>{kWarpSize})});
  int64_t warpsPerBlock = blockSize / kWarpSize;

  // Temporaries written and read only by the group's column ops never need
  // memory: each lane keeps its own elements (steps x width of them) in a
  // private array indexed by constants once the steps are unrolled.
  llvm::SmallPtrSet<Operation *, 8> inGroup;
  for (const RowOp &r : group)
    inGroup.insert(r.op);
  SmallVector<memref::AllocOp> privateAllocs;
  if (steps * width <= kMaxPrivateElements) {
    for (const RowOp &r : group) {
      if (!r.hasColumn || r.reduction)
        continue;
      linalg::LinalgOp rop = r.op;
      auto alloc =
          rop.getDpsInitOperand(0)->get().getDefiningOp<memref::AllocOp>();
      if (!alloc || llvm::is_contained(privateAllocs, alloc))
        continue;
      bool onlyRowUses = llvm::all_of(alloc->getUses(), [&](OpOperand &use) {
        Operation *user = use.getOwner();
        if (isa<memref::DeallocOp>(user))
          return true;
        auto lop = dyn_cast<linalg::LinalgOp>(user);
        return lop && inGroup.contains(user) &&
               classifyAccess(lop.getMatchingIndexingMap(&use), rowRank,
                              /*hasColumn=*/lop.getNumLoops() > rowRank) ==
                   RowAccess::Full;
      });
      if (onlyRowUses)
        privateAllocs.push_back(alloc);
    }
  }
  bool unrollSteps = !privateAllocs.empty();

  createLaunch(b, loc, rowMapping, warpsPerBlock, blockSize,
               [&](OpBuilder &b, gpu::LaunchOp launch) {
    auto [warp, lane] = getWarpAndLane(b, loc, launch, warpsPerBlock);
    auto rowLoop = hidet::tm::ForEachOp::create(b, loc, rowMapping, warp);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(rowLoop.getBody().front().getTerminator());
    SmallVector<Value> rowIvs(rowLoop.getTaskIndices().begin(),
                              rowLoop.getTaskIndices().end());
    if (rowShape.empty())
      rowIvs.clear();
    DenseMap<Value, Value> privateOf;
    for (memref::AllocOp alloc : privateAllocs)
      privateOf[alloc.getResult()] = memref::AllocaOp::create(
          b, loc,
          MemRefType::get({steps, width}, alloc.getType().getElementType()));
    Value zero = cst(b, loc, 0);
    // Row values computed in this kernel (reductions, row ops, fills) are
    // forwarded to later reads of the same row instead of a memory round
    // trip; stores to row temporaries that are never read back from memory
    // are dropped at the end.
    DenseMap<Value, Value> rowValueOf;
    DenseMap<Value, SmallVector<Operation *>> rowStores;
    llvm::SmallDenseSet<Value> readFromMemory;
    auto storeRowValue = [&](OpBuilder &b, linalg::LinalgOp op,
                             OpOperand *init, Value value,
                             ArrayRef<Value> ivs) {
      Value buffer = init->get();
      rowValueOf[buffer] = value;
      rowStores[buffer].push_back(memref::StoreOp::create(
          b, loc, value, buffer,
          applyIndexingMap(b, loc, op.getMatchingIndexingMap(init), ivs)));
    };

    // Loads an operand of `op` at loop indices `ivs` (vector along the
    // column for Full and Col accesses when `vec`); private buffers are read
    // at the lane's slot `step`.
    auto loadOperand = [&](OpBuilder &b, linalg::LinalgOp op,
                           OpOperand &operand, ArrayRef<Value> ivs, bool vec,
                           Value step = nullptr) -> Value {
      Value v = operand.get();
      auto type = dyn_cast<MemRefType>(v.getType());
      if (!type)
        return v;
      if (Value priv = privateOf.lookup(v)) {
        if (width > 1)
          return vector::LoadOp::create(
              b, loc, VectorType::get({width}, type.getElementType()), priv,
              ValueRange{step, zero});
        return memref::LoadOp::create(b, loc, priv, ValueRange{step, zero});
      }
      AffineMap map = op.getMatchingIndexingMap(&operand);
      RowAccess access = classifyAccess(map, rowRank, ivs.size() > rowRank);
      if (access == RowAccess::Row)
        if (Value forwarded = rowValueOf.lookup(v))
          return forwarded;
      readFromMemory.insert(v);
      SmallVector<Value> idx = applyIndexingMap(b, loc, map, ivs);
      if (vec && width > 1 &&
          (access == RowAccess::Full || access == RowAccess::Col))
        return vector::LoadOp::create(
            b, loc, VectorType::get({width}, type.getElementType()), v, idx,
            /*nontemporal=*/false, vectorAlign(type.getElementType(), width));
      return memref::LoadOp::create(b, loc, v, idx);
    };
    // Runs `body(b, firstColumn, step)` for each vector of columns of the
    // lane: vector `step * 32 + lane` of the row. With private buffers the
    // steps are unrolled, so that `step` is a constant.
    auto forColumns = [&](function_ref<void(OpBuilder &, Value, Value)> body) {
      OpBuilder::InsertionGuard g(b);
      Value v, step;
      if (unrollSteps) {
        auto loop = hidet::tm::RepeatOp::create(
            b, loc,
            hidet::tm::RepeatAttr::get(ctx, ArrayRef<int64_t>{steps},
                                       ArrayRef<int64_t>{0},
                                       ArrayRef<int64_t>{/*full=*/0}));
        Block *blk = b.createBlock(&loop.getBody());
        step = blk->addArgument(b.getIndexType(), loc);
        hidet::tm::YieldOp::create(b, loc);
        b.setInsertionPointToStart(blk);
        v = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, step, cst(b, loc, kWarpSize)),
            lane);
      } else {
        auto lanes = hidet::tm::ForEachOp::create(b, loc, laneMapping, lane,
                                                  /*upperBound=*/kWarpSize);
        b.setInsertionPoint(lanes.getBody().front().getTerminator());
        v = lanes.getTaskIndices()[0];
      }
      if (vectors % kWarpSize != 0) {
        Value inRange = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, v, cst(b, loc, vectors));
        auto ifOp = scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
      }
      Value col = width == 1
                      ? v
                      : arith::MulIOp::create(b, loc, v, cst(b, loc, width))
                            .getResult();
      body(b, col, step);
    };

    for (const RowOp &r : group) {
      linalg::LinalgOp op = r.op;
      OpOperand *init = op.getDpsInitOperand(0);
      if (!r.hasColumn) {
        // A row value: every lane computes it and stores it.
        SmallVector<Value> args;
        for (OpOperand &operand : op->getOpOperands())
          args.push_back(op.isDpsInit(&operand) &&
                                 op.getMatchingBlockArgument(&operand).use_empty()
                             ? Value(op.getMatchingBlockArgument(&operand))
                             : loadOperand(b, op, operand, rowIvs, false));
        Value result = clonePayload(b, loc, op, args, rowIvs).front();
        storeRowValue(b, op, init, result, rowIvs);
        continue;
      }
      if (!r.reduction) {
        forColumns([&](OpBuilder &b, Value col, Value step) {
          SmallVector<Value> ivs(rowIvs);
          ivs.push_back(col);
          SmallVector<Value> args;
          for (OpOperand &operand : op->getOpOperands())
            args.push_back(
                op.isDpsInit(&operand) &&
                        op.getMatchingBlockArgument(&operand).use_empty()
                    ? Value(op.getMatchingBlockArgument(&operand))
                    : loadOperand(b, op, operand, ivs, true, step));
          Value result = clonePayload(b, loc, op, args, ivs, width).front();
          Value out = init->get();
          Type elt = cast<MemRefType>(out.getType()).getElementType();
          if (width > 1 && !isa<VectorType>(result.getType()))
            result = vector::BroadcastOp::create(
                b, loc, VectorType::get({width}, elt), result);
          if (Value priv = privateOf.lookup(out)) {
            if (width > 1)
              vector::StoreOp::create(b, loc, result, priv,
                                      ValueRange{step, zero});
            else
              memref::StoreOp::create(b, loc, result, priv,
                                      ValueRange{step, zero});
            return;
          }
          SmallVector<Value> idx = applyIndexingMap(
              b, loc, op.getMatchingIndexingMap(init), ivs);
          if (width > 1)
            vector::StoreOp::create(b, loc, result, out, idx,
                                    /*nontemporal=*/false,
                                    vectorAlign(elt, width));
          else
            memref::StoreOp::create(b, loc, result, out, idx);
        });
        continue;
      }
      // A reduction over the columns: lane partials, butterfly, then every
      // lane combines with the initial value and stores the result.
      const WarpReduction &red = *r.reduction;
      Type accType = red.combiner->getResult(0).getType();
      auto accBuf =
          memref::AllocaOp::create(b, loc, MemRefType::get({}, accType));
      memref::StoreOp::create(
          b, loc, arith::ConstantOp::create(b, loc, red.neutral), accBuf,
          ValueRange{});
      forColumns([&](OpBuilder &b, Value col, Value step) {
        SmallVector<Value> ivs(rowIvs);
        ivs.push_back(col);
        SmallVector<Value> loaded;
        for (OpOperand &operand : op->getOpOperands())
          loaded.push_back(&operand == init
                               ? Value()
                               : loadOperand(b, op, operand, ivs, true, step));
        accumulateElements(b, loc, op, init, loaded, accBuf, width, ivs,
                           ivs.size() - 1, col);
      });
      Value partial = memref::LoadOp::create(b, loc, accBuf, ValueRange{});
      partial = warpAllReduce(b, loc, red.combiner, partial);
      SmallVector<Value> ivs(rowIvs);
      ivs.push_back(cst(b, loc, 0));
      SmallVector<Value> outIdx =
          applyIndexingMap(b, loc, op.getMatchingIndexingMap(init), ivs);
      Value initial = rowValueOf.lookup(init->get());
      if (!initial) {
        readFromMemory.insert(init->get());
        initial = memref::LoadOp::create(b, loc, init->get(), outIdx);
      }
      storeRowValue(b, op, init, combine(b, red.combiner, partial, initial),
                    ivs);
    }
    // Row temporaries whose values were all forwarded need no memory.
    for (auto &[buffer, stores] : rowStores) {
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      if (!alloc || readFromMemory.contains(buffer) ||
          !llvm::all_of(alloc->getUsers(), [&](Operation *user) {
            return inGroup.contains(user) || isa<memref::DeallocOp>(user) ||
                   launch->isAncestor(user);
          }))
        continue;
      for (Operation *store : stores)
        store->erase();
      privateAllocs.push_back(alloc);
    }
  });
  return privateAllocs;
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct RuleBasedSchedulePass
    : public hidet::impl::RuleBasedScheduleBase<RuleBasedSchedulePass> {
  using Base::Base;

  void runOnOperation() final {
    if (transposeTile > 1 && (transposeTile < kWarpSize ||
                              !llvm::isPowerOf2_64(transposeTile))) {
      getOperation()->emitError("hidet-rule-based-schedule: transpose-tile "
                                "must be a power of two of at least 32 (or "
                                "1 to disable the tiled rule), got ")
          << static_cast<int64_t>(transposeTile);
      return signalPassFailure();
    }
    if (blockSize <= 0 || blockSize > 1024 || blockSize % kWarpSize != 0) {
      getOperation()->emitError("hidet-rule-based-schedule: block-size must "
                                "be a multiple of 32 in [32, 1024], got ")
          << static_cast<int64_t>(blockSize);
      return signalPassFailure();
    }
    OpBuilder b(&getContext());
    // A buffer copy is the injective op linalg.copy.
    getOperation()->walk([&](memref::CopyOp copy) {
      if (copy->getParentOfType<gpu::LaunchOp>())
        return;
      b.setInsertionPoint(copy);
      linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy->erase();
    });
    // Row groups first: their ops leave the list below.
    if (fuseRows) {
      SmallVector<Block *> blocks;
      getOperation()->walk([&](Block *block) {
        if (!block->getParentOp()->getParentOfType<gpu::LaunchOp>() &&
            !isa<gpu::LaunchOp>(block->getParentOp()))
          blocks.push_back(block);
      });
      for (Block *block : blocks)
        for (SmallVector<RowOp> &group : findRowGroups(*block)) {
          b.setInsertionPoint(group.back().op);
          SmallVector<memref::AllocOp> dead =
              scheduleRowGroup(b, group, blockSize, vectorBytes);
          for (RowOp &r : group)
            r.op->erase();
          for (memref::AllocOp alloc : dead) {
            for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
              user->erase(); // deallocs
            alloc->erase();
          }
        }
    }
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      // Ops already inside a kernel belong to a template.
      if (!op->getParentOfType<gpu::LaunchOp>())
        ops.push_back(op);
    });
    for (linalg::LinalgOp op : ops) {
      if (!op.hasPureBufferSemantics()) {
        op->emitRemark("hidet-rule-based-schedule: skipped, the op works on "
                       "tensors (bufferize first)");
        continue;
      }
      FailureOr<SmallVector<int64_t>> ranges = getStaticRanges(op);
      if (failed(ranges)) {
        op->emitRemark("hidet-rule-based-schedule: skipped, dynamic shapes "
                       "are not supported yet");
        continue;
      }
      if (llvm::any_of(*ranges, [](int64_t e) { return e == 0; })) {
        op->erase(); // nothing to compute
        continue;
      }
      b.setInsertionPoint(op);
      if (op.getNumReductionLoops() == 0) {
        if (std::optional<PermutedInputs> perm = matchPermutedInputs(op);
            perm && transposeTile > 1 &&
            llvm::isPowerOf2_64(blockSize))
          schedulePermuted(b, op, *ranges, *perm, transposeTile, blockSize,
                           vectorBytes);
        else
          scheduleInjective(b, op, *ranges, blockSize, vectorBytes);
      } else if (std::optional<WarpReduction> red = matchWarpReduction(op);
                 red && (*ranges)[red->reductionDim] >= warpReduceMin) {
        scheduleWarpReduction(
            b, op, *ranges, *red, blockSize, vectorBytes,
            /*blockPerRow=*/(*ranges)[red->reductionDim] >= blockReduceMin);
      } else {
        scheduleSerialReduction(b, op, *ranges, blockSize);
      }
      op->erase();
    }
  }
};
} // namespace
