//===- OnnxImporter.cpp - The importer's public entry points --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reading a model, binding and specializing its inputs, ONNX shape
// inference, the import itself and upstream's cleanup after it; and the
// queries the tools offer (inputs, op types, supported ops).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "ModelReader.h"

#include "onnx/onnx_pb.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/StringSet.h"

#include <set>

using namespace mlir;

namespace hidet::onnx_import {

bool listOnnxInputs(StringRef path, SmallVectorImpl<std::string> &names,
                    std::string &error) {
  std::unique_ptr<onnx::ModelProto> model = readModel(path, error);
  if (!model)
    return false;
  llvm::StringSet<> initializers;
  for (const onnx::TensorProto &init : model->graph().initializer())
    initializers.insert(init.name());
  for (const onnx::ValueInfoProto &input : model->graph().input())
    if (!initializers.contains(input.name()))
      names.push_back(input.name());
  return true;
}

bool listOnnxOpTypes(StringRef path, SmallVectorImpl<std::string> &opTypes,
                     std::string &error) {
  std::unique_ptr<onnx::ModelProto> model = readModel(path, error);
  if (!model)
    return false;
  std::set<std::string> seen;
  for (const onnx::NodeProto &node : model->graph().node())
    seen.insert(node.domain().empty() || node.domain() == "ai.onnx"
                    ? node.op_type()
                    : node.domain() + "." + node.op_type());
  opTypes.assign(seen.begin(), seen.end());
  return true;
}

void loadImportDialects(MLIRContext *context) {
  context->loadDialect<arith::ArithDialect, func::FuncDialect,
                       linalg::LinalgDialect, math::MathDialect,
                       tensor::TensorDialect>();
}

OwningOpRef<ModuleOp> importOnnxFile(StringRef path, MLIRContext *context,
                                     const ImportOptions &options) {
  loadImportDialects(context);
  Location fileLoc = FileLineColLoc::get(context, path, 0, 0);
  std::string error;
  std::unique_ptr<onnx::ModelProto> model = readModel(path, error);
  if (!model) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  if (!bindInputs(*model, options.boundInputs, error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  std::string notes;
  if (!specializeInputs(*model, options.inputShapes, options.defaultDim, notes,
                        error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  if (!notes.empty())
    emitRemark(fileLoc) << StringRef(notes).rtrim();
  if (!inferShapes(*model, error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  Importer importer(context, *model, path, options);
  OwningOpRef<ModuleOp> module = importer.run();
  if (!module)
    return nullptr;
  // The converters create a constant or an empty tensor per use and leave
  // the unused ones; upstream's cleanup removes them.
  PassManager pm(context);
  pm.addPass(createCSEPass());
  pm.addPass(createCanonicalizerPass());
  if (failed(pm.run(*module)))
    return nullptr;
  if (!options.externalWeights.empty() &&
      !importer.writeWeights(options.externalWeights, error)) {
    emitError(fileLoc) << error;
    return nullptr;
  }
  return module;
}

llvm::cl::ValuesClass convLayoutOptionValues() {
  return llvm::cl::values(
      clEnumValN(ConvLayout::NHWC, "nhwc",
                 "channels-last, filters permuted at import (default)"),
      clEnumValN(ConvLayout::NCHW, "nchw",
                 "channels-first, as ONNX writes them"));
}

} // namespace hidet::onnx_import
