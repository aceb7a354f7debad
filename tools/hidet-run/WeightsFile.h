//===- WeightsFile.h - External weights files -------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reads the weights files that `--external-weights` writes (the format is
// defined in runtime/include/hidet/Weights.h).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_WEIGHTSFILE_H
#define HIDET_RUN_WEIGHTSFILE_H

#include "ManifestParser.h"

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace hidet::run {

class WeightsFile {
public:
  struct Entry {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    uint64_t offset = 0; // From the start of the data section.
    uint64_t bytes = 0;
  };

  /// Opens `path` and reads its header; on failure returns false with
  /// `error` naming the file and the line.
  bool open(const std::string &path, std::string &error);

  const Entry *lookup(const std::string &name) const;
  /// Reads the elements of `entry` into `data`; false with `error` when the
  /// file ends before them.
  bool read(const Entry &entry, std::vector<unsigned char> &data,
            std::string &error);

  const std::vector<Entry> &entries() const { return list; }

private:
  std::string path;
  std::ifstream file;
  uint64_t dataStart = 0;
  uint64_t fileSize = 0;
  std::vector<Entry> list;
};

} // namespace hidet::run

#endif // HIDET_RUN_WEIGHTSFILE_H
