//===- OnnxImporter.h - ONNX models to tensor-level MLIR --------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reads an ONNX model (binary protobuf, or ONNX's text syntax) and writes one
// `func.func` on statically shaped tensors in the dialects the pipelines take:
// linalg named ops where one exists, linalg.generic otherwise, tensor, arith
// and math. Weights become `dense_resource` constants. Shape subgraphs and
// other computations on constants are folded at import.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_IMPORT_ONNXIMPORTER_H
#define HIDET_IMPORT_ONNXIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace hidet::onnx_import {

/// The layout in which 2-D convolutions with known filters compute.
enum class ConvLayout {
  /// Channels-first, as ONNX writes them (linalg's NCHW/FCHW ops).
  NCHW,
  /// Channels-last (NHWC/HWCF, depthwise NHWC/HWC), the filters permuted at
  /// import, between transposes of the input and output that
  /// hidet-propagate-transposes cancels between convolutions.
  NHWC,
};

/// The values of a `--conv-layout` command-line option (nhwc, nchw), for
/// the tools that import models.
llvm::cl::ValuesClass convLayoutOptionValues();

/// How a model is imported.
struct ImportOptions {
  /// Static shapes for graph inputs, by name (`--input-shape name=1x128`).
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// The extent given to symbolic or unknown input dimensions that
  /// `inputShapes` does not fix.
  int64_t defaultDim = 1;
  /// The name of the function the graph becomes.
  std::string funcName = "main";
  /// Computations on constants with at most this many result elements are
  /// folded at import.
  int64_t foldLimit = int64_t(1) << 20;
  /// Compute type of a float32 model: "f32" (as is), "f16" or "bf16".
  std::string precision = "f32";
  /// The layout of 2-D convolutions with known filters.
  ConvLayout convLayout = ConvLayout::NHWC;
  /// Graph inputs bound to a value at import, by name: the path of an ONNX
  /// TensorProto (.pb) file. They become constants and leave the signature.
  llvm::StringMap<std::string> boundInputs;
  /// When not empty, weights (known tensors that are not splats) become
  /// inputs of the function, marked `hidet.weight = "<name>"` after the
  /// graph's inputs, and their values are written to this file
  /// (runtime/include/hidet/Weights.h) once the import succeeds.
  std::string externalWeights;
};

/// Imports the model in `path`: ONNX text syntax when the file name ends in
/// `.onnxtxt`, a binary ModelProto otherwise. Errors are reported through
/// the context's diagnostic engine, located at the offending node; returns
/// null on failure.
mlir::OwningOpRef<mlir::ModuleOp> importOnnxFile(llvm::StringRef path,
                                                 mlir::MLIRContext *context,
                                                 const ImportOptions &options);

/// The names of the model's graph inputs (initializers excluded), in
/// order. Returns false and sets `error` when the file cannot be read.
bool listOnnxInputs(llvm::StringRef path,
                    llvm::SmallVectorImpl<std::string> &names,
                    std::string &error);

/// The distinct op types the model's graph uses, sorted (domain-qualified
/// outside the default domain). Returns false and sets `error` when the
/// file cannot be read.
bool listOnnxOpTypes(llvm::StringRef path,
                     llvm::SmallVectorImpl<std::string> &opTypes,
                     std::string &error);

/// The op types of the default ONNX domain that the importer converts,
/// sorted.
llvm::SmallVector<std::string> supportedOnnxOps();

/// Parses extents written as "1x128" ("scalar" for rank 0).
bool parseShape(llvm::StringRef text, llvm::SmallVector<int64_t> &shape);

/// Loads the dialects that imported modules use.
void loadImportDialects(mlir::MLIRContext *context);

} // namespace hidet::onnx_import

#endif // HIDET_IMPORT_ONNXIMPORTER_H
