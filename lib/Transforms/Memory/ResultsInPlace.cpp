//===- ResultsInPlace.cpp - Results computed in their output buffers ------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-results-in-place`. upstream's
// buffer-results-to-out-params replaces a returned allocation with the
// output buffer (hoist-static-allocs), but a result returned through a
// reshape of its allocation (a GEMM computed on 2-D rows and returned as
// batch x tokens x features) keeps the allocation and gets a copy into the
// output. This pass makes the allocation a reshaped view of the output
// instead, so the producers write the output directly.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace hidet {
#define GEN_PASS_DEF_RESULTSINPLACE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
/// The copy's source, `reshape(alloc)`, and target, an output buffer (an
/// argument of the function that nothing else uses), when the allocation
/// can be the output's inverse reshape: identity layouts, every other use
/// of the allocation before the copy in its block (deallocations aside).
struct InPlaceCopy {
  Operation *copy = nullptr, *reshape = nullptr;
  memref::AllocOp alloc;
  BlockArgument output;
  SmallVector<Operation *> deallocs;
};

std::optional<InPlaceCopy> match(func::FuncOp func, Operation *copy,
                                 Value source, Value target) {
  InPlaceCopy m;
  m.copy = copy;
  m.output = dyn_cast<BlockArgument>(target);
  if (!m.output || m.output.getOwner() != &func.getBody().front() ||
      !m.output.hasOneUse())
    return std::nullopt;
  m.reshape = source.getDefiningOp();
  if (!isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp>(
          m.reshape) ||
      !m.reshape->hasOneUse())
    return std::nullopt;
  m.alloc = m.reshape->getOperand(0).getDefiningOp<memref::AllocOp>();
  if (!m.alloc)
    return std::nullopt;
  auto allocType = m.alloc.getType();
  auto outType = cast<MemRefType>(m.output.getType());
  if (!allocType.getLayout().isIdentity() || !allocType.hasStaticShape() ||
      !outType.getLayout().isIdentity() ||
      allocType.getMemorySpace() != outType.getMemorySpace())
    return std::nullopt;
  Block *block = copy->getBlock();
  for (Operation *user : m.alloc->getUsers()) {
    if (user == m.reshape)
      continue;
    if (isa<memref::DeallocOp>(user)) {
      m.deallocs.push_back(user);
      continue;
    }
    Operation *inBlock = block->findAncestorOpInBlock(*user);
    if (!inBlock || !inBlock->isBeforeInBlock(copy))
      return std::nullopt;
  }
  return m;
}

/// The allocation becomes the output's inverse reshape; the copy, the
/// reshape and the deallocations go.
void rewrite(InPlaceCopy &m) {
  OpBuilder b(m.alloc);
  Location loc = m.alloc.getLoc();
  MemRefType allocType = m.alloc.getType();
  Value view;
  if (auto expand = dyn_cast<memref::ExpandShapeOp>(m.reshape))
    view = memref::CollapseShapeOp::create(b, loc, allocType, m.output,
                                           expand.getReassociationIndices());
  else
    view = memref::ExpandShapeOp::create(
        b, loc, allocType, m.output,
        cast<memref::CollapseShapeOp>(m.reshape).getReassociationIndices());
  m.copy->erase();
  m.reshape->erase();
  for (Operation *dealloc : m.deallocs)
    dealloc->erase();
  m.alloc.getResult().replaceAllUsesWith(view);
  m.alloc.erase();
}

struct ResultsInPlacePass
    : public hidet::impl::ResultsInPlaceBase<ResultsInPlacePass> {
  void runOnOperation() final {
    func::FuncOp func = getOperation();
    SmallVector<InPlaceCopy> matches;
    func.walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>())
        return;
      std::optional<InPlaceCopy> m;
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        m = match(func, op, copy.getSource(), copy.getTarget());
      else if (auto copy = dyn_cast<linalg::CopyOp>(op);
               copy && copy.hasPureBufferSemantics())
        m = match(func, op, copy.getInputs()[0], copy.getOutputs()[0]);
      if (m)
        matches.push_back(std::move(*m));
    });
    // An allocation returned through two reshapes (the same value returned
    // twice) becomes the first output; the second copy then reads it there.
    llvm::SmallPtrSet<Operation *, 8> rewritten;
    for (InPlaceCopy &m : matches)
      if (rewritten.insert(m.alloc).second)
        rewrite(m);
  }
};
} // namespace
