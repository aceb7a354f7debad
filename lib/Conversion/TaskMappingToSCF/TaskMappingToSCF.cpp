//===- TaskMappingToSCF.cpp - Lower tm ops to scf/arith -------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the lowering of the TaskMapping dialect to scf, arith
// and gpu. The index arithmetic itself is emitted by the algebra
// (algebra::emitTasks) through an IndexBuilder that creates arith ops, so
// the lowering and the unit tests share one definition of the semantics.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Conversion/TaskMappingToSCF/TaskMappingToSCF.h"

#include "Hidet/Algebra/TaskMapping.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/TypeSwitch.h"

namespace hidet {
#define GEN_PASS_DEF_CONVERTTASKMAPPINGTOSCF
#include "Hidet/Conversion/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;
using namespace hidet::tm;

//===----------------------------------------------------------------------===//
// Index emission
//===----------------------------------------------------------------------===//

namespace {
/// Emits the algebra's index arithmetic as folded arith ops and its loops as
/// scf.for (or as repeated bodies when fully unrolled).
class ArithIndexBuilder : public algebra::IndexBuilder<Value> {
public:
  ArithIndexBuilder(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  Value constant(int64_t v) override {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value add(Value lhs, Value rhs) override {
    return b.createOrFold<arith::AddIOp>(loc, lhs, rhs);
  }
  Value mulConst(Value lhs, int64_t rhs) override {
    return b.createOrFold<arith::MulIOp>(loc, lhs, constant(rhs));
  }
  // Worker ids and task indices are non-negative: unsigned division and
  // remainder are exact and cheaper on GPUs than their signed forms.
  Value divConst(Value lhs, int64_t rhs) override {
    return b.createOrFold<arith::DivUIOp>(loc, lhs, constant(rhs));
  }
  Value remConst(Value lhs, int64_t rhs) override {
    return b.createOrFold<arith::RemUIOp>(loc, lhs, constant(rhs));
  }

  void loop(int64_t extent, algebra::LoopHint hint,
            const std::function<void(Value)> &body) override {
    if (hint.kind == algebra::LoopHint::Kind::Full) {
      for (int64_t k = 0; k < extent; ++k)
        body(constant(k));
      return;
    }
    auto forOp = scf::ForOp::create(b, loc, constant(0), constant(extent),
                                    constant(1));
    {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(forOp.getBody());
      body(forOp.getInductionVar());
    }
    if (hint.kind == algebra::LoopHint::Kind::Factor &&
        hint.factor < extent)
      // A failure leaves the loop as it is, which is still correct.
      (void)loopUnrollByFactor(forOp, hint.factor);
    else if (hint.kind == algebra::LoopHint::Kind::Factor)
      (void)loopUnrollFull(forOp);
  }

private:
  OpBuilder &b;
  Location loc;
};
} // namespace

void hidet::emitTaskLoops(OpBuilder &builder, Location loc,
                          const algebra::TaskMapping &mapping, Value worker,
                          int64_t workerBound,
                          function_ref<void(OpBuilder &, ValueRange)> body) {
  ArithIndexBuilder ib(builder, loc);
  algebra::emitTasks<Value>(mapping, ib, worker, workerBound,
                            [&](const std::vector<Value> &task) {
                              body(builder, task);
                            });
}

//===----------------------------------------------------------------------===//
// Lowering of each op
//===----------------------------------------------------------------------===//

/// Materializes a GPU worker id.
static Value emitGPUWorker(OpBuilder &b, Location loc, GPUWorker w) {
  auto tid = [&](gpu::Dimension d) { return gpu::ThreadIdOp::create(b, loc, d); };
  auto bid = [&](gpu::Dimension d) { return gpu::BlockIdOp::create(b, loc, d); };
  switch (w) {
  case GPUWorker::thread_x:
    return tid(gpu::Dimension::x);
  case GPUWorker::thread_y:
    return tid(gpu::Dimension::y);
  case GPUWorker::thread_z:
    return tid(gpu::Dimension::z);
  case GPUWorker::block_x:
    return bid(gpu::Dimension::x);
  case GPUWorker::block_y:
    return bid(gpu::Dimension::y);
  case GPUWorker::block_z:
    return bid(gpu::Dimension::z);
  case GPUWorker::lane:
    return gpu::LaneIdOp::create(b, loc, /*upper_bound=*/nullptr);
  case GPUWorker::warp:
    return arith::DivUIOp::create(b, loc, tid(gpu::Dimension::x),
                                  arith::ConstantIndexOp::create(b, loc, 32));
  case GPUWorker::global_x: {
    Value dim = gpu::BlockDimOp::create(b, loc, gpu::Dimension::x);
    Value base = arith::MulIOp::create(b, loc, bid(gpu::Dimension::x), dim);
    return arith::AddIOp::create(b, loc, base, tid(gpu::Dimension::x));
  }
  }
  return {};
}

/// Clones the ops of `body` (all but its terminator) at the builder's
/// insertion point with the block arguments replaced by `indices`.
static void cloneBody(OpBuilder &b, Block &body, ValueRange indices) {
  IRMapping map;
  map.map(body.getArguments(), indices);
  for (Operation &op : body.without_terminator())
    b.clone(op, map);
}

static void lowerForEach(RewriterBase &rewriter, ForEachOp op) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  algebra::TaskMapping mapping = op.getMapping().toAlgebra();
  std::optional<int64_t> bound = op.getStaticWorkerBound();
  Value worker = op.getWorker();
  if (!worker)
    worker = emitGPUWorker(rewriter, loc, *op.getGpuWorker());

  int64_t numWorkers = mapping.getNumWorkers();
  OpBuilder::InsertionGuard guard(rewriter);
  if (!bound || *bound > numWorkers) {
    // Workers at or beyond num_workers own no tasks.
    Value inRange = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ult, worker,
        arith::ConstantIndexOp::create(rewriter, loc, numWorkers));
    auto ifOp = scf::IfOp::create(rewriter, loc, inRange,
                                  /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(&ifOp.getThenRegion().front());
    bound = numWorkers;
  }
  Block &body = op.getBody().front();
  emitTaskLoops(rewriter, loc, mapping, worker, *bound,
                [&](OpBuilder &b, ValueRange task) { cloneBody(b, body, task); });
  rewriter.eraseOp(op);
}

static void lowerRepeat(RewriterBase &rewriter, RepeatOp op) {
  rewriter.setInsertionPoint(op);
  Block &body = op.getBody().front();
  // A repeat mapping has one worker and ignores its id.
  Value zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
  emitTaskLoops(rewriter, op.getLoc(), op.getMapping().toAlgebra(), zero,
                /*workerBound=*/1,
                [&](OpBuilder &b, ValueRange task) { cloneBody(b, body, task); });
  rewriter.eraseOp(op);
}

static void lowerSpatial(RewriterBase &rewriter, SpatialOp op) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> results;
  emitTaskLoops(rewriter, op.getLoc(), op.getMapping().toAlgebra(),
                op.getWorker(), getStaticIndexBound(op.getWorker()).value_or(0),
                [&](OpBuilder &, ValueRange task) {
                  results.assign(task.begin(), task.end());
                });
  rewriter.replaceOp(op, results);
}

static void lowerNumWorkers(RewriterBase &rewriter, NumWorkersOp op) {
  rewriter.setInsertionPoint(op);
  rewriter.replaceOp(op, arith::ConstantIndexOp::create(
                             rewriter, op.getLoc(),
                             op.getMapping().getNumWorkers())
                             .getResult());
}

static void lowerTaskShape(RewriterBase &rewriter, TaskShapeOp op) {
  rewriter.setInsertionPoint(op);
  SmallVector<Value> extents;
  for (int64_t e : op.getMapping().getTaskShape())
    extents.push_back(
        arith::ConstantIndexOp::create(rewriter, op.getLoc(), e));
  rewriter.replaceOp(op, extents);
}

/// Lowers one tm op; returns false for ops of other dialects.
static bool lowerTaskMappingOp(RewriterBase &rewriter, Operation *op) {
  return llvm::TypeSwitch<Operation *, bool>(op)
      .Case([&](ForEachOp o) { return lowerForEach(rewriter, o), true; })
      .Case([&](RepeatOp o) { return lowerRepeat(rewriter, o), true; })
      .Case([&](SpatialOp o) { return lowerSpatial(rewriter, o), true; })
      .Case([&](NumWorkersOp o) { return lowerNumWorkers(rewriter, o), true; })
      .Case([&](TaskShapeOp o) { return lowerTaskShape(rewriter, o), true; })
      .Default([](Operation *) { return false; });
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {
/// Lowers one tm op. A body is lowered after the ops nested in it only if
/// the driver visits inner ops first; the pass below guarantees that, and a
/// greedy driver re-visits cloned ops.
template <typename OpTy>
struct LowerTaskMappingOp : public OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    lowerTaskMappingOp(rewriter, op);
    return success();
  }
};
} // namespace

void hidet::populateTaskMappingToSCFPatterns(RewritePatternSet &patterns) {
  patterns.add<LowerTaskMappingOp<ForEachOp>, LowerTaskMappingOp<RepeatOp>,
               LowerTaskMappingOp<SpatialOp>, LowerTaskMappingOp<NumWorkersOp>,
               LowerTaskMappingOp<TaskShapeOp>>(patterns.getContext());
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTaskMappingToSCFPass
    : public hidet::impl::ConvertTaskMappingToSCFBase<
          ConvertTaskMappingToSCFPass> {
  void runOnOperation() final {
    // Post-order: nested tm ops are lowered before the ops whose bodies
    // contain them, so each body is cloned (or unrolled) once, already
    // lowered.
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (isa_and_nonnull<TaskMappingDialect>(op->getDialect()) &&
          !isa<YieldOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops)
      lowerTaskMappingOp(rewriter, op);
  }
};
} // namespace
