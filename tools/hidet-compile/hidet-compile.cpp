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
//   hidet-compile model.onnx --input-shape x=1x128 -o libmodel.so
//
// Each public function `f` becomes the C entry point `_mlir_ciface_f`, which
// takes one pointer per buffer to a ranked memref descriptor, inputs first,
// then the outputs the function returned (destination-passing style). GPU
// libraries take device buffers and call the mgpu* ABI of libhidet_runtime.
// Every library exports `hidet_manifest`, a text description of its entry
// points (runtime/include/hidet/Manifest.h), so that hidet-run needs no
// other input.
//
//===----------------------------------------------------------------------===//

#include "Library.h"
#include "Manifest.h"

#include "Hidet/InitAllDialects.h"
#include "Hidet/Pipelines/Pipelines.h"
#include "Hidet/Transforms/Passes.h"
#ifdef HIDET_ENABLE_ONNX
#include "Hidet/Import/OnnxImporter.h"
#endif

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
static cl::list<std::string>
    pipelineOptions("pipeline-options",
                    cl::desc("Options of hidet-gpu-pipeline / "
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
    cl::desc(
        "ONNX input: Merge sibling projections (MatMul + Add of the same input "
        "with known weights, as attention's query, key and value) into "
        "one MatMul + Add and slices of its result (default on)"),
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
static cl::opt<std::string> tuningSpace(
    "tuning-space",
    cl::desc("The candidates of --tuning-plan: default, small (default) or "
             "full"),
    cl::init("small"), cl::cat(category));
static cl::opt<std::string> externalWeights(
    "external-weights",
    cl::desc("ONNX input: write the weights to this file instead of into "
             "the library; they become inputs that the manifest marks "
             "'weight' (hidet-run --weights=FILE)"),
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
static FailureOr<OwningOpRef<ModuleOp>> importOnnx(MLIRContext *context) {
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
  options.mergeProjections = mergeProjections;
  // Written beside the library and put in place with it.
  if (!externalWeights.empty())
    options.externalWeights = externalWeights + ".partial";
  OwningOpRef<ModuleOp> module =
      hidet::onnx_import::importOnnxFile(inputFile, context, options);
  if (!module) {
    fail("cannot import " + inputFile);
    return failure();
  }
  return module;
}
#endif

static int compile(int argc, char **argv) {
  registerAllPasses();
  hidet::registerHidetPasses();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Hidet-MLIR ahead-of-time compiler\n");
  if (target != "gpu" && target != "cpu")
    return fail("--target must be gpu or cpu, got '" + target + "'");

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
    FailureOr<OwningOpRef<ModuleOp>> imported = importOnnx(&context);
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
        precision.getNumOccurrences() || convLayout.getNumOccurrences() ||
        !externalWeights.empty())
      return fail("--input-shape, --default-dim, --precision, --conv-layout "
                  "and --external-weights apply to ONNX models (.onnx, "
                  ".onnxtxt), not to " +
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
  if (target == "gpu" && constantsAsWeights) {
    PassManager weights = PassManager::on<ModuleOp>(&context);
    // Every constant that is not a splat, however small: one left in the
    // module is copied from the host on every call, which a CUDA graph
    // cannot replay (the runtime then launches without one).
    hidet::ConstantsToWeightsOptions everyConstant;
    everyConstant.maxInlineElements = 0;
    weights.addPass(hidet::createConstantsToWeights(everyConstant));
    if (failed(weights.run(*module)))
      return fail("moving constants to weights failed");
  }
  FailureOr<std::string> manifest = hidet::compile::buildManifest(
      *module, target,
      externalWeights.empty() ? std::string() : getWeightsReference());
  if (failed(manifest))
    return 1;
  std::string weightsImage = hidet::compile::takeWeightValues(*module);

  PassManager pm = PassManager::on<ModuleOp>(&context);
  std::string pipeline =
      (target == "gpu" ? "hidet-gpu-pipeline" : "hidet-cpu-pipeline");
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
      opts += " tuning-plan=\"" + tuningPlan + "\" tuning-space=" + tuningSpace;
  }
  pipeline += "{" + opts + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return fail("bad --pipeline-options '" + llvm::join(pipelineOptions, " ") +
                "'");
  if (failed(pm.run(*module)))
    return fail("the " + target + " pipeline failed");
  *manifest = hidet::compile::addWorkspaces(*manifest, *module);

  if (emit == "mlir") {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (ec)
      return fail("cannot write " + outputFile);
    module->print(os);
    return 0;
  }

  hidet::compile::dropArgumentAnnotations(*module);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "hidet");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  hidet::compile::addManifest(*llvmModule, *manifest, weightsImage);
  if (emit == "llvm") {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (ec)
      return fail("cannot write " + outputFile);
    llvmModule->print(os, nullptr);
    return 0;
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  std::string object = emit == "obj" ? outputFile : outputFile + ".o";
  if (llvm::Error e = hidet::compile::emitObject(*llvmModule, object))
    return fail(llvm::toString(std::move(e)));
  if (emit == "obj")
    return 0;
  if (emit != "so")
    return fail("--emit must be so, obj, llvm or mlir");
  llvm::Error linked = hidet::compile::linkSharedLibrary(
      object, outputFile, linker,
      target == "gpu" ? StringRef(runtimeDir) : StringRef());
  llvm::sys::fs::remove(object);
  if (linked)
    return fail(llvm::toString(std::move(linked)));
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  int rc = compile(argc, argv);
  // The weights file appears with the library, or not at all.
  if (!externalWeights.empty()) {
    std::string partial = externalWeights + ".partial";
    if (rc != 0) {
      llvm::sys::fs::remove(partial);
    } else if (std::error_code ec =
                   llvm::sys::fs::rename(partial, externalWeights)) {
      llvm::sys::fs::remove(partial);
      return fail("cannot write " + externalWeights + ": " + ec.message());
    }
  }
  return rc;
}
