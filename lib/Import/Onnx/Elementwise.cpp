//===- Elementwise.cpp - Elementwise ONNX ops -----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Unary, binary and variadic elementwise ops with NumPy broadcasting, Where,
// Clip and Cast. Each op is one scalar body (for the linalg.generic) and,
// where shape subgraphs can meet it, one host function (for folding).
// Splat constant operands are inlined into the body as scalars.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;

namespace hidet::onnx_import {
namespace {

/// Evaluates an elementwise op on known inputs.
HostTensor foldElementwise(NodeContext &ctx, const ElementwiseSpec &spec,
                           ArrayRef<const HostTensor *> inputs,
                           ArrayRef<int64_t> outShape, DType outType) {
  HostTensor out = HostTensor::zeros(outType, outShape);
  int64_t rank = outShape.size();
  SmallVector<int64_t> outStrides = rowMajorStrides(outShape);
  SmallVector<SmallVector<int64_t>> inStrides;
  for (const HostTensor *t : inputs) {
    // Strides over the output's index space, 0 where broadcast.
    SmallVector<int64_t> s(rank, 0);
    SmallVector<int64_t> own = rowMajorStrides(t->getShape());
    int64_t offset = rank - t->getShape().size();
    for (size_t j = 0; j < t->getShape().size(); ++j)
      s[offset + j] = t->getShape()[j] == 1 ? 0 : own[j];
    inStrides.push_back(s);
  }
  SmallVector<double> args(inputs.size());
  for (int64_t i = 0, n = out.getNumElements(); i < n; ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      int64_t linear = 0, rest = i;
      for (int64_t d = 0; d < rank; ++d) {
        linear += (rest / outStrides[d]) * inStrides[k][d];
        rest %= outStrides[d];
      }
      args[k] = inputs[k]->getDouble(linear);
    }
    out.setDouble(i, spec.host(args, ctx));
  }
  return out;
}

LogicalResult convertElementwise(NodeContext &ctx,
                                 const ElementwiseSpec &spec) {
  SmallVector<unsigned> present;
  for (unsigned i = 0; i < ctx.numInputs(); ++i)
    if (ctx.hasInput(i))
      present.push_back(i);
  if (present.size() < spec.minInputs || present.size() > spec.maxInputs)
    return ctx.emitError() << ctx.opType() << " takes " << spec.minInputs
                           << (spec.maxInputs == spec.minInputs ? ""
                                                                : " or more")
                           << " inputs, got " << present.size();
  SmallVector<SmallVector<int64_t>> shapes;
  for (unsigned i : present)
    shapes.push_back(ctx.input(i).shape);
  // Before opset 7, PRelu's 1-D slope runs along the channels (dim 1), not
  // along the last dimension.
  bool channelSlope = ctx.opType() == "PRelu" && ctx.opset() < 7 &&
                      shapes[1].size() == 1 && shapes[0].size() > 2 &&
                      shapes[1][0] == shapes[0][1] && shapes[1][0] != 1;
  if (channelSlope)
    shapes[1].append(shapes[0].size() - 2, 1);
  std::optional<SmallVector<int64_t>> outShape = broadcastShapes(shapes);
  if (!outShape)
    return ctx.emitError() << ctx.opType()
                           << ": the input shapes do not broadcast";
  // Where's first input is the condition; the others set the type.
  unsigned typed = ctx.opType() == "Where" ? present[1] : present[0];
  DType inType = ctx.input(typed).dtype;
  if (spec.floatOnly && !isFloat(inType))
    return ctx.unsupported(Twine("on ") + dtypeName(inType));
  DType outType = spec.result == ResultKind::Bool ? DType::Bool : inType;

  if (spec.host && ctx.allInputsKnown() && ctx.canFold(*outShape)) {
    SmallVector<const HostTensor *> inputs;
    for (unsigned i : present)
      inputs.push_back(ctx.constant(i));
    ctx.setOutput(0, foldElementwise(ctx, spec, inputs, *outShape, outType));
    return success();
  }

  OpBuilder &b = ctx.builder();
  Importer &imp = ctx.getImporter();
  SmallVector<Operand> operands;
  for (unsigned i : present) {
    const HostTensor *c = ctx.constant(i);
    if (c && c->isSplat())
      operands.push_back({{},
                          cst(b, ctx.getLoc(), imp.elementType(c->getDType()),
                              c->getDouble(0))});
    else if (channelSlope && i == 1)
      operands.push_back(
          {reshape(b, ctx.getLoc(), ctx.value(i), shapes[1]), {}});
    else
      operands.push_back({ctx.value(i), {}});
  }
  ElemInfo info{imp.elementType(inType), isUnsigned(inType), &ctx};
  Value result = buildElementwise(
      b, ctx.getLoc(), operands, *outShape, imp.elementType(outType),
      [&](OpBuilder &nb, Location loc, ValueRange args) {
        return spec.build(nb, loc, args, info);
      });
  ctx.setOutput(0, result, outType);
  return success();
}

//===----------------------------------------------------------------------===//
// The ops
//===----------------------------------------------------------------------===//

template <typename FOp> ElementwiseSpec floatUnary(double (*host)(double)) {
  ElementwiseSpec s;
  s.build = [](OpBuilder &b, Location loc, ValueRange a, const ElemInfo &) {
    return FOp::create(b, loc, a[0]).getResult();
  };
  if (host)
    s.host = [host](ArrayRef<double> a, const NodeContext &) {
      return host(a[0]);
    };
  s.floatOnly = true;
  return s;
}

template <typename FOp, typename IOp, typename UOp = IOp>
ElementwiseSpec arithBinary(double (*host)(double, double)) {
  ElementwiseSpec s;
  s.build = [](OpBuilder &b, Location loc, ValueRange a, const ElemInfo &e) {
    if (isF(e.elem))
      return FOp::create(b, loc, a[0], a[1]).getResult();
    if (e.isUnsigned)
      return UOp::create(b, loc, a[0], a[1]).getResult();
    return IOp::create(b, loc, a[0], a[1]).getResult();
  };
  s.host = [host](ArrayRef<double> a, const NodeContext &) {
    return host(a[0], a[1]);
  };
  s.minInputs = s.maxInputs = 2;
  return s;
}

ElementwiseSpec compare(arith::CmpFPredicate f, arith::CmpIPredicate si,
                        arith::CmpIPredicate ui,
                        double (*host)(double, double)) {
  ElementwiseSpec s;
  s.build = [=](OpBuilder &b, Location loc, ValueRange a,
                const ElemInfo &e) -> Value {
    if (isF(e.elem))
      return arith::CmpFOp::create(b, loc, f, a[0], a[1]);
    return arith::CmpIOp::create(b, loc, e.isUnsigned ? ui : si, a[0], a[1]);
  };
  s.host = [host](ArrayRef<double> a, const NodeContext &) {
    return host(a[0], a[1]);
  };
  s.result = ResultKind::Bool;
  s.minInputs = s.maxInputs = 2;
  return s;
}

/// Max, Min, Sum, Mean: any number of inputs, combined left to right.
ElementwiseSpec variadic(StringRef kind) {
  ElementwiseSpec s;
  std::string k = kind.str();
  s.build = [k](OpBuilder &b, Location loc, ValueRange a,
                const ElemInfo &e) -> Value {
    Value acc = a[0];
    for (Value v : a.drop_front()) {
      if (k == "Max")
        acc = maxValues(b, loc, acc, v, e.isUnsigned);
      else if (k == "Min")
        acc = minValues(b, loc, acc, v, e.isUnsigned);
      else
        acc = addValues(b, loc, acc, v);
    }
    if (k == "Mean")
      acc = arith::DivFOp::create(b, loc, acc, cst(b, loc, e.elem, a.size()));
    return acc;
  };
  s.host = [k](ArrayRef<double> a, const NodeContext &) {
    double acc = a[0];
    for (double v : a.drop_front())
      acc = k == "Max"   ? std::max(acc, v)
            : k == "Min" ? std::min(acc, v)
                         : acc + v;
    return k == "Mean" ? acc / a.size() : acc;
  };
  s.minInputs = 1;
  s.maxInputs = 1u << 16;
  s.floatOnly = k == "Mean";
  return s;
}

void registerOps(llvm::StringMap<ElementwiseSpec> &ops) {
  using B = OpBuilder;
  using L = Location;
  using V = ValueRange;
  using E = const ElemInfo &;
  using NC = const NodeContext &;
  ops["Exp"] = floatUnary<math::ExpOp>([](double x) { return std::exp(x); });
  ops["Log"] = floatUnary<math::LogOp>([](double x) { return std::log(x); });
  ops["Sqrt"] = floatUnary<math::SqrtOp>([](double x) { return std::sqrt(x); });
  ops["Tanh"] = floatUnary<math::TanhOp>([](double x) { return std::tanh(x); });
  ops["Erf"] = floatUnary<math::ErfOp>([](double x) { return std::erf(x); });
  ops["Floor"] =
      floatUnary<math::FloorOp>([](double x) { return std::floor(x); });
  ops["Ceil"] = floatUnary<math::CeilOp>([](double x) { return std::ceil(x); });
  ops["Round"] =
      floatUnary<math::RoundEvenOp>([](double x) { return std::nearbyint(x); });
  ops["Sin"] = floatUnary<math::SinOp>(nullptr);
  ops["Cos"] = floatUnary<math::CosOp>(nullptr);
  ops["Tan"] = floatUnary<math::TanOp>(nullptr);
  ops["Asin"] = floatUnary<math::AsinOp>(nullptr);
  ops["Acos"] = floatUnary<math::AcosOp>(nullptr);
  ops["Atan"] = floatUnary<math::AtanOp>(nullptr);
  ops["Sinh"] = floatUnary<math::SinhOp>(nullptr);
  ops["Cosh"] = floatUnary<math::CoshOp>(nullptr);
  ops["Asinh"] = floatUnary<math::AsinhOp>(nullptr);
  ops["Acosh"] = floatUnary<math::AcoshOp>(nullptr);
  ops["Atanh"] = floatUnary<math::AtanhOp>(nullptr);
  registerActivations(ops);
  ops["Neg"] = unary(
      [](B &b, L l, V a, E e) -> Value {
        if (isF(e.elem))
          return arith::NegFOp::create(b, l, a[0]);
        return arith::SubIOp::create(b, l, cst(b, l, e.elem, 0), a[0]);
      },
      [](ArrayRef<double> a, NC) { return -a[0]; }, /*floatOnly=*/false);
  ops["Abs"] = unary(
      [](B &b, L l, V a, E e) -> Value {
        if (isF(e.elem))
          return math::AbsFOp::create(b, l, a[0]);
        if (e.isUnsigned)
          return a[0];
        return math::AbsIOp::create(b, l, a[0]);
      },
      [](ArrayRef<double> a, NC) { return std::fabs(a[0]); },
      /*floatOnly=*/false);
  ops["Reciprocal"] = unary(
      [](B &b, L l, V a, E e) -> Value {
        return arith::DivFOp::create(b, l, cst(b, l, e.elem, 1), a[0]);
      },
      [](ArrayRef<double> a, NC) { return 1.0 / a[0]; });
  ops["Sign"] = unary(
      [](B &b, L l, V a, E e) -> Value {
        Value zero = cst(b, l, e.elem, 0);
        Value one = cst(b, l, e.elem, 1), minus = cst(b, l, e.elem, -1);
        Value pos, neg;
        if (isF(e.elem)) {
          pos = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OGT, a[0],
                                      zero);
          neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                      zero);
        } else {
          pos = arith::CmpIOp::create(b, l,
                                      e.isUnsigned ? arith::CmpIPredicate::ugt
                                                   : arith::CmpIPredicate::sgt,
                                      a[0], zero);
          neg = arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[0],
                                      zero);
          if (e.isUnsigned)
            neg = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
        }
        Value r = arith::SelectOp::create(b, l, neg, minus, zero);
        return arith::SelectOp::create(b, l, pos, one, r);
      },
      [](ArrayRef<double> a, NC) {
        return a[0] > 0 ? 1.0 : a[0] < 0 ? -1.0 : 0.0;
      },
      /*floatOnly=*/false);
  ops["Not"] = unary(
      [](B &b, L l, V a, E e) -> Value {
        return arith::XOrIOp::create(
            b, l, a[0], arith::ConstantOp::create(b, l, b.getBoolAttr(true)));
      },
      [](ArrayRef<double> a, NC) { return a[0] == 0 ? 1.0 : 0.0; },
      /*floatOnly=*/false);
  ops["IsNaN"] = unary([](B &b, L l, V a, E e) -> Value {
    return arith::CmpFOp::create(b, l, arith::CmpFPredicate::UNO, a[0], a[0]);
  });
  ops["IsNaN"].result = ResultKind::Bool;
  ops["IsInf"] = unary([](B &b, L l, V a, E e) -> Value {
    bool pos = e.ctx->attrInt("detect_positive", 1) != 0;
    bool neg = e.ctx->attrInt("detect_negative", 1) != 0;
    Value inf = cst(b, l, e.elem, INFINITY),
          ninf = cst(b, l, e.elem, -INFINITY);
    Value isPos =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0], inf);
    Value isNeg =
        arith::CmpFOp::create(b, l, arith::CmpFPredicate::OEQ, a[0], ninf);
    Value none = arith::ConstantOp::create(b, l, b.getBoolAttr(false));
    return arith::OrIOp::create(b, l, pos ? isPos : none, neg ? isNeg : none);
  });
  ops["IsInf"].result = ResultKind::Bool;

  ops["Add"] = arithBinary<arith::AddFOp, arith::AddIOp>(
      [](double x, double y) { return x + y; });
  ops["Sub"] = arithBinary<arith::SubFOp, arith::SubIOp>(
      [](double x, double y) { return x - y; });
  ops["Mul"] = arithBinary<arith::MulFOp, arith::MulIOp>(
      [](double x, double y) { return x * y; });
  ops["Div"] = arithBinary<arith::DivFOp, arith::DivSIOp, arith::DivUIOp>(
      [](double x, double y) { return x / y; });
  // Integer division truncates, as ONNX's reference does in C.
  ops["Div"].host = [](ArrayRef<double> a, NC ctx) {
    if (isFloat(ctx.input(0).dtype))
      return a[0] / a[1];
    return a[1] == 0 ? 0.0 : std::trunc(a[0] / a[1]);
  };
  ElementwiseSpec mod;
  mod.minInputs = mod.maxInputs = 2;
  mod.build = [](B &b, L l, V a, E e) -> Value {
    bool fmod = e.ctx->attrInt("fmod", 0) != 0;
    if (isF(e.elem)) // ONNX requires fmod=1 for floats.
      return arith::RemFOp::create(b, l, a[0], a[1]);
    if (e.isUnsigned)
      return arith::RemUIOp::create(b, l, a[0], a[1]);
    Value r = arith::RemSIOp::create(b, l, a[0], a[1]);
    if (fmod)
      return r;
    // The sign of the divisor (Python's %): r + y when r != 0 and the
    // signs of r and y differ.
    Value zero = cst(b, l, e.elem, 0);
    Value rNonZero =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, r, zero);
    Value rNeg =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, r, zero);
    Value yNeg =
        arith::CmpIOp::create(b, l, arith::CmpIPredicate::slt, a[1], zero);
    Value differ = arith::XOrIOp::create(b, l, rNeg, yNeg);
    Value fix = arith::AndIOp::create(b, l, rNonZero, differ);
    return arith::SelectOp::create(b, l, fix,
                                   arith::AddIOp::create(b, l, r, a[1]), r);
  };
  mod.host = [](ArrayRef<double> a, NC ctx) {
    double r = std::fmod(a[0], a[1]);
    if (ctx.attrInt("fmod", 0) == 0 && r != 0 && ((r < 0) != (a[1] < 0)))
      r += a[1];
    return r;
  };
  ops["Mod"] = mod;
  ElementwiseSpec pow;
  pow.minInputs = pow.maxInputs = 2;
  pow.build = [](B &b, L l, V a, E e) -> Value {
    Value y = convertScalar(b, l, a[1], e.elem, false, e.isUnsigned);
    if (isF(e.elem)) {
      // Common exponents of exported models, as multiplications.
      if (auto c = y.getDefiningOp<arith::ConstantOp>()) {
        double v = cast<FloatAttr>(c.getValue()).getValueAsDouble();
        if (v == 2.0)
          return arith::MulFOp::create(b, l, a[0], a[0]);
        if (v == 3.0)
          return arith::MulFOp::create(b, l, a[0],
                                       arith::MulFOp::create(b, l, a[0], a[0]));
        if (v == 0.5)
          return math::SqrtOp::create(b, l, a[0]);
        if (v == 1.0)
          return a[0];
      }
      return math::PowFOp::create(b, l, a[0], y);
    }
    // Integer powers through f64, exact for the values they can hold
    // without overflow (the pipelines have no lowering of math.ipowi).
    Type f64 = b.getF64Type();
    Value p = math::PowFOp::create(
        b, l, convertScalar(b, l, a[0], f64, e.isUnsigned, false),
        convertScalar(b, l, y, f64, e.isUnsigned, false));
    return convertScalar(b, l, p, e.elem, false, e.isUnsigned);
  };
  pow.host = [](ArrayRef<double> a, NC) { return std::pow(a[0], a[1]); };
  ops["Pow"] = pow;
  ElementwiseSpec prelu;
  prelu.minInputs = prelu.maxInputs = 2;
  prelu.floatOnly = true;
  prelu.build = [](B &b, L l, V a, E e) -> Value {
    Value neg = arith::CmpFOp::create(b, l, arith::CmpFPredicate::OLT, a[0],
                                      cst(b, l, e.elem, 0));
    return arith::SelectOp::create(
        b, l, neg, arith::MulFOp::create(b, l, a[0], a[1]), a[0]);
  };
  ops["PRelu"] = prelu;

  using FP = arith::CmpFPredicate;
  using IP = arith::CmpIPredicate;
  ops["Equal"] = compare(FP::OEQ, IP::eq, IP::eq,
                         [](double x, double y) { return double(x == y); });
  ops["Less"] = compare(FP::OLT, IP::slt, IP::ult,
                        [](double x, double y) { return double(x < y); });
  ops["LessOrEqual"] =
      compare(FP::OLE, IP::sle, IP::ule,
              [](double x, double y) { return double(x <= y); });
  ops["Greater"] = compare(FP::OGT, IP::sgt, IP::ugt,
                           [](double x, double y) { return double(x > y); });
  ops["GreaterOrEqual"] =
      compare(FP::OGE, IP::sge, IP::uge,
              [](double x, double y) { return double(x >= y); });
  ops["And"] = arithBinary<arith::AndIOp, arith::AndIOp>(
      [](double x, double y) { return double(x != 0 && y != 0); });
  ops["Or"] = arithBinary<arith::OrIOp, arith::OrIOp>(
      [](double x, double y) { return double(x != 0 || y != 0); });
  ops["Xor"] = arithBinary<arith::XOrIOp, arith::XOrIOp>(
      [](double x, double y) { return double((x != 0) != (y != 0)); });
  for (StringRef k : {"Max", "Min", "Sum", "Mean"})
    ops[k] = variadic(k);

  ElementwiseSpec where;
  where.minInputs = where.maxInputs = 3;
  where.build = [](B &b, L l, V a, E) -> Value {
    return arith::SelectOp::create(b, l, a[0], a[1], a[2]);
  };
  where.host = [](ArrayRef<double> a, NC) { return a[0] != 0 ? a[1] : a[2]; };
  ops["Where"] = where;

  ElementwiseSpec clip;
  clip.minInputs = 1;
  clip.maxInputs = 3;
  clip.build = [](B &b, L l, V a, E e) -> Value {
    // Inputs are (x, min, max) with optional ones absent from `a`; the
    // attribute form (opset < 11) has only x.
    Value x = a[0];
    NodeContext &ctx = *e.ctx;
    Value lo, hi;
    unsigned next = 1;
    if (ctx.opset() < 11) {
      if (ctx.hasAttr("min"))
        lo = cst(b, l, e.elem, ctx.attrFloat("min", 0));
      if (ctx.hasAttr("max"))
        hi = cst(b, l, e.elem, ctx.attrFloat("max", 0));
    } else {
      if (ctx.hasInput(1))
        lo = a[next++];
      if (ctx.hasInput(2))
        hi = a[next++];
    }
    if (lo)
      x = maxValues(b, l, x, lo, e.isUnsigned);
    if (hi)
      x = minValues(b, l, x, hi, e.isUnsigned);
    return x;
  };
  ops["Clip"] = clip;
}

const llvm::StringMap<ElementwiseSpec> &elementwiseOps() {
  static const llvm::StringMap<ElementwiseSpec> ops = [] {
    llvm::StringMap<ElementwiseSpec> o;
    registerOps(o);
    return o;
  }();
  return ops;
}

/// Cast and CastLike.
LogicalResult convertCast(NodeContext &ctx) {
  DType to;
  if (ctx.opType() == "CastLike")
    to = ctx.input(1).dtype;
  else
    to = static_cast<DType>(ctx.attrInt("to", 0));
  Importer &imp = ctx.getImporter();
  to = imp.computeType(to);
  if (!imp.elementType(to))
    return ctx.unsupported(Twine("to ") + dtypeName(to));
  const TensorValue &in = ctx.input(0);
  if (const HostTensor *c = ctx.constant(0)) {
    ctx.setOutput(0, c->cast(to));
    return success();
  }
  Value result = buildElementwise(
      ctx.builder(), ctx.getLoc(), Operand{ctx.value(0), {}}, in.shape,
      imp.elementType(to), [&](OpBuilder &b, Location l, ValueRange a) {
        return convertScalar(b, l, a[0], imp.elementType(to),
                             isUnsigned(in.dtype), isUnsigned(to));
      });
  ctx.setOutput(0, result, to);
  return success();
}

} // namespace

void registerElementwiseConverters(ConverterTable &table) {
  for (const auto &entry : elementwiseOps()) {
    const ElementwiseSpec *spec = &entry.getValue();
    table[entry.getKey()] = [spec](NodeContext &ctx) {
      return convertElementwise(ctx, *spec);
    };
  }
  table["Cast"] = convertCast;
  table["CastLike"] = convertCast;
}

} // namespace hidet::onnx_import
