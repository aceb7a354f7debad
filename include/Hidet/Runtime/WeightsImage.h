//===- WeightsImage.h - Writing weights files -------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Writes tensors in the weights format of runtime/include/hidet/Weights.h:
// the ONNX importer's --external-weights files, and the image that
// hidet-compile embeds in a library for the weights it keeps inside.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUNTIME_WEIGHTSIMAGE_H
#define HIDET_RUNTIME_WEIGHTSIMAGE_H

#include "hidet/Weights.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>

namespace hidet {

/// One tensor: its name, dtype and shape as the manifest spells them, and
/// its bytes (row-major, in the manifest's in-memory encoding).
struct WeightRecord {
  llvm::StringRef name;
  llvm::StringRef dtype;
  llvm::ArrayRef<int64_t> shape;
  llvm::ArrayRef<char> data;
};

/// Writes the header and the data of `weights` to `os`.
inline void writeWeightsImage(llvm::raw_ostream &os,
                              llvm::ArrayRef<WeightRecord> weights) {
  auto alignUp = [](uint64_t n) {
    return (n + HIDET_WEIGHTS_ALIGN - 1) / HIDET_WEIGHTS_ALIGN *
           HIDET_WEIGHTS_ALIGN;
  };
  std::string header;
  llvm::raw_string_ostream hs(header);
  hs << HIDET_WEIGHTS_MAGIC << " " << HIDET_WEIGHTS_VERSION << "\n";
  uint64_t offset = 0;
  for (const WeightRecord &w : weights) {
    hs << "weight " << w.name << " " << w.dtype << " ";
    if (w.shape.empty())
      hs << "scalar";
    else
      llvm::interleave(w.shape, hs, "x");
    hs << " " << offset << " " << w.data.size() << "\n";
    offset = alignUp(offset + w.data.size());
  }
  hs << "end\n";
  auto pad = [&](uint64_t from, uint64_t to) {
    for (; from < to; ++from)
      os << '\0';
  };
  os << header;
  pad(header.size(), alignUp(header.size()));
  for (const WeightRecord &w : weights) {
    os.write(w.data.data(), w.data.size());
    pad(w.data.size(), alignUp(w.data.size()));
  }
}

} // namespace hidet

#endif // HIDET_RUNTIME_WEIGHTSIMAGE_H
