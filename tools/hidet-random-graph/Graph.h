//===- Graph.h - A random graph of linalg ops -------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The generator behind hidet-random-graph: a Graph draws ops from a seeded
// stream and writes them as MLIR text. Graph.cpp holds the graph's frame
// (inputs, outputs, values, generics and the step that picks an op),
// GraphOps.cpp the ops (anchors, reductions, softmax and norms, shapes).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TOOLS_HIDET_RANDOM_GRAPH_GRAPH_H
#define HIDET_TOOLS_HIDET_RANDOM_GRAPH_GRAPH_H

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace hidet {
namespace randomgraph {

/// The fewest values a sum may leave (a mean's, a GEMM's or a
/// convolution's outputs): the relative error of an output of a few sums
/// hangs on any one of them that nearly cancels, and then measures
/// rounding noise, not the compiler (a bf16 GEMM output of 2x1 whose
/// 8-term sums cancel to a tenth of their terms: the H200 and the CPU
/// reference are 1.8e-2 and 2.2e-2 away from an f64 computation of the
/// same graph in relative L2, both beyond bf16's bound of 1.6e-2). Fewer
/// means are maxes; GEMMs and convolutions get more columns.
constexpr int64_t kMinSumOutputs = 16;

/// The longest f32 sum (a mean, a norm's or softmax's row, a GEMM's K) of
/// an f32 graph. The CPU reference adds in sequence, with a relative error
/// of about 2^-24 * sqrt(n) / 3 even for positive terms: 5e-6 for the
/// 57600-long rows of difftest seed 4184, against the f32 bound of 1e-5.
/// At 4096 it is 1.3e-6. 16-bit graphs sum in f32 against looser bounds.
constexpr int64_t kMaxF32Sum = 4096;

/// The most multiply-adds of one GEMM, convolution or attention: the CPU
/// reference computes them in plain loops (16-bit arithmetic emulated in
/// f32), about a billion in a few seconds.
constexpr int64_t kMaxMacs = int64_t(1) << 30;

/// A value of the graph: its SSA name and its shape.
struct Value {
  std::string name;
  std::vector<int64_t> shape;
};

/// A graph of linalg ops on tensors, drawn from a seed.
class Graph {
public:
  Graph(uint64_t seed, std::string elt) : rng(seed), elt(std::move(elt)) {}

  std::string build(unsigned ops, llvm::ArrayRef<unsigned> drop = {});

  std::string summary() const;

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
  /// The values computed from an attention's output. Its bounded scores
  /// give nearly uniform probabilities over the same keys, so its rows are
  /// nearly equal: averages of V. What is computed from them later is a
  /// large common part plus small differences between rows, and a mean or
  /// a ReLU of it cancels the common part to values far below the terms,
  /// whose relative error then measures rounding noise (an f32 ReLU of
  /// means of a projected attention output, and a bf16 mean of one: the
  /// CPU references are themselves 1.0e-5 and 3.3e-2 away from an f64
  /// computation of the same graph in relative L2, at the f32 and bf16
  /// bounds, and the H200 as far). Means of these values are maxes.
  std::set<std::string> averaged;

  unsigned pick(unsigned lo, unsigned hi);
  bool coin() { return pick(0, 1); }
  bool isArg(const std::string &name) const { return name[1] == 'a'; }

  /// An extent: ragged, or a multiple of a tile.
  /// Half of them multiples of 8, which the 16-bit GEMM templates (mma,
  /// wgmma) load in 16-byte pieces; a quarter small, a quarter ragged.
  int64_t extent(int64_t most = 160);
  std::vector<int64_t> randomShape(unsigned rank);
  /// A shape for the Hopper templates' schedule choices (16-bit graphs):
  /// 3x3 convolutions of 64 or 128 channels (64-row tiles), long K over
  /// few output tiles (split-K), batched GEMMs of Hopper tiles, many rows
  /// (persistent and pingpong grids).
  std::vector<int64_t> hopperShape();
  std::string type(const std::vector<int64_t> &shape) const;
  static std::string type(const std::vector<int64_t> &shape,
                          const std::string &e);
  std::string fresh() { return "%v" + std::to_string(next++); }
  Value input(std::vector<int64_t> shape);
  /// Whether a sum of `n` terms is too long to compare (kMaxF32Sum).
  bool tooLongToSum(int64_t n) const;
  /// A live value, preferring recent ones.
  Value &operand();
  void add(Value v, const std::string &op);
  std::string zero();
  std::string empty(const std::vector<int64_t> &shape);
  std::string filled(const std::vector<int64_t> &shape);
  static std::string dims(unsigned rank, unsigned from = 0);
  static std::string iterators(unsigned rank, int reduced = -1);

  /// A generic of `ins` (with their maps) into a new value of `shape`,
  /// whose payload `payload` computes %r from the block arguments %i0...
  Value generic(const std::vector<std::pair<Value, std::string>> &ins,
                const std::vector<int64_t> &shape, const std::string &payload,
                const std::string &op, const std::string &init = "",
                int reduced = -1, const std::string &outMap = "");
  std::string idMap(unsigned rank) const;

  /// A bounded elementwise function of %i0.
  std::string unary();

  /// Draws the next op, on a live value; what it computes from an
  /// averaged value is averaged too.
  void step();
  void draw(Value x);

  /// x [..., K] times a new weight [K, N] (2-D x), or a batch matmul with a
  /// new [B, K, N] (3-D x); other ranks are flattened to 2-D first. The
  /// product is scaled by 1/sqrt(K) into a new value.
  void matmul(Value x);

  void scaled(const Value &c, double s);

  /// An NHWC convolution with a new HWCF filter, random strides and
  /// dilations, maybe after a zero padding of H and W.
  void conv(Value x);

  /// The shape of `x` without dimension `d`, and the indexing map that
  /// drops loop `d` (a reduction's output).
  std::pair<std::vector<int64_t>, std::string> without(const Value &x,
                                                       unsigned d) const;

  /// A mean (in f32 for 16-bit types) or a max over one dimension.
  void reduce(Value x);

  /// The mean over dimension `d`: a sum scaled by 1/extent.
  void reduceSum(const Value &x, unsigned d);

  /// `x` converted from `from` to `to` by one generic; not a live value.
  Value convert(const Value &x, const std::string &from, const std::string &to);

  /// Runs `compute` on `x` converted to f32, with f32 as the element type
  /// of what it builds, and converts its last value back: the values in
  /// between are not offered to later ops.
  template <typename F> void throughF32(const Value &x, F compute);

  /// A softmax over the last dimension, or a layer norm's normalization
  /// (x - mean) / sqrt(var + eps) written as reductions and generics.
  void softmaxOrNorm(Value x);

  void transpose(Value x);

  Value collapseTo2D(const Value &x);

  /// Splits a dimension in two (when it has a factor) or merges the first
  /// two.
  void reshape(Value x);

  /// An attention (GraphAttention.cpp): Q a bounded projection of `x`
  /// split into heads of 16 to 128, K and V new inputs, the scores scaled
  /// and masked (padded keys, causal, both or none; -inf or the lowest
  /// value), a softmax, P V, the heads merged back into [rows, heads * dv].
  void attention(Value x);

  /// `x` through tanh(x * s); not a live value.
  Value bounded(const Value &x, double s,
                const std::string &kind = "attention_bound");
  /// `x` expanded (or collapsed) by `groups` to `out`; not a live value.
  Value reshapeText(const Value &x, const std::string &groups,
                    const std::vector<int64_t> &out, bool expand);
  /// `x` transposed by `perm`; not a live value.
  Value transposeText(const Value &x, const std::vector<unsigned> &perm);
  /// The batch matmul `a` x `b` from zero; not a live value.
  Value batchMatmulText(const Value &a, const Value &b);
};

} // namespace randomgraph
} // namespace hidet

#endif // HIDET_TOOLS_HIDET_RANDOM_GRAPH_GRAPH_H
