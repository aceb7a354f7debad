//===- hidet-compile.cpp - Ahead-of-time compiler to shared libraries -----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Turns a module of func.func on tensors (linalg, arith, math, tensor; or
// TOSA with --from-tosa), or an ONNX model, into a native shared library:
//
//   hidet-compile model.mlir -o libmodel.so                # GPU (cubin inside)
//   hidet-compile model.mlir --target=cpu -o libmodel.ref.so   # CPU reference
//   hidet-compile model.mlir --target=cpu --cpu-pipeline=fast -o lib.cpu.so
//   hidet-compile model.onnx --input-shape x=1x128 -o libmodel.so
//
// Each public function `f` becomes the C entry point `_mlir_ciface_f`, which
// takes one pointer per buffer to a ranked memref descriptor, inputs first,
// then the outputs the function returned (destination-passing style). GPU
// libraries take device buffers and call the mgpu* ABI of libhidet_runtime.
// Every library exports `hidet_manifest`, a text description of its entry
// points (runtime/include/hidet/Manifest.h), so that hidet-run needs no
// other input. Tensor indices that come from data are checked at run time
// (hidet-check-indices; --check-indices=0 turns it off). Everything the
// run writes appears when it succeeds and not at all when it fails
// (Outputs.h).
//
//===----------------------------------------------------------------------===//

#include "Library.h"
#include "Manifest.h"
#include "ManifestParser.h"
#include "Outputs.h"

#include "Hidet/InitAllDialects.h"
#include "Hidet/Pipelines/Pipelines.h"
#include "Hidet/Transforms/Passes.h"
#ifdef HIDET_ENABLE_ONNX
#include "Hidet/Import/OnnxImporter.h"
#endif

#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory category("hidet-compile options");
static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input.mlir>"),
                                      cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output shared library"),
                                       cl::value_desc("file"), cl::Required,
                                       cl::cat(category));
static cl::opt<std::string> target("target", cl::desc("gpu or cpu"),
                                   cl::init("gpu"), cl::cat(category));
static cl::opt<std::string> cpuPipeline(
    "cpu-pipeline",
    cl::desc("CPU libraries: reference (default: "
             "hidet-cpu-reference-pipeline, which runs no pass of the GPU "
             "pipeline: the independent reference to check GPU libraries "
             "against with hidet-run --ref) or fast (hidet-cpu-pipeline: the "
             "GPU path's bufferization, fewer copies)"),
    cl::init("reference"), cl::cat(category));
static cl::opt<bool> dumpPassPipeline(
    "dump-pass-pipeline",
    cl::desc("Print each pass pipeline to stderr before running it (the "
             "index checks', the weights', the target's)"),
    cl::init(false), cl::cat(category));
static cl::list<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("Options of hidet-gpu-pipeline / "
                             "hidet-cpu-reference-pipeline / "
                             "hidet-cpu-pipeline, e.g. "
                             "\"chip=sm_90a cubin-format=bin\"; may be "
                             "given more than once (the options add up)"),
                    cl::cat(category));
static cl::opt<bool> fromTosa("from-tosa",
                              cl::desc("The input is TOSA (runs upstream "
                                       "tosa-to-linalg first)"),
                              cl::init(false), cl::cat(category));
static cl::opt<std::string>
    emit("emit", cl::desc("What to write: so (default), obj, llvm or mlir"),
         cl::init("so"), cl::cat(category));
static cl::opt<bool> checkIndices(
    "check-indices",
    cl::desc("Check at run time the tensor indices that come from data (a "
             "gather's, an embedding's): reads stay inside their tensors, "
             "and a run with an index out of range fails with an error "
             "naming the input (hidet-check-indices; default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<std::string>
    runtimeDir("runtime-dir",
               cl::desc("Directory of libhidet_runtime.so to link GPU "
                        "libraries against (with an $ORIGIN rpath)"),
               cl::init(""), cl::cat(category));
static cl::opt<std::string>
    linker("linker",
           cl::desc("C compiler driver used to link (default: cc, or where "
                    "there is none, the clang of the LLVM hidet-compile was "
                    "built with)"),
           cl::init(""), cl::cat(category));

static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("ONNX input: static shape of a graph input, "
                         "name=1x128 (repeatable)"),
                cl::value_desc("name=dims"), cl::cat(category));
static cl::opt<std::string> precision(
    "precision",
    cl::desc("ONNX input: compute type of float32 models: f32 (default), "
             "f16 or bf16 (weights converted at import, float32 inputs and "
             "outputs converted at the boundary)"),
    cl::init("f32"), cl::cat(category));
static cl::opt<hidet::onnx_import::ConvLayout> convLayout(
    "conv-layout",
    cl::desc("ONNX input: layout of 2-D convolutions with known filters"),
    hidet::onnx_import::convLayoutOptionValues(),
    cl::init(hidet::onnx_import::ConvLayout::NHWC), cl::cat(category));
static cl::opt<bool> mergeProjections(
    "merge-projections",
    cl::desc("GPU libraries: merge the matmuls of one input by constant "
             "weights (attention's query, key and value; a gated MLP's gate "
             "and up projections) into one, with their bias additions "
             "(hidet-merge-projections; default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<std::string> tuningRecords(
    "tuning-records",
    cl::desc("GPU libraries: a tuning records file (docs/Tuning.md); the "
             "anchors it has a record for take the record's schedule "
             "(hidet-select-schedules{tuning-records})"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> tuningPlan(
    "tuning-plan",
    cl::desc("GPU libraries: also write the tuning plan of the anchors to "
             "this directory: plan.json and a records file per round "
             "(docs/Tuning.md)"),
    cl::value_desc("dir"), cl::cat(category));
static cl::opt<std::string> kernelSummary(
    "kernel-summary",
    cl::desc("GPU libraries: also write what each kernel is (its template "
             "or rule, schedule and fused ops) to this file, as JSON "
             "(hidet-summarize-kernels)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> tuningSpace(
    "tuning-space",
    cl::desc("The candidates of --tuning-plan: default, small (default) or "
             "full"),
    cl::init("small"), cl::cat(category));
static cl::opt<std::string> externalWeights(
    "external-weights",
    cl::desc("Write the weights (every constant that is not a splat, "
             "however small) to this file instead of into the library; they "
             "become inputs that the manifest marks 'weight' (hidet-run "
             "--weights=FILE)"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<bool> constantsAsWeights(
    "constants-as-weights",
    cl::desc("GPU libraries: large constants become weight inputs whose "
             "values the library holds as a weights image, uploaded to the "
             "device once by the runtime instead of on every call "
             "(hidet-constants-to-weights; default on)"),
    cl::init(true), cl::cat(category));
static cl::opt<int64_t>
    defaultDim("default-dim",
               cl::desc("ONNX input: extent of symbolic input dimensions "
                        "that --input-shape does not fix (default 1)"),
               cl::init(1), cl::cat(category));

static cl::opt<std::string> cudaPath(
    "cuda-path",
    cl::desc("GPU libraries: the CUDA toolkit whose libdevice and ptxas "
             "build the kernels (default: $CUDA_ROOT, $CUDA_HOME or "
             "$CUDA_PATH, else the toolkit of the ptxas on PATH, else "
             "/usr/local/cuda, where nvvm/libdevice is)"),
    cl::value_desc("dir"), cl::cat(category));

static int fail(const llvm::Twine &msg) {
  llvm::errs() << "hidet-compile: " << msg << "\n";
  return 1;
}

/// Makes the CUDA toolkit known to upstream's NVVM target, which reads it
/// from the environment only (CUDA_ROOT first) and has no default in
/// Debian's build: without it, kernels that call libdevice do not link.
static void selectCudaToolkit() {
  std::string path = cudaPath;
  if (path.empty()) {
    for (const char *name : {"CUDA_ROOT", "CUDA_HOME", "CUDA_PATH"})
      if (const char *value = std::getenv(name); value && *value)
        return;
    // A toolkit is a directory with nvvm/libdevice (a ptxas on PATH may
    // come from elsewhere, e.g. a Python package).
    auto hasLibdevice = [](StringRef dir) {
      return llvm::sys::fs::exists(dir + "/nvvm/libdevice/libdevice.10.bc");
    };
    if (llvm::ErrorOr<std::string> ptxas =
            llvm::sys::findProgramByName("ptxas"))
      path = llvm::sys::path::parent_path(llvm::sys::path::parent_path(*ptxas))
                 .str();
    if (!hasLibdevice(path))
      path = "/usr/local/cuda";
    if (!hasLibdevice(path))
      return;
  }
  ::setenv("CUDA_ROOT", path.c_str(), /*overwrite=*/1);
}

/// How the manifest names the external weights file: its path relative to
/// the library's directory when both are in the same one, else as given.
static std::string getWeightsReference() {
  StringRef weightsDir = llvm::sys::path::parent_path(externalWeights);
  StringRef libDir = llvm::sys::path::parent_path(outputFile);
  if (weightsDir == libDir)
    return llvm::sys::path::filename(externalWeights).str();
  SmallString<256> absolute(externalWeights);
  llvm::sys::fs::make_absolute(absolute);
  return absolute.str().str();
}

#ifdef HIDET_ENABLE_ONNX
/// Imports the ONNX model named by the positional argument.
static FailureOr<OwningOpRef<ModuleOp>>
importOnnx(MLIRContext *context, hidet::compile::PendingOutputs &outputs) {
  hidet::onnx_import::ImportOptions options;
  for (const std::string &spec : inputShapes) {
    auto [name, dims] = StringRef(spec).rsplit('=');
    SmallVector<int64_t> shape;
    if (name.empty() || !hidet::onnx_import::parseShape(dims, shape)) {
      fail("--input-shape expects name=AxB..., got '" + spec + "'");
      return failure();
    }
    options.inputShapes[name] = shape;
  }
  if (defaultDim < 1) {
    fail("--default-dim must be positive");
    return failure();
  }
  options.defaultDim = defaultDim;
  options.precision = precision;
  options.convLayout = convLayout;
  OwningOpRef<ModuleOp> module =
      hidet::onnx_import::importOnnxFile(inputFile, context, options);
  if (!module) {
    fail("cannot import " + inputFile);
    return failure();
  }
  return module;
}
#endif

/// Writes `module` (MLIR) or `llvmModule` (LLVM IR) to the output, or to
/// stdout for `-o -`.
template <typename Printable>
static int writeText(const Printable &print,
                     hidet::compile::PendingOutputs &outputs) {
  std::string path = outputFile == "-" ? "-" : outputs.addFile(outputFile);
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec);
  if (ec)
    return fail("cannot write " + outputFile + ": " + ec.message());
  print(os);
  os.close();
  if (os.has_error()) {
    os.clear_error();
    return fail("cannot write " + outputFile);
  }
  return 0;
}

/// Runs `pm` on `module`, printing its passes first with
/// --dump-pass-pipeline: every pass that compiles the library is shown, those
/// that run before the manifest is built too.
static LogicalResult runPasses(PassManager &pm, ModuleOp module) {
  if (dumpPassPipeline) {
    pm.printAsTextualPipeline(llvm::errs(), /*pretty=*/true);
    llvm::errs() << "\n";
  }
  return pm.run(module);
}

static int compile(hidet::compile::PendingOutputs &outputs) {
  if (target != "gpu" && target != "cpu")
    return fail("--target must be gpu or cpu, got '" + target + "'");
  if (cpuPipeline != "reference" && cpuPipeline != "fast")
    return fail("--cpu-pipeline must be reference or fast, got '" +
                cpuPipeline + "'");
  if (target != "cpu" && cpuPipeline.getNumOccurrences())
    return fail("--cpu-pipeline applies to CPU libraries (--target=cpu)");
  if (emit != "so" && emit != "obj" && emit != "llvm" && emit != "mlir")
    return fail("--emit must be so, obj, llvm or mlir, got '" + emit + "'");
  // Outputs go to temporaries beside them: their directories must exist.
  for (StringRef path : {StringRef(outputFile), StringRef(externalWeights)}) {
    StringRef dir = llvm::sys::path::parent_path(path);
    if (!path.empty() && path != "-" && !dir.empty() &&
        !llvm::sys::fs::is_directory(dir))
      return fail("cannot write " + path + ": No such file or directory");
  }

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  hidet::registerHidetDialects(registry);
  MLIRContext context(registry);
  // Errors and warnings (a tuning record not applied, say) reach the user;
  // the passes' remarks, which explain every choice, do not.
  ScopedDiagnosticHandler diagnostics(&context, [](Diagnostic &d) {
    if (d.getSeverity() == DiagnosticSeverity::Remark)
      return success();
    if (d.getSeverity() != DiagnosticSeverity::Warning)
      return failure(); // Errors: printed as MLIR prints them.
    llvm::errs() << d.getLocation() << ": warning: " << d << "\n";
    for (const Diagnostic &note : d.getNotes())
      llvm::errs() << note.getLocation() << ": note: " << note << "\n";
    return success();
  });

  OwningOpRef<ModuleOp> module;
  StringRef input = inputFile;
  if (input.ends_with(".onnx") || input.ends_with(".onnxtxt")) {
#ifdef HIDET_ENABLE_ONNX
    FailureOr<OwningOpRef<ModuleOp>> imported = importOnnx(&context, outputs);
    if (failed(imported))
      return 1;
    module = std::move(*imported);
#else
    return fail("this build has no ONNX importer (configure with "
                "HIDET_ENABLE_ONNX=ON)");
#endif
  } else {
    // Import options on an MLIR input are a mistake, not a no-op.
    if (!inputShapes.empty() || defaultDim.getNumOccurrences() ||
        precision.getNumOccurrences() || convLayout.getNumOccurrences())
      return fail("--input-shape, --default-dim, --precision and "
                  "--conv-layout apply to ONNX models (.onnx, .onnxtxt), not "
                  "to " +
                  inputFile);
    std::string error;
    auto file = openInputFile(inputFile, &error);
    if (!file)
      return fail(error);
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    module = parseSourceFile<ModuleOp>(sourceMgr, &context);
    if (!module)
      return fail("cannot parse " + inputFile);
  }

  if (target == "gpu")
    selectCudaToolkit();
  if (target == "gpu" && mergeProjections) {
    // While the weights are constants: a function argument cannot be
    // concatenated once for all calls. The CPU reference computes the
    // projections apart, which checks the merge.
    PassManager graph = PassManager::on<ModuleOp>(&context);
    graph.addNestedPass<func::FuncOp>(hidet::createMergeProjections());
    if (failed(runPasses(graph, *module)))
      return fail("merging projections failed");
  }
  if (checkIndices) {
    // Before the manifest, which lists the statuses it adds, and before
    // constants become weights, so that constant indices are seen as such.
    PassManager checks = PassManager::on<ModuleOp>(&context);
    if (fromTosa)
      tosa::addTosaToLinalgPasses(checks, TosaToLinalgOptions());
    checks.addPass(hidet::createCheckIndices());
    if (failed(runPasses(checks, *module)))
      return fail("checking indices failed");
  }
  if (!externalWeights.empty() && target == "gpu" && !constantsAsWeights)
    return fail("--external-weights writes the weights that "
                "--constants-as-weights makes; it cannot be turned off");
  if ((target == "gpu" && constantsAsWeights) || !externalWeights.empty()) {
    PassManager weights = PassManager::on<ModuleOp>(&context);
    // Every constant that is not a splat, however small: one left in the
    // module is copied from the host on every call, which a CUDA graph
    // cannot replay (the runtime then launches without one).
    hidet::ConstantsToWeightsOptions everyConstant;
    everyConstant.maxInlineElements = 0;
    weights.addPass(hidet::createConstantsToWeights(everyConstant));
    if (failed(runPasses(weights, *module)))
      return fail("moving constants to weights failed");
  }
  FailureOr<std::string> manifest = hidet::compile::buildManifest(
      *module, target,
      externalWeights.empty() ? std::string() : getWeightsReference());
  if (failed(manifest))
    return 1;
  std::string weightsImage = hidet::compile::takeWeightValues(
      *module, /*always=*/!externalWeights.empty());
  if (!externalWeights.empty()) {
    // Written beside the library and put in place with it; the library
    // holds none.
    std::string path = outputs.addFile(externalWeights);
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    os << weightsImage;
    os.close();
    if (ec || os.has_error()) {
      os.clear_error();
      return fail("cannot write " + externalWeights);
    }
    weightsImage.clear();
  }

  PassManager pm = PassManager::on<ModuleOp>(&context);
  std::string pipeline = "hidet-gpu-pipeline";
  if (target == "cpu")
    pipeline = cpuPipeline == "fast" ? "hidet-cpu-pipeline"
                                     : "hidet-cpu-reference-pipeline";
  std::string opts = llvm::join(pipelineOptions, " ");
  if (fromTosa)
    opts += " from-tosa=1";
  if (!tuningRecords.empty() || !tuningPlan.empty()) {
    if (target != "gpu")
      return fail("--tuning-records and --tuning-plan apply to GPU libraries "
                  "(--target=gpu)");
    if (!tuningRecords.empty())
      opts += " tuning-records=\"" + tuningRecords + "\"";
    if (!tuningPlan.empty())
      opts += " tuning-plan=\"" + outputs.addDirectory(tuningPlan) +
              "\" tuning-space=" + tuningSpace;
  }
  if (!kernelSummary.empty()) {
    if (target != "gpu")
      return fail("--kernel-summary applies to GPU libraries (--target=gpu)");
    opts += " kernel-summary=\"" + outputs.addFile(kernelSummary) + "\"";
  }
  pipeline += "{" + opts + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return fail("bad --pipeline-options '" + llvm::join(pipelineOptions, " ") +
                "'");
  if (failed(runPasses(pm, *module)))
    return fail("the " + target + " pipeline failed");
  *manifest = hidet::compile::addWorkspaces(*manifest, *module);
  // What hidet-run and the model runtime will read: checked with their
  // parser, so that no library is written that they reject.
  hidet::run::Manifest parsed;
  std::string manifestError;
  if (!hidet::run::parseManifest(*manifest, parsed, manifestError))
    return fail("the library's manifest would be malformed (" + manifestError +
                "):\n" + *manifest);

  if (emit == "mlir")
    return writeText([&](llvm::raw_ostream &os) { module->print(os); },
                     outputs);

  hidet::compile::dropArgumentAnnotations(*module);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "hidet");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  hidet::compile::addManifest(*llvmModule, *manifest, weightsImage);
  if (emit == "llvm")
    return writeText(
        [&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); },
        outputs);

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string object = emit == "obj" ? outputs.addFile(outputFile)
                                     : outputs.addScratch(outputFile);
  if (llvm::Error e =
          hidet::compile::emitObject(*llvmModule, object, outputFile))
    return fail(llvm::toString(std::move(e)));
  if (emit == "obj")
    return 0;
  if (llvm::Error linked = hidet::compile::linkSharedLibrary(
          object, outputs.addFile(outputFile), linker,
          target == "gpu" ? StringRef(runtimeDir) : StringRef()))
    return fail(llvm::toString(std::move(linked)));
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  hidet::registerHidetPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Hidet-MLIR ahead-of-time compiler\n");
  // The library, the weights file and the tuning plan appear together, or
  // not at all.
  hidet::compile::PendingOutputs outputs;
  int rc = compile(outputs);
  if (rc == 0)
    if (llvm::Error e = outputs.commit())
      return fail(llvm::toString(std::move(e)));
  return rc;
}
