//===- Library.h - Compiled libraries and calls into them -------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Loading a compiled library with its manifest, and calling its entry
// points: `void _mlir_ciface_<name>(void *, ...)` with one pointer per
// buffer to a ranked memref descriptor, inputs then outputs.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_LIBRARY_H
#define HIDET_RUN_LIBRARY_H

#include "ManifestParser.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace hidet::run {

/// The entry points are called through a table of fixed arities.
constexpr size_t kMaxArgs = 32;

struct Library {
  std::string path;
  void *handle = nullptr;
  Manifest manifest;
};

/// dlopens `path` and parses its manifest. On failure returns false and sets
/// `error` to a message naming the library.
bool openLibrary(const std::string &path, Library &library,
                 std::string &error);

/// The entry point of `func`, or null with `error` set.
void *lookupEntry(const Library &library, const FuncSpec &func,
                  std::string &error);

/// The arguments of one call: a memref descriptor per buffer and the
/// pointers to them that the entry point takes.
class CallArgs {
public:
  /// Appends the descriptor of `data`, a row-major contiguous buffer of
  /// `arg`.
  void add(void *data, const ArgSpec &arg);
  /// Calls `entry` with the descriptors added so far (at most kMaxArgs).
  void call(void *entry) const;

private:
  std::vector<std::vector<int64_t>> descriptors;
  std::vector<void *> pointers;
};

/// Device buffers, freed on destruction.
struct DeviceBuffers {
  std::vector<void *> pointers;

  DeviceBuffers() = default;
  DeviceBuffers(const DeviceBuffers &) = delete;
  DeviceBuffers &operator=(const DeviceBuffers &) = delete;
  ~DeviceBuffers();
};

} // namespace hidet::run

#endif // HIDET_RUN_LIBRARY_H
