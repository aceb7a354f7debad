//===- UnshareInits.cpp - A destination per use --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-unshare-inits`: a linalg.fill on tensors with
// several uses is cloned, with the tensor.empty it fills, before each user
// but the first, so that every contraction starts from a fill of its own;
// then a tensor.empty with several uses is cloned likewise, so that every
// value written into one gets a buffer of its own.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace hidet {
#define GEN_PASS_DEF_UNSHAREINITS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
/// Clones `op`, a destination of several uses, right before each user but
/// the first in its block; `cloneFor` builds the clone for a use.
static void unshare(Operation *op,
                    function_ref<Value(OpBuilder &, Operation *)> cloneFor) {
  SmallVector<OpOperand *> uses = llvm::map_to_vector(
      op->getResult(0).getUses(), [](OpOperand &use) { return &use; });
  // The first use in the block keeps the original.
  Operation *first = nullptr;
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    if (!first || (user->getBlock() == first->getBlock() &&
                   user->isBeforeInBlock(first)))
      first = user;
  }
  OpBuilder b(op->getContext());
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    if (user == first)
      continue;
    b.setInsertionPoint(user);
    use->set(cloneFor(b, op));
  }
}

struct UnshareInitsPass
    : public hidet::impl::UnshareInitsBase<UnshareInitsPass> {
  void runOnOperation() final {
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse())
        fills.push_back(fill);
    });
    for (linalg::FillOp fill : fills)
      unshare(fill, [&](OpBuilder &b, Operation *) {
        IRMapping map;
        Value init = fill.getDpsInitOperand(0)->get();
        if (auto empty = init.getDefiningOp<tensor::EmptyOp>())
          map.map(init, b.clone(*empty)->getResult(0));
        return b.clone(*fill, map)->getResult(0);
      });
    // Then every value written into a tensor.empty gets a buffer of its own.
    SmallVector<tensor::EmptyOp> empties;
    getOperation()->walk([&](tensor::EmptyOp empty) {
      if (!empty->getResult(0).hasOneUse())
        empties.push_back(empty);
    });
    for (tensor::EmptyOp empty : empties)
      unshare(empty, [](OpBuilder &b, Operation *op) {
        return b.clone(*op)->getResult(0);
      });
  }
};
} // namespace
