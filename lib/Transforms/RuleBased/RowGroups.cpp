//===- RowGroups.cpp - One kernel per row group
//-----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A run of consecutive ops that all work row by row on the same rows
// (elementwise over [rows..., n], reductions over n, elementwise ops and
// fills over [rows...]) becomes one kernel: a warp owns a row and runs the
// ops in program order. Every lane walks the columns with the same mapping
// and vector width, so each element a lane reads back was written by that
// lane; row values are computed by every lane and forwarded in registers,
// and temporaries that fit stay in per-lane registers, as do the elements
// of buffers the group reads or writes whole more than once.
//
//===----------------------------------------------------------------------===//

#include "RuleBased.h"

#include "../Fusion/Buffers.h"

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

/// How an operand of a row-group op is indexed: [rows..., n], [rows...],
/// [n], a scalar, or anything else (which disqualifies the op).
enum class RowAccess { Full, Row, Col, None, Other };

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
static std::optional<RowOp>
matchRowOp(linalg::LinalgOp op, ArrayRef<int64_t> rowShape, int64_t columns) {
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
        access !=
            (hasColumn && !reducesColumn ? RowAccess::Full : RowAccess::Row))
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
SmallVector<SmallVector<RowOp>> findRowGroups(Block &block) {
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
    if (current.size() >= 2 && hasReduction) {
      groups.push_back(current);
    } else {
      // A run that is no group may still open the next one on other rows:
      // the fill of a softmax's maxima over [rows..., n] is read as a row
      // op of its own n columns until the reduction over [rows..., n, m]
      // comes.
      for (const RowOp &r : current)
        pending.push_back(r.op);
    }
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

/// Schedules `group` as one kernel. Returns the group's temporary buffers
/// that now live in registers (their allocations are dead).
SmallVector<memref::AllocOp>
scheduleRowGroup(OpBuilder &b, ArrayRef<RowOp> group, int64_t blockSize,
                 int64_t vectorBytes, int64_t maxRegisterElements) {
  linalg::LinalgOp first = group.front().op;
  Location loc = first.getLoc();
  // The kernel is named after the group's first computing op: a leading
  // fill may be shared by several groups (CSE), and carry another's name.
  const RowOp *named = llvm::find_if(
      group, [](const RowOp &r) { return !isa<linalg::FillOp>(r.op); });
  Location nameLoc =
      named != group.end() ? named->op->getLoc() : first->getLoc();
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
  if (!vectorizable || width < 2 || columns % width != 0 ||
      llvm::any_of(group, [&](const RowOp &r) {
        return !operandsVectorAligned(r.op, width);
      }))
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
  if (steps * width <= maxRegisterElements) {
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
  // Other buffers that the group's column ops read or write whole, more
  // than once (a softmax's input, read for its maximum and again for the
  // exponentials; its output, written with the exponentials, read for
  // their sum and overwritten with the quotients), stay in registers
  // between the group's ops too: the first access loads or computes the
  // lane's elements, later reads take them from registers, and only the
  // last write reaches memory. Every access of the group to such a buffer,
  // or to another view of its memory, must be a whole-row access of it.
  SmallVector<Value> forwarded;
  DenseMap<Value, Operation *> lastWriter;
  if (steps * width <= maxRegisterElements) {
    DenseMap<Value, int64_t> accesses;
    for (const RowOp &r : group) {
      linalg::LinalgOp rop = r.op;
      for (OpOperand &operand : rop->getOpOperands())
        if (r.hasColumn && isa<MemRefType>(operand.get().getType()) &&
            (!rop.isDpsInit(&operand) || !r.reduction))
          ++accesses[operand.get()];
    }
    for (auto &[buffer, count] : accesses) {
      auto alloc = buffer.getDefiningOp<memref::AllocOp>();
      if (count < 2 || (alloc && llvm::is_contained(privateAllocs, alloc)))
        continue;
      bool wholeRows = true;
      for (const RowOp &other : group) {
        linalg::LinalgOp oop = other.op;
        for (OpOperand &operand : oop->getOpOperands()) {
          Value v = operand.get();
          if (!isa<MemRefType>(v.getType()) ||
              fusion::rootOf(v) != fusion::rootOf(buffer))
            continue;
          wholeRows &=
              v == buffer && other.hasColumn &&
              classifyAccess(oop.getMatchingIndexingMap(&operand), rowRank,
                             /*hasColumn=*/true) == RowAccess::Full;
        }
      }
      if (wholeRows)
        forwarded.push_back(buffer);
    }
    // Program order, for a deterministic kernel.
    llvm::sort(forwarded, [&](Value x, Value y) {
      auto pos = [&](Value v) {
        for (auto [i, r] : llvm::enumerate(group))
          if (llvm::is_contained(r.op->getOperands(), v))
            return i;
        return group.size();
      };
      return pos(x) < pos(y);
    });
    for (const RowOp &r : group) {
      linalg::LinalgOp rop = r.op;
      Value out = rop.getDpsInitOperand(0)->get();
      if (r.hasColumn && !r.reduction && llvm::is_contained(forwarded, out))
        lastWriter[out] = rop;
    }
  }
  bool unrollSteps = !privateAllocs.empty() || !forwarded.empty();

  createLaunch(
      b, nameLoc, "row_group", rowMapping, warpsPerBlock, blockSize,
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        std::pair<Value, Value> warpLane =
            getWarpAndLane(b, loc, launch, warpsPerBlock);
        Value warp = warpLane.first, lane = warpLane.second;
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
              MemRefType::get({steps, width},
                              alloc.getType().getElementType()));
        // A forwarded buffer's registers hold its elements once the group has
        // written them.
        DenseMap<Value, Value> forwardOf;
        for (Value buffer : forwarded)
          forwardOf[buffer] = memref::AllocaOp::create(
              b, loc,
              MemRefType::get(
                  {steps, width},
                  cast<MemRefType>(buffer.getType()).getElementType()));
        Value zero = cst(b, loc, 0);
        // Row values computed in this kernel (reductions, row ops, fills) are
        // forwarded to later reads of the same row instead of a memory round
        // trip; stores to row temporaries that are never read back from memory
        // are dropped at the end.
        llvm::SmallDenseSet<Value> inRegisters;
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

        // Stores the lane's `value` of step `step` in its registers `regs`.
        auto storeRegisters = [&](OpBuilder &b, Value value, Value regs,
                                  Value step) {
          if (width > 1)
            vector::StoreOp::create(b, loc, value, regs,
                                    ValueRange{step, zero});
          else
            memref::StoreOp::create(b, loc, value, regs,
                                    ValueRange{step, zero});
        };
        // Loads an operand of `op` at loop indices `ivs` (vector along the
        // column for Full and Col accesses when `vec`); private buffers are
        // read at the lane's slot `step`.
        auto loadOperand = [&](OpBuilder &b, linalg::LinalgOp op,
                               OpOperand &operand, ArrayRef<Value> ivs,
                               bool vec, Value step = nullptr) -> Value {
          Value v = operand.get();
          auto type = dyn_cast<MemRefType>(v.getType());
          if (!type)
            return v;
          Value priv = privateOf.lookup(v);
          if (!priv && inRegisters.contains(v))
            priv = forwardOf.lookup(v);
          if (priv) {
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
          Value loaded;
          if (vec && width > 1 &&
              (access == RowAccess::Full || access == RowAccess::Col))
            loaded = vector::LoadOp::create(
                b, loc, VectorType::get({width}, type.getElementType()), v, idx,
                /*nontemporal=*/false,
                vectorAlign(type.getElementType(), width));
          else
            loaded = memref::LoadOp::create(b, loc, v, idx);
          // The first read of a forwarded buffer fills its registers.
          if (Value regs = forwardOf.lookup(v))
            storeRegisters(b, loaded, regs, step);
          return loaded;
        };
        // The payload arguments of `op` at `ivs`: its operands loaded, but
        // outputs the payload does not read (their block arguments stand
        // for them).
        auto payloadArgs = [&](OpBuilder &b, linalg::LinalgOp op,
                               ArrayRef<Value> ivs, bool vec, Value step) {
          SmallVector<Value> args;
          for (OpOperand &operand : op->getOpOperands())
            args.push_back(
                op.isDpsInit(&operand) &&
                        op.getMatchingBlockArgument(&operand).use_empty()
                    ? Value(op.getMatchingBlockArgument(&operand))
                    : loadOperand(b, op, operand, ivs, vec, step));
          return args;
        };
        // After a column op, the forwarded buffers it accessed are in
        // registers.
        auto accessed = [&](linalg::LinalgOp op) {
          for (Value v : op->getOperands())
            if (forwardOf.count(v))
              inRegisters.insert(v);
        };
        // Runs `body(b, firstColumn, step)` for each vector of columns of the
        // lane: vector `step * 32 + lane` of the row. With private buffers the
        // steps are unrolled, so that `step` is a constant.
        auto forColumns =
            [&](function_ref<void(OpBuilder &, Value, Value)> body) {
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
                    b, loc,
                    arith::MulIOp::create(b, loc, step, cst(b, loc, kWarpSize)),
                    lane);
              } else {
                auto lanes =
                    hidet::tm::ForEachOp::create(b, loc, laneMapping, lane,
                                                 /*upperBound=*/kWarpSize);
                b.setInsertionPoint(lanes.getBody().front().getTerminator());
                v = lanes.getTaskIndices()[0];
              }
              if (vectors % kWarpSize != 0) {
                Value inRange = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::ult, v, cst(b, loc, vectors));
                auto ifOp =
                    scf::IfOp::create(b, loc, inRange, /*withElse=*/false);
                b.setInsertionPointToStart(&ifOp.getThenRegion().front());
              }
              Value col = width == 1 ? v
                                     : arith::MulIOp::create(b, loc, v,
                                                             cst(b, loc, width))
                                           .getResult();
              body(b, col, step);
            };

        for (const RowOp &r : group) {
          linalg::LinalgOp op = r.op;
          OpOperand *init = op.getDpsInitOperand(0);
          if (!r.hasColumn) {
            // A row value: every lane computes it and stores it.
            SmallVector<Value> args =
                payloadArgs(b, op, rowIvs, /*vec=*/false, nullptr);
            Value result = clonePayload(b, loc, op, args, rowIvs).front();
            storeRowValue(b, op, init, result, rowIvs);
            continue;
          }
          if (!r.reduction) {
            forColumns([&](OpBuilder &b, Value col, Value step) {
              SmallVector<Value> ivs(rowIvs);
              ivs.push_back(col);
              SmallVector<Value> args =
                  payloadArgs(b, op, ivs, /*vec=*/true, step);
              Value result = clonePayload(b, loc, op, args, ivs, width).front();
              Value out = init->get();
              Type elt = cast<MemRefType>(out.getType()).getElementType();
              if (width > 1 && !isa<VectorType>(result.getType()))
                result = vector::BroadcastOp::create(
                    b, loc, VectorType::get({width}, elt), result);
              Value priv = privateOf.lookup(out);
              if (!priv)
                priv = forwardOf.lookup(out);
              if (priv) {
                storeRegisters(b, result, priv, step);
                // Only the last write of a forwarded buffer reaches memory.
                if (lastWriter.lookup(out) != op.getOperation())
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
            accessed(op);
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
              loaded.push_back(&operand == init ? Value()
                                                : loadOperand(b, op, operand,
                                                              ivs, true, step));
            accumulateElements(b, loc, op, init, loaded, accBuf, width, ivs,
                               ivs.size() - 1, col);
          });
          accessed(op);
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

} // namespace rulebased
} // namespace hidet
