//===- Library.h - Compiled libraries and calls into them -------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Loading a compiled library with its manifest, and calling its functions
// through their packed entry points, `void _hidet_packed_<name>(void **)`,
// which take an array of pointers to ranked memref descriptors, inputs then
// outputs (hidet/Manifest.h). One function type serves every arity.
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

struct Library {
  std::string path;
  void *handle = nullptr;
  Manifest manifest;
  /// Where its buffers live: the manifest's `target`, else what the command
  /// line says the library is.
  Target target = Target::Gpu;
  /// The runtime's error from loading the library's GPU code when it was
  /// opened, if any.
  std::string loadError;
};

/// dlopens `path` and parses its manifest. On failure returns false and sets
/// `error` to a message naming the library.
bool openLibrary(const std::string &path, Library &library,
                 std::string &error);

/// The packed entry point of `func`, or null with `error` set.
void *lookupEntry(const Library &library, const FuncSpec &func,
                  std::string &error);

struct DeviceBuffers {
  std::vector<void *> pointers;

  DeviceBuffers() = default;
  DeviceBuffers(const DeviceBuffers &) = delete;
  DeviceBuffers &operator=(const DeviceBuffers &) = delete;
  ~DeviceBuffers();
};

} // namespace hidet::run

#endif // HIDET_RUN_LIBRARY_H
