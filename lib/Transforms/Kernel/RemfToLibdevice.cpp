//===- RemfToLibdevice.cpp - fmod in GPU kernels --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-remf-to-libdevice`: the floating-point
// remainders of GPU kernels become calls of libdevice's fmod before the NVVM
// lowering pipeline turns them into llvm.frem, which it cannot lower.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace hidet {
#define GEN_PASS_DEF_REMFTOLIBDEVICE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

struct RemfToLibdevice : hidet::impl::RemfToLibdeviceBase<RemfToLibdevice> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    SmallVector<arith::RemFOp> remainders;
    module.walk([&](arith::RemFOp op) { remainders.push_back(op); });
    for (arith::RemFOp op : remainders) {
      OpBuilder b(op);
      FailureOr<Value> r = lower(b, op.getLoc(), op.getLhs(), op.getRhs());
      if (failed(r)) {
        op.emitError() << "cannot compute the remainder of " << op.getType()
                       << " in a GPU kernel (f16, bf16, f32, f64 and their "
                          "1-D vectors can)";
        return signalPassFailure();
      }
      op.replaceAllUsesWith(*r);
      op.erase();
    }
  }

  /// The declaration of libdevice's `name` in the module.
  func::FuncOp declare(StringRef name, Type t) {
    gpu::GPUModuleOp module = getOperation();
    if (auto f = module.lookupSymbol<func::FuncOp>(name))
      return f;
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    auto f = func::FuncOp::create(b, module.getLoc(), name,
                                  b.getFunctionType({t, t}, {t}));
    f.setPrivate();
    return f;
  }

  FailureOr<Value> lower(OpBuilder &b, Location loc, Value x, Value y) {
    Type t = x.getType();
    if (auto vec = dyn_cast<VectorType>(t)) {
      if (vec.getRank() != 1 || vec.isScalable())
        return failure();
      Value r = arith::ConstantOp::create(b, loc, b.getZeroAttr(vec));
      for (int64_t i = 0; i < vec.getNumElements(); ++i) {
        FailureOr<Value> e =
            lower(b, loc, vector::ExtractOp::create(b, loc, x, i),
                  vector::ExtractOp::create(b, loc, y, i));
        if (failed(e))
          return failure();
        r = vector::InsertOp::create(b, loc, *e, r, i);
      }
      return r;
    }
    if (t.isF16() || t.isBF16()) {
      Type f32 = b.getF32Type();
      FailureOr<Value> r = lower(b, loc, arith::ExtFOp::create(b, loc, f32, x),
                                 arith::ExtFOp::create(b, loc, f32, y));
      if (failed(r))
        return failure();
      return arith::TruncFOp::create(b, loc, t, *r).getResult();
    }
    if (!t.isF32() && !t.isF64())
      return failure();
    func::FuncOp f = declare(t.isF32() ? "__nv_fmodf" : "__nv_fmod", t);
    return func::CallOp::create(b, loc, f, ValueRange{x, y}).getResult(0);
  }
};

} // namespace
