//===- FastMath.cpp - Approximate division and math in kernels ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-fast-math`: floating-point ops inside GPU
// launches get the arcp, afn and contract flags, which let the NVPTX backend
// use rcp/div.full, approximate math functions and FMA contraction.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace hidet {
#define GEN_PASS_DEF_FASTMATH
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
struct FastMathPass : public hidet::impl::FastMathBase<FastMathPass> {
  void runOnOperation() final {
    const arith::FastMathFlags added = arith::FastMathFlags::arcp |
                                       arith::FastMathFlags::afn |
                                       arith::FastMathFlags::contract;
    getOperation()->walk([&](arith::ArithFastMathInterface op) {
      if (!op->getParentOfType<gpu::LaunchOp>())
        return;
      arith::FastMathFlagsAttr current = op.getFastMathFlagsAttr();
      arith::FastMathFlags flags =
          current ? current.getValue() : arith::FastMathFlags::none;
      op->setAttr(
          op.getFastMathAttrName(),
          arith::FastMathFlagsAttr::get(op->getContext(), flags | added));
    });
  }
};
} // namespace
