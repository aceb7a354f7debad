//===- hidet-run.cpp - Run, check and time compiled Hidet libraries -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
//   hidet-run <gpu-lib.so> [--ref <cpu-lib.so> [--ref-gpu]] [options]
//
// Loads an ahead-of-time compiled GPU library and, optionally, the CPU build
// of the same program, reads their manifests (hidet/Manifest.h), and for
// each function (or the one named by --func): fills the inputs from a seeded
// generator, poisons the outputs with 0xFF bytes (NaN for floats) so that
// unwritten elements fail, runs the GPU build once, runs the reference on
// the same inputs, compares every output (Verify.h), then times the GPU
// build with CUDA events on one stream (Timing.h). `hidet-run --help` lists
// the options (Options.cpp).
//
// Exit status: 0 all checks passed (or nothing was checked, without --ref),
// 1 a numerical mismatch, 2 a usage, loading or CUDA error, 3 no usable CUDA
// device (so scripts can report a skip).
//
// Besides libhidet_runtime and libdl, only LLVM's Support library is used,
// linked statically: it runs where nothing but the NVIDIA driver is
// installed.
//
//===----------------------------------------------------------------------===//

#include "Library.h"
#include "Options.h"
#include "Report.h"
#include "Timing.h"
#include "Verify.h"

#include "hidet/Runtime.h"

#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>
#include <string>
#include <utility>
#include <vector>

using namespace hidet::run;

namespace {

/// Prints a usage or loading error; returns the matching exit status.
int reportError(const std::string &message) {
  printError(message);
  return kExitError;
}

/// Runs, checks and times `func`. Returns false on a CUDA error (reported).
bool runFunction(const FuncSpec &func, void *gpuEntry, void *refEntry,
                 const Options &options, hidetStream_t stream,
                 FuncResult &result) {
  GpuCall call;
  return runAndVerify(func, gpuEntry, refEntry, options, stream, call,
                      result) &&
         timeCalls(func, call, options, stream, result);
}

/// Everything after parsing the command line.
int runTool(const Options &options, std::vector<Library> &libraries) {
  // Probe the device first, quietly: without one, the GPU library's
  // constructor fails to load its module, which is expected, not news.
  hidetRuntimeSetErrorPrinting(0);
  int initStatus = hidetRuntimeInit();
  std::string noDeviceReason;
  if (initStatus != HIDET_RUNTIME_OK) {
    const char *message = nullptr;
    hidetRuntimeLastError(&message);
    noDeviceReason = message ? message : "unknown error";
    const std::string prefix = "hidetRuntimeInit: ";
    if (noDeviceReason.compare(0, prefix.size(), prefix) == 0)
      noDeviceReason.erase(0, prefix.size());
  } else {
    hidetRuntimeSetErrorPrinting(1);
  }

  // Manifests and entry points are checked even without a device, so that
  // broken libraries are reported as such everywhere.
  std::string error;
  libraries.reserve(2);
  libraries.emplace_back();
  Library &gpu = libraries.back();
  if (!openLibrary(options.gpuLib, gpu, error))
    return reportError(error);
  if (initStatus == HIDET_RUNTIME_OK &&
      !checkRuntime(options.gpuLib + ": loading its GPU code"))
    return kExitError;
  Library *ref = nullptr;
  if (!options.refLib.empty()) {
    libraries.emplace_back();
    ref = &libraries.back();
    if (!openLibrary(options.refLib, *ref, error))
      return reportError(error);
  }

  std::vector<const FuncSpec *> selected;
  for (const FuncSpec &func : gpu.manifest.funcs)
    if (options.func.empty() || func.name == options.func)
      selected.push_back(&func);
  if (selected.empty()) {
    std::string names;
    for (const FuncSpec &func : gpu.manifest.funcs)
      names += (names.empty() ? "" : ", ") + func.name;
    printError(options.gpuLib + " has no function '" + options.func +
               "' (it has: " + names + ")");
    return kExitError;
  }
  std::vector<std::pair<void *, void *>> entries;
  for (const FuncSpec *func : selected) {
    void *gpuEntry = lookupEntry(gpu, *func, error);
    if (!gpuEntry)
      return reportError(error);
    void *refEntry = nullptr;
    if (ref) {
      const FuncSpec *refFunc = ref->manifest.lookup(func->name);
      if (!refFunc) {
        printError("signature mismatch: " + options.gpuLib + " has '" +
                   func->name + "' but " + options.refLib + " does not");
        return kExitError;
      }
      if (refFunc->numInputs != func->numInputs ||
          refFunc->args != func->args) {
        printError("signature mismatch for '" + func->name +
                   "': " + options.gpuLib + " has " + func->signature() +
                   " but " + options.refLib + " has " + refFunc->signature());
        return kExitError;
      }
      refEntry = lookupEntry(*ref, *refFunc, error);
      if (!refEntry)
        return reportError(error);
    }
    entries.emplace_back(gpuEntry, refEntry);
  }

  if (initStatus != HIDET_RUNTIME_OK) {
    printError("no CUDA device available: " + noDeviceReason);
    if (!options.jsonPath.empty())
      writeJson(options.jsonPath, options, "no-device", "", noDeviceReason, {},
                kExitNoDevice);
    return kExitNoDevice;
  }

  char deviceName[256] = {};
  if (hidetRuntimeDeviceName(deviceName, sizeof(deviceName)) !=
      HIDET_RUNTIME_OK) {
    reportCudaError("querying the device");
    return kExitError;
  }
  hidetStream_t stream = hidetStreamCreate();
  if (!stream) {
    reportCudaError("creating a stream");
    return kExitError;
  }
  hidetRuntimeSetStream(stream);

  if (!ref)
    llvm::outs() << "hidet-run: no --ref library given: outputs are not "
                    "verified\n";
  std::vector<FuncResult> results;
  int exitCode = kExitPass;
  for (size_t i = 0; i < selected.size(); ++i) {
    FuncResult result;
    if (!runFunction(*selected[i], entries[i].first, entries[i].second, options,
                     stream, result)) {
      exitCode = kExitError;
      break;
    }
    printResult(result, deviceName);
    if (result.verified && !result.pass)
      exitCode = kExitMismatch;
    results.push_back(std::move(result));
  }
  hidetRuntimeSetStream(nullptr);
  hidetStreamDestroy(stream);

  if (!options.jsonPath.empty()) {
    const char *status = exitCode == kExitError      ? "error"
                         : exitCode == kExitMismatch ? "fail"
                         : ref                       ? "pass"
                                                     : "unverified";
    if (!writeJson(options.jsonPath, options, status, deviceName, "", results,
                   exitCode) &&
        exitCode == kExitPass)
      exitCode = kExitError;
  }
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options))
    return kExitError;
  std::vector<Library> libraries;
  int exitCode = runTool(options, libraries);
  llvm::outs().flush();
  // Unload while the driver is alive: the GPU library's destructor unloads
  // its module. Reverse order, the GPU library last.
  for (auto it = libraries.rbegin(); it != libraries.rend(); ++it)
    if (it->handle)
      dlclose(it->handle);
  return exitCode;
}
