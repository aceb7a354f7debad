//===- UnshareFills.cpp - A linalg.fill per use ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-unshare-fills`: a linalg.fill on tensors with
// several uses is cloned, with the tensor.empty it fills, before each user
// but the first, so that every contraction starts from a fill of its own.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace hidet {
#define GEN_PASS_DEF_UNSHAREFILLS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
struct UnshareFillsPass
    : public hidet::impl::UnshareFillsBase<UnshareFillsPass> {
  void runOnOperation() final {
    SmallVector<linalg::FillOp> fills;
    getOperation()->walk([&](linalg::FillOp fill) {
      if (fill.hasPureTensorSemantics() && !fill->getResult(0).hasOneUse())
        fills.push_back(fill);
    });
    OpBuilder b(&getContext());
    for (linalg::FillOp fill : fills) {
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          fill->getResult(0).getUses(), [](OpOperand &use) { return &use; });
      // The first use in the block keeps the original.
      Operation *first = nullptr;
      for (OpOperand *use : uses) {
        Operation *user = use->getOwner();
        if (!first || (user->getBlock() == first->getBlock() &&
                       user->isBeforeInBlock(first)))
          first = user;
      }
      for (OpOperand *use : uses) {
        Operation *user = use->getOwner();
        if (user == first)
          continue;
        b.setInsertionPoint(user);
        IRMapping map;
        Value init = fill.getDpsInitOperand(0)->get();
        if (auto empty = init.getDefiningOp<tensor::EmptyOp>())
          map.map(init, b.clone(*empty)->getResult(0));
        use->set(b.clone(*fill, map)->getResult(0));
      }
    }
  }
};
} // namespace
