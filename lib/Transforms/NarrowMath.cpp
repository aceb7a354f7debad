//===- NarrowMath.cpp - 16-bit math functions at 16-bit accuracy ----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-narrow-math`. Upstream lowers a 16-bit
// math.tanh in a kernel by extending it to f32 and calling libdevice's
// __nv_tanhf, accurate to 2 f32 ulps at about 22 instructions per element,
// which dominate a GEMM epilogue such as GELU. A 16-bit result does not need
// that: the pass gives the op to the hardware's tanh.approx.f32 (llvm.tanh
// with afn; relative error about 2^-11). On every input on the H100
// (test/Integration/GPU/tanh-every-input.mlir) its bf16 results equal
// libm's rounded ones, and its f16 results are within 1 ulp of them (70 of
// 63,488 differ). With exp2-tanh the pass expands the op in f32 as
//
//   tanh(x) = 1 - 2 / (1 + 2^(2 log2(e) x))        for |x| >= 2^-7
//   tanh(x) = x                                     for |x| <  2^-7
//
// with the hardware's exp2 and reciprocal (ex2.approx.ftz, relative error
// 2^-22, and rcp.approx.ftz, 2^-23): an absolute error below 2^-21, a
// relative error below 2^-14 for |x| >= 2^-7; x is off by x^2 / 3,
// relatively below 2^-15.5. Flushing subnormals changes nothing: 2^s for
// subnormal s is 1 either way, and a subnormal 2^s or reciprocal only ever
// meets 1 + or 1 - it. Large |x| saturate exactly (2^(+inf) = inf gives 1,
// 2^(-inf) = 0 gives -1), NaN stays NaN and -0 stays -0. The intrinsics are
// scalar, so vectors are expanded element by element. About 8 instructions
// per element, two of them special-function ones; 15 f16 results differ.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

namespace hidet {
#define GEN_PASS_DEF_NARROWMATH
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

/// tanh of the f32 `x`, computed as the file comment says.
static Value expandTanhF32(OpBuilder &b, Location loc, Value x) {
  Type f32 = b.getF32Type();
  auto constant = [&](double v) -> Value {
    return arith::ConstantOp::create(b, loc, f32, b.getF32FloatAttr(v));
  };
  // 1 - 2 / (1 + 2^(2 log2(e) x)).
  Value scaled =
      arith::MulFOp::create(b, loc, x, constant(2.0 / std::log(2.0)));
  Value e = LLVM::CallIntrinsicOp::create(
                b, loc, f32, b.getStringAttr("llvm.nvvm.ex2.approx.ftz.f32"),
                ValueRange{scaled})
                .getResult(0);
  Value den = arith::AddFOp::create(b, loc, e, constant(1.0));
  Value r = NVVM::RcpApproxFtzF32Op::create(b, loc, f32, den);
  Value large = math::FmaOp::create(b, loc, r, constant(-2.0), constant(1.0));
  Value magnitude = math::AbsFOp::create(b, loc, x);
  Value isSmall = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT,
                                        magnitude, constant(0x1p-7));
  return arith::SelectOp::create(b, loc, isSmall, x, large);
}

/// tanh of the 16-bit `x` (a scalar or a vector), through f32.
static Value expandTanh(OpBuilder &b, Location loc, Value x) {
  Type narrow = x.getType();
  auto vec = dyn_cast<VectorType>(narrow);
  Type f32 = b.getF32Type();
  Value x32 = arith::ExtFOp::create(b, loc, vec ? vec.clone(f32) : f32, x);
  Value t;
  if (!vec) {
    t = expandTanhF32(b, loc, x32);
  } else {
    SmallVector<Value> elems;
    for (int64_t i = 0; i < vec.getNumElements(); ++i)
      elems.push_back(
          expandTanhF32(b, loc, vector::ExtractOp::create(b, loc, x32, i)));
    t = vector::FromElementsOp::create(b, loc, vec.clone(f32), elems);
  }
  return arith::TruncFOp::create(b, loc, narrow, t);
}

namespace {
struct NarrowMathPass : public hidet::impl::NarrowMathBase<NarrowMathPass> {
  using NarrowMathBase::NarrowMathBase;
  void runOnOperation() final {
    getOperation()->walk([&](math::TanhOp op) {
      Type elt = getElementTypeOrSelf(op.getType());
      if (!op->getParentOfType<gpu::LaunchOp>() ||
          !(elt.isF16() || elt.isBF16()))
        return;
      OpBuilder b(op);
      Value t = exp2Tanh ? expandTanh(b, op.getLoc(), op.getOperand())
                         : LLVM::TanhOp::create(b, op.getLoc(), op.getType(),
                                                op.getOperand(),
                                                LLVM::FastmathFlags::afn)
                               .getResult();
      op.replaceAllUsesWith(t);
      op.erase();
    });
  }
};
} // namespace
