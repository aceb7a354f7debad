//===- WeightsFile.cpp - External weights files ---------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "WeightsFile.h"

#include "hidet/Weights.h"

#include <cstring>
#include <limits>
#include <streambuf>

using namespace hidet::run;

namespace {
/// An istream over bytes in memory, without copying them.
struct MemoryBuffer : std::streambuf {
  MemoryBuffer(const char *data, uint64_t size) {
    char *begin = const_cast<char *>(data);
    setg(begin, begin, begin + size);
  }
};
} // namespace

bool WeightsFile::open(const std::string &filePath, std::string &error) {
  path = filePath;
  file.open(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot open the weights file";
    return false;
  }
  file.seekg(0, std::ios::end);
  fileSize = static_cast<uint64_t>(file.tellg());
  file.seekg(0);
  return parseHeader(file, error);
}

bool WeightsFile::openImage(const char *data, uint64_t size,
                            const std::string &name, std::string &error) {
  path = name;
  image = data;
  constexpr uint64_t kMaxHeader = uint64_t(16) << 20;
  bool sized = size != 0;
  fileSize = sized ? size : UINT64_MAX;
  MemoryBuffer buffer(data, sized ? size : kMaxHeader);
  std::istream in(&buffer);
  return parseHeader(in, error);
}

const unsigned char *WeightsFile::getImageData(const Entry &entry) const {
  if (!image)
    return nullptr;
  return reinterpret_cast<const unsigned char *>(image + dataStart +
                                                 entry.offset);
}

bool WeightsFile::parseHeader(std::istream &in, std::string &error) {
  std::string line;
  unsigned lineNumber = 0;
  uint64_t headerBytes = 0;
  auto fail = [&](const std::string &what) {
    error = path + ":" + std::to_string(lineNumber) + ": " + what;
    return false;
  };
  bool ended = false;
  while (!ended && std::getline(in, line)) {
    ++lineNumber;
    headerBytes += line.size() + 1;
    std::vector<std::string_view> tokens = splitTokens(line);
    if (lineNumber == 1) {
      int64_t version = 0;
      if (tokens.size() != 2 || tokens[0] != HIDET_WEIGHTS_MAGIC ||
          !parseInt(tokens[1], 0, std::numeric_limits<int32_t>::max(), version))
        return fail("not a weights file (expected '" HIDET_WEIGHTS_MAGIC
                    " <version>')");
      if (version != HIDET_WEIGHTS_VERSION)
        return fail("weights file version " + std::to_string(version) +
                    "; this runtime reads version " +
                    std::to_string(HIDET_WEIGHTS_VERSION));
      continue;
    }
    if (tokens.size() == 1 && tokens[0] == "end") {
      ended = true;
      continue;
    }
    Entry e;
    int64_t offset = 0, bytes = 0;
    constexpr int64_t kMax = int64_t(1) << 50;
    if (tokens.size() != 6 || tokens[0] != "weight" ||
        !parseDType(tokens[2], e.dtype) || !parseShape(tokens[3], e.shape) ||
        !parseInt(tokens[4], 0, kMax, offset) ||
        !parseInt(tokens[5], 0, kMax, bytes))
      return fail("expected 'weight <name> <dtype> <shape> <offset> "
                  "<bytes>' or 'end'");
    e.name = std::string(tokens[1]);
    e.offset = static_cast<uint64_t>(offset);
    e.bytes = static_cast<uint64_t>(bytes);
    ArgSpec spec;
    spec.dtype = e.dtype;
    spec.shape = e.shape;
    if (e.bytes != spec.getSizeBytes())
      return fail("weight '" + e.name + "' is " + spec.str() + " (" +
                  std::to_string(spec.getSizeBytes()) + " bytes) but says " +
                  std::to_string(e.bytes) + " bytes");
    if (lookup(e.name))
      return fail("weight '" + e.name + "' is listed twice");
    list.push_back(std::move(e));
  }
  if (!ended)
    return fail("the header has no 'end' line");
  dataStart = (headerBytes + HIDET_WEIGHTS_ALIGN - 1) / HIDET_WEIGHTS_ALIGN *
              HIDET_WEIGHTS_ALIGN;
  return true;
}

const WeightsFile::Entry *WeightsFile::lookup(const std::string &name) const {
  for (const Entry &e : list)
    if (e.name == name)
      return &e;
  return nullptr;
}

bool WeightsFile::read(const Entry &entry, std::vector<unsigned char> &data,
                       std::string &error) {
  uint64_t begin = dataStart + entry.offset;
  if (begin > fileSize || fileSize - begin < entry.bytes) {
    error = path + ": weight '" + entry.name + "' (bytes " +
            std::to_string(entry.offset) + " to " +
            std::to_string(entry.offset + entry.bytes) +
            " of the data) lies past the end of the file";
    return false;
  }
  data.resize(entry.bytes);
  if (image) {
    std::memcpy(data.data(), getImageData(entry), entry.bytes);
    return true;
  }
  file.clear();
  file.seekg(static_cast<std::streamoff>(begin));
  file.read(reinterpret_cast<char *>(data.data()),
            static_cast<std::streamsize>(entry.bytes));
  if (!file) {
    error = path + ": cannot read weight '" + entry.name + "'";
    return false;
  }
  return true;
}
