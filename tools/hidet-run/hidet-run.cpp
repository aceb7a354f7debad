//===- hidet-run.cpp - Run, check and time compiled Hidet libraries -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
//   hidet-run <lib.so>... [--ref <ref-lib.so>] [--input=@x.npy ...]
//             [--expected-output=@y.npy ...] [--output=@out.npy ...] [options]
//
// Loads an ahead-of-time compiled library and, optionally, a reference
// build of the same program, reads their manifests (hidet/Manifest.h), and
// for each function (or the one named by --func): fills the inputs from
// files or a seeded generator, poisons the outputs with 0xFF bytes (NaN for
// floats) so that unwritten elements fail, runs the library once, runs the
// reference on the same inputs, compares every output with the reference's
// and with its expected file (Verify.h), then times the library (Timing.h)
// and saves the outputs asked for. A library runs on the CPU or the GPU as
// its manifest's target says; a run without a GPU library never touches
// the CUDA driver. Several libraries (a tuner's candidates) run one after
// another in one process, each as if alone, with one CUDA context and
// stream: each library's report goes to --json-dir, and the run stops at the
// first library that fails with an error (a CUDA error can leave the context
// unusable). `hidet-run --help` lists the options (Options.cpp).
//
// Exit status: 0 all checks passed (or nothing was checked), 1 a numerical
// mismatch, 2 a usage, loading, file or CUDA error, 3 no usable CUDA device
// for a GPU library (so scripts can report a skip); of several libraries,
// the worst of theirs (2, 3, 1, 0 in that order).
//
// Besides libhidet_runtime and libdl, only LLVM's Support library and
// protobuf are used, linked statically: it runs where nothing but the
// NVIDIA driver is installed, or nothing at all for CPU libraries.
//
//===----------------------------------------------------------------------===//

#include "ArgFiles.h"
#include "FileSet.h"
#include "Library.h"
#include "Options.h"
#include "Report.h"
#include "Timing.h"
#include "Verify.h"

#include "hidet/Runtime.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
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

/// The functions to run: the one --func names, or all.
std::vector<const FuncSpec *> selectFunctions(const Library &library,
                                              const Options &options,
                                              std::string &error) {
  std::vector<const FuncSpec *> selected;
  std::string names;
  for (const FuncSpec &func : library.manifest.funcs) {
    names += (names.empty() ? "" : ", ") + func.name;
    if (options.func.empty() || func.name == options.func)
      selected.push_back(&func);
  }
  if (selected.empty())
    error = library.path + " has no function '" + options.func +
            "' (it has: " + names + ")";
  else if (options.hasArgFiles() && selected.size() > 1)
    error = "--input, --expected-output, --output and --weights are for one "
            "function, but " +
            library.path + " has several (" + names +
            "): choose one with --func";
  else
    return selected;
  return {};
}

/// The entry points of `func` in the library and the reference, after
/// checking that both have the same signature. Returns false with `error`
/// set on failure.
bool lookupEntries(const FuncSpec &func, const Library &lib, const Library *ref,
                   const Options &options, Entry &main, Entry &refEntry,
                   std::string &error) {
  main.target = lib.target;
  main.library = lib.path;
  main.func = func.name;
  if (!lookupEntry(lib, func, error))
    return false;
  if (!ref)
    return true;
  const FuncSpec *refFunc = ref->manifest.lookup(func.name);
  if (!refFunc) {
    error = "signature mismatch: " + options.lib + " has '" + func.name +
            "' but " + options.refLib + " does not";
    return false;
  }
  // Weights are each library's own: the two may hold them differently (a
  // GPU build keeps its constants as weights, a CPU build does not).
  if (func.getVisibleArgs() != refFunc->getVisibleArgs()) {
    error = "signature mismatch for '" + func.name + "': " + options.lib +
            " has " + func.signature() + " but " + options.refLib + " has " +
            refFunc->signature();
    return false;
  }
  refEntry.target = ref->target;
  refEntry.library = ref->path;
  refEntry.func = refFunc->name;
  return lookupEntry(*ref, *refFunc, error) != nullptr;
}

/// The GPU side of a run: the device and the one stream that all work goes
/// to. Opens the CUDA driver only when asked to.
struct Gpu {
  std::string deviceName;
  hidetStream_t stream = nullptr;

  Gpu() = default;
  Gpu(const Gpu &) = delete;
  Gpu &operator=(const Gpu &) = delete;
  ~Gpu() {
    if (!stream)
      return;
    hidetRuntimeSetStream(nullptr);
    hidetStreamDestroy(stream);
  }

  /// Initializes the runtime, once: later calls return the first's status.
  /// Returns kExitPass, or kExitNoDevice with `reason` set, or kExitError
  /// (reported) when the stream cannot be created.
  int start(std::string &reason) {
    if (!started) {
      started = true;
      status = init(failure);
    }
    reason = failure;
    return status;
  }

private:
  bool started = false;
  int status = kExitError;
  std::string failure;

  int init(std::string &reason) {
    if (hidetRuntimeInit() != HIDET_RUNTIME_OK) {
      const char *message = nullptr;
      hidetRuntimeLastError(&message);
      reason = message ? message : "unknown error";
      const std::string prefix = "hidetRuntimeInit: ";
      if (reason.compare(0, prefix.size(), prefix) == 0)
        reason.erase(0, prefix.size());
      return kExitNoDevice;
    }
    hidetRuntimeSetErrorPrinting(1);
    char name[256] = {};
    if (hidetRuntimeDeviceName(name, sizeof(name)) != HIDET_RUNTIME_OK) {
      reportCudaError("querying the device");
      return kExitError;
    }
    deviceName = name;
    stream = hidetStreamCreate();
    if (!stream) {
      reportCudaError("creating a stream");
      return kExitError;
    }
    hidetRuntimeSetStream(stream);
    return kExitPass;
  }
};

/// Whether the GPU code of each GPU library loaded when it was opened;
/// reports the first that did not.
bool checkLoaded(const std::vector<Library> &libraries) {
  for (const Library &library : libraries) {
    if (library.target == Target::Gpu && !library.loadError.empty()) {
      printError(library.path +
                 ": loading its GPU code: CUDA error: " + library.loadError);
      return false;
    }
  }
  return true;
}

/// Runs, checks and times `func`. Returns false on a CUDA error (reported).
bool runFunction(const FuncSpec &func, const Entry &main, const Entry &ref,
                 ArgFiles &files, const Options &options, hidetStream_t stream,
                 HostBuffers &outputs, FuncResult &result) {
  PreparedCall call;
  if (!runAndVerify(func, main, ref, files, options, stream, call, outputs,
                    result) ||
      !timeCalls(func, call, options, stream, result) ||
      !profileKernels(func, call, options, result))
    return false;
  hidetModelStats stats;
  if (hidetModelGetStats(call.model, &stats) == HIDET_RUNTIME_OK) {
    result.hasStats = true;
    result.weightBytes = stats.weightBytes;
    result.workspaceBytes = stats.workspaceBytes;
    result.intermediateBytes = stats.intermediateBytes;
    result.kernelLaunches = stats.kernelLaunches;
    result.cudaGraph = stats.cudaGraph != 0;
  }
  return true;
}

/// Everything after parsing the command line, for `options.lib` (opened
/// into `libraries`) on `gpu`, which the first library that needs it starts.
int runTool(const Options &options, Gpu &gpu, std::vector<Library> &libraries) {
  // Manifests, entry points and files are checked even without a device,
  // so that broken libraries and files are reported as such everywhere.
  std::string error;
  libraries.reserve(2);
  libraries.emplace_back();
  Library &lib = libraries.back();
  if (!openLibrary(options.lib, lib, error))
    return reportError(error);
  lib.target = lib.manifest.target.value_or(Target::Gpu);
  Library *ref = nullptr;
  if (!options.refLib.empty()) {
    libraries.emplace_back();
    ref = &libraries.back();
    if (!openLibrary(options.refLib, *ref, error))
      return reportError(error);
    if (options.refOnGpu && ref->manifest.target == Target::Cpu)
      return reportError("--ref-gpu, but the manifest of " + options.refLib +
                         " says 'target cpu'");
    ref->target = ref->manifest.target.value_or(options.refOnGpu ? Target::Gpu
                                                                 : Target::Cpu);
  }

  std::vector<const FuncSpec *> selected = selectFunctions(lib, options, error);
  if (selected.empty())
    return reportError(error);
  std::vector<std::pair<Entry, Entry>> entries(selected.size());
  for (size_t i = 0; i < selected.size(); ++i)
    if (!lookupEntries(*selected[i], lib, ref, options, entries[i].first,
                       entries[i].second, error))
      return reportError(error);
  ArgFiles files;
  if (options.hasArgFiles() &&
      !readArgFiles(*selected.front(), options, files, error))
    return reportError(error);

  bool needsGpu =
      lib.target == Target::Gpu || (ref && ref->target == Target::Gpu);
  const char *target = getTargetName(lib.target);
  if (needsGpu) {
    std::string reason;
    int status = gpu.start(reason);
    if (status == kExitPass && !checkLoaded(libraries))
      status = kExitError;
    if (status == kExitNoDevice) {
      printError("no CUDA device available: " + reason);
      if (!options.jsonPath.empty())
        writeJson(options.jsonPath, options, "no-device", target, "", reason,
                  {}, kExitNoDevice);
    }
    if (status != kExitPass)
      return status;
  }
  std::string device = lib.target == Target::Gpu ? gpu.deviceName : "cpu";

  if (!ref && options.expectedOutputs.empty())
    llvm::outs() << "hidet-run: no --ref library or --expected-output file "
                    "given: outputs are not verified\n";
  std::vector<FuncResult> results;
  int exitCode = kExitPass;
  HostBuffers outputs;
  for (size_t i = 0; i < selected.size(); ++i) {
    FuncResult result;
    if (!runFunction(*selected[i], entries[i].first, entries[i].second, files,
                     options, gpu.stream, outputs, result)) {
      exitCode = kExitError;
      break;
    }
    printResult(result, device);
    printProfile(result);
    if (result.verified && !result.pass)
      exitCode = kExitMismatch;
    results.push_back(std::move(result));
  }

  // Outputs are saved, all of them, only when the run had no error; the
  // outputs of a mismatch are saved too, for a look at what went wrong.
  OutputFileSet outputFiles;
  if (exitCode != kExitError && !options.outputs.empty() &&
      (!stageOutputs(*selected.front(), options, outputs, outputFiles, error) ||
       !outputFiles.commit(error))) {
    printError(error);
    exitCode = kExitError;
  }

  if (!options.jsonPath.empty()) {
    bool verified = std::any_of(results.begin(), results.end(),
                                [](const FuncResult &r) { return r.verified; });
    const char *status = exitCode == kExitError      ? "error"
                         : exitCode == kExitMismatch ? "fail"
                         : verified                  ? "pass"
                                                     : "unverified";
    if (!writeJson(options.jsonPath, options, status, target, device, "",
                   results, exitCode) &&
        exitCode != kExitError) {
      outputFiles.removeCommitted();
      exitCode = kExitError;
    }
  }
  return exitCode;
}

/// The exit status of a run of several libraries: the worst of theirs.
int worseExit(int a, int b) {
  auto rank = [](int code) {
    switch (code) {
    case kExitPass:
      return 0;
    case kExitMismatch:
      return 1;
    case kExitNoDevice:
      return 2;
    default:
      return 3;
    }
  };
  return rank(a) >= rank(b) ? a : b;
}

} // namespace

int main(int argc, char **argv) {
  Options options;
  if (!parseOptions(argc, argv, options))
    return kExitError;
  // A GPU library loads its device code when it is opened, which fails
  // where there is no device: expected, not news. The runtime records the
  // failure quietly; it is reported if a device turns out to exist.
  hidetRuntimeSetErrorPrinting(0);
  if (!options.jsonDir.empty()) {
    // create_directories takes an existing file for done.
    std::error_code ec = llvm::sys::fs::create_directories(options.jsonDir);
    if (!ec && !llvm::sys::fs::is_directory(options.jsonDir))
      ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) {
      printError(options.jsonDir + ": cannot create the folder: " +
                 ec.message());
      return kExitError;
    }
  }
  Gpu gpu;
  int exitCode = kExitPass;
  size_t count = options.libs.size();
  for (size_t i = 0; i < count; ++i) {
    Options one = options;
    one.lib = options.libs[i];
    if (!options.jsonDir.empty()) {
      llvm::SmallString<256> path(options.jsonDir);
      llvm::sys::path::append(path, jsonReportName(one.lib));
      one.jsonPath = std::string(path);
    }
    if (count > 1)
      llvm::outs() << "hidet-run: library " << i + 1 << "/" << count << ": "
                   << one.lib << "\n";
    std::vector<Library> libraries;
    int code = runTool(one, gpu, libraries);
    llvm::outs().flush();
    // Unload while the driver is alive: a GPU library's destructor unloads
    // its module. Reverse order, the library run last.
    for (auto it = libraries.rbegin(); it != libraries.rend(); ++it)
      if (it->handle)
        dlclose(it->handle);
    exitCode = worseExit(exitCode, code);
    // A CUDA error can leave the context unusable for what follows.
    if ((code == kExitError || code == kExitNoDevice) && i + 1 < count) {
      size_t rest = count - i - 1;
      printError("stopped after " + one.lib + ": " +
                 (rest == 1 ? std::string("the library after it was")
                            : "the " + std::to_string(rest) +
                                  " libraries after it were") +
                 " not run");
      break;
    }
  }
  return exitCode;
}
