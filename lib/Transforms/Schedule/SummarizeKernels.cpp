//===- SummarizeKernels.cpp - What each GPU kernel is, as JSON ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-summarize-kernels`: a report of the module's
// kernels (their kind, anchor, schedule and fused ops), read from the
// attributes the schedulers wrote on each gpu.launch, and the coverage
// features that differential testing counts.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Schedule/WgmmaMatmulSpace.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/ToolOutputFile.h"

namespace hidet {
#define GEN_PASS_DEF_SUMMARIZEKERNELS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

namespace {

/// What one gpu.launch's kKernelAttrName dictionary says.
struct KernelDescription {
  std::string kind = "unknown", anchor, loads;
  std::vector<std::string> prologue, epilogue, scores, softmax;
  /// A template's GEMM: batch, M, N, K and the window's taps.
  std::vector<int64_t> gemm;
};

KernelDescription describe(gpu::LaunchOp launch) {
  KernelDescription d;
  auto dict = launch->getAttrOfType<DictionaryAttr>(kernel::kKernelAttrName);
  if (!dict)
    return d;
  auto str = [&](StringRef key, std::string &into) {
    if (auto s = dict.getAs<StringAttr>(key))
      into = s.str();
  };
  auto list = [&](StringRef key, std::vector<std::string> &into) {
    if (auto a = dict.getAs<ArrayAttr>(key))
      for (auto s : a.getAsRange<StringAttr>())
        into.push_back(s.str());
  };
  if (auto g = dict.getAs<DenseI64ArrayAttr>("gemm"))
    d.gemm.assign(g.asArrayRef().begin(), g.asArrayRef().end());
  str("kind", d.kind);
  str("anchor", d.anchor);
  str("loads", d.loads);
  list("prologue", d.prologue);
  list("epilogue", d.epilogue);
  list("scores", d.scores);
  list("softmax", d.softmax);
  return d;
}

/// The anchor's family in feature names: a convolution, a batched or a
/// plain contraction.
StringRef anchorFamily(StringRef anchor) {
  if (anchor.contains("conv"))
    return "conv";
  if (anchor.contains("batch"))
    return "batched";
  return "matmul";
}

/// The kernel's coverage features (the pass's description lists them).
std::vector<std::string> features(gpu::LaunchOp launch,
                                  const KernelDescription &d) {
  std::vector<std::string> f = {d.kind};
  auto add = [&](StringRef name) { f.push_back(d.kind + "." + name.str()); };
  if (!d.anchor.empty())
    add(anchorFamily(d.anchor));
  Attribute schedule = launch->getAttr(kScheduleAttrName);
  if (auto w = dyn_cast_if_present<WgmmaMatmulAttr>(schedule)) {
    if (w.getSplitK() > 1)
      add("split_k");
    if (w.getPersistent())
      add("persistent");
    if (w.getPingpong())
      add("pingpong");
    // The one-warpgroup tiles of a convolution whose window has several
    // taps of a K step's channels or more, as defaultWgmmaSchedule gives
    // them (hidet-select-schedules{conv-row-tiles}).
    using schedule::WgmmaMatmulSchedule;
    if (d.gemm.size() == 5 && d.gemm[4] > 1 &&
        d.gemm[3] / d.gemm[4] >= WgmmaMatmulSchedule::kBlockK &&
        w.getBlock().front() == WgmmaMatmulSchedule::kWarpgroupRows)
      add("conv_64_rows");
  } else if (auto m = dyn_cast_if_present<MmaMatmulAttr>(schedule)) {
    if (m.getSplitK() > 1)
      add("split_k");
  } else if (auto s = dyn_cast_if_present<SimtMatmulAttr>(schedule)) {
    if (s.getSplitK() > 1)
      add("split_k");
  }
  if (!d.loads.empty())
    add(d.loads);
  for (const std::string &k : d.prologue)
    f.push_back("prologue." + k);
  for (const std::string &k : d.epilogue)
    f.push_back("epilogue." + k);
  for (const std::string &k : d.scores)
    f.push_back("scores." + k);
  for (const std::string &k : d.softmax)
    f.push_back("softmax." + k);
  return f;
}

struct SummarizeKernelsPass
    : public hidet::impl::SummarizeKernelsBase<SummarizeKernelsPass> {
  using Base::Base;

  void runOnOperation() final {
    llvm::json::Array kernels;
    getOperation()->walk([&](gpu::LaunchOp launch) {
      KernelDescription d = describe(launch);
      llvm::json::Object k;
      k["name"] = launch.getFunction() ? launch.getFunction()->str() : "";
      auto func = launch->getParentOfType<FunctionOpInterface>();
      k["function"] = func ? func.getName().str() : "";
      k["kind"] = d.kind;
      if (!d.anchor.empty())
        k["anchor"] = d.anchor;
      if (d.gemm.size() == 5)
        k["gemm"] = llvm::json::Object{
            {"batch", d.gemm[0]}, {"m", d.gemm[1]}, {"n", d.gemm[2]},
            {"k", d.gemm[3]}, {"taps", d.gemm[4]}};
      for (StringRef name : {kScheduleAttrName, kAttentionAttrName})
        if (Attribute a = launch->getAttr(name)) {
          std::string text;
          llvm::raw_string_ostream os(text);
          a.print(os);
          k["schedule"] = text;
        }
      auto array = [](const std::vector<std::string> &v) {
        return llvm::json::Array(v);
      };
      k["prologue"] = array(d.prologue);
      k["epilogue"] = array(d.epilogue);
      if (!d.scores.empty())
        k["scores"] = array(d.scores);
      if (!d.softmax.empty())
        k["softmax"] = array(d.softmax);
      k["features"] = llvm::join(features(launch, d), " ");
      kernels.push_back(std::move(k));
    });
    std::error_code ec;
    llvm::ToolOutputFile out(file, ec, llvm::sys::fs::OF_Text);
    if (ec) {
      getOperation()->emitError("hidet-summarize-kernels: cannot write '")
          << file << "': " << ec.message();
      return signalPassFailure();
    }
    out.os() << llvm::formatv(
        "{0:2}\n",
        llvm::json::Value(llvm::json::Object{{"kernels", std::move(kernels)}}));
    out.keep();
  }
};

} // namespace
