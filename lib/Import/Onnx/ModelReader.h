//===- ModelReader.h - Reading and checking ONNX models ---------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The importer's only contact with the parts of libonnx that throw C++
// exceptions (the text parser, shape inference): they are caught here and
// turned into messages, so that the rest of the project keeps building
// without exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_IMPORT_ONNX_MODELREADER_H
#define HIDET_LIB_IMPORT_ONNX_MODELREADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace onnx {
class ModelProto;
} // namespace onnx

namespace hidet::onnx_import {

/// Reads `path`: ONNX's text syntax when it ends in `.onnxtxt`, a binary
/// ModelProto otherwise. Returns null and sets `error` on failure.
std::unique_ptr<onnx::ModelProto> readModel(llvm::StringRef path,
                                            std::string &error);

/// Makes each named graph input an initializer holding the TensorProto
/// read from its file (`boundInputs`: name -> path).
bool bindInputs(onnx::ModelProto &model,
                const llvm::StringMap<std::string> &boundInputs,
                std::string &error);

/// Gives every graph input a static shape: the one in `shapes` when named
/// there (its rank must match), else the model's extents with `defaultDim`
/// for symbolic or unknown ones. `notes` receives one line per input whose
/// dimensions were chosen by default. Fails on an unknown name in `shapes`.
bool specializeInputs(onnx::ModelProto &model,
                      const llvm::StringMap<llvm::SmallVector<int64_t>> &shapes,
                      int64_t defaultDim, std::string &notes,
                      std::string &error);

/// Runs ONNX shape inference (with data propagation) over the graph,
/// recording what it finds in the graph's value_info.
bool inferShapes(onnx::ModelProto &model, std::string &error);

} // namespace hidet::onnx_import

#endif // HIDET_LIB_IMPORT_ONNX_MODELREADER_H
