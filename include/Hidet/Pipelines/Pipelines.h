//===- Pipelines.h - Registered Hidet pass pipelines ------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The named pass pipelines of the project, with one options struct each.
// hidet-opt, the mlir-opt plugin and C++ users (hidet-compile) all build
// them through these functions.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_PIPELINES_PIPELINES_H
#define HIDET_PIPELINES_PIPELINES_H

#include "Hidet/Schedule/Target.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace hidet {

/// Options of `hidet-gpu-pipeline`: linalg on tensors to a gpu.binary with
/// host code in the LLVM dialect.
struct GPUPipelineOptions
    : public mlir::PassPipelineOptions<GPUPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("Target GPU (sm_80, sm_86, sm_89, sm_90, sm_90a): the "
                     "#hidet.target every pass reads, and the chip the "
                     "device code is compiled for"),
      llvm::cl::init(schedule::kDefaultChip)};
  PassOptions::Option<std::string> features{
      *this, "features", llvm::cl::desc("PTX features for the NVVM target"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> cubinFormat{
      *this, "cubin-format",
      llvm::cl::desc("Format of the GPU binary: bin (cubin, needs ptxas), "
                     "fatbin, isa (PTX text) or llvm"),
      llvm::cl::init("bin")};
  PassOptions::Option<int> optLevel{
      *this, "opt-level",
      llvm::cl::desc("LLVM optimization level of the device code"),
      llvm::cl::init(3)};
  PassOptions::Option<bool> fromTosa{
      *this, "from-tosa", llvm::cl::desc("Run upstream tosa-to-linalg first"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of rule-based kernels and of the "
                     "split-K reduction kernel"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> transposeTile{
      *this, "transpose-tile",
      llvm::cl::desc("Shared-memory tile side of rule-based transposes"),
      llvm::cl::init(64)};
  PassOptions::Option<bool> fuseRows{
      *this, "fuse-rows",
      llvm::cl::desc("Schedule row groups (softmax, layer norm, ...) as one "
                     "kernel"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> anchors{
      *this, "anchors",
      llvm::cl::desc("Instantiate the anchor templates (matmul, batch "
                     "matmul, convolution); off, anchors get the naive "
                     "rule-based kernels, e.g. as a GPU reference"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Partition the graph into fusion groups "
                     "(hidet-partition) and fuse each anchor's epilogue "
                     "chain and prologues into its kernel "
                     "(hidet-schedule-anchors{fuse=1}); "
                     "off, every op is its own kernel"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> prologueTransposes{
      *this, "prologue-transposes",
      llvm::cl::desc("hidet-partition{prologue-transposes}: a transpose "
                     "into rows of an unaligned pitch that feeds a "
                     "contraction is read by it in place"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> tf32{
      *this, "tf32",
      llvm::cl::desc("Run f32 matmuls and convolutions on the tensor cores "
                     "in tf32 (hidet-schedule-anchors{tf32=1})"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> tf32Terms{
      *this, "tf32-terms",
      llvm::cl::desc("With tf32: tf32 products per f32 product, 1 or 3 "
                     "(hidet-select-schedules{tf32-terms})"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> attention{
      *this, "attention",
      llvm::cl::desc("With fuse: build each attention (Q K^T, softmax, P V) "
                     "as one fused kernel (hidet-select-schedules{attention})"),
      llvm::cl::init(true)};
  PassOptions::Option<std::string> tuningRecords{
      *this, "tuning-records",
      llvm::cl::desc("A tuning records file whose schedules the anchors "
                     "with a matching record take "
                     "(hidet-select-schedules{tuning-records})"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> tuningPlan{
      *this, "tuning-plan",
      llvm::cl::desc("A directory to write the tuning plan of the anchors "
                     "to: their candidates and one records file per round "
                     "(hidet-plan-tuning)"),
      llvm::cl::init("")};
  PassOptions::Option<std::string> tuningSpace{
      *this, "tuning-space",
      llvm::cl::desc("The candidates of the tuning plan: default, small or "
                     "full (hidet-plan-tuning{space})"),
      llvm::cl::init("small")};
  PassOptions::Option<std::string> kernelSummary{
      *this, "kernel-summary",
      llvm::cl::desc("A file to write what each kernel is and what it fused "
                     "to, as JSON (hidet-summarize-kernels)"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> numSMs{
      *this, "num-sms",
      llvm::cl::desc("Multiprocessors of the target GPU (0: the chip's; "
                     "hidet-set-target{num-sms})"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> splitKInKernel{
      *this, "split-k-in-kernel",
      llvm::cl::desc("With split-K, the GEMM kernel adds the K slices itself "
                     "instead of a second kernel "
                     "(hidet-schedule-anchors{split-k-in-kernel})"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> convRowTiles{
      *this, "conv-row-tiles",
      llvm::cl::desc("Give convolutions whose window has several taps of at "
                     "least 64 channels 64-row wgmma tiles; off: the GEMM "
                     "model's tiles (hidet-select-schedules{conv-row-tiles})"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> wgmmaTmaB{
      *this, "wgmma-tma-b",
      llvm::cl::desc("In the wgmma template, B by TMA beside A's cp.async "
                     "copies (a convolution's filter, K and N multiples of 64) "
                     "(hidet-schedule-anchors{wgmma-tma-b})"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> wgmmaAsyncArrive{
      *this, "wgmma-async-arrive",
      llvm::cl::desc("In the wgmma template's cp.async producer, arrive on "
                     "a stage as the copies land instead of waiting for them "
                     "(hidet-schedule-anchors{wgmma-async-arrive})"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> attentionSkipMasked{
      *this, "attention-skip-masked",
      llvm::cl::desc("Fused attentions skip, per warp, the key tiles that "
                     "their scores' mask hides entirely "
                     "(hidet-schedule-anchors{attention-skip-masked})"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> fastMath{
      *this, "fast-math",
      llvm::cl::desc("Let kernels use approximate division and math "
                     "functions (hidet-fast-math)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> exp2Tanh{
      *this, "exp2-tanh",
      llvm::cl::desc("16-bit tanh from exp2 and a reciprocal instead of "
                     "tanh.approx.f32 (hidet-narrow-math)"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("Bytes per thread access in rule-based injective "
                     "kernels"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("Place the temporaries of public functions in one "
                     "workspace argument shared by liveness "
                     "(hidet-plan-device-memory)"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> workspaceAlignment{
      *this, "workspace-alignment",
      llvm::cl::desc("Alignment of each temporary in the workspace, in bytes "
                     "(hidet-plan-device-memory{alignment})"),
      llvm::cl::init(256)};
};

/// Options of the CPU pipelines, which compile the same input to
/// LLVM-dialect CPU code: `hidet-cpu-reference-pipeline` (upstream passes
/// and transform ops, the independent reference of the GPU path) and
/// `hidet-cpu-pipeline` (the GPU path's stage 1, then upstream's loops).
struct CPUPipelineOptions
    : public mlir::PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> fromTosa{
      *this, "from-tosa", llvm::cl::desc("Run upstream tosa-to-linalg first"),
      llvm::cl::init(false)};
};

/// The graph stage of the GPU path: rewrites on linalg and tensor that
/// keep the program's meaning (with `fuse`, also those that prepare fusion:
/// operand scales moved to results, concatenated slices and elementwise
/// chains made single ops). buildBufferizationPipeline starts with it.
void buildGraphPipeline(mlir::OpPassManager &pm, bool fuse);

/// Stages of the GPU pipeline, usable alone. With `partition`, the fusion
/// groups are decided on tensors, before bufferization (their attributes
/// stay on the linalg ops).
void buildBufferizationPipeline(mlir::OpPassManager &pm, bool fromTosa,
                                bool partition = false,
                                bool prologueTransposes = false);
void buildKernelSchedulingPipeline(mlir::OpPassManager &pm,
                                   const GPUPipelineOptions &options);
void buildGPULoweringPipeline(mlir::OpPassManager &pm,
                              const GPUPipelineOptions &options);

/// The whole pipelines.
void buildGPUPipeline(mlir::OpPassManager &pm,
                      const GPUPipelineOptions &options);
void buildCPUPipeline(mlir::OpPassManager &pm,
                      const CPUPipelineOptions &options);
void buildCPUReferencePipeline(mlir::OpPassManager &pm,
                               const CPUPipelineOptions &options);

/// Registers hidet-gpu-pipeline, hidet-cpu-reference-pipeline,
/// hidet-cpu-pipeline and the stage pipelines.
void registerHidetPipelines();

} // namespace hidet

#endif // HIDET_PIPELINES_PIPELINES_H
