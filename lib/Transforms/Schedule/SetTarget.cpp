//===- SetTarget.cpp - Describe the target GPU in the IR ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-set-target`: the pipeline's `chip` option
// becomes the `#hidet.target` that every later pass reads its limits from.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

namespace hidet {
#define GEN_PASS_DEF_SETTARGET
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

namespace {
struct SetTargetPass : public hidet::impl::SetTargetBase<SetTargetPass> {
  using Base::Base;

  void runOnOperation() final {
    Operation *op = getOperation();
    auto emitError = [&] {
      return op->emitError("hidet-set-target: ");
    };
    if (failed(TargetAttr::verify(emitError, chip, numSMs)))
      return signalPassFailure();
    op->setAttr(kTargetAttrName, TargetAttr::get(&getContext(), chip, numSMs));
  }
};
} // namespace
