//===- hidet-random-graph.cpp - Random graphs for differential testing ----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Writes a random, valid graph of linalg ops on tensors, determined by a
// seed: chains and DAGs of anchors (matmul, batch matmul, 2-D convolution
// with random strides, dilations and padding), reductions, softmax, layer
// norms, and elementwise, broadcast, transpose and reshape ops, on ragged
// or tile-multiple extents, in f32, f16 or bf16. utils/difftest.sh compiles
// each for the GPU and the CPU and compares the two (hidet-run --ref).
//
// The values stay in a range every dtype holds: inputs are in [-1, 1],
// GEMM reductions are scaled by 1/sqrt(K) where they could grow, and the
// elementwise ops are bounded (tanh, a ReLU, |x| / (1 + |x|), ...).
//
//===----------------------------------------------------------------------===//

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

using namespace llvm;

static cl::OptionCategory category("hidet-random-graph options");

static cl::opt<uint64_t> seedOpt("seed", cl::desc("Seed of the graph"),
                                 cl::init(0), cl::cat(category));
static cl::opt<unsigned> opsOpt("ops",
                                cl::desc("Ops to add after the inputs "
                                         "(default: 2 to 7, by the seed)"),
                                cl::init(0), cl::cat(category));
static cl::opt<std::string> eltOpt(
    "dtype", cl::desc("Element type: f32, f16 or bf16 (default: by the seed)"),
    cl::init(""), cl::cat(category));
static cl::opt<std::string> outputOpt("o", cl::desc("Output file"),
                                      cl::value_desc("file"), cl::init("-"),
                                      cl::cat(category));
static cl::list<unsigned> dropOpt(
    "drop",
    cl::desc("Steps (0-based, below --ops) to leave out: each is drawn, so "
             "that the later steps draw as before, and then discarded "
             "(utils/difftest.sh --shrink)"),
    cl::CommaSeparated, cl::cat(category));
static cl::opt<bool> summaryOpt(
    "summary",
    cl::desc("Print a line naming the graph's ops to standard error"),
    cl::init(false), cl::cat(category));

namespace {

/// Reductions leaving fewer values than this are maxes, never means.
constexpr int64_t kMinMeanOutputs = 16;

/// The longest f32 sum (a mean, a norm's or softmax's row, a GEMM's K) of
/// an f32 graph. The CPU reference adds in sequence, with a relative error
/// of about 2^-24 * sqrt(n) / 3 even for positive terms: 5e-6 for the
/// 57600-long rows of difftest seed 4184, against the f32 bound of 1e-5.
/// At 4096 it is 1.3e-6. 16-bit graphs sum in f32 against looser bounds.
constexpr int64_t kMaxF32Sum = 4096;

struct Value {
  std::string name;
  std::vector<int64_t> shape;
};

class Graph {
public:
  Graph(uint64_t seed, std::string elt) : rng(seed), elt(std::move(elt)) {}

  std::string build(unsigned ops, ArrayRef<unsigned> drop = {}) {
    // One or two graph inputs, of rank 2 to 4.
    unsigned inputs = pick(1, 2);
    for (unsigned i = 0; i < inputs; ++i) {
      std::vector<int64_t> shape = randomShape(pick(2, 4));
      // Sometimes rows enough for many GEMM tiles: persistent and split-K
      // Hopper schedules, grids of many blocks.
      if (shape.size() == 2 && pick(0, 3) == 0)
        shape[0] = 64 * pick(2, 24);
      live.push_back(input(shape));
    }
    for (unsigned i = 0; i < ops; ++i) {
      if (!llvm::is_contained(drop, i)) {
        step();
        continue;
      }
      // Drawn and discarded: the random stream moves on as if it stayed.
      std::string bodyBefore = body;
      std::vector<std::string> argsBefore = argTypes;
      std::vector<Value> liveBefore = live;
      std::map<std::string, unsigned> usedBefore = used, countsBefore = counts;
      step();
      body = std::move(bodyBefore);
      argTypes = std::move(argsBefore);
      live = std::move(liveBefore);
      used = std::move(usedBefore);
      counts = std::move(countsBefore);
    }
    // An output is computed, never an input passed through.
    if (isArg(live.back().name)) {
      Value x = live.back();
      generic({{x, idMap(x.shape.size())}}, x.shape, unary(), "elementwise");
    }
    // The last value, and maybe another still unused one, are the outputs.
    std::vector<Value> outs = {live.back()};
    for (const Value &v : live)
      if (v.name != outs[0].name && !used.count(v.name) &&
          !isArg(v.name) && outs.size() < 3)
        outs.push_back(v);
    std::string args, results, rets, retTypes;
    for (auto [i, a] : llvm::enumerate(argTypes))
      args += (i ? ", " : "") + a;
    for (auto [i, v] : llvm::enumerate(outs)) {
      rets += (i ? ", " : "") + v.name;
      retTypes += (i ? ", " : "") + type(v.shape);
    }
    return "func.func @graph(" + args + ") -> (" + retTypes + ") {\n" + body +
           "  return " + rets + " : " + retTypes + "\n}\n";
  }

  std::string summary() const {
    std::string s;
    for (const auto &[op, n] : counts)
      s += (s.empty() ? "" : " ") + op + "=" + std::to_string(n);
    return s;
  }

private:
  std::mt19937_64 rng;
  std::string elt;
  std::string body;
  std::vector<std::string> argTypes;
  std::vector<Value> live;
  std::map<std::string, unsigned> used;
  std::map<std::string, unsigned> counts;
  unsigned next = 0;
  /// Inside throughF32.
  bool inF32 = false;

  unsigned pick(unsigned lo, unsigned hi) {
    return std::uniform_int_distribution<unsigned>(lo, hi)(rng);
  }
  bool coin() { return pick(0, 1); }
  bool isArg(const std::string &name) const { return name[1] == 'a'; }

  /// An extent: ragged, or a multiple of a tile.
  /// Half of them multiples of 8, which the 16-bit GEMM templates (mma,
  /// wgmma) load in 16-byte pieces; a quarter small, a quarter ragged.
  int64_t extent(int64_t most = 160) {
    switch (pick(0, 3)) {
    case 0:
      return pick(1, 17);
    case 1:
    case 2:
      return 8 * pick(1, static_cast<unsigned>(most / 8));
    default:
      return pick(1, static_cast<unsigned>(most));
    }
  }
  std::vector<int64_t> randomShape(unsigned rank) {
    std::vector<int64_t> s;
    for (unsigned i = 0; i < rank; ++i)
      s.push_back(extent(rank > 2 ? 48 : 200));
    return s;
  }
  std::string type(const std::vector<int64_t> &shape) const {
    return type(shape, elt);
  }
  static std::string type(const std::vector<int64_t> &shape,
                          const std::string &e) {
    std::string s = "tensor<";
    for (int64_t d : shape)
      s += std::to_string(d) + "x";
    return s + e + ">";
  }
  std::string fresh() { return "%v" + std::to_string(next++); }
  Value input(std::vector<int64_t> shape) {
    std::string name = "%a" + std::to_string(argTypes.size());
    argTypes.push_back(name + ": " + type(shape));
    return {name, shape};
  }
  /// Whether a sum of `n` terms is too long to compare (kMaxF32Sum).
  bool tooLongToSum(int64_t n) const {
    return elt == "f32" && !inF32 && n > kMaxF32Sum;
  }
  /// A live value, preferring recent ones.
  Value &operand() {
    unsigned n = live.size();
    unsigned i = n - 1 - std::min<unsigned>(n - 1, pick(0, 2) == 0 ? pick(0, n - 1) : 0);
    ++used[live[i].name];
    return live[i];
  }
  void add(Value v, const std::string &op) {
    live.push_back(std::move(v));
    ++counts[op];
  }
  std::string zero() {
    std::string z = fresh();
    body += "  " + z + " = arith.constant 0.0 : " + elt + "\n";
    return z;
  }
  std::string empty(const std::vector<int64_t> &shape) {
    std::string e = fresh();
    body += "  " + e + " = tensor.empty() : " + type(shape) + "\n";
    return e;
  }
  std::string filled(const std::vector<int64_t> &shape) {
    std::string z = zero(), e = empty(shape), f = fresh();
    body += "  " + f + " = linalg.fill ins(" + z + " : " + elt + ") outs(" +
            e + " : " + type(shape) + ") -> " + type(shape) + "\n";
    return f;
  }
  static std::string dims(unsigned rank, unsigned from = 0) {
    std::string s;
    for (unsigned i = from; i < rank; ++i)
      s += (i > from ? ", d" : "d") + std::to_string(i);
    return s;
  }
  static std::string iterators(unsigned rank, int reduced = -1) {
    std::string s;
    for (unsigned i = 0; i < rank; ++i)
      s += std::string(i ? ", " : "") +
           (static_cast<int>(i) == reduced ? "\"reduction\"" : "\"parallel\"");
    return s;
  }

  /// A generic of `ins` (with their maps) into a new value of `shape`,
  /// whose payload `payload` computes %r from the block arguments %i0...
  Value generic(const std::vector<std::pair<Value, std::string>> &ins,
                const std::vector<int64_t> &shape, const std::string &payload,
                const std::string &op, const std::string &init = "",
                int reduced = -1, const std::string &outMap = "") {
    unsigned rank = reduced >= 0 ? shape.size() + 1 : shape.size();
    std::string maps, names, types, bbArgs;
    for (auto [i, in] : llvm::enumerate(ins)) {
      maps += in.second + ", ";
      names += (i ? ", " : "") + in.first.name;
      types += (i ? ", " : "") + type(in.first.shape);
      bbArgs += "%i" + std::to_string(i) + ": " + elt + ", ";
    }
    std::string id = "affine_map<(" + dims(rank) + ") -> (" + dims(rank) + ")>";
    maps += outMap.empty() ? id : outMap;
    std::string out = init.empty() ? empty(shape) : init;
    std::string r = fresh();
    body += "  " + r + " = linalg.generic {indexing_maps = [" + maps +
            "], iterator_types = [" + iterators(rank, reduced) + "]} ins(" +
            names + " : " + types + ") outs(" + out + " : " + type(shape) +
            ") {\n  ^bb0(" + bbArgs + "%o: " + elt + "):\n" + payload +
            "    linalg.yield %r : " + elt + "\n  } -> " + type(shape) + "\n";
    Value v{r, shape};
    add(v, op);
    return v;
  }
  std::string idMap(unsigned rank) const {
    return "affine_map<(" + dims(rank) + ") -> (" + dims(rank) + ")>";
  }

  /// A bounded elementwise function of %i0.
  std::string unary() {
    static const char *kinds[] = {"tanh", "relu", "soft", "scale", "sigmoid"};
    std::string k = kinds[pick(0, 4)];
    ++counts["unary." + k];
    if (k == "tanh")
      return "    %r = math.tanh %i0 : " + elt + "\n";
    if (k == "relu")
      return "    %c = arith.constant 0.0 : " + elt +
             "\n    %r = arith.maximumf %i0, %c : " + elt + "\n";
    if (k == "soft")
      return "    %c = arith.constant 1.0 : " + elt + "\n    %m = math.absf %i0 : " +
             elt + "\n    %d = arith.addf %m, %c : " + elt +
             "\n    %r = arith.divf %i0, %d : " + elt + "\n";
    if (k == "scale")
      return "    %c = arith.constant -0.5 : " + elt +
             "\n    %r = arith.mulf %i0, %c : " + elt + "\n";
    return "    %c = arith.constant 1.0 : " + elt + "\n    %n = arith.negf %i0 : " +
           elt + "\n    %e = math.exp %n : " + elt + "\n    %d = arith.addf %e, %c : " +
           elt + "\n    %r = arith.divf %c, %d : " + elt + "\n";
  }

  void step() {
    Value x = operand();
    unsigned rank = x.shape.size();
    switch (pick(0, 9)) {
    case 0:
    case 1:
      return matmul(x);
    case 2:
      if (rank == 4)
        return conv(x);
      return matmul(x);
    case 3: {
      // Elementwise.
      generic({{x, idMap(rank)}}, x.shape, unary(), "elementwise");
      return;
    }
    case 4: {
      // A broadcast bias along the last dimension, or a residual add with a
      // value of the same shape.
      for (const Value &y : live)
        if (y.shape == x.shape && y.name != x.name && coin()) {
          ++used[y.name];
          generic({{x, idMap(rank)}, {y, idMap(rank)}}, x.shape,
                  "    %r = arith.addf %i0, %i1 : " + elt + "\n", "residual");
          return;
        }
      Value bias = input({x.shape.back()});
      generic({{x, idMap(rank)},
               {bias, "affine_map<(" + dims(rank) + ") -> (d" +
                          std::to_string(rank - 1) + ")>"}},
              x.shape,
              "    %s = arith.addf %i0, %i1 : " + elt +
                  "\n    %c = arith.constant 0.0 : " + elt +
                  "\n    %r = arith.maximumf %s, %c : " + elt + "\n",
              "bias_relu");
      return;
    }
    case 5:
      return reduce(x);
    case 6:
      return softmaxOrNorm(x);
    case 7:
      return transpose(x);
    case 8:
      return reshape(x);
    default:
      return matmul(x);
    }
  }

  /// x [..., K] times a new weight [K, N] (2-D x), or a batch matmul with a
  /// new [B, K, N] (3-D x); other ranks are flattened to 2-D first. The
  /// product is scaled by 1/sqrt(K) into a new value.
  void matmul(Value x) {
    if (x.shape.size() != 2 && x.shape.size() != 3) {
      x = collapseTo2D(x);
    }
    bool batched = x.shape.size() == 3;
    int64_t k = x.shape.back(), n = extent(200);
    if (tooLongToSum(k))
      return reduce(x);
    std::vector<int64_t> wShape =
        batched ? std::vector<int64_t>{x.shape[0], k, n}
                : std::vector<int64_t>{k, n};
    Value w = input(wShape);
    std::vector<int64_t> cShape = x.shape;
    cShape.back() = n;
    std::string init = filled(cShape), r = fresh();
    body += "  " + r + " = " + (batched ? "linalg.batch_matmul" : "linalg.matmul") +
            " ins(" + x.name + ", " + w.name + " : " + type(x.shape) + ", " +
            type(w.shape) + ") outs(" + init + " : " + type(cShape) +
            ") -> " + type(cShape) + "\n";
    ++counts[batched ? "batch_matmul" : "matmul"];
    Value c{r, cShape};
    scaled(c, 1.0 / std::sqrt(static_cast<double>(k)));
  }

  void scaled(const Value &c, double s) {
    generic({{c, idMap(c.shape.size())}}, c.shape,
            "    %c = arith.constant " +
                llvm::formatv("{0:e}", s).str() + " : " + elt +
                "\n    %r = arith.mulf %i0, %c : " + elt + "\n",
            "scale");
  }

  /// An NHWC convolution with a new HWCF filter, random strides and
  /// dilations, maybe after a zero padding of H and W.
  void conv(Value x) {
    int64_t kh = pick(1, 3), kw = pick(1, 3), sh = pick(1, 2), sw = pick(1, 2);
    int64_t dh = pick(1, 2), dw = pick(1, 2);
    if (coin()) {
      int64_t p = pick(1, 2);
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
    int64_t c = x.shape[3], f = extent(96);
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

  /// A sum (scaled by 1/extent) or a max over one dimension.
  /// The shape of `x` without dimension `d`, and the indexing map that
  /// drops loop `d` (a reduction's output).
  std::pair<std::vector<int64_t>, std::string> without(const Value &x,
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
  void reduce(Value x) {
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
    bool isMax =
        outputs < kMinMeanOutputs || tooLongToSum(x.shape[d]) || coin();
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
    body += "  " + init + " = linalg.fill ins(" + lo + " : " + elt +
            ") outs(" + e + " : " + type(out) + ") -> " + type(out) + "\n";
    generic({{x, idMap(rank)}}, out,
            "    %r = arith.maximumf %i0, %o : " + elt + "\n", "reduce_max",
            init, static_cast<int>(d), outMap);
  }

  /// The mean over dimension `d`: a sum scaled by 1/extent.
  void reduceSum(const Value &x, unsigned d) {
    auto [out, outMap] = without(x, d);
    Value r = generic({{x, idMap(x.shape.size())}}, out,
                      "    %r = arith.addf %i0, %o : " + elt + "\n",
                      "reduce_sum", filled(out), static_cast<int>(d), outMap);
    scaled(r, 1.0 / static_cast<double>(x.shape[d]));
  }

  /// `x` converted from `from` to `to` by one generic; not a live value.
  Value convert(const Value &x, const std::string &from,
                const std::string &to) {
    unsigned rank = x.shape.size();
    std::string e = fresh(), r = fresh();
    std::string op = to == "f32" ? "arith.extf" : "arith.truncf";
    body += "  " + e + " = tensor.empty() : " + type(x.shape, to) + "\n";
    body += "  " + r + " = linalg.generic {indexing_maps = [" + idMap(rank) +
            ", " + idMap(rank) + "], iterator_types = [" + iterators(rank) +
            "]} ins(" + x.name + " : " + type(x.shape, from) + ") outs(" + e +
            " : " + type(x.shape, to) + ") {\n  ^bb0(%i0: " + from +
            ", %o: " + to + "):\n    %r = " + op + " %i0 : " + from +
            " to " + to + "\n    linalg.yield %r : " + to + "\n  } -> " +
            type(x.shape, to) + "\n";
    ++counts["convert"];
    return {r, x.shape};
  }

  /// Runs `compute` on `x` converted to f32, with f32 as the element type
  /// of what it builds, and converts its last value back: the values in
  /// between are not offered to later ops.
  template <typename F> void throughF32(const Value &x, F compute) {
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

  /// A softmax over the last dimension, or a layer norm's normalization
  /// (x - mean) / sqrt(var + eps) written as reductions and generics.
  void softmaxOrNorm(Value x) {
    // 16-bit softmaxes and norms compute in f32, as the ONNX importer
    // writes them.
    if (elt != "f32" && !inF32)
      return throughF32(x, [&](const Value &x32) { softmaxOrNorm(x32); });
    if (tooLongToSum(x.shape.back()))
      return reduce(x);
    unsigned rank = x.shape.size();
    // A norm's statistics have one dimension less: none for a vector.
    if (rank < 2 || coin()) {
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
    std::string lastMap = "affine_map<(" + dims(rank) + ") -> (d" +
                          std::to_string(rank - 1) + ")>";
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
             (v.name == mean.name && means < kMinMeanOutputs);
    });
  }

  void transpose(Value x) {
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
    body += "  " + r + " = linalg.transpose ins(" + x.name + " : " +
            type(x.shape) + ") outs(" + e + " : " + type(out) +
            ") permutation = [" +
            llvm::join(llvm::map_range(perm,
                                       [](unsigned p) {
                                         return std::to_string(p);
                                       }),
                       ", ") +
            "]\n";
    add({r, out}, "transpose");
  }

  Value collapseTo2D(const Value &x) {
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
    body += "  " + r + " = tensor.collapse_shape " + x.name + " [[" + g +
            "], [" + std::to_string(rank - 1) + "]] : " + type(x.shape) +
            " into " + type(out) + "\n";
    ++counts["reshape"];
    return {r, out};
  }

  /// Splits a dimension in two (when it has a factor) or merges the first
  /// two.
  void reshape(Value x) {
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
          std::string shapeText =
              llvm::join(llvm::map_range(out,
                                         [](int64_t v) {
                                           return std::to_string(v);
                                         }),
                         ", ");
          std::string r = fresh();
          body += "  " + r + " = tensor.expand_shape " + x.name + " [" +
                  groups + "] output_shape [" + shapeText + "] : " +
                  type(x.shape) + " into " + type(out) + "\n";
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
};

} // namespace

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "Writes a random graph of linalg ops on tensors, determined by --seed, "
      "for differential testing (utils/difftest.sh)\n");
  std::mt19937_64 pre(seedOpt * 0x9E3779B97F4A7C15ull + 1);
  std::string elt = eltOpt;
  if (elt.empty()) {
    static const char *types[] = {"f32", "f16", "bf16"};
    elt = types[pre() % 3];
  }
  if (elt != "f32" && elt != "f16" && elt != "bf16") {
    WithColor::error() << "--dtype must be f32, f16 or bf16, got '" << elt
                       << "'\n";
    return 1;
  }
  unsigned ops = opsOpt ? opsOpt : 2 + pre() % 6;
  Graph graph(seedOpt, elt);
  for (unsigned d : dropOpt)
    if (d >= ops) {
      WithColor::error() << "--drop=" << d << " is not a step below --ops="
                         << ops << "\n";
      return 1;
    }
  std::string text = graph.build(ops, dropOpt);
  std::error_code ec;
  ToolOutputFile out(outputOpt, ec, sys::fs::OF_Text);
  if (ec) {
    WithColor::error() << "cannot write '" << outputOpt << "': " << ec.message()
                       << "\n";
    return 1;
  }
  std::string drops;
  for (unsigned d : dropOpt)
    drops += (drops.empty() ? " --drop=" : ",") + std::to_string(d);
  out.os() << "// hidet-random-graph --seed=" << seedOpt << " --dtype=" << elt
           << " --ops=" << ops << drops << "\n"
           << text;
  out.keep();
  if (summaryOpt)
    errs() << "seed " << seedOpt << " " << elt << ": " << graph.summary()
           << "\n";
  return 0;
}
