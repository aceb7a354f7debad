//===- Pipelines.cpp - Registered Hidet pass pipelines --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the project's pass pipelines. Upstream stages are
// written in the textual pipeline syntax so that every step reads exactly
// as it would on an mlir-opt command line.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Pipelines/Pipelines.h"

#include "Hidet/Conversion/Passes.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace hidet;

/// Appends a textual pipeline; the strings are fixed by this file, so a
/// parse failure is a bug of the project.
static void addPipeline(OpPassManager &pm, const std::string &text) {
  if (failed(parsePassPipeline(text, pm, llvm::errs())))
    llvm::report_fatal_error("hidet: malformed built-in pipeline: " +
                             llvm::Twine(text));
}

/// One-shot bufferization with buffers as function arguments (inputs first,
/// then outputs: destination-passing style, the calling convention of the
/// compiled libraries).
void hidet::buildGraphPipeline(OpPassManager &pm, bool fuse) {
  // Scalars read at the top level and used only in linalg bodies are read
  // by the kernels (on the GPU the host cannot read the buffers).
  pm.addNestedPass<func::FuncOp>(createSinkScalarReads());
  // Constant scales of matmul operands become epilogues, which lets the
  // transposes before them reach the matmuls' reads.
  if (fuse)
    pm.addNestedPass<func::FuncOp>(createFoldOperandScales());
  // Layout changes cancel between the ops that asked for them.
  pm.addNestedPass<func::FuncOp>(createPropagateTransposes());
  // Each contraction starts from a fill of its own; elementwise DAGs are
  // one op, which a fusion group can take whole.
  pm.addNestedPass<func::FuncOp>(createUnshareInits());
  // A value read only through disjoint slices is computed slice by slice
  // (from the fills and empties above), so that each slice's readers can
  // fuse into its producer.
  pm.addNestedPass<func::FuncOp>(createSliceProducers());
  if (fuse) {
    // Concatenated slices (rotate_half) are read where they come from, so
    // that they fuse with their readers.
    pm.addNestedPass<func::FuncOp>(createFoldSliceConcats());
    pm.addNestedPass<func::FuncOp>(createFuseElementwise());
  }
}

void hidet::buildBufferizationPipeline(OpPassManager &pm, bool fromTosa,
                                       bool partition,
                                       bool prologueTransposes) {
  if (fromTosa)
    tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  buildGraphPipeline(pm, partition);
  if (partition) {
    PartitionOptions groups;
    groups.prologueTransposes = prologueTransposes;
    pm.addNestedPass<func::FuncOp>(createPartition(groups));
  }
  pm.addNestedPass<func::FuncOp>(createDecomposeAggregates());
  // Each output its own buffer.
  pm.addNestedPass<func::FuncOp>(createDistinctResults());
  addPipeline(pm, "one-shot-bufferize{bufferize-function-boundaries=1 "
                  "function-boundary-type-conversion=identity-layout-map}");
  addPipeline(pm, "buffer-results-to-out-params{hoist-static-allocs=1 "
                  "modify-public-functions=1},"
                  "canonicalize");
  // Results returned through a reshape are computed in their outputs.
  pm.addNestedPass<func::FuncOp>(createResultsInPlace());
  pm.addNestedPass<func::FuncOp>(createCopiesToLinalg());
}

void hidet::buildKernelSchedulingPipeline(OpPassManager &pm,
                                          const GPUPipelineOptions &options) {
  // The one description of the GPU, which every later pass reads.
  SetTargetOptions target;
  target.chip = options.chip;
  target.numSMs = options.numSMs;
  pm.addPass(createSetTarget(target));
  RuleBasedScheduleOptions schedule;
  schedule.blockSize = options.blockSize;
  schedule.vectorBytes = options.vectorBytes;
  schedule.transposeTile = options.transposeTile;
  schedule.fuseRows = options.fuseRows;
  schedule.fuse = options.fuse;
  // Templates first (schedules chosen, then built); the rule-based
  // scheduler takes what is left.
  SelectSchedulesOptions select;
  select.tf32 = options.tf32;
  select.tf32Terms = options.tf32Terms;
  select.fuse = options.fuse;
  select.tuningRecords = options.tuningRecords;
  select.convRowTiles = options.convRowTiles;
  select.attention = options.attention;
  ScheduleAnchorsOptions anchors;
  anchors.fuse = options.fuse;
  // The split-K reduction is an elementwise kernel like the rule-based ones.
  anchors.reduceBlockSize = options.blockSize;
  anchors.splitKInKernel = options.splitKInKernel;
  anchors.wgmmaTmaB = options.wgmmaTmaB;
  anchors.wgmmaAsyncArrive = options.wgmmaAsyncArrive;
  anchors.attentionSkipMasked = options.attentionSkipMasked;
  if (options.anchors) {
    if (!options.tuningPlan.empty()) {
      PlanTuningOptions plan;
      plan.dir = options.tuningPlan;
      plan.space = options.tuningSpace;
      plan.tf32 = options.tf32;
      plan.tf32Terms = options.tf32Terms;
      plan.fuse = options.fuse;
      plan.attention = options.attention;
      plan.convRowTiles = options.convRowTiles;
      // What the records already hold is not tuned again.
      plan.known = options.tuningRecords;
      pm.addPass(createPlanTuning(plan));
    }
    pm.addNestedPass<func::FuncOp>(createSelectSchedules(select));
    pm.addNestedPass<func::FuncOp>(createScheduleAnchors(anchors));
    pm.addNestedPass<func::FuncOp>(createPipelineSharedCopies());
    pm.addNestedPass<func::FuncOp>(createWorkgroupAllocsToDynamicShared());
  }
  pm.addNestedPass<func::FuncOp>(createRuleBasedSchedule(schedule));
  if (!options.kernelSummary.empty()) {
    SummarizeKernelsOptions summary;
    summary.file = options.kernelSummary;
    pm.addPass(createSummarizeKernels(summary));
  }
  // The kernels' persistent counters (split-K in the kernel) become module
  // globals, which function passes may not create.
  pm.addPass(createMaterializePersistentCounters());
  pm.addNestedPass<func::FuncOp>(createHostBuffersToDevice());
  if (options.planMemory) {
    PlanDeviceMemoryOptions plan;
    plan.alignment = options.workspaceAlignment;
    pm.addNestedPass<func::FuncOp>(createPlanDeviceMemory(plan));
  }
  if (options.fastMath)
    pm.addNestedPass<func::FuncOp>(createFastMath());
  NarrowMathOptions narrow;
  narrow.exp2Tanh = options.exp2Tanh;
  pm.addNestedPass<func::FuncOp>(createNarrowMath(narrow));
  // Fold the launch sizes derived from the mappings before lowering them.
  addPipeline(pm, "canonicalize");
  pm.addPass(createConvertTaskMappingToSCF());
  addPipeline(pm, "lower-affine,canonicalize,cse");
}

void hidet::buildGPULoweringPipeline(OpPassManager &pm,
                                     const GPUPipelineOptions &options) {
  // Constants and index arithmetic hoisted out of the launches must go back
  // in before outlining, or they become kernel parameters and the device
  // code loses loop bounds, strides and shuffle offsets as constants.
  // Outlining keeps the launches' NVVM hints (the templates' resident
  // blocks per SM) on the kernels.
  addPipeline(pm, "func.func(gpu-launch-sink-index-computations)");
  pm.addPass(createOutlineKernels());
  // Upstream gpu-to-llvm lowers allocations and copies only in their async
  // form; make the host side async (it still waits at the end of each
  // function).
  addPipeline(pm, "func.func(gpu-async-region)");
  // Dynamic shared memory after the static variables (the mbarriers), not
  // over them.
  pm.addNestedPass<gpu::GPUModuleOp>(createExternDynamicShared());
  // fmod through libdevice: the pipeline below would make it llvm.frem.
  pm.addNestedPass<gpu::GPUModuleOp>(createRemfToLibdevice());
  gpu::GPUToNVVMPipelineOptions nvvm;
  nvvm.cubinChip = options.chip;
  nvvm.cubinFeatures = options.features;
  nvvm.cubinFormat = options.cubinFormat;
  nvvm.optLevel = options.optLevel;
  // Upstream's NVVM pipeline as it is, but for its gpu-module-to-binary:
  // hidet-gpu-module-to-binary takes the same options and gives the same
  // binaries, serializing the kernels' modules in parallel.
  OpPassManager nvvmPasses(pm.getOpAnchorName(), pm.getNesting());
  gpu::buildLowerToNVVMPassPipeline(nvvmPasses, nvvm);
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(nvvmPasses.getPasses(), os,
                        [&](Pass &pass) { pass.printAsTextualPipeline(os); });
  static constexpr llvm::StringLiteral kUpstream = "gpu-module-to-binary{";
  size_t at = text.find(kUpstream);
  if (at == std::string::npos || (at > 0 && text[at - 1] != ',' &&
                                  text[at - 1] != '(' && text[at - 1] != ' '))
    llvm::report_fatal_error("hidet: upstream's NVVM pipeline has no "
                             "gpu-module-to-binary to run in parallel: " +
                             llvm::Twine(text));
  text.insert(at, "hidet-");
  addPipeline(pm, text);
}

void hidet::buildGPUPipeline(OpPassManager &pm,
                             const GPUPipelineOptions &options) {
  buildBufferizationPipeline(pm, options.fromTosa, options.fuse,
                             options.prologueTransposes);
  buildKernelSchedulingPipeline(pm, options);
  buildGPULoweringPipeline(pm, options);
}

/// The tail of both CPU pipelines, upstream passes only: the temporaries
/// freed before each function returns (ownership-based deallocation), then
/// loops and the LLVM dialect. 16-bit math functions and bf16 arithmetic
/// are computed in f32 and rounded after each op, as LLVM would legalize
/// them, and bf16 conversions become integer arithmetic (arith-expand): the
/// host's C runtime need not provide __truncsfbf2 and friends, which
/// libgcc before GCC 13 lacks.
static void buildCPULoweringPipeline(OpPassManager &pm) {
  addPipeline(pm, "buffer-deallocation-pipeline,"
                  "func.func(convert-linalg-to-loops),expand-strided-metadata,"
                  "lower-affine,"
                  "func.func(math-extend-to-supported-types{target-type=f32},"
                  "arith-emulate-unsupported-floats{source-types=bf16 "
                  "target-type=f32},"
                  "arith-expand{include-bf16=true}),"
                  "convert-math-to-llvm,convert-math-to-libm,"
                  "convert-scf-to-cf,"
                  "convert-to-llvm,reconcile-unrealized-casts");
}

void hidet::buildCPUPipeline(OpPassManager &pm,
                             const CPUPipelineOptions &options) {
  if (options.fromTosa)
    tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  // 16-bit matmuls and convolutions accumulate in f32, as on the GPU.
  pm.addNestedPass<func::FuncOp>(createAccumulateInF32());
  buildBufferizationPipeline(pm, /*fromTosa=*/false);
  buildCPULoweringPipeline(pm);
}

void hidet::buildCPUReferencePipeline(OpPassManager &pm,
                                      const CPUPipelineOptions &options) {
  if (options.fromTosa)
    tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  // The one pass of this project besides hidet-reference-bufferize, neither
  // of which the GPU path runs: upstream has no pass that widens an
  // accumulator, and the GPU templates accumulate 16-bit matmuls and
  // convolutions in f32, which the reference must do too for the two to be
  // comparable.
  pm.addNestedPass<func::FuncOp>(createAccumulateInF32());
  // Upstream transform ops only: linalg.softmax decomposed, one-shot
  // bufferization with linalg.copy for its copies.
  pm.addPass(createReferenceBufferize());
  // Outputs become trailing arguments. Every result is copied into its
  // argument (a memcpy: identity layouts): upstream's hoisting of the
  // results' allocations (hoist-static-allocs), which would save the copy,
  // crashes on a buffer returned twice, which the GPU path avoids with a
  // pass of its own (hidet-distinct-results).
  addPipeline(pm, "buffer-results-to-out-params{modify-public-functions=1},"
                  "canonicalize");
  buildCPULoweringPipeline(pm);
}

void hidet::registerHidetPipelines() {
  PassPipelineRegistration<GPUPipelineOptions>(
      "hidet-gpu-pipeline",
      "Compiles linalg on tensors to GPU kernels (rule-based scheduling) and "
      "LLVM-dialect host code with a gpu.binary",
      buildGPUPipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "hidet-cpu-reference-pipeline",
      "Compiles the same input for the CPU with upstream passes and "
      "transform ops, and two passes of this project that the GPU path does "
      "not run (hidet-accumulate-in-f32, hidet-reference-bufferize): the "
      "independent reference of the GPU path",
      buildCPUReferencePipeline);
  PassPipelineRegistration<CPUPipelineOptions>(
      "hidet-cpu-pipeline",
      "Compiles the same input for the CPU with the GPU path's stage 1 "
      "(hidet-bufferize: results in place, fewer copies) and upstream's "
      "lowering to loops",
      buildCPUPipeline);
  PassPipelineRegistration<GPUPipelineOptions>(
      "hidet-graph-pipeline",
      "The graph stage of hidet-bufferize: rewrites on linalg and tensor "
      "that keep the program's meaning (operand scales, transposes, "
      "destinations, slices, elementwise fusion), without deciding kernels",
      [](OpPassManager &pm, const GPUPipelineOptions &o) {
        if (o.fromTosa)
          tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
        buildGraphPipeline(pm, o.fuse);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "hidet-bufferize",
      "Stage 1 of hidet-gpu-pipeline: fusion groups, decomposition and "
      "one-shot bufferization to destination-passing functions",
      [](OpPassManager &pm, const GPUPipelineOptions &o) {
        buildBufferizationPipeline(pm, o.fromTosa, o.fuse,
                                   o.prologueTransposes);
      });
  PassPipelineRegistration<GPUPipelineOptions>(
      "hidet-schedule-kernels",
      "Stage 2 of hidet-gpu-pipeline: the target described, anchor "
      "schedules selected and their templates built, rule-based kernels for "
      "the rest, device buffers, task mappings lowered",
      buildKernelSchedulingPipeline);
  PassPipelineRegistration<GPUPipelineOptions>(
      "hidet-lower-gpu",
      "Stage 3 of hidet-gpu-pipeline: outlining, NVVM lowering, "
      "gpu-module-to-binary and host lowering",
      buildGPULoweringPipeline);
}
