//===- PipelineSharedCopies.cpp - cp.async pipelines of K loops -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-pipeline-shared-copies`. The three steps are
// upstream's (nvgpu::createAsyncGroups, memref::multiBuffer,
// scf::pipelineForLoop); what is written here is the schedule that ties
// them together (upstream has it only inside the transform op
// `nvgpu.pipeline_shared_memory_copies`, not as a function a pass can call)
// and the shape of the loop the templates hand over.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/Transforms/Transforms.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/NVGPU/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace hidet {
#define GEN_PASS_DEF_PIPELINESHAREDCOPIES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// Copies past the last iteration copy nothing: their source element count
/// becomes 0 where `pred` is false (cp.async then zero-fills, and the
/// group they belong to still counts). Ops without memory effects need no
/// predicate; anything else cannot be predicated.
Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  if (auto copy = dyn_cast<nvgpu::DeviceAsyncCopyOp>(op)) {
    OpBuilder::InsertionGuard g(rewriter);
    rewriter.setInsertionPoint(copy);
    Location loc = copy.getLoc();
    Value elements = copy.getSrcElements();
    if (!elements)
      elements = arith::ConstantIndexOp::create(
          rewriter, loc, copy.getDstElements().getZExtValue());
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value predicated =
        arith::SelectOp::create(rewriter, loc, pred, elements, zero);
    rewriter.modifyOpInPlace(
        copy, [&] { copy.getSrcElementsMutable().assign(predicated); });
    return copy;
  }
  if (isa<nvgpu::DeviceAsyncCreateGroupOp>(op) || isPure(op))
    return op;
  return nullptr;
}

/// Pipelines `loop` over `stages` stages; an error names what does not fit.
LogicalResult pipeline(scf::ForOp loop, int64_t stages) {
  Block *body = loop.getBody();
  SmallVector<gpu::BarrierOp> barriers(body->getOps<gpu::BarrierOp>());
  if (barriers.size() != 2)
    return loop.emitError("a loop marked '")
           << hidet::kPipelineStagesAttrName
           << "' must have exactly two gpu.barrier ops, before and after its "
              "copies into shared memory; found "
           << barriers.size();
  gpu::BarrierOp before = barriers[0], after = barriers[1];

  // 1. The copies become async copies in commit groups (upstream).
  IRRewriter rewriter(loop.getContext());
  nvgpu::createAsyncGroups(rewriter, loop, /*bypassL1=*/true);
  // It leaves the global reads whose values the copies now move (and their
  // masks) without uses; they would still load.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (isa<vector::TransferReadOp, vector::LoadOp, vector::CreateMaskOp>(op) &&
        op.use_empty())
      rewriter.eraseOp(&op);
  SmallVector<nvgpu::DeviceAsyncCreateGroupOp> groups(
      body->getOps<nvgpu::DeviceAsyncCreateGroupOp>());
  SmallVector<nvgpu::DeviceAsyncWaitOp> waits(
      body->getOps<nvgpu::DeviceAsyncWaitOp>());
  bool leftover = false;
  body->walk([&](vector::TransferWriteOp write) {
    leftover |= nvgpu::NVGPUDialect::hasSharedMemoryAddressSpace(
        cast<MemRefType>(write.getBase().getType()));
  });
  if (leftover)
    return loop.emitError("a copy into shared memory in this loop cannot "
                          "become a cp.async copy (it moves 4, 8 or 16 "
                          "contiguous bytes from global memory)");
  if (groups.size() != 1 || waits.size() != 1 ||
      !before->isBeforeInBlock(groups[0]) || !groups[0]->isBeforeInBlock(after))
    return loop.emitError("the copies into shared memory of this loop must "
                          "be one run of copies between its two barriers; "
                          "they make ")
           << groups.size() << " commit groups";
  nvgpu::DeviceAsyncCreateGroupOp group = groups[0];
  nvgpu::DeviceAsyncWaitOp wait = waits[0];

  // 2. Each shared tile they write gets `stages` buffers (upstream).
  SetVector<memref::AllocOp> allocs;
  for (auto copy : body->getOps<nvgpu::DeviceAsyncCopyOp>()) {
    auto alloc = copy.getDst().getDefiningOp<memref::AllocOp>();
    if (!alloc || loop->isAncestor(alloc))
      return copy.emitError("the shared tile of a pipelined copy must be a "
                            "memref.alloc outside the loop");
    allocs.insert(alloc);
  }
  for (memref::AllocOp alloc : allocs)
    if (failed(memref::multiBuffer(rewriter, alloc, stages,
                                   /*skipOverrideAnalysis=*/true)))
      return alloc.emitError("cannot give this shared tile ")
             << stages << " buffers: it is used outside the pipelined loop";

  // 3. The schedule: the copies, their group and everything they use are
  // stage 0; the rest is the last stage. The wait (now of depth N - 2) and
  // the second barrier open the iteration; the first barrier goes, since
  // the second one of the previous iteration already separates the last
  // reads of a buffer from the copies that overwrite it.
  rewriter.eraseOp(before);
  wait.setNumGroups(static_cast<int32_t>(stages - 2));
  llvm::SmallPtrSet<Operation *, 32> first;
  SmallVector<Operation *> worklist = {group};
  for (auto copy : body->getOps<nvgpu::DeviceAsyncCopyOp>())
    worklist.push_back(copy);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!first.insert(op).second)
      continue;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (Operation *def = v.getDefiningOp())
          if (Operation *top = body->findAncestorOpInBlock(*def))
            if (top != op)
              worklist.push_back(top);
    });
  }
  // Pure ops of stage 0 that the math uses too (index arithmetic,
  // constants, the buffer's subview) are computed again in the last stage
  // rather than carried across iterations by the pipeliner: N - 1 copies of
  // each in loop-carried values would cost registers, the recomputation a
  // few integer instructions.
  IRMapping again;
  std::function<Value(Value)> lastStageValue = [&](Value v) -> Value {
    Operation *def = v.getDefiningOp();
    if (!def || def->getBlock() != body || !first.contains(def) || !isPure(def))
      return v;
    if (!again.contains(def->getResult(0))) {
      OpBuilder::InsertionGuard g(rewriter);
      rewriter.setInsertionPoint(def);
      Operation *copy = rewriter.clone(*def);
      for (OpOperand &operand : copy->getOpOperands())
        operand.set(lastStageValue(operand.get()));
      again.map(def->getResults(), copy->getResults());
    }
    return again.lookup(v);
  };
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator()))
    if (!first.contains(&op))
      op.walk([&](Operation *nested) {
        for (OpOperand &operand : nested->getOpOperands())
          operand.set(lastStageValue(operand.get()));
      });
  unsigned last = static_cast<unsigned>(stages - 1);
  scf::PipeliningOption options;
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicate;
  options.getScheduleFn =
      [&](scf::ForOp, std::vector<std::pair<Operation *, unsigned>> &order) {
        order.emplace_back(wait, last);
        order.emplace_back(after, last);
        for (Operation &op : body->without_terminator())
          if (first.contains(&op))
            order.emplace_back(&op, 0);
        for (Operation &op : body->without_terminator())
          if (!first.contains(&op) && &op != wait && &op != after)
            order.emplace_back(&op, last);
      };
  rewriter.setInsertionPoint(loop);
  FailureOr<scf::ForOp> pipelined =
      scf::pipelineForLoop(rewriter, loop, options);
  if (failed(pipelined))
    return loop.emitError("upstream pipelining failed on this loop");
  (*pipelined)->removeAttr(hidet::kPipelineStagesAttrName);
  // Copies issued ahead past the last iteration must land before the block
  // exits or reuses its shared memory. (The wait's token operand only
  // orders the IR; the lowering counts committed groups. The prologue's
  // last group serves.)
  nvgpu::DeviceAsyncCreateGroupOp prologueGroup;
  for (Operation *op = (*pipelined)->getPrevNode(); op && !prologueGroup;
       op = op->getPrevNode())
    prologueGroup = dyn_cast<nvgpu::DeviceAsyncCreateGroupOp>(op);
  if (!prologueGroup)
    return loop.emitError("pipelining left no prologue");
  rewriter.setInsertionPointAfter(*pipelined);
  nvgpu::DeviceAsyncWaitOp::create(rewriter, pipelined->getLoc(),
                                   prologueGroup.getResult(),
                                   rewriter.getI32IntegerAttr(0));
  return success();
}

struct PipelineSharedCopiesPass
    : public hidet::impl::PipelineSharedCopiesBase<PipelineSharedCopiesPass> {
  void runOnOperation() final {
    SmallVector<scf::ForOp> loops;
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (!op->hasAttr(hidet::kPipelineStagesAttrName))
        return WalkResult::advance();
      if (auto loop = dyn_cast<scf::ForOp>(op)) {
        loops.push_back(loop);
        return WalkResult::advance();
      }
      op->emitError("only scf.for loops are pipelined; '")
          << hidet::kPipelineStagesAttrName << "' is on '" << op->getName()
          << "'";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (scf::ForOp loop : loops) {
      // The dialect verifier checked the stage count.
      auto stages =
          loop->getAttrOfType<IntegerAttr>(hidet::kPipelineStagesAttrName);
      if (failed(pipeline(loop, stages.getInt())))
        return signalPassFailure();
    }
  }
};

} // namespace
