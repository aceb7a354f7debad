//===- GraphAttention.cpp - Attentions in a random graph ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The attention a Graph draws, in the form the ONNX importer writes a
// transformer's: a projection split into heads, Q K^T scaled and masked in
// one elementwise op, a softmax in the graph's dtype, P V, and the heads
// merged back. The masks are those models build: padded keys (a length per
// sequence), causal, both, at -inf or at the dtype's lowest value; every
// row keeps at least its first key, so that no row is masked whole (which
// the lit test Integration/GPU/attention-padded-rows.mlir covers).
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace hidet::randomgraph;

/// The text of the most negative mask value of `elt`: -inf, or the lowest
/// finite value.
static std::string maskValue(const std::string &elt, bool infinite) {
  if (elt == "f16")
    return infinite ? "0xFC00" : "0xFBFF";
  if (elt == "bf16")
    return infinite ? "0xFF80" : "0xFF7F";
  return infinite ? "0xFF800000" : "-3.40282347e+38";
}

Value Graph::reshapeText(const Value &x, const std::string &groups,
                         const std::vector<int64_t> &out, bool expand) {
  std::string r = fresh();
  if (expand) {
    std::string shape;
    for (auto [i, e] : llvm::enumerate(out))
      shape += (i ? ", " : "") + std::to_string(e);
    body += "  " + r + " = tensor.expand_shape " + x.name + " [" + groups +
            "] output_shape [" + shape + "] : " + type(x.shape) + " into " +
            type(out) + "\n";
  } else {
    body += "  " + r + " = tensor.collapse_shape " + x.name + " [" + groups +
            "] : " + type(x.shape) + " into " + type(out) + "\n";
  }
  return {r, out};
}

Value Graph::transposeText(const Value &x, const std::vector<unsigned> &perm) {
  std::vector<int64_t> out;
  std::string permText;
  for (auto [i, p] : llvm::enumerate(perm)) {
    out.push_back(x.shape[p]);
    permText += (i ? ", " : "") + std::to_string(p);
  }
  std::string e = empty(out), r = fresh();
  body += "  " + r + " = linalg.transpose ins(" + x.name + " : " +
          type(x.shape) + ") outs(" + e + " : " + type(out) +
          ") permutation = [" + permText + "]\n";
  return {r, out};
}

Value Graph::batchMatmulText(const Value &a, const Value &b) {
  std::vector<int64_t> out = {a.shape[0], a.shape[1], b.shape[2]};
  std::string init = filled(out), r = fresh();
  body += "  " + r + " = linalg.batch_matmul ins(" + a.name + ", " + b.name +
          " : " + type(a.shape) + ", " + type(b.shape) + ") outs(" + init +
          " : " + type(out) + ") -> " + type(out) + "\n";
  return {r, out};
}

/// A bounded copy of `x` (tanh of x * s), counted as `kind`: the
/// attention's Q and K, whose scores then stay small enough that rounding
/// them to a 16-bit dtype, as the CPU reference does and the fused kernel
/// does not, moves the softmax by less than the comparison's bound whatever
/// the inputs' distribution; a softmax's input (GraphOps.cpp).
Value Graph::bounded(const Value &x, double s, const std::string &kind) {
  unsigned rank = x.shape.size();
  Value r = generic({{x, idMap(rank)}}, x.shape,
                    "    %c = arith.constant " +
                        llvm::formatv("{0:e}", s).str() + " : " + elt +
                        "\n    %s = arith.mulf %i0, %c : " + elt +
                        "\n    %r = math.tanh %s : " + elt + "\n",
                    kind);
  // Not a value later ops take: the attention's result is.
  live.pop_back();
  return r;
}

void Graph::attention(Value x) {
  Value x2 = x.shape.size() == 2 ? x : collapseTo2D(x);
  int64_t rows = x2.shape[0], c = x2.shape[1];
  if (tooLongToSum(c))
    return reduce(x);
  static const int64_t sizes[] = {16, 32, 64, 128};
  int64_t d = sizes[pick(0, 3)];
  int64_t dv = coin() ? d : sizes[pick(0, 3)];
  int64_t heads = pick(1, 4);
  // Sequences: a divisor of the rows.
  int64_t batch = 1;
  for (int64_t cand : {4, 3, 2})
    if (rows % cand == 0 && coin()) {
      batch = cand;
      break;
    }
  int64_t m = rows / batch, n = extent(256), g = batch * heads;
  if (rows * heads * std::max(c + n, d + dv) * std::max(d, dv) > kMaxMacs)
    return matmul(x);

  // Q: a projection of x, bounded, split into heads.
  Value w = input({c, heads * d});
  std::vector<int64_t> qShape = {rows, heads * d};
  std::string qInit = filled(qShape), q = fresh();
  body += "  " + q + " = linalg.matmul ins(" + x2.name + ", " + w.name +
          " : " + type(x2.shape) + ", " + type(w.shape) + ") outs(" + qInit +
          " : " + type(qShape) + ") -> " + type(qShape) + "\n";
  Value qb = bounded({q, qShape}, 1.0 / std::sqrt(static_cast<double>(c)));
  Value q4 = reshapeText(qb, "[0, 1], [2, 3]", {batch, m, heads, d}, true);
  Value q3 = reshapeText(transposeText(q4, {0, 2, 1, 3}), "[0, 1], [2], [3]",
                         {g, m, d}, false);

  // K: given as [g, n, d] and transposed, or given transposed.
  bool kGivenTransposed = pick(0, 3) == 0;
  Value kt;
  if (kGivenTransposed) {
    kt = bounded(input({g, d, n}), 1.0);
  } else {
    kt = transposeText(bounded(input({g, n, d}), 1.0), {0, 2, 1});
  }
  Value v = input({g, n, dv});

  Value s = batchMatmulText(q3, kt);
  Value s4 = reshapeText(s, "[0, 1], [2], [3]", {batch, heads, m, n}, true);

  // The mask: 0 none, 1 padded keys, 2 causal, 3 both.
  unsigned maskKind = pick(0, 3);
  bool padded = maskKind & 1, causal = maskKind & 2;
  std::string neg = maskValue(elt, coin());
  std::string maskName;
  if (padded) {
    // Sequence i keeps its first n - (i * step + first) mod n keys.
    int64_t step = pick(1, std::max<int64_t>(1, n - 1)),
            first = pick(0, static_cast<unsigned>(n - 1));
    std::vector<int64_t> mShape = {batch, n};
    std::string e = empty(mShape);
    maskName = fresh();
    body += formatv("  {0} = linalg.generic {{indexing_maps = [affine_map<(d0, "
                    "d1) -> (d0, d1)>], iterator_types = [\"parallel\", "
                    "\"parallel\"]} outs({1} : {2}) {{\n  ^bb0(%o: {3}):\n"
                    "    %b = linalg.index 0 : index\n"
                    "    %j = linalg.index 1 : index\n"
                    "    %step = arith.constant {4} : index\n"
                    "    %first = arith.constant {5} : index\n"
                    "    %n = arith.constant {6} : index\n"
                    "    %t = arith.muli %b, %step : index\n"
                    "    %u = arith.addi %t, %first : index\n"
                    "    %p = arith.remui %u, %n : index\n"
                    "    %len = arith.subi %n, %p : index\n"
                    "    %keep = arith.cmpi ult, %j, %len : index\n"
                    "    %zero = arith.constant 0.0 : {3}\n"
                    "    %neg = arith.constant {7} : {3}\n"
                    "    %r = arith.select %keep, %zero, %neg : {3}\n"
                    "    linalg.yield %r : {3}\n  } -> {2}\n",
                    maskName, e, type(mShape), elt, step, first, n, neg)
                .str();
    ++counts["mask_padded"];
  }
  // Scaled and masked in one op, as the importer fuses them.
  std::string scale =
      formatv("{0:e}", 1.0 / std::sqrt(static_cast<double>(d))).str();
  std::string payload = "    %c = arith.constant " + scale + " : " + elt +
                        "\n    %y = arith.mulf %i0, %c : " + elt + "\n";
  std::string last = "%y";
  if (padded) {
    payload += "    %w = arith.addf %y, %i1 : " + elt + "\n";
    last = "%w";
  }
  if (causal) {
    // Query i sees keys up to i + n - m (the last query sees every key).
    payload += formatv("    %i = linalg.index 2 : index\n"
                       "    %j = linalg.index 3 : index\n"
                       "    %off = arith.constant {0} : index\n"
                       "    %lim = arith.addi %i, %off : index\n"
                       "    %keepc = arith.cmpi ule, %j, %lim : index\n"
                       "    %negc = arith.constant {1} : {2}\n"
                       "    %q = arith.select %keepc, {3}, %negc : {2}\n",
                       std::max<int64_t>(0, n - m), neg, elt, last)
                   .str();
    last = "%q";
    ++counts["mask_causal"];
  }
  // The last value is the result, %r (no later op reads it).
  payload.replace(payload.find(last + " = "), last.size(), "%r");
  std::vector<std::pair<Value, std::string>> ins = {{s4, idMap(4)}};
  if (padded)
    ins.push_back({{maskName, {batch, n}},
                   "affine_map<(d0, d1, d2, d3) -> (d0, d3)>"});
  Value masked = generic(ins, s4.shape, payload, "attention_scores");
  live.pop_back();
  Value x3 = reshapeText(masked, "[0, 1], [2], [3]", {g, m, n}, false);
  std::string e = empty(x3.shape), p = fresh();
  body += "  " + p + " = linalg.softmax dimension(2) ins(" + x3.name + " : " +
          type(x3.shape) + ") outs(" + e + " : " + type(x3.shape) + ") -> " +
          type(x3.shape) + "\n";
  Value o = batchMatmulText({p, x3.shape}, v);
  Value o4 = reshapeText(o, "[0, 1], [2], [3]", {batch, heads, m, dv}, true);
  Value merged = reshapeText(transposeText(o4, {0, 2, 1, 3}), "[0, 1], [2, 3]",
                             {rows, heads * dv}, false);
  add(merged, "attention");
  averaged.insert(merged.name);
  ++counts[std::string("attention_") + (kGivenTransposed ? "kt" : "k")];
}
