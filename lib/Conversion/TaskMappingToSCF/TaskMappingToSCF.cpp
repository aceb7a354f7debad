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

/// Number of copies of the body that full unrolling emits for `mapping`.
static int64_t countUnrolledBodies(const algebra::TaskMapping &mapping) {
  int64_t bodies = 1;
  for (const algebra::Leaf &leaf : mapping.flatten()) {
    if (leaf.isSpatial)
      continue;
    for (size_t i = 0; i < leaf.shape.size(); ++i)
      if (leaf.shape[i] > 1 &&
          leaf.hints[i].kind == algebra::LoopHint::Kind::Full) {
        // Saturate: anything past the limit is rejected anyway.
        if (bodies > (int64_t(1) << 40) / leaf.shape[i])
          return int64_t(1) << 40;
        bodies *= leaf.shape[i];
      }
  }
  return bodies;
}

/// Rejects mappings whose full unrolling would emit more than `maxBodies`
/// copies of a body (e.g. many small repeat dimensions, all unrolled by
/// default).
static LogicalResult checkUnrolling(Operation *op,
                                    const algebra::TaskMapping &mapping,
                                    int64_t maxBodies) {
  int64_t bodies = countUnrolledBodies(mapping);
  if (bodies <= maxBodies)
    return success();
  return op->emitError("convert-tm-to-scf: full unrolling would emit ")
         << bodies << " copies of the body (limit " << maxBodies
         << "); mark some repeat dimensions 'unroll = [none, ...]' or raise "
            "max-unrolled-bodies";
}

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

static LogicalResult lowerForEach(RewriterBase &rewriter, ForEachOp op,
                                  int64_t maxBodies) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  algebra::TaskMapping mapping = op.getMapping().toAlgebra();
  if (failed(checkUnrolling(op, mapping, maxBodies)))
    return failure();
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
  return success();
}

static LogicalResult lowerRepeat(RewriterBase &rewriter, RepeatOp op,
                                 int64_t maxBodies) {
  rewriter.setInsertionPoint(op);
  Block &body = op.getBody().front();
  if (failed(checkUnrolling(op, op.getMapping().toAlgebra(), maxBodies)))
    return failure();
  // A repeat mapping has one worker and ignores its id.
  Value zero = arith::ConstantIndexOp::create(rewriter, op.getLoc(), 0);
  emitTaskLoops(rewriter, op.getLoc(), op.getMapping().toAlgebra(), zero,
                /*workerBound=*/1,
                [&](OpBuilder &b, ValueRange task) { cloneBody(b, body, task); });
  rewriter.eraseOp(op);
  return success();
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

/// Lowers one tm op (ops of other dialects are left alone).
static LogicalResult lowerTaskMappingOp(RewriterBase &rewriter, Operation *op,
                                        int64_t maxBodies) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ForEachOp o) { return lowerForEach(rewriter, o, maxBodies); })
      .Case([&](RepeatOp o) { return lowerRepeat(rewriter, o, maxBodies); })
      .Case([&](SpatialOp o) { return lowerSpatial(rewriter, o), success(); })
      .Case([&](NumWorkersOp o) {
        return lowerNumWorkers(rewriter, o), success();
      })
      .Case([&](TaskShapeOp o) {
        return lowerTaskShape(rewriter, o), success();
      })
      .Default([](Operation *) { return failure(); });
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
  LowerTaskMappingOp(MLIRContext *ctx, int64_t maxBodies)
      : OpRewritePattern<OpTy>(ctx), maxBodies(maxBodies) {}
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    return lowerTaskMappingOp(rewriter, op, maxBodies);
  }
  int64_t maxBodies;
};
} // namespace

void hidet::populateTaskMappingToSCFPatterns(RewritePatternSet &patterns,
                                             int64_t maxUnrolledBodies) {
  patterns.add<LowerTaskMappingOp<ForEachOp>, LowerTaskMappingOp<RepeatOp>,
               LowerTaskMappingOp<SpatialOp>, LowerTaskMappingOp<NumWorkersOp>,
               LowerTaskMappingOp<TaskShapeOp>>(patterns.getContext(),
                                                maxUnrolledBodies);
}

//===----------------------------------------------------------------------===//
// Pass
//===----------------------------------------------------------------------===//

namespace {
struct ConvertTaskMappingToSCFPass
    : public hidet::impl::ConvertTaskMappingToSCFBase<
          ConvertTaskMappingToSCFPass> {
  using Base::Base;
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
      if (failed(lowerTaskMappingOp(rewriter, op, maxUnrolledBodies)))
        return signalPassFailure();
  }
};
} // namespace
