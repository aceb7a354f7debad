//===- SinkScalarReads.cpp - Scalar reads into the linalg bodies ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-sink-scalar-reads`: a tensor.extract at a
// function's top level, and the scalar arithmetic on it, move into the
// bodies of the linalg ops that use them, where a kernel computes them,
// instead of the host reading a buffer that lives on the device.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace hidet {
#define GEN_PASS_DEF_SINKSCALARREADS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// The linalg op at the top level of `block` whose body holds `user`, or
/// null (a use at the top level, or as an operand of the linalg op itself).
linalg::LinalgOp enclosingLinalgBody(Operation *user, Block *block) {
  Operation *child = user;
  while (child->getBlock() != block) {
    child = child->getParentOp();
    if (!child)
      return nullptr;
  }
  if (child == user)
    return nullptr;
  return dyn_cast<linalg::LinalgOp>(child);
}

struct SinkScalarReadsPass
    : public hidet::impl::SinkScalarReadsBase<SinkScalarReadsPass> {
  void runOnOperation() final {
    for (Block &block : getOperation().getBody())
      sinkInto(block);
  }

  /// Sinks the reads at the top level of `block`, and the pure scalar ops
  /// computed from them there, into the linalg bodies that use them alone.
  void sinkInto(Block &block) {
    // The top-level scalars that depend on a read, in order.
    SmallVector<Operation *> candidates;
    llvm::SmallPtrSet<Operation *, 16> fromReads;
    for (Operation &op : block) {
      bool scalar = op.getNumRegions() == 0 && op.getNumResults() > 0 &&
                    llvm::all_of(op.getResultTypes(), [](Type t) {
                      return t.isIntOrIndexOrFloat();
                    });
      if (!scalar)
        continue;
      bool read = isa<tensor::ExtractOp>(op);
      bool derived =
          isPure(&op) && llvm::any_of(op.getOperands(), [&](Value v) {
            Operation *def = v.getDefiningOp();
            return def && fromReads.contains(def);
          });
      if (read || derived) {
        fromReads.insert(&op);
        candidates.push_back(&op);
      }
    }
    // Last first: when an op moves, the ops it used may then be used in
    // bodies alone, and each clone goes to the start of its body, before
    // the clones of its users.
    for (Operation *op : llvm::reverse(candidates)) {
      llvm::SetVector<Operation *> bodies;
      bool onlyInBodies = llvm::all_of(op->getUsers(), [&](Operation *user) {
        linalg::LinalgOp body = enclosingLinalgBody(user, &block);
        if (body)
          bodies.insert(body.getOperation());
        return static_cast<bool>(body);
      });
      if (!onlyInBodies || bodies.empty())
        continue;
      for (Operation *body : bodies) {
        Block &inner = body->getRegion(0).front();
        OpBuilder b = OpBuilder::atBlockBegin(&inner);
        Operation *clone = b.clone(*op);
        for (auto [from, to] : llvm::zip(op->getResults(), clone->getResults()))
          from.replaceUsesWithIf(to, [&](OpOperand &use) {
            return body->isProperAncestor(use.getOwner());
          });
      }
      op->erase();
    }
  }
};

} // namespace
