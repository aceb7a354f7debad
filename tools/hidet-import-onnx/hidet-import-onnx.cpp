//===- hidet-import-onnx.cpp - ONNX models to MLIR ------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
//   hidet-import-onnx model.onnx -o model.mlir
//   hidet-import-onnx bert.onnx --input-shape input_ids=1x128 -o bert.mlir
//   hidet-import-onnx test.onnxtxt          # ONNX's text syntax
//
// Writes one func.func on tensors (linalg, tensor, arith, math) that
// hidet-opt, hidet-compile or any MLIR pipeline takes. The output file is
// written only when the import succeeds.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Import/OnnxImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;
namespace onnx_import = hidet::onnx_import;

static cl::OptionCategory category("hidet-import-onnx options");
static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<model.onnx|model.onnxtxt>"),
                                      cl::Required, cl::cat(category));
static cl::opt<std::string> outputFile("o", cl::desc("Output MLIR file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(category));
static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("Static shape of a graph input: name=1x128 "
                         "(repeatable)"),
                cl::value_desc("name=dims"), cl::cat(category));
static cl::opt<std::string> precision(
    "precision",
    cl::desc("Compute type of float32 models: f32 (default), "
             "f16 or bf16 (weights converted at import, float32 inputs and "
             "outputs converted at the boundary)"),
    cl::init("f32"), cl::cat(category));
static cl::opt<int64_t>
    defaultDim("default-dim",
               cl::desc("Extent of symbolic input dimensions that "
                        "--input-shape does not fix (default 1)"),
               cl::init(1), cl::cat(category));
static cl::opt<hidet::onnx_import::ConvLayout> convLayout(
    "conv-layout",
    cl::desc("Layout of 2-D convolutions with known filters"),
    hidet::onnx_import::convLayoutOptionValues(),
    cl::init(hidet::onnx_import::ConvLayout::NHWC), cl::cat(category));
static cl::opt<std::string> externalWeights(
    "external-weights",
    cl::desc("Write the weights to this file instead of into the module: "
             "they become function arguments marked hidet.weight"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> funcName("func-name",
                                     cl::desc("Name of the function"),
                                     cl::init("main"), cl::cat(category));
static cl::list<std::string> bindInputs(
    "bind-input",
    cl::desc("Bind a graph input to the value in an ONNX TensorProto file: "
             "name=@input_0.pb (repeatable); it becomes a constant"),
    cl::value_desc("name=@file.pb"), cl::cat(category));
static cl::opt<bool> printOpTypes(
    "print-op-types",
    cl::desc("Print the op types the model uses, one per line, and exit"),
    cl::init(false), cl::cat(category));
static cl::opt<bool> printInputs(
    "print-inputs",
    cl::desc("Print the names of the graph inputs, one per line, and exit"),
    cl::init(false), cl::cat(category));
static cl::opt<bool>
    listOps("list-ops",
            cl::desc("Print the ONNX op types the importer converts and exit"),
            cl::init(false), cl::cat(category), cl::callback([](const bool &) {
              for (const std::string &op : onnx_import::supportedOnnxOps())
                llvm::outs() << op << "\n";
              std::exit(0);
            }));
static cl::opt<bool>
    elideWeights("elide-weights",
                 cl::desc("Print weights as elided resources (for reading; "
                          "the output cannot be compiled)"),
                 cl::init(false), cl::cat(category));

static cl::opt<bool> printLocations(
    "locations",
    cl::desc("Print each op's location: the name of the ONNX node it comes "
             "from (loc(\"name\")), which the compiled kernels are named "
             "after"),
    cl::init(false), cl::cat(category));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Hidet-MLIR ONNX importer\n\n"
                              "Exit status: 0 imported, 1 error.\n");
  if (printOpTypes) {
    llvm::SmallVector<std::string> types;
    std::string error;
    if (!onnx_import::listOnnxOpTypes(inputFile, types, error)) {
      llvm::errs() << "hidet-import-onnx: " << error << "\n";
      return 1;
    }
    for (const std::string &type : types)
      llvm::outs() << type << "\n";
    return 0;
  }
  if (printInputs) {
    llvm::SmallVector<std::string> names;
    std::string error;
    if (!onnx_import::listOnnxInputs(inputFile, names, error)) {
      llvm::errs() << "hidet-import-onnx: " << error << "\n";
      return 1;
    }
    for (const std::string &name : names)
      llvm::outs() << name << "\n";
    return 0;
  }
  onnx_import::ImportOptions options;
  for (const std::string &spec : bindInputs) {
    auto [name, file] = StringRef(spec).split('=');
    if (name.empty() || !file.starts_with("@") || file.size() < 2) {
      llvm::errs() << "hidet-import-onnx: --bind-input expects name=@file.pb, "
                      "got '"
                   << spec << "'\n";
      return 1;
    }
    options.boundInputs[name] = file.drop_front().str();
  }
  for (const std::string &spec : inputShapes) {
    StringRef name, dims;
    std::tie(name, dims) = StringRef(spec).rsplit('=');
    llvm::SmallVector<int64_t> shape;
    if (name.empty() || !onnx_import::parseShape(dims, shape)) {
      llvm::errs() << "hidet-import-onnx: --input-shape expects name=AxB..., "
                      "got '"
                   << spec << "'\n";
      return 1;
    }
    options.inputShapes[name] = shape;
  }
  if (defaultDim < 1) {
    llvm::errs() << "hidet-import-onnx: --default-dim must be positive\n";
    return 1;
  }
  options.defaultDim = defaultDim;
  options.precision = precision;
  options.convLayout = convLayout;
  options.funcName = funcName;
  // Written beside the output and put in place with it.
  std::string partialWeights =
      externalWeights.empty() ? "" : externalWeights + ".partial";
  options.externalWeights = partialWeights;
  auto dropWeights = llvm::make_scope_exit([&] {
    if (!partialWeights.empty())
      llvm::sys::fs::remove(partialWeights);
  });

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      onnx_import::importOnnxFile(inputFile, &context, options);
  if (!module)
    return 1;
  std::string error;
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << "hidet-import-onnx: " << error << "\n";
    return 1;
  }
  OpPrintingFlags flags;
  if (elideWeights)
    flags.elideLargeResourceString(64);
  if (printLocations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  module->print(output->os(), flags);
  output->os() << "\n";
  if (!partialWeights.empty()) {
    if (std::error_code ec =
            llvm::sys::fs::rename(partialWeights, externalWeights)) {
      llvm::errs() << "hidet-import-onnx: cannot write " << externalWeights
                   << ": " << ec.message() << "\n";
      return 1;
    }
    partialWeights.clear();
  }
  output->keep();
  return 0;
}
