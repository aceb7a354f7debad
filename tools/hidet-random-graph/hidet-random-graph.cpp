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

#include "Graph.h"

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

using namespace hidet::randomgraph;

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
