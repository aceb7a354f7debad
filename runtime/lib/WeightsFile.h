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
  /// Reads the header of an image of `size` bytes at `data` (a library's
  /// HIDET_WEIGHTS_SYMBOL), which must outlive this object; `name` stands
  /// for it in messages. A size of 0 means unknown: the header must end
  /// within 16 MiB and the data are trusted to be there.
  bool openImage(const char *data, uint64_t size, const std::string &name,
                 std::string &error);
  /// The image's bytes of `entry`, or null for a file (use read()).
  const unsigned char *getImageData(const Entry &entry) const;

  const Entry *lookup(const std::string &name) const;
  /// Reads the elements of `entry` into `data`; false with `error` when the
  /// file ends before them.
  bool read(const Entry &entry, std::vector<unsigned char> &data,
            std::string &error);

  const std::vector<Entry> &entries() const { return list; }

private:
  bool parseHeader(std::istream &in, std::string &error);

  std::string path;
  std::ifstream file;
  const char *image = nullptr;
  uint64_t dataStart = 0;
  uint64_t fileSize = 0;
  std::vector<Entry> list;
};

} // namespace hidet::run

#endif // HIDET_RUN_WEIGHTSFILE_H
