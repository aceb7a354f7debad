//===- Library.cpp - Compiled libraries and calls into them ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Library.h"

#include "hidet/Manifest.h"
#include "hidet/Runtime.h"

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <dlfcn.h>
#include <string_view>
#include <unistd.h>
#include <utility>

using namespace hidet::run;

bool hidet::run::openLibrary(const std::string &path, Library &library,
                             std::string &error) {
  library.path = path;
  // Without a slash dlopen would search the library path, not the file.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  if (access(file.c_str(), R_OK) != 0) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  dlerror();
  // RTLD_LOCAL keeps the GPU and CPU builds' identical symbol names apart.
  library.handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library.handle) {
    const char *reason = dlerror();
    error = "cannot load " + path + ": " + (reason ? reason : "dlopen failed");
    return false;
  }
  // A GPU library loads its device code from a constructor that dlopen
  // runs; the runtime records a failure, which the caller reports only
  // where a device exists (without one, every GPU library fails there).
  const char *loadMessage = nullptr;
  if (hidetRuntimeLastError(&loadMessage) != HIDET_RUNTIME_OK) {
    library.loadError = loadMessage ? loadMessage : "unknown error";
    hidetRuntimeClearError();
  }
  auto *text =
      static_cast<const char *>(dlsym(library.handle, HIDET_MANIFEST_SYMBOL));
  if (!text) {
    error = path + ": no '" HIDET_MANIFEST_SYMBOL
                   "' symbol; the library does not describe its functions "
                   "(see hidet/Manifest.h)";
    return false;
  }
  constexpr size_t kMaxManifest = size_t(1) << 20;
  size_t length = strnlen(text, kMaxManifest);
  if (length == kMaxManifest) {
    error = path + ": '" HIDET_MANIFEST_SYMBOL
                   "' is not NUL-terminated within 1 MiB";
    return false;
  }
  std::string parseError;
  if (!parseManifest(std::string_view(text, length), library.manifest,
                     parseError)) {
    error = path + ": malformed manifest: " + parseError;
    return false;
  }
  return true;
}

void *hidet::run::lookupEntry(const Library &library, const FuncSpec &func,
                              std::string &error) {
  std::string symbol = HIDET_MANIFEST_PACKED_PREFIX + func.name;
  void *entry = dlsym(library.handle, symbol.c_str());
  if (!entry)
    error = library.path + ": the manifest lists '" + func.name +
            "' but the library does not export '" + symbol +
            "' (hidet-compile writes it next to '" +
            HIDET_MANIFEST_ENTRY_PREFIX + func.name +
            "'; see hidet/Manifest.h)";
  return entry;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

DeviceBuffers::~DeviceBuffers() {
  for (void *pointer : pointers)
    hidetFree(pointer);
}
