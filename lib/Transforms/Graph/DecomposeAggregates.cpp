//===- DecomposeAggregates.cpp - Decompose aggregated linalg ops ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-decompose-aggregates`, which rewrites ops such
// as linalg.softmax into the structured ops they stand for (upstream's own
// decomposition), so that the schedulers only see structured ops.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

namespace hidet {
#define GEN_PASS_DEF_DECOMPOSEAGGREGATES
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
struct DecomposeAggregatesPass
    : public hidet::impl::DecomposeAggregatesBase<DecomposeAggregatesPass> {
  void runOnOperation() final {
    SmallVector<linalg::AggregatedOpInterface> ops;
    getOperation()->walk(
        [&](linalg::AggregatedOpInterface op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    for (linalg::AggregatedOpInterface op : ops) {
      rewriter.setInsertionPoint(op);
      FailureOr<SmallVector<Value>> results = op.decomposeOperation(rewriter);
      if (failed(results)) {
        op->emitError("hidet-decompose-aggregates: cannot decompose");
        return signalPassFailure();
      }
      rewriter.replaceOp(op, *results);
    }
  }
};
} // namespace
