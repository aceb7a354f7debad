//===- CopiesToLinalg.cpp - memref.copy as linalg.copy --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-copies-to-linalg`.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace hidet {
#define GEN_PASS_DEF_COPIESTOLINALG
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

void hidet::rewriteCopiesAsLinalg(Operation *root) {
  OpBuilder b(root->getContext());
  root->walk([&](memref::CopyOp copy) {
    if (copy->getParentOfType<gpu::LaunchOp>())
      return;
    b.setInsertionPoint(copy);
    linalg::CopyOp::create(b, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy->erase();
  });
}

namespace {
struct CopiesToLinalgPass
    : public hidet::impl::CopiesToLinalgBase<CopiesToLinalgPass> {
  void runOnOperation() final { hidet::rewriteCopiesAsLinalg(getOperation()); }
};
} // namespace
