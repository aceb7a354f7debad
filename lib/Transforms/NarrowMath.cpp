//===- NarrowMath.cpp - 16-bit math functions at 16-bit accuracy ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-narrow-math`. Upstream lowers a 16-bit
// math.tanh in a kernel by extending it to f32 and calling libdevice's
// __nv_tanhf, which is accurate to 2 f32 ulps: about 22 instructions per
// element, which dominate a GEMM epilogue such as GELU. A 16-bit result
// needs a relative error of about 2^-13 to round like the exact value does,
// so the pass expands the op in f32 as
//
//   tanh(x) = 1 - 2 / (1 + 2^(2 log2(e) x))        for |x| >= 2^-6
//   tanh(x) = x - x^3 / 3                           for |x| <  2^-6
//
// with the hardware's exp2 (ex2.approx, relative error 2^-22) and reciprocal
// (rcp.approx, 2^-23). The absolute error of the first form is below 2^-21,
// a relative error below 2^-15 for |x| >= 2^-6; the truncated series is off
// by 2 x^5 / 15, relatively below 2^-25 there. Large |x| saturate exactly
// (2^(+inf) = inf gives 1, 2^(-inf) = 0 gives -1), NaN stays NaN, and
// -0 stays -0. About 8 instructions per element instead of 22.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

namespace hidet {
#define GEN_PASS_DEF_NARROWMATH
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

/// tanh of the 16-bit `x`, computed in f32 as the file comment says.
static Value expandTanh(OpBuilder &b, Location loc, Value x) {
  Type narrow = x.getType();
  Type wide = b.getF32Type();
  if (auto vec = dyn_cast<VectorType>(narrow))
    wide = vec.clone(wide);
  auto constant = [&](double v) -> Value {
    TypedAttr attr = b.getF32FloatAttr(v);
    if (auto vec = dyn_cast<VectorType>(wide))
      attr = SplatElementsAttr::get(vec, attr);
    return arith::ConstantOp::create(b, loc, wide, attr);
  };
  Value x32 = arith::ExtFOp::create(b, loc, wide, x);
  // 1 - 2 / (1 + 2^(2 log2(e) x)).
  Value scaled =
      arith::MulFOp::create(b, loc, x32, constant(2.0 / std::log(2.0)));
  // libdevice's exp2f is the hardware's ex2.approx.
  Value e = math::Exp2Op::create(b, loc, scaled);
  Value den = arith::AddFOp::create(b, loc, e, constant(1.0));
  // afn: the reciprocal may be rcp.approx.
  Value r = arith::DivFOp::create(b, loc, constant(1.0), den,
                                  arith::FastMathFlags::afn);
  Value large = math::FmaOp::create(b, loc, r, constant(-2.0), constant(1.0));
  // x - x^3 / 3 = x * (1 - x^2 / 3), which keeps the sign of -0.
  Value sq = arith::MulFOp::create(b, loc, x32, x32);
  Value small = arith::MulFOp::create(
      b, loc, x32,
      math::FmaOp::create(b, loc, sq, constant(-1.0 / 3.0), constant(1.0)));
  Value magnitude = math::AbsFOp::create(b, loc, x32);
  Value isSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                        magnitude, constant(0x1p-6));
  Value t = arith::SelectOp::create(b, loc, isSmall, small, large);
  return arith::TruncFOp::create(b, loc, narrow, t);
}

namespace {
struct NarrowMathPass : public hidet::impl::NarrowMathBase<NarrowMathPass> {
  void runOnOperation() final {
    getOperation()->walk([&](math::TanhOp op) {
      Type elt = getElementTypeOrSelf(op.getType());
      if (!op->getParentOfType<gpu::LaunchOp>() ||
          !(elt.isF16() || elt.isBF16()))
        return;
      OpBuilder b(op);
      op.replaceAllUsesWith(expandTanh(b, op.getLoc(), op.getOperand()));
      op.erase();
    });
  }
};
} // namespace
