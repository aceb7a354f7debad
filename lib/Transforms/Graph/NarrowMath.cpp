//===- NarrowMath.cpp - 16-bit math at 16-bit accuracy --------------------===//
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
// A 16-bit division is computed in f32 by div.full.f32 (at most 2 f32 ulps
// off over the whole range) instead of the IEEE div.rn.f32 that upstream's
// lowering gives it: the quotient of two 16-bit values is never a midpoint
// between two 16-bit values, and only a quotient within 2 f32 ulps of one
// can round to the other neighbour, 1 ulp off.
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

/// `f` applied to the 16-bit operands (scalars or vectors of one type) in
/// f32, element by element (the intrinsics are scalar), and the result
/// rounded back to their type.
static Value throughF32(
    OpBuilder &b, Location loc, ValueRange operands,
    function_ref<Value(OpBuilder &, Location, ArrayRef<Value>)> f) {
  Type narrow = operands.front().getType();
  auto vec = dyn_cast<VectorType>(narrow);
  Type f32 = b.getF32Type();
  SmallVector<Value> wide;
  for (Value x : operands)
    wide.push_back(
        arith::ExtFOp::create(b, loc, vec ? vec.clone(f32) : f32, x));
  Value r;
  if (!vec) {
    r = f(b, loc, wide);
  } else {
    SmallVector<Value> elems;
    for (int64_t i = 0; i < vec.getNumElements(); ++i) {
      SmallVector<Value> args;
      for (Value w : wide)
        args.push_back(vector::ExtractOp::create(b, loc, w, i));
      elems.push_back(f(b, loc, args));
    }
    r = vector::FromElementsOp::create(b, loc, vec.clone(f32), elems);
  }
  return arith::TruncFOp::create(b, loc, narrow, r);
}

/// a / b in f32 by the hardware's full-range approximate division
/// (div.full.f32, at most 2 ulps off).
static Value divideF32(OpBuilder &b, Location loc, ArrayRef<Value> ab) {
  Type f32 = b.getF32Type();
  return LLVM::CallIntrinsicOp::create(b, loc, f32,
                                       b.getStringAttr("llvm.nvvm.div.full"),
                                       ValueRange{ab[0], ab[1]})
      .getResult(0);
}

/// Whether `op` computes on 16-bit floats inside a kernel.
static bool isNarrowInKernel(Operation *op) {
  Type elt = getElementTypeOrSelf(op->getResult(0).getType());
  return op->getParentOfType<gpu::LaunchOp>() && (elt.isF16() || elt.isBF16());
}

namespace {
struct NarrowMathPass : public hidet::impl::NarrowMathBase<NarrowMathPass> {
  using NarrowMathBase::NarrowMathBase;
  void runOnOperation() final {
    getOperation()->walk([&](Operation *op) {
      if (!isa<math::TanhOp, arith::DivFOp>(op) || !isNarrowInKernel(op))
        return;
      OpBuilder b(op);
      Location loc = op->getLoc();
      Value r;
      if (isa<arith::DivFOp>(op))
        r = throughF32(b, loc, op->getOperands(), divideF32);
      else if (exp2Tanh)
        r = throughF32(b, loc, op->getOperands(),
                       [](OpBuilder &b, Location loc, ArrayRef<Value> x) {
                         return expandTanhF32(b, loc, x[0]);
                       });
      else
        r = LLVM::TanhOp::create(b, loc, op->getResult(0).getType(),
                                 op->getOperand(0), LLVM::FastmathFlags::afn);
      op->getResult(0).replaceAllUsesWith(r);
      op->erase();
    });
  }
};
} // namespace
