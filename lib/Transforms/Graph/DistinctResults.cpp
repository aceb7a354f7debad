//===- DistinctResults.cpp - A value of its own for every result ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-distinct-results`: a function on tensors that
// returns one value at several result positions (two graph outputs that
// fold to the same value) returns a copy of it at every position after the
// first. Bufferized, each result is then a buffer of its own, which the
// calling convention's output buffers need; upstream's
// buffer-results-to-out-params crashes on a buffer returned twice.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace hidet {
#define GEN_PASS_DEF_DISTINCTRESULTS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
struct DistinctResultsPass
    : public hidet::impl::DistinctResultsBase<DistinctResultsPass> {
  void runOnOperation() final {
    getOperation()->walk([](func::ReturnOp ret) {
      llvm::SmallPtrSet<Value, 8> seen;
      OpBuilder b(ret);
      for (OpOperand &operand : ret->getOpOperands()) {
        Value v = operand.get();
        auto type = dyn_cast<RankedTensorType>(v.getType());
        if (!type || seen.insert(v).second)
          continue;
        Value empty = tensor::EmptyOp::create(
            b, ret.getLoc(), tensor::getMixedSizes(b, ret.getLoc(), v),
            type.getElementType());
        operand.set(linalg::CopyOp::create(b, ret.getLoc(), v, empty)
                        .getResult(0));
      }
    });
  }
};
} // namespace
