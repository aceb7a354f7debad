//===- Weights.cpp - External weights files -------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Writes the weights that `--external-weights` turned into function
// arguments, in the format of runtime/include/hidet/Weights.h.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "Hidet/Runtime/WeightsImage.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace hidet::onnx_import {

bool Importer::writeWeights(StringRef path, std::string &error) const {
  SmallVector<WeightRecord> records;
  for (const ExternalWeight &w : externalWeights)
    records.push_back(
        {w.name, w.dtype, w.tensor.getShape(),
         ArrayRef<char>(w.tensor.getData(), w.tensor.getNumBytes())});
  // Whole or not at all: upstream's writeToOutput writes a temporary file
  // and renames it.
  llvm::Error failed = llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
    writeWeightsImage(os, records);
    return llvm::Error::success();
  });
  if (failed) {
    // The message names the file: "'path': reason".
    error = "cannot write " + llvm::toString(std::move(failed));
    return false;
  }
  return true;
}

} // namespace hidet::onnx_import
