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
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace hidet::onnx_import {

bool Importer::writeWeights(StringRef path, std::string &error) const {
  SmallVector<WeightRecord> records;
  for (const ExternalWeight &w : externalWeights)
    records.push_back(
        {w.name, w.dtype, w.tensor.getShape(),
         ArrayRef<char>(w.tensor.getData(), w.tensor.getNumBytes())});
  std::string temp = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(temp, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write '" + temp + "': " + ec.message();
      return false;
    }
    writeWeightsImage(file, records);
    file.close();
    if (file.has_error()) {
      error = "cannot write '" + temp + "': " + file.error().message();
      file.clear_error();
      llvm::sys::fs::remove(temp);
      return false;
    }
  }
  if (std::error_code ec = llvm::sys::fs::rename(temp, path)) {
    llvm::sys::fs::remove(temp);
    error = "cannot write '" + path.str() + "': " + ec.message();
    return false;
  }
  return true;
}

} // namespace hidet::onnx_import
