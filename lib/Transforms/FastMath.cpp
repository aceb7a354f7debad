//===- FastMath.cpp - Approximate division and math in kernels ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-fast-math`: floating-point ops inside GPU
// launches get the arcp, afn and contract flags, which let the NVPTX backend
// use rcp/div.full, approximate math functions and FMA contraction.
// 16-bit tanh also goes to the hardware's approximation, which libdevice
// (the upstream lowering of math.tanh) has no fast variant for.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

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
    // llvm.tanh with afn becomes tanh.approx.f32 in the NVPTX backend: one
    // MUFU instruction instead of libdevice's ~20, with a relative error of
    // about 2^-11, which is the rounding error of a 16-bit result.
    getOperation()->walk([&](math::TanhOp op) {
      Type elt = getElementTypeOrSelf(op.getType());
      if (!op->getParentOfType<gpu::LaunchOp>() ||
          !(elt.isF16() || elt.isBF16()))
        return;
      OpBuilder b(op);
      Value approx =
          LLVM::TanhOp::create(b, op.getLoc(), op.getType(), op.getOperand(),
                               LLVM::FastmathFlags::afn);
      op.replaceAllUsesWith(approx);
      op.erase();
    });
  }
};
} // namespace
