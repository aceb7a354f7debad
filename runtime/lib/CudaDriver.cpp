//===- CudaDriver.cpp - CUDA driver API opened at run time ----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "hidet/Runtime.h"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>

using namespace hidet::runtime;

#define HIDET_STRINGIFY_IMPL(x) #x
// Stringifies after macro expansion: the ABI symbol name.
#define HIDET_STRINGIFY(x) HIDET_STRINGIFY_IMPL(x)

namespace {

// Trivially destructible on purpose: compiled libraries unload their modules
// from global destructors, which may run after this file's would have.
struct DriverState {
  CudaDriver table;
  int status = HIDET_RUNTIME_OK;
  char reason[512] = {};
};

// Looks up `symbol`; CUDA 12.8 headers renamed some entry points to a _v2
// whose prototype is unchanged, so for those an older driver's unversioned
// symbol is just as good.
void *lookup(void *handle, const char *symbol) {
  if (void *address = dlsym(handle, symbol))
    return address;
  static const char *const sameSignatureFallbacks[][2] = {
      {"cuEventElapsedTime_v2", "cuEventElapsedTime"},
  };
  for (const auto &fallback : sameSignatureFallbacks)
    if (std::strcmp(symbol, fallback[0]) == 0)
      return dlsym(handle, fallback[1]);
  return nullptr;
}

void load(DriverState &state) {
  // The versioned soname: the unversioned libcuda.so is a development symlink
  // (or the toolkit's link-time stub) and is absent on driver-only machines.
  void *handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = dlerror();
    state.status = HIDET_RUNTIME_ERROR_NO_DRIVER;
    std::snprintf(state.reason, sizeof(state.reason), "%s",
                  error ? error : "libcuda.so.1 not found");
    return;
  }
  CudaDriver &table = state.table;
#define HIDET_CUDA_RESOLVE_REQUIRED(fn)                                        \
  table.fn = reinterpret_cast<decltype(table.fn)>(                             \
      lookup(handle, HIDET_STRINGIFY(fn)));                                    \
  if (!table.fn) {                                                             \
    state.status = HIDET_RUNTIME_ERROR_DRIVER_TOO_OLD;                         \
    std::snprintf(state.reason, sizeof(state.reason),                          \
                  "the CUDA driver lacks %s; it is too old",                   \
                  HIDET_STRINGIFY(fn));                                        \
    return;                                                                    \
  }
  HIDET_CUDA_REQUIRED_FUNCTIONS(HIDET_CUDA_RESOLVE_REQUIRED)
#undef HIDET_CUDA_RESOLVE_REQUIRED
#define HIDET_CUDA_RESOLVE_OPTIONAL(fn)                                        \
  table.fn = reinterpret_cast<decltype(table.fn)>(                             \
      lookup(handle, HIDET_STRINGIFY(fn)));
  HIDET_CUDA_OPTIONAL_FUNCTIONS(HIDET_CUDA_RESOLVE_OPTIONAL)
#undef HIDET_CUDA_RESOLVE_OPTIONAL
  // The handle stays open for the life of the process: modules, streams and
  // function pointers handed out refer into it.
}

} // namespace

const CudaDriver *hidet::runtime::getCudaDriver(int &status,
                                                const char *&reason) {
  static const DriverState *const state = [] {
    static DriverState loaded;
    load(loaded);
    return &loaded;
  }();
  status = state->status;
  reason = state->reason;
  return state->status == HIDET_RUNTIME_OK ? &state->table : nullptr;
}
