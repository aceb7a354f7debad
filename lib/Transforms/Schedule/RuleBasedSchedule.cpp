//===- RuleBasedSchedule.cpp - GPU kernels for template-less ops ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-rule-based-schedule`: every structured linalg
// op on memrefs becomes a `gpu.launch` whose body iterates its tasks with
// `tm.foreach`. The rules live in lib/Transforms/RuleBased/; this pass tries
// them in order for each op:
//
//   row groups     runs of row-wise ops with a reduction (softmax, layer
//                  norm) as one warp-per-row kernel;
//   permuted       transposes through a shared-memory tile;
//   injective      one task (or 16-byte vector) per output element;
//   warp reduce    a warp (or a block, for long rows) per output element;
//   serial reduce  a thread per output element.
//
// The payload of the linalg op is cloned into the kernel, so any
// elementwise computation the op carries is kept without being recognized.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Fusion/Buffers.h"
#include "../Fusion/Epilogue.h"
#include "../RuleBased/RuleBased.h"
#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

namespace hidet {
#define GEN_PASS_DEF_RULEBASEDSCHEDULE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::rulebased;

namespace {
/// A linalg.fill of `op`'s one output right before it, with a constant that
/// the kernel can start every output from (`value`), when `op` writes every
/// element of the output.
linalg::FillOp foldableFill(linalg::LinalgOp op, TypedAttr &value) {
  if (op.getNumDpsInits() != 1)
    return nullptr;
  Value out = op.getDpsInitOperand(0)->get();
  AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
  linalg::FillOp fill = fusion::fillBefore(op, out, op.getDpsInputs());
  if (!fill || !outMap.isProjectedPermutation() ||
      outMap.getNumResults() != op.getNumParallelLoops() ||
      !matchPattern(fill.getDpsInputOperand(0)->get(), m_Constant(&value)) ||
      value.getType() != getElementTypeOrSelf(out.getType()))
    return nullptr;
  return fill;
}

struct RuleBasedSchedulePass
    : public hidet::impl::RuleBasedScheduleBase<RuleBasedSchedulePass> {
  using Base::Base;

  void runOnOperation() final {
    if (transposeTile < 1 ||
        (transposeTile > 1 &&
         (transposeTile < kWarpSize || !llvm::isPowerOf2_64(transposeTile)))) {
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
    if (vectorBytes < 1 || vectorBytes > 16 ||
        !llvm::isPowerOf2_64(vectorBytes)) {
      getOperation()->emitError("hidet-rule-based-schedule: vector-bytes "
                                "must be 1, 2, 4, 8 or 16 (1 disables "
                                "vectorization), got ")
          << static_cast<int64_t>(vectorBytes);
      return signalPassFailure();
    }
    for (auto [name, value, least] :
         {std::tuple<StringRef, int64_t, int64_t>{"row-register-elements",
                                                  rowRegisterElements, 0},
          {"block-reduce-min", blockReduceMin, 1},
          {"warp-reduce-min", warpReduceMin, 1},
          {"serial-unroll-max", serialUnrollMax, 0}}) {
      if (value < least) {
        getOperation()->emitError("hidet-rule-based-schedule: ")
            << name << " must be at least " << least << ", got " << value;
        return signalPassFailure();
      }
    }
    OpBuilder b(&getContext());
    // A buffer copy is the injective op linalg.copy.
    rewriteCopiesAsLinalg(getOperation());
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
          SmallVector<memref::AllocOp> dead = scheduleRowGroup(
              b, group, blockSize, vectorBytes, rowRegisterElements);
          for (RowOp &r : group)
            r.op->erase();
          for (memref::AllocOp alloc : dead) {
            for (Operation *user :
                 llvm::make_early_inc_range(alloc->getUsers()))
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
    // Reductions first: they take their fusion groups (epilogues, the
    // paddings of their inputs, the fills of their outputs) while those
    // are still linalg ops; the rest become kernels of their own.
    SmallVector<linalg::LinalgOp> reductions, others;
    for (linalg::LinalgOp op : ops)
      (op.getNumReductionLoops() > 0 ? reductions : others).push_back(op);
    llvm::SmallPtrSet<Operation *, 8> fused;
    for (ArrayRef<linalg::LinalgOp> list : {reductions, others})
      for (linalg::LinalgOp op : list)
        if (!fused.contains(op))
          schedule(b, op, fused);
  }

  /// Builds the kernel of `op` (and of the ops it fuses, which join
  /// `fused`).
  void schedule(OpBuilder &b, linalg::LinalgOp op,
                llvm::SmallPtrSetImpl<Operation *> &fused) {
    if (!op.hasPureBufferSemantics()) {
      op->emitRemark("hidet-rule-based-schedule: skipped, the op works on "
                     "tensors (bufferize first)");
      return;
    }
    FailureOr<SmallVector<int64_t>> ranges = getStaticRanges(op);
    if (failed(ranges)) {
      op->emitRemark("hidet-rule-based-schedule: skipped, dynamic shapes "
                     "are not supported yet");
      return;
    }
    if (llvm::any_of(*ranges, [](int64_t e) { return e == 0; })) {
      op->erase(); // nothing to compute
      return;
    }
    b.setInsertionPoint(op);
    if (op.getNumReductionLoops() == 0) {
      if (std::optional<PermutedInputs> perm = matchPermutedInputs(op);
          perm && transposeTile > 1 && llvm::isPowerOf2_64(blockSize))
        schedulePermuted(b, op, *ranges, *perm, transposeTile, blockSize,
                         vectorBytes);
      else
        scheduleInjective(b, op, *ranges, blockSize, vectorBytes);
      op->erase();
      return;
    }
    // A reduction is an anchor: its epilogue chain (its #hidet.fusion
    // group) is applied to each result in its kernel. A serial one also
    // reads its inputs' constant paddings from their sources and starts
    // from the constant of a fill of its output.
    std::optional<WarpReduction> red = matchWarpReduction(op);
    bool warp = red && (*ranges)[red->reductionDim] >= warpReduceMin;
    SerialReduction serial;
    serial.unrollMax = serialUnrollMax;
    fusion::Prologue prologue;
    SmallVector<Value> reads =
        llvm::map_to_vector(op.getDpsInputs(), [](Value v) { return v; });
    if (!warp) {
      serial.width =
          chooseSerialWidth(op, *ranges, vectorBytes, serialUnrollMax);
      if (fuse) {
        AffineMap outMap = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
        auto unpadded = [&](unsigned i) -> SmallVector<int64_t> {
          AffineMap map = op.getMatchingIndexingMap(&op->getOpOperand(i));
          if (serial.width == 1 ||
              !map.isFunctionOfDim(
                  cast<AffineDimExpr>(outMap.getResults().back())
                      .getPosition()))
            return {};
          return {static_cast<int64_t>(map.getNumResults()) - 1};
        };
        prologue = fusion::Prologue::matchPaddings(
            op, llvm::to_vector(op.getDpsInits()), unpadded);
        if (!prologue.empty()) {
          serial.prologue = &prologue;
          for (unsigned i = 0; i < reads.size(); ++i)
            reads[i] = prologue.read(i).buffer;
        }
      }
    }
    fusion::Epilogue epilogue;
    if (fuse && op.getNumDpsInits() == 1)
      epilogue =
          fusion::Epilogue::match(op, op.getDpsInitOperand(0)->get(), reads);
    const fusion::Epilogue *epi = epilogue.empty() ? nullptr : &epilogue;
    if (epi)
      serial.width = std::min(serial.width, epi->maxVectorWidth());
    linalg::FillOp fill;
    if (fuse)
      fill = foldableFill(op, serial.initial);
    Operation *at = epi ? epi->insertionPoint() : op.getOperation();
    Operation *before = at->getPrevNode();
    b.setInsertionPoint(at);
    auto throughEpilogue = [&](OpBuilder &b, Location loc, ValueRange index,
                               Value value) {
      epi->store(b, loc, index, value);
    };
    StoreResult storeResult;
    if (epi)
      storeResult = throughEpilogue;
    if (warp)
      scheduleWarpReduction(b, op, *ranges, *red, blockSize, vectorBytes,
                            /*blockPerRow=*/(*ranges)[red->reductionDim] >=
                                blockReduceMin,
                            storeResult, serial.initial);
    else
      scheduleSerialReduction(b, op, *ranges, blockSize, serial, storeResult);
    if (!prologue.empty())
      kernel::describeFirstLaunch(
          before, at, "prologue",
          kernel::stringArray(op->getContext(), prologue.kinds()));
    if (epi)
      kernel::describeFirstLaunch(
          before, at, "epilogue",
          kernel::stringArray(op->getContext(), epi->kinds()));
    op->erase();
    if (epi) {
      for (Operation *e : epi->ops())
        fused.insert(e);
      epilogue.erase();
    }
    for (Operation *p : prologue.ops())
      fused.insert(p);
    prologue.erase();
    if (fill) {
      fused.insert(fill);
      fill->erase();
    }
  }
};
} // namespace
