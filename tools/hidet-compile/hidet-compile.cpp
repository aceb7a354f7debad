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

#include "Hidet/InitAllDialects.h"
#include "Hidet/Pipelines/Pipelines.h"
#include "Hidet/Runtime/ManifestTypes.h"
#include "Hidet/Runtime/WeightsImage.h"
#include "Hidet/Transforms/Passes.h"
#include "hidet/Manifest.h"
#ifdef HIDET_ENABLE_ONNX
#include "Hidet/Import/OnnxImporter.h"
#endif

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
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
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

#include <list>

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
static cl::opt<std::string> linker("linker",
                                   cl::desc("C compiler driver used to link"),
                                   cl::init("cc"), cl::cat(category));

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

/// Whether `name` can be a manifest token naming an argument.
static bool isManifestName(StringRef name) {
  return !name.empty() && name.size() <= 256 && llvm::all_of(name, [](char c) {
    return llvm::isPrint(c) && c != ' ' && c != '#';
  });
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

/// Moves the values of the weight inputs that hidet-constants-to-weights
/// made (`hidet.weight_value`) into a weights image (hidet/Weights.h),
/// returned empty when there are none.
static std::string takeWeightValues(ModuleOp module) {
  SmallVector<hidet::WeightRecord> records;
  SmallVector<std::string> dtypes;
  // The bytes of i1 values, a byte per element as the image stores them
  // (an attribute packs them in bits); stable while `records` is written.
  std::list<std::vector<char>> unpacked;
  module.walk([&](func::FuncOp func) {
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      auto value = func.getArgAttrOfType<ElementsAttr>(i, "hidet.weight_value");
      auto name = func.getArgAttrOfType<StringAttr>(i, "hidet.weight");
      if (!value || !name)
        continue;
      auto type = cast<ShapedType>(value.getType());
      ArrayRef<char> data;
      if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
        data = resource.getRawHandle().getBlob()->getData();
      } else if (type.getElementType().isInteger(1)) {
        std::vector<char> &bytes = unpacked.emplace_back();
        for (bool b : cast<DenseElementsAttr>(value).getValues<bool>())
          bytes.push_back(b ? 1 : 0);
        data = bytes;
      } else {
        data = cast<DenseElementsAttr>(value).getRawData();
      }
      records.push_back({name.getValue(),
                         hidet::manifestDTypeName(type.getElementType()),
                         type.getShape(), data});
      func.removeArgAttr(i, "hidet.weight_value");
    }
  });
  std::string image;
  if (records.empty())
    return image;
  llvm::raw_string_ostream os(image);
  hidet::writeWeightsImage(os, records);
  return image;
}

/// Adds `workspace <bytes> <intermediates>` after each `func` statement of
/// `manifest` whose function took a workspace (hidet-plan-device-memory),
/// as the lowered module's `hidet.workspace` attributes say.
static std::string addWorkspaces(StringRef manifest, ModuleOp module) {
  llvm::StringMap<std::pair<int64_t, int64_t>> workspaces;
  module.walk([&](Operation *op) {
    auto info = op->getAttrOfType<DictionaryAttr>("hidet.workspace");
    auto name = op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName());
    if (!info || !name)
      return;
    auto size = info.getAs<IntegerAttr>("size");
    auto sum = info.getAs<IntegerAttr>("intermediates");
    if (size && sum)
      workspaces[name.getValue()] = {size.getInt(), sum.getInt()};
  });
  std::string text;
  SmallVector<StringRef> lines;
  manifest.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    text += line.str() + "\n";
    SmallVector<StringRef> tokens;
    line.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (tokens.size() != 4 || tokens[0] != "func")
      continue;
    auto it = workspaces.find(tokens[1]);
    if (it != workspaces.end())
      text += "workspace " + std::to_string(it->second.first) + " " +
              std::to_string(it->second.second) + "\n";
  }
  return text;
}

/// Describes the public functions of `module` and marks them for C
/// interface emission. Fails on signatures the libraries cannot expose. The
/// `target` statement lets a runner give the library host or device buffers
/// without being told.
static FailureOr<std::string> buildManifest(ModuleOp module) {
  std::string text = "hidet-manifest 1\n";
  llvm::raw_string_ostream os(text);
  os << "target " << target << "\n";
  if (!externalWeights.empty())
    os << "weights " << getWeightsReference() << "\n";
  bool ok = true;
  module.walk([&](func::FuncOp func) {
    if (func.isPrivate() || func.isExternal())
      return;
    auto type = func.getFunctionType();
    os << "func " << func.getSymName() << " " << type.getNumInputs() << " "
       << type.getNumResults() << "\n";
    unsigned index = 0;
    llvm::StringSet<> weightNames;
    auto describe = [&](Type t, const char *dir) {
      auto tensor = dyn_cast<RankedTensorType>(t);
      std::string dtype =
          tensor ? hidet::manifestDTypeName(tensor.getElementType()).str() : "";
      if (!tensor || !tensor.hasStaticShape() || dtype.empty()) {
        func.emitError("hidet-compile: entry points take and return "
                       "statically shaped tensors of f32, f16, bf16, f64, "
                       "i1, i8, i32 or i64; got ")
            << t;
        ok = false;
        return;
      }
      // An input that holds a weight of an external weights file, named
      // by one manifest token, once per function.
      StringAttr weight;
      if (index < type.getNumInputs()) {
        if (Attribute a = func.getArgAttr(index, "hidet.weight")) {
          weight = dyn_cast<StringAttr>(a);
          if (!weight || weight.getValue().empty() ||
              !llvm::all_of(weight.getValue(), [](char c) {
                return llvm::isAlnum(c) || c == '_' || c == '.';
              })) {
            func.emitError("hidet-compile: hidet.weight of argument ")
                << index << " must be a name of letters, digits, '_' and "
                << "'.'; got " << a;
            ok = false;
            return;
          }
          if (!weightNames.insert(weight.getValue()).second) {
            func.emitError("hidet-compile: two arguments are the weight '")
                << weight.getValue() << "'";
            ok = false;
            return;
          }
        }
      }
      os << "arg " << index++ << " " << (weight ? "weight" : dir) << " "
         << dtype << " ";
      if (tensor.getRank() == 0)
        os << "scalar";
      else
        llvm::interleave(tensor.getShape(), os, "x");
      if (weight) {
        os << " " << weight.getValue();
      } else {
        // The tensor's name (ONNX graph inputs and outputs), where it is one
        // manifest token.
        auto name = dyn_cast_or_null<StringAttr>(
            index <= type.getNumInputs()
                ? func.getArgAttr(index - 1, "hidet.name")
                : func.getResultAttr(index - 1 - type.getNumInputs(),
                                     "hidet.name"));
        if (name && isManifestName(name.getValue()))
          os << " " << name.getValue();
      }
      os << "\n";
    };
    for (Type t : type.getInputs())
      describe(t, "in");
    for (Type t : type.getResults())
      describe(t, "out");
    func->setAttr("llvm.emit_c_interface", UnitAttr::get(func.getContext()));
  });
  if (!ok)
    return failure();
  return text;
}

/// Removes the project's argument and result annotations (hidet.name,
/// hidet.weight, hidet.workspace) from the LLVM functions: the manifest
/// holds what they said, and the translation to LLVM IR would warn about
/// each as an unknown parameter attribute.
static void dropArgumentAnnotations(ModuleOp module) {
  auto isOurs = [](NamedAttribute a) {
    return a.getName().getValue().starts_with("hidet.");
  };
  module.walk([&](LLVM::LLVMFuncOp op) {
    auto func = cast<FunctionOpInterface>(op.getOperation());
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
      for (NamedAttribute a : llvm::to_vector(func.getArgAttrs(i)))
        if (isOurs(a))
          func.removeArgAttr(i, a.getName());
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
      for (NamedAttribute a : llvm::to_vector(func.getResultAttrs(i)))
        if (isOurs(a))
          func.removeResultAttr(i, a.getName());
  });
}

/// The names of the functions that `manifest` declares, in order.
static SmallVector<StringRef> getManifestFuncNames(StringRef manifest) {
  SmallVector<StringRef> names;
  SmallVector<StringRef> lines;
  manifest.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef line : lines) {
    SmallVector<StringRef> tokens;
    line.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
    if (tokens.size() == 4 && tokens[0] == "func")
      names.push_back(tokens[1]);
  }
  return names;
}

/// Adds `void _hidet_packed_<name>(void **args)`, which loads args[i] for
/// each parameter of `_mlir_ciface_<name>` and calls it. A runner calls
/// functions of any arity through it: C can call a function pointer only
/// through a type of fixed arity. Where the C interface is missing or does
/// not take pointers only, nothing is added and the runner reports the
/// missing entry point.
static void addPackedEntry(llvm::Module &module, StringRef name) {
  llvm::Function *ciface = module.getFunction(("_mlir_ciface_" + name).str());
  if (!ciface || !ciface->getReturnType()->isVoidTy() ||
      !llvm::all_of(ciface->getFunctionType()->params(),
                    [](llvm::Type *t) { return t->isPointerTy(); })) {
    llvm::errs() << "hidet-compile: warning: no C interface of pointers "
                    "for '"
                 << name << "'; the library has no _hidet_packed_" << name
                 << "\n";
    return;
  }
  llvm::LLVMContext &ctx = module.getContext();
  llvm::PointerType *ptrType = llvm::PointerType::getUnqual(ctx);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrType},
                                       /*isVarArg=*/false);
  llvm::Function *packed =
      llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage,
                             "_hidet_packed_" + name, module);
  llvm::Argument *args = packed->getArg(0);
  args->setName("args");
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(ctx, "entry", packed));
  SmallVector<llvm::Value *> operands;
  for (unsigned i = 0, e = ciface->arg_size(); i < e; ++i) {
    llvm::Value *slot = builder.CreateConstInBoundsGEP1_64(ptrType, args, i);
    operands.push_back(builder.CreateLoad(ptrType, slot));
  }
  builder.CreateCall(ciface, operands);
  builder.CreateRetVoid();
}

/// Adds `hidet_manifest` as an exported NUL-terminated string, the packed
/// entry point of each function it declares, and the weights image
/// `hidet_weights` when there is one.
static void addManifest(llvm::Module &module, StringRef manifest,
                        StringRef weightsImage) {
  llvm::LLVMContext &ctx = module.getContext();
  llvm::Constant *data = llvm::ConstantDataArray::getString(ctx, manifest);
  new llvm::GlobalVariable(module, data->getType(), /*isConstant=*/true,
                           llvm::GlobalValue::ExternalLinkage, data,
                           HIDET_MANIFEST_SYMBOL);
  if (!weightsImage.empty()) {
    llvm::Constant *image = llvm::ConstantDataArray::getRaw(
        weightsImage, weightsImage.size(), llvm::Type::getInt8Ty(ctx));
    auto *global = new llvm::GlobalVariable(
        module, image->getType(), /*isConstant=*/true,
        llvm::GlobalValue::ExternalLinkage, image, HIDET_WEIGHTS_SYMBOL);
    global->setAlignment(llvm::Align(HIDET_WEIGHTS_ALIGN));
  }
  for (StringRef name : getManifestFuncNames(manifest))
    addPackedEntry(module, name);
}

static LogicalResult emitObject(llvm::Module &module, StringRef path) {
  std::string triple = llvm::sys::getProcessTriple();
  std::string error;
  const llvm::Target *t =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
  if (!t)
    return fail(error), failure();
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(t->createTargetMachine(
      llvm::Triple(triple), "generic", "", options, llvm::Reloc::PIC_));
  module.setDataLayout(tm->createDataLayout());
  module.setTargetTriple(llvm::Triple(triple));
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return fail("cannot write " + path + ": " + ec.message()), failure();
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, out.os(), nullptr,
                              llvm::CodeGenFileType::ObjectFile))
    return fail("the host target cannot emit object files"), failure();
  pm.run(module);
  out.keep();
  return success();
}

static LogicalResult linkSharedLibrary(StringRef object, StringRef output,
                                       bool gpu) {
  llvm::ErrorOr<std::string> driver = llvm::sys::findProgramByName(linker);
  if (!driver)
    return fail("cannot find the linker driver '" + linker + "'"), failure();
  SmallVector<std::string> args = {*driver, "-shared", "-o", output.str(),
                                   object.str()};
  if (gpu && !runtimeDir.empty()) {
    args.push_back("-L" + runtimeDir);
    args.push_back("-lhidet_runtime");
    args.push_back("-Wl,-rpath,$ORIGIN");
  }
  args.push_back("-lm");
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int rc = llvm::sys::ExecuteAndWait(*driver, argRefs, std::nullopt, {}, 0, 0,
                                     &error);
  if (rc != 0)
    return fail("linking failed (" + llvm::Twine(rc) + ") " + error), failure();
  return success();
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
  FailureOr<std::string> manifest = buildManifest(*module);
  if (failed(manifest))
    return 1;
  std::string weightsImage = takeWeightValues(*module);

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
      opts += " tuning-plan=\"" + tuningPlan + "\" tuning-space=" +
              tuningSpace;
  }
  pipeline += "{" + opts + "}";
  if (failed(parsePassPipeline(pipeline, pm, llvm::errs())))
    return fail("bad --pipeline-options '" + llvm::join(pipelineOptions, " ") +
                "'");
  if (failed(pm.run(*module)))
    return fail("the " + target + " pipeline failed");
  *manifest = addWorkspaces(*manifest, *module);

  if (emit == "mlir") {
    std::error_code ec;
    llvm::raw_fd_ostream os(outputFile, ec);
    if (ec)
      return fail("cannot write " + outputFile);
    module->print(os);
    return 0;
  }

  dropArgumentAnnotations(*module);
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*module, llvmContext, "hidet");
  if (!llvmModule)
    return fail("translation to LLVM IR failed");
  addManifest(*llvmModule, *manifest, weightsImage);
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
  if (failed(emitObject(*llvmModule, object)))
    return 1;
  if (emit == "obj")
    return 0;
  if (emit != "so")
    return fail("--emit must be so, obj, llvm or mlir");
  LogicalResult linked = linkSharedLibrary(object, outputFile, target == "gpu");
  llvm::sys::fs::remove(object);
  return failed(linked) ? 1 : 0;
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
