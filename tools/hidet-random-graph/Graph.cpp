//===- Graph.cpp - A random graph of linalg ops ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The graph's frame: its inputs and outputs, fresh values, shapes and
// types, generics, and the step that draws the next op.
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

std::string Graph::build(unsigned ops, ArrayRef<unsigned> drop) {
  // One or two graph inputs, of rank 2 to 4.
  unsigned inputs = pick(1, 2);
  for (unsigned i = 0; i < inputs; ++i) {
    std::vector<int64_t> shape = randomShape(pick(2, 4));
    // Sometimes rows enough for many GEMM tiles: persistent and split-K
    // Hopper schedules, grids of many blocks.
    if (shape.size() == 2 && pick(0, 3) == 0)
      shape[0] = 64 * pick(2, 24);
    if (elt != "f32" && pick(0, 2) == 0)
      shape = hopperShape();
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
    std::set<std::string> averagedBefore = averaged;
    step();
    body = std::move(bodyBefore);
    argTypes = std::move(argsBefore);
    live = std::move(liveBefore);
    used = std::move(usedBefore);
    counts = std::move(countsBefore);
    averaged = std::move(averagedBefore);
  }
  // An output is computed, never an input passed through.
  if (isArg(live.back().name)) {
    Value x = live.back();
    generic({{x, idMap(x.shape.size())}}, x.shape, unary(), "elementwise");
  }
  // The last value, and maybe another still unused one, are the outputs.
  std::vector<Value> outs = {live.back()};
  for (const Value &v : live)
    if (v.name != outs[0].name && !used.count(v.name) && !isArg(v.name) &&
        outs.size() < 3)
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

std::string Graph::summary() const {
  std::string s;
  for (const auto &[op, n] : counts)
    s += (s.empty() ? "" : " ") + op + "=" + std::to_string(n);
  return s;
}

unsigned Graph::pick(unsigned lo, unsigned hi) {
  return std::uniform_int_distribution<unsigned>(lo, hi)(rng);
}

/// An extent: ragged, or a multiple of a tile.
/// Half of them multiples of 8, which the 16-bit GEMM templates (mma,
/// wgmma) load in 16-byte pieces; a quarter small, a quarter ragged.
int64_t Graph::extent(int64_t most) {
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

/// The shapes that the Hopper templates' choices need: 3x3 convolutions
/// of 64 or 128 channels (64-row tiles), long K over few output tiles
/// (split-K), many rows (persistent and pingpong grids).
std::vector<int64_t> Graph::hopperShape() {
  switch (pick(0, 4)) {
  case 0:
  case 4:
    return {pick(1, 4), 8 * pick(1, 3), 8 * pick(1, 3), 64 * pick(1, 2)};
  case 1:
    return {64 * pick(1, 4), 512 * pick(2, 6)};
  case 2:
    return {pick(2, 8), 128 * pick(1, 4), 64 * pick(1, 2)};
  default:
    return {1024 * pick(4, 6), 64 * pick(2, 3)};
  }
}

std::vector<int64_t> Graph::randomShape(unsigned rank) {
  std::vector<int64_t> s;
  for (unsigned i = 0; i < rank; ++i)
    s.push_back(extent(rank > 2 ? 48 : 200));
  return s;
}

std::string Graph::type(const std::vector<int64_t> &shape) const {
  return type(shape, elt);
}

std::string Graph::type(const std::vector<int64_t> &shape,
                        const std::string &e) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + e + ">";
}

Value Graph::input(std::vector<int64_t> shape) {
  std::string name = "%a" + std::to_string(argTypes.size());
  argTypes.push_back(name + ": " + type(shape));
  return {name, shape};
}

/// Whether a sum of `n` terms is too long to compare (kMaxF32Sum).
bool Graph::tooLongToSum(int64_t n) const {
  return elt == "f32" && !inF32 && n > kMaxF32Sum;
}

/// A live value, preferring recent ones.
Value &Graph::operand() {
  unsigned n = live.size();
  unsigned i =
      n - 1 - std::min<unsigned>(n - 1, pick(0, 2) == 0 ? pick(0, n - 1) : 0);
  ++used[live[i].name];
  return live[i];
}

void Graph::add(Value v, const std::string &op) {
  live.push_back(std::move(v));
  ++counts[op];
}

std::string Graph::zero() {
  std::string z = fresh();
  body += "  " + z + " = arith.constant 0.0 : " + elt + "\n";
  return z;
}

std::string Graph::empty(const std::vector<int64_t> &shape) {
  std::string e = fresh();
  body += "  " + e + " = tensor.empty() : " + type(shape) + "\n";
  return e;
}

std::string Graph::filled(const std::vector<int64_t> &shape) {
  std::string z = zero(), e = empty(shape), f = fresh();
  body += "  " + f + " = linalg.fill ins(" + z + " : " + elt + ") outs(" + e +
          " : " + type(shape) + ") -> " + type(shape) + "\n";
  return f;
}

std::string Graph::dims(unsigned rank, unsigned from) {
  std::string s;
  for (unsigned i = from; i < rank; ++i)
    s += (i > from ? ", d" : "d") + std::to_string(i);
  return s;
}

std::string Graph::iterators(unsigned rank, int reduced) {
  std::string s;
  for (unsigned i = 0; i < rank; ++i)
    s += std::string(i ? ", " : "") +
         (static_cast<int>(i) == reduced ? "\"reduction\"" : "\"parallel\"");
  return s;
}

/// A generic of `ins` (with their maps) into a new value of `shape`,
/// whose payload `payload` computes %r from the block arguments %i0...
Value Graph::generic(const std::vector<std::pair<Value, std::string>> &ins,
                     const std::vector<int64_t> &shape,
                     const std::string &payload, const std::string &op,
                     const std::string &init, int reduced,
                     const std::string &outMap) {
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

std::string Graph::idMap(unsigned rank) const {
  return "affine_map<(" + dims(rank) + ") -> (" + dims(rank) + ")>";
}

/// A bounded elementwise function of %i0.
std::string Graph::unary() {
  static const char *kinds[] = {"tanh", "relu", "soft", "scale", "sigmoid"};
  std::string k = kinds[pick(0, 4)];
  ++counts["unary." + k];
  if (k == "tanh")
    return "    %r = math.tanh %i0 : " + elt + "\n";
  if (k == "relu")
    return "    %c = arith.constant 0.0 : " + elt +
           "\n    %r = arith.maximumf %i0, %c : " + elt + "\n";
  if (k == "soft")
    return "    %c = arith.constant 1.0 : " + elt +
           "\n    %m = math.absf %i0 : " + elt +
           "\n    %d = arith.addf %m, %c : " + elt +
           "\n    %r = arith.divf %i0, %d : " + elt + "\n";
  if (k == "scale")
    return "    %c = arith.constant -0.5 : " + elt +
           "\n    %r = arith.mulf %i0, %c : " + elt + "\n";
  return "    %c = arith.constant 1.0 : " + elt +
         "\n    %n = arith.negf %i0 : " + elt +
         "\n    %e = math.exp %n : " + elt +
         "\n    %d = arith.addf %e, %c : " + elt +
         "\n    %r = arith.divf %c, %d : " + elt + "\n";
}

void Graph::step() {
  Value x = operand();
  unsigned first = next;
  draw(x);
  if (!averaged.count(x.name))
    return;
  for (const Value &v : live)
    if (!isArg(v.name) && std::stoul(v.name.substr(2)) >= first)
      averaged.insert(v.name);
}

void Graph::draw(Value x) {
  unsigned rank = x.shape.size();
  switch (pick(0, 11)) {
  case 0:
  case 1:
  case 2:
    // An NHWC value is mostly a convolution's input.
    if (rank == 4 && pick(0, 2) != 0)
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
  case 10:
    return attention(x);
  default:
    return matmul(x);
  }
}
