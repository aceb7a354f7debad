//===- PipelinesTest.cpp - Which passes each pipeline runs ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The CPU reference shares no pass of this project with the GPU pipeline,
// whatever the options of either: its project passes are the two that the
// GPU pipeline never runs, checked against the GPU pipeline built with each
// option that adds or removes passes.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Pipelines/Pipelines.h"
#include "Hidet/InitAllDialects.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <set>
#include <string>

using namespace mlir;

namespace {

using PassNames = std::set<std::string>;

/// The passes of this project (`hidet-...`) in the textual form of `pm`.
PassNames projectPasses(const OpPassManager &pm) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pm.printAsTextualPipeline(os);
  PassNames names;
  llvm::Regex name("hidet-[a-z0-9-]+");
  StringRef rest = text;
  SmallVector<StringRef> match;
  while (name.match(rest, &match)) {
    names.insert(match[0].str());
    rest = rest.drop_front(match[0].end() - rest.begin());
  }
  return names;
}

class PipelinesTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    registerAllPasses();
    hidet::registerHidetPasses();
  }

  static PassNames gpuPasses(StringRef options) {
    auto parsed = hidet::GPUPipelineOptions::createFromString(options);
    EXPECT_TRUE(parsed) << options.str();
    OpPassManager pm(ModuleOp::getOperationName());
    hidet::buildGPUPipeline(pm, *parsed);
    return projectPasses(pm);
  }

  static PassNames cpuPasses(bool reference, bool fromTosa) {
    hidet::CPUPipelineOptions options;
    options.fromTosa = fromTosa;
    OpPassManager pm(ModuleOp::getOperationName());
    if (reference)
      hidet::buildCPUReferencePipeline(pm, options);
    else
      hidet::buildCPUPipeline(pm, options);
    return projectPasses(pm);
  }
};

TEST_F(PipelinesTest, ReferenceRunsTwoProjectPasses) {
  PassNames expected = {"hidet-accumulate-in-f32", "hidet-reference-bufferize"};
  EXPECT_EQ(cpuPasses(/*reference=*/true, /*fromTosa=*/false), expected);
  EXPECT_EQ(cpuPasses(/*reference=*/true, /*fromTosa=*/true), expected);
}

TEST_F(PipelinesTest, ReferenceSharesNoProjectPassWithTheGPU) {
  PassNames reference = cpuPasses(/*reference=*/true, /*fromTosa=*/false);
  // Every option that adds or drops passes of the GPU pipeline.
  for (StringRef options :
       {"", "fuse=0", "anchors=0", "fuse=0 anchors=0", "plan-memory=0",
        "fast-math=1", "from-tosa=1", "tuning-plan=plan", "chip=sm_80"}) {
    PassNames gpu = gpuPasses(options);
    // Not vacuous: the GPU pipeline was built and has project passes.
    EXPECT_TRUE(gpu.count("hidet-unshare-inits")) << options.str();
    for (const std::string &pass : reference)
      EXPECT_FALSE(gpu.count(pass))
          << pass << " with '" << options.str() << "'";
  }
}

TEST_F(PipelinesTest, FastPipelineRunsStageOne) {
  PassNames fast = cpuPasses(/*reference=*/false, /*fromTosa=*/false);
  PassNames stageOne = gpuPasses("fuse=0");
  for (const char *pass :
       {"hidet-sink-scalar-reads", "hidet-propagate-transposes",
        "hidet-unshare-inits", "hidet-slice-producers",
        "hidet-decompose-aggregates", "hidet-distinct-results",
        "hidet-results-in-place", "hidet-copies-to-linalg"}) {
    EXPECT_TRUE(fast.count(pass)) << pass;
    EXPECT_TRUE(stageOne.count(pass)) << pass;
  }
  EXPECT_TRUE(fast.count("hidet-accumulate-in-f32"));
  EXPECT_FALSE(fast.count("hidet-reference-bufferize"));
}

} // namespace
