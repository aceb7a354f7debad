//===- GraphOps.cpp - The ops of a random graph ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The ops a Graph draws: matmuls and batch matmuls, convolutions,
// reductions, softmax and layer norms (through f32 for 16-bit types),
// transposes and reshapes.
//
//===----------------------------------------------------------------------===//

#include "Graph.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <cmath>

using namespace llvm;
using namespace hidet::randomgraph;

/// Runs `compute` on `x` converted to f32, with f32 as the element type
/// of what it builds, and converts its last value back: the values in
/// between are not offered to later ops.
template <typename F> void Graph::throughF32(const Value &x, F compute) {
  size_t mark = live.size();
  std::string saved = elt;
  Value x32 = convert(x, elt, "f32");
  elt = "f32";
  inF32 = true;
  compute(x32);
  Value r32 = live.back();
  inF32 = false;
  elt = saved;
  live.resize(mark);
  live.push_back(convert(r32, "f32", elt));
}

/// x [..., K] times a new weight [K, N] (2-D x), or a batch matmul with a
/// new [B, K, N] (3-D x); other ranks are flattened to 2-D first. The
/// product is scaled by 1/sqrt(K) into a new value.
void Graph::matmul(Value x) {
  if (x.shape.size() != 2 && x.shape.size() != 3) {
    x = collapseTo2D(x);
  }
  bool batched = x.shape.size() == 3;
  int64_t k = x.shape.back(), n = extent(200);
  // Many rows: sometimes as many columns, for grids of several waves; a
  // long K: sometimes few columns, for few output tiles (split-K); or as
  // many columns as K, with a residual add of x (a transformer's).
  if (elt != "f32" && !batched && x.shape[0] >= 1024 &&
      (x.shape[0] >= 4096 || coin()))
    n = 256 * pick(4, 8);
  else if (elt != "f32" && k >= 1024 && coin())
    n = 64 * pick(1, 4);
  else if (elt != "f32" && batched && x.shape[1] >= 128 && coin())
    n = 64 * pick(1, 4);
  else if (pick(0, 4) == 0)
    n = k;
  int64_t rows = 1;
  for (size_t i = 0; i + 1 < x.shape.size(); ++i)
    rows *= x.shape[i];
  if (rows * n < kMinSumOutputs)
    n = (kMinSumOutputs + rows - 1) / rows;
  if (rows * k * n > kMaxMacs)
    n = std::max<int64_t>(8, kMaxMacs / (rows * k) / 8 * 8);
  if (tooLongToSum(k))
    return reduce(x);
  std::vector<int64_t> wShape = batched ? std::vector<int64_t>{x.shape[0], k, n}
                                        : std::vector<int64_t>{k, n};
  Value w = input(wShape);
  std::vector<int64_t> cShape = x.shape;
  cShape.back() = n;
  std::string init = filled(cShape), r = fresh();
  body += "  " + r + " = " +
          (batched ? "linalg.batch_matmul" : "linalg.matmul") + " ins(" +
          x.name + ", " + w.name + " : " + type(x.shape) + ", " +
          type(w.shape) + ") outs(" + init + " : " + type(cShape) + ") -> " +
          type(cShape) + "\n";
  ++counts[batched ? "batch_matmul" : "matmul"];
  Value c{r, cShape};
  scaled(c, 1.0 / std::sqrt(static_cast<double>(k)));
  if (cShape == x.shape && coin()) {
    ++used[x.name];
    Value y = live.back();
    generic({{y, idMap(cShape.size())}, {x, idMap(cShape.size())}}, cShape,
            "    %r = arith.addf %i0, %i1 : " + elt + "\n", "residual");
  }
}

void Graph::scaled(const Value &c, double s) {
  generic({{c, idMap(c.shape.size())}}, c.shape,
          "    %c = arith.constant " + llvm::formatv("{0:e}", s).str() + " : " +
              elt + "\n    %r = arith.mulf %i0, %c : " + elt + "\n",
          "scale");
}

/// An NHWC convolution with a new HWCF filter, random strides and
/// dilations, maybe after a zero padding of H and W.
void Graph::conv(Value x) {
  int64_t kh = pick(1, 3), kw = pick(1, 3), sh = pick(1, 2), sw = pick(1, 2);
  int64_t dh = pick(1, 2), dw = pick(1, 2);
  // Many channels: nearly always a ResNet's 3x3 layer (the Hopper template's
  // 64-row tiles).
  bool wide = x.shape[3] >= 64 && pick(0, 7) != 0;
  if (wide) {
    kh = kw = 3;
    sh = sw = dh = dw = 1;
  }
  if (wide || coin()) {
    int64_t p = wide ? 1 : pick(1, 2);
    std::vector<int64_t> padded = x.shape;
    padded[1] += 2 * p;
    padded[2] += 2 * p;
    std::string z = zero(), r = fresh();
    body += llvm::formatv("  {0} = tensor.pad {1} low[0, {2}, {2}, 0] "
                          "high[0, {2}, {2}, 0] {{\n  ^bb0(%p0: index, %p1: "
                          "index, %p2: index, %p3: index):\n    "
                          "tensor.yield {3} : {4}\n  } : {5} to {6}\n",
                          r, x.name, p, z, elt, type(x.shape), type(padded))
                .str();
    x = {r, padded};
    ++counts["pad"];
  }
  // The input must hold one dilated window.
  int64_t spanH = x.shape[1] - (kh - 1) * dh - 1;
  int64_t spanW = x.shape[2] - (kw - 1) * dw - 1;
  if (spanH < 0 || spanW < 0)
    return matmul(x);
  int64_t oh = spanH / sh + 1, ow = spanW / sw + 1;
  int64_t c = x.shape[3], f = wide ? 64 * pick(1, 2) : extent(96);
  int64_t pixels = x.shape[0] * oh * ow;
  if (pixels * f < kMinSumOutputs)
    f = (kMinSumOutputs + pixels - 1) / pixels;
  if (tooLongToSum(kh * kw * c))
    return reduce(x);
  Value w = input({kh, kw, c, f});
  std::vector<int64_t> out = {x.shape[0], oh, ow, f};
  std::string init = filled(out), r = fresh();
  body += llvm::formatv("  {0} = linalg.conv_2d_nhwc_hwcf {{dilations = "
                        "dense<[{1}, {2}]> : tensor<2xi64>, strides = "
                        "dense<[{3}, {4}]> : tensor<2xi64>} ins({5}, {6} : "
                        "{7}, {8}) outs({9} : {10}) -> {10}\n",
                        r, dh, dw, sh, sw, x.name, w.name, type(x.shape),
                        type(w.shape), init, type(out))
              .str();
  ++counts["conv"];
  scaled({r, out}, 1.0 / std::sqrt(static_cast<double>(kh * kw * c)));
}

/// The shape of `x` without dimension `d`, and the indexing map that
/// drops loop `d` (a reduction's output).
std::pair<std::vector<int64_t>, std::string> Graph::without(const Value &x,
                                                            unsigned d) const {
  unsigned rank = x.shape.size();
  std::vector<int64_t> out;
  std::string outDims;
  for (unsigned i = 0; i < rank; ++i)
    if (i != d) {
      out.push_back(x.shape[i]);
      outDims += (outDims.empty() ? "d" : ", d") + std::to_string(i);
    }
  return {out, "affine_map<(" + dims(rank) + ") -> (" + outDims + ")>"};
}

/// A mean (in f32 for 16-bit types) or a max over one dimension.
void Graph::reduce(Value x) {
  unsigned rank = x.shape.size();
  if (rank < 2)
    return transpose(x);
  unsigned d = coin() ? rank - 1 : pick(0, rank - 1);
  // A mean of mixed signs can nearly cancel, and the relative error of an
  // output of a few such values then measures rounding noise, not the
  // compiler (difftest seed 4456: one mean of 200 products, 5e-4 against
  // terms of 0.1). Few outputs take the max, which is exact in any order.
  int64_t outputs = 1;
  for (unsigned i = 0; i < rank; ++i)
    if (i != d)
      outputs *= x.shape[i];
  bool isMax = outputs < kMinSumOutputs || tooLongToSum(x.shape[d]) ||
               averaged.count(x.name) || coin();
  if (!isMax) {
    // 16-bit sums accumulate in f32, as the ONNX importer writes them
    // (a long f16 sum is too coarse to compare two summation orders).
    if (elt != "f32" && !inF32)
      return throughF32(x, [&](const Value &x32) { reduceSum(x32, d); });
    return reduceSum(x, d);
  }
  auto [out, outMap] = without(x, d);
  std::string lo = fresh(), e = empty(out), init = fresh();
  body += "  " + lo + " = arith.constant -1.0e+04 : " + elt + "\n";
  body += "  " + init + " = linalg.fill ins(" + lo + " : " + elt + ") outs(" +
          e + " : " + type(out) + ") -> " + type(out) + "\n";
  Value r = generic({{x, idMap(rank)}}, out,
                    "    %r = arith.maximumf %i0, %o : " + elt + "\n",
                    "reduce_max", init, static_cast<int>(d), outMap);
  // A vector of maxes is sometimes a classifier's logits: their softmax
  // (one long row, which warps reduce).
  if (r.shape.size() == 1 && pick(0, 2) == 0)
    softmaxOrNorm(r);
}

/// The mean over dimension `d`: a sum scaled by 1/extent.
void Graph::reduceSum(const Value &x, unsigned d) {
  auto [out, outMap] = without(x, d);
  Value r = generic({{x, idMap(x.shape.size())}}, out,
                    "    %r = arith.addf %i0, %o : " + elt + "\n", "reduce_sum",
                    filled(out), static_cast<int>(d), outMap);
  scaled(r, 1.0 / static_cast<double>(x.shape[d]));
}

/// `x` converted from `from` to `to` by one generic; not a live value.
Value Graph::convert(const Value &x, const std::string &from,
                     const std::string &to) {
  unsigned rank = x.shape.size();
  std::string e = fresh(), r = fresh();
  std::string op = to == "f32" ? "arith.extf" : "arith.truncf";
  body += "  " + e + " = tensor.empty() : " + type(x.shape, to) + "\n";
  body += "  " + r + " = linalg.generic {indexing_maps = [" + idMap(rank) +
          ", " + idMap(rank) + "], iterator_types = [" + iterators(rank) +
          "]} ins(" + x.name + " : " + type(x.shape, from) + ") outs(" + e +
          " : " + type(x.shape, to) + ") {\n  ^bb0(%i0: " + from +
          ", %o: " + to + "):\n    %r = " + op + " %i0 : " + from + " to " +
          to + "\n    linalg.yield %r : " + to + "\n  } -> " +
          type(x.shape, to) + "\n";
  ++counts["convert"];
  return {r, x.shape};
}

/// A softmax over the last dimension, or a layer norm's normalization
/// (x - mean) / sqrt(var + eps) written as reductions and generics.
void Graph::softmaxOrNorm(Value x) {
  // 16-bit softmaxes and norms compute in f32, as the ONNX importer
  // writes them.
  if (elt != "f32" && !inF32)
    return throughF32(x, [&](const Value &x32) { softmaxOrNorm(x32); });
  if (tooLongToSum(x.shape.back()))
    return reduce(x);
  unsigned rank = x.shape.size();
  // A norm's statistics have one dimension less: none for a vector. The
  // rows of an averaged value are nearly equal, and a norm over their
  // columns cancels their common part (see `averaged`): those take the
  // softmax.
  if (rank < 2 || averaged.count(x.name) || coin()) {
    // The softmax reads tanh(x): an input that differs by an ulp of |x|
    // (two summation orders of the GEMM before it) moves each probability
    // by about that much relatively, beyond the comparison's per-element
    // bound once |x| is a few units (f32 graphs of normal inputs: the CPU
    // reference itself is that far from an f64 computation of the same
    // graph); bounded, it moves them by less than an ulp of 1.
    x = bounded(x, 1.0, "softmax_bound");
    std::string e = empty(x.shape), r = fresh();
    body += "  " + r + " = linalg.softmax dimension(" +
            std::to_string(rank - 1) + ") ins(" + x.name + " : " +
            type(x.shape) + ") outs(" + e + " : " + type(x.shape) + ") -> " +
            type(x.shape) + "\n";
    add({r, x.shape}, "softmax");
    return;
  }
  std::vector<int64_t> rows(x.shape.begin(), x.shape.end() - 1);
  std::string rowMap =
      "affine_map<(" + dims(rank) + ") -> (" + dims(rank - 1) + ")>";
  double inv = 1.0 / static_cast<double>(x.shape.back());
  std::string invText = llvm::formatv("{0:e}", inv).str();
  Value mean = generic({{x, idMap(rank)}}, rows,
                       "    %c = arith.constant " + invText + " : " + elt +
                           "\n    %m = arith.mulf %i0, %c : " + elt +
                           "\n    %r = arith.addf %m, %o : " + elt + "\n",
                       "norm", filled(rows), rank - 1, rowMap);
  Value centered =
      generic({{x, idMap(rank)}, {mean, rowMap}}, x.shape,
              "    %r = arith.subf %i0, %i1 : " + elt + "\n", "norm");
  Value var = generic({{centered, idMap(rank)}}, rows,
                      "    %c = arith.constant " + invText + " : " + elt +
                          "\n    %s = arith.mulf %i0, %i0 : " + elt +
                          "\n    %m = arith.mulf %s, %c : " + elt +
                          "\n    %r = arith.addf %m, %o : " + elt + "\n",
                      "norm", filled(rows), rank - 1, rowMap);
  // Scaled and shifted by new inputs, as a LayerNormalization is: a
  // later sum of a normalized row is not a cancellation to about 0.
  std::string lastMap =
      "affine_map<(" + dims(rank) + ") -> (d" + std::to_string(rank - 1) + ")>";
  Value gamma = input({x.shape.back()}), beta = input({x.shape.back()});
  generic({{centered, idMap(rank)},
           {var, rowMap},
           {gamma, lastMap},
           {beta, lastMap}},
          x.shape,
          "    %eps = arith.constant 1.0e-02 : " + elt +
              "\n    %v = arith.addf %i1, %eps : " + elt +
              "\n    %s = math.sqrt %v : " + elt +
              "\n    %n = arith.divf %i0, %s : " + elt +
              "\n    %g = arith.mulf %n, %i2 : " + elt +
              "\n    %r = arith.addf %g, %i3 : " + elt + "\n",
          "layer_norm");
  // The centered rows sum to 0: a later sum of them would be rounding
  // noise, which no two summation orders agree on (difftest seed 3802).
  // The means stay live only where there are enough of them for an
  // output's relative error not to hang on one that nearly cancels (as
  // reduce() decides).
  int64_t means = 1;
  for (int64_t e : rows)
    means *= e;
  llvm::erase_if(live, [&](const Value &v) {
    return v.name == centered.name ||
           (v.name == mean.name && means < kMinSumOutputs);
  });
}

void Graph::transpose(Value x) {
  unsigned rank = x.shape.size();
  if (rank < 2)
    return;
  std::vector<unsigned> perm(rank);
  for (unsigned i = 0; i < rank; ++i)
    perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<int64_t> out;
  for (unsigned p : perm)
    out.push_back(x.shape[p]);
  std::string e = empty(out), r = fresh();
  body +=
      "  " + r + " = linalg.transpose ins(" + x.name + " : " + type(x.shape) +
      ") outs(" + e + " : " + type(out) + ") permutation = [" +
      llvm::join(
          llvm::map_range(perm, [](unsigned p) { return std::to_string(p); }),
          ", ") +
      "]\n";
  add({r, out}, "transpose");
}

Value Graph::collapseTo2D(const Value &x) {
  unsigned rank = x.shape.size();
  int64_t rows = 1;
  for (unsigned i = 0; i + 1 < rank; ++i)
    rows *= x.shape[i];
  std::vector<int64_t> out = {rows, x.shape.back()};
  std::string r = fresh();
  std::string g;
  for (unsigned i = 0; i + 1 < rank; ++i)
    g += (i ? ", " : "") + std::to_string(i);
  if (rank == 1) {
    body += "  " + r + " = tensor.expand_shape " + x.name +
            " [[0, 1]] output_shape [1, " + std::to_string(x.shape[0]) +
            "] : " + type(x.shape) + " into " + type({1, x.shape[0]}) + "\n";
    ++counts["reshape"];
    return {r, {1, x.shape[0]}};
  }
  body += "  " + r + " = tensor.collapse_shape " + x.name + " [[" + g + "], [" +
          std::to_string(rank - 1) + "]] : " + type(x.shape) + " into " +
          type(out) + "\n";
  ++counts["reshape"];
  return {r, out};
}

/// Splits a dimension in two (when it has a factor) or merges the first
/// two.
void Graph::reshape(Value x) {
  unsigned rank = x.shape.size();
  for (unsigned d = 0; d < rank && rank < 4; ++d) {
    int64_t e = x.shape[d];
    for (int64_t f : {2, 4, 8, 3})
      if (e % f == 0 && e > f) {
        std::vector<int64_t> out;
        std::string groups;
        unsigned o = 0;
        for (unsigned i = 0; i < rank; ++i) {
          groups += i ? ", [" : "[";
          if (i == d) {
            out.push_back(f);
            out.push_back(e / f);
            groups += std::to_string(o) + ", " + std::to_string(o + 1);
            o += 2;
          } else {
            out.push_back(x.shape[i]);
            groups += std::to_string(o++);
          }
          groups += "]";
        }
        std::string shapeText = llvm::join(
            llvm::map_range(out, [](int64_t v) { return std::to_string(v); }),
            ", ");
        std::string r = fresh();
        body += "  " + r + " = tensor.expand_shape " + x.name + " [" + groups +
                "] output_shape [" + shapeText + "] : " + type(x.shape) +
                " into " + type(out) + "\n";
        add({r, out}, "reshape");
        return;
      }
  }
  if (rank >= 2) {
    std::vector<int64_t> out = {x.shape[0] * x.shape[1]};
    out.insert(out.end(), x.shape.begin() + 2, x.shape.end());
    std::string groups = "[0, 1]";
    for (unsigned i = 2; i < rank; ++i)
      groups += ", [" + std::to_string(i) + "]";
    std::string r = fresh();
    body += "  " + r + " = tensor.collapse_shape " + x.name + " [" + groups +
            "] : " + type(x.shape) + " into " + type(out) + "\n";
    add({r, out}, "reshape");
  }
}
