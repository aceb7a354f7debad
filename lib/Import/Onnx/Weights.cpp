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

#include "hidet/Weights.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

namespace hidet::onnx_import {

static uint64_t alignUp(uint64_t n) {
  return (n + HIDET_WEIGHTS_ALIGN - 1) / HIDET_WEIGHTS_ALIGN *
         HIDET_WEIGHTS_ALIGN;
}

bool Importer::writeWeights(StringRef path, std::string &error) const {
  std::string header;
  llvm::raw_string_ostream os(header);
  os << HIDET_WEIGHTS_MAGIC << " " << HIDET_WEIGHTS_VERSION << "\n";
  uint64_t offset = 0;
  for (const ExternalWeight &w : externalWeights) {
    const HostTensor &t = w.tensor;
    os << "weight " << w.name << " " << w.dtype << " ";
    if (t.getShape().empty())
      os << "scalar";
    else
      llvm::interleave(t.getShape(), os, "x");
    os << " " << offset << " " << t.getNumBytes() << "\n";
    offset = alignUp(offset + t.getNumBytes());
  }
  os << "end\n";

  std::string temp = (path + ".tmp").str();
  {
    std::error_code ec;
    llvm::raw_fd_ostream file(temp, ec, llvm::sys::fs::OF_None);
    if (ec) {
      error = "cannot write '" + temp + "': " + ec.message();
      return false;
    }
    auto pad = [&](uint64_t to, uint64_t from) {
      for (; from < to; ++from)
        file << '\0';
    };
    file << header;
    pad(alignUp(header.size()), header.size());
    uint64_t at = 0;
    for (const ExternalWeight &w : externalWeights) {
      file.write(w.tensor.getData(), w.tensor.getNumBytes());
      at += w.tensor.getNumBytes();
      pad(alignUp(at), at);
      at = alignUp(at);
    }
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
