//===- Activations.cpp - Activation functions -----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// ReLU and its relatives, sigmoids, GELU (erf or tanh form), Mish: float
// bodies with their attributes (alpha, beta, gamma, approximate) read from
// the node.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Type t = x.getType();
  Value negX = arith::NegFOp::create(b, loc, x);
  Value e = math::ExpOp::create(b, loc, negX);
  Value den = arith::AddFOp::create(b, loc, cst(b, loc, t, 1), e);
  return arith::DivFOp::create(b, loc, cst(b, loc, t, 1), den);
}

Value relu(OpBuilder &b, Location loc, Value x) {
  return arith::MaximumFOp::create(b, loc, x, cst(b, loc, x.getType(), 0));
}

float attrOr(const ElemInfo &e, StringRef name, float value) {
  return e.ctx->attrFloat(name, value);
}

} // namespace

void registerActivations(llvm::StringMap<ElementwiseSpec> &ops) {
  using B = OpBuilder;
  using L = Location;
  using V = ValueRange;
  using E = const ElemInfo &;
  using NC = const NodeContext &;
  ops["Relu"] =
      unary([](B &b, L l, V a, E) { return relu(b, l, a[0]); },
            [](ArrayRef<double> a, NC) { return std::max(a[0], 0.0); });
  ops["Sigmoid"] = unary([](B &b, L l, V a, E) { return sigmoid(b, l, a[0]); });
  ops["Softplus"] = unary([](B &b, L l, V a, E e) -> Value {
    Value ex = math::ExpOp::create(b, l, a[0]);
    return math::Log1pOp::create(b, l, ex);
  });
  ops["Softsign"] = unary([](B &b, L l, V a, E e) -> Value {
    Value ab = math::AbsFOp::create(b, l, a[0]);
    Value den = arith::AddFOp::create(b, l, cst(b, l, e.elem, 1), ab);
    return arith::DivFOp::create(b, l, a[0], den);
  });
  ops["LeakyRelu"] = unary([](B &b, L l, V a, E e) -> Value {
    Value alpha = cst(b, l, e.elem, attrOr(e, "alpha", 0.01f));
    Value scaled = arith::MulFOp::create(b, l, a[0], alpha);
    Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                      cst(b, l, e.elem, 0));
    return arith::SelectOp::create(b, l, neg, scaled, a[0]);
  });
  ops["Elu"] = unary([](B &b, L l, V a, E e) -> Value {
    Value alpha = cst(b, l, e.elem, attrOr(e, "alpha", 1.0f));
    Value em1 = math::ExpM1Op::create(b, l, a[0]);
    Value scaled = arith::MulFOp::create(b, l, em1, alpha);
    Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                      cst(b, l, e.elem, 0));
    return arith::SelectOp::create(b, l, neg, scaled, a[0]);
  });
  ops["Celu"] = unary([](B &b, L l, V a, E e) -> Value {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    Value alpha = cst(b, l, e.elem, attrOr(e, "alpha", 1.0f));
    Value zero = cst(b, l, e.elem, 0);
    Value q = arith::DivFOp::create(b, l, a[0], alpha);
    Value em1 = math::ExpM1Op::create(b, l, q);
    Value neg = arith::MinimumFOp::create(
        b, l, zero, arith::MulFOp::create(b, l, alpha, em1));
    return arith::AddFOp::create(b, l, relu(b, l, a[0]), neg);
  });
  ops["Selu"] = unary([](B &b, L l, V a, E e) -> Value {
    Value alpha =
        cst(b, l, e.elem, attrOr(e, "alpha", 1.67326319217681884765625f));
    Value gamma =
        cst(b, l, e.elem, attrOr(e, "gamma", 1.05070102214813232421875f));
    Value em1 = math::ExpM1Op::create(b, l, a[0]);
    Value negPart = arith::MulFOp::create(b, l, em1, alpha);
    Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLE, a[0],
                                      cst(b, l, e.elem, 0));
    Value r = arith::SelectOp::create(b, l, neg, negPart, a[0]);
    return arith::MulFOp::create(b, l, r, gamma);
  });
  ops["ThresholdedRelu"] = unary([](B &b, L l, V a, E e) -> Value {
    Value alpha = cst(b, l, e.elem, attrOr(e, "alpha", 1.0f));
    Value gt =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0], alpha);
    return arith::SelectOp::create(b, l, gt, a[0], cst(b, l, e.elem, 0));
  });
  auto hardSigmoid = [](B &b, L l, Value x, Type t, float alpha,
                        float beta) -> Value {
    Value y = arith::AddFOp::create(
        b, l, arith::MulFOp::create(b, l, x, cst(b, l, t, alpha)),
        cst(b, l, t, beta));
    y = arith::MaximumFOp::create(b, l, y, cst(b, l, t, 0));
    return arith::MinimumFOp::create(b, l, y, cst(b, l, t, 1));
  };
  ops["HardSigmoid"] = unary([=](B &b, L l, V a, E e) -> Value {
    return hardSigmoid(b, l, a[0], e.elem, attrOr(e, "alpha", 0.2f),
                       attrOr(e, "beta", 0.5f));
  });
  ops["HardSwish"] = unary([=](B &b, L l, V a, E e) -> Value {
    Value hs = hardSigmoid(b, l, a[0], e.elem, 1.0f / 6, 0.5f);
    return arith::MulFOp::create(b, l, a[0], hs);
  });
  ops["Shrink"] = unary([](B &b, L l, V a, E e) -> Value {
    // x + bias below -lambd, x - bias above lambd, 0 between.
    Value lambd = cst(b, l, e.elem, attrOr(e, "lambd", 0.5f));
    Value bias = cst(b, l, e.elem, attrOr(e, "bias", 0.0f));
    Value nl = cst(b, l, e.elem, -attrOr(e, "lambd", 0.5f));
    Value lo = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0], nl);
    Value hi =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0], lambd);
    Value r = arith::SelectOp::create(b, l, hi,
                                      arith::SubFOp::create(b, l, a[0], bias),
                                      cst(b, l, e.elem, 0));
    return arith::SelectOp::create(b, l, lo,
                                   arith::AddFOp::create(b, l, a[0], bias), r);
  });
  ops["Mish"] = unary([](B &b, L l, V a, E e) -> Value {
    Value sp = math::Log1pOp::create(b, l, math::ExpOp::create(b, l, a[0]));
    return arith::MulFOp::create(b, l, a[0], math::TanhOp::create(b, l, sp));
  });
  ops["Gelu"] = unary([](B &b, L l, V a, E e) -> Value {
    Value x = a[0];
    Value half = cst(b, l, e.elem, 0.5), one = cst(b, l, e.elem, 1);
    Value inner;
    if (e.ctx->attrString("approximate", "none") == "tanh") {
      Value x3 =
          arith::MulFOp::create(b, l, x, arith::MulFOp::create(b, l, x, x));
      Value poly = arith::AddFOp::create(
          b, l, x,
          arith::MulFOp::create(b, l, x3, cst(b, l, e.elem, 0.044715)));
      inner = math::TanhOp::create(
          b, l,
          arith::MulFOp::create(b, l, poly,
                                cst(b, l, e.elem, 0.7978845608028654)));
    } else {
      inner = math::ErfOp::create(
          b, l,
          arith::MulFOp::create(b, l, x,
                                cst(b, l, e.elem, 0.7071067811865476)));
    }
    Value r = arith::MulFOp::create(b, l, half,
                                    arith::AddFOp::create(b, l, one, inner));
    return arith::MulFOp::create(b, l, x, r);
  });
}

} // namespace hidet::onnx_import
