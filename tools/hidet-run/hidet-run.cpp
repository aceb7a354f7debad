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
// the same inputs, compares every output, then times the GPU build with
// CUDA events on one stream.
//
// Exit status: 0 all checks passed (or nothing was checked, without --ref),
// 1 a numerical mismatch, 2 a usage, loading or CUDA error, 3 no usable CUDA
// device (so scripts can report a skip).
//
// Besides libhidet_runtime and libdl, only LLVM's Support library is used,
// linked statically: it runs where nothing but the NVIDIA driver is
// installed. `hidet-run --help` lists the options (Options.cpp).
//
//===----------------------------------------------------------------------===//

#include "Data.h"
#include "ManifestParser.h"
#include "Options.h"

#include "hidet/Manifest.h"
#include "hidet/Runtime.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <random>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

using namespace hidet::run;

namespace {

// The entry points are called through a table of fixed arities.
constexpr size_t kMaxArgs = 32;

void printError(const std::string &message) {
  std::fprintf(stderr, "hidet-run: %s\n", message.c_str());
}

//===----------------------------------------------------------------------===//
// Libraries
//===----------------------------------------------------------------------===//

struct Library {
  std::string path;
  void *handle = nullptr;
  Manifest manifest;
};

/// dlopens `path` and parses its manifest.
bool openLibrary(const std::string &path, Library &library,
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

void *lookupEntry(const Library &library, const FuncSpec &func,
                  std::string &error) {
  std::string symbol = HIDET_MANIFEST_ENTRY_PREFIX + func.name;
  void *entry = dlsym(library.handle, symbol.c_str());
  if (!entry)
    error = library.path + ": the manifest lists '" + func.name +
            "' but the library does not export '" + symbol + "'";
  return entry;
}

//===----------------------------------------------------------------------===//
// Calling entry points
//===----------------------------------------------------------------------===//

template <size_t... I>
void callWithArity(void *entry, void *const *args, std::index_sequence<I...>) {
  using Function = void (*)(decltype((void)I, static_cast<void *>(nullptr))...);
  reinterpret_cast<Function>(entry)(args[I]...);
}

template <size_t N> void callWithCount(void *entry, void *const *args) {
  callWithArity(entry, args, std::make_index_sequence<N>());
}

template <size_t... N>
void dispatchCall(void *entry, const std::vector<void *> &args,
                  std::index_sequence<N...>) {
  using Caller = void (*)(void *, void *const *);
  static constexpr Caller callers[] = {&callWithCount<N>...};
  callers[args.size()](entry, args.data());
}

/// Calls `void entry(void *, ...)` with one pointer per arg.
void callEntry(void *entry, const std::vector<void *> &args) {
  dispatchCall(entry, args, std::make_index_sequence<kMaxArgs + 1>());
}

/// A ranked memref descriptor of a row-major contiguous buffer.
std::vector<int64_t> makeDescriptor(void *data, const ArgSpec &arg) {
  size_t rank = arg.shape.size();
  std::vector<int64_t> words(3 + 2 * rank);
  int64_t pointer = static_cast<int64_t>(reinterpret_cast<intptr_t>(data));
  words[0] = pointer; // allocated
  words[1] = pointer; // aligned
  words[2] = 0;       // offset
  int64_t stride = 1;
  for (size_t i = rank; i-- > 0;) {
    words[3 + i] = arg.shape[i];
    words[3 + rank + i] = stride;
    stride *= arg.shape[i];
  }
  return words;
}

/// Prints and clears the runtime's error, if any; returns whether there was
/// none.
bool checkRuntime(const std::string &what) {
  const char *message = nullptr;
  if (hidetRuntimeLastError(&message) == HIDET_RUNTIME_OK)
    return true;
  printError(what + ": CUDA error: " + message);
  hidetRuntimeClearError();
  return false;
}

/// Reports the runtime's error for a failed step; always false.
bool reportCudaError(const std::string &what) {
  if (checkRuntime(what))
    printError(what + ": failed");
  return false;
}

/// Prints a usage or loading error; returns the matching exit status.
int reportError(const std::string &message) {
  printError(message);
  return kExitError;
}

//===----------------------------------------------------------------------===//
// Results
//===----------------------------------------------------------------------===//

struct OutputResult {
  size_t index = 0;
  const ArgSpec *arg = nullptr;
  Comparison comparison;
  double rtolL2 = 0;
  double atol = -1;
  long long maxUlp = -1;
  bool pass = true;
};

struct FuncResult {
  const FuncSpec *func = nullptr;
  bool verified = false;
  bool pass = true;
  std::vector<OutputResult> outputs;
  double worstRelL2 = 0;
  double worstMaxAbs = 0;
  /// Over the float outputs (-1: none).
  int64_t worstMaxUlp = -1;
  int64_t ulpMismatches = 0;
  bool timed = false;
  double medianMs = 0, minMs = 0, meanMs = 0;
};

std::string formatNumber(const char *format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

std::string jsonNumber(double value) {
  return std::isfinite(value) ? formatNumber("%.17g", value) : "null";
}

std::string jsonString(const std::string &text) {
  std::string quoted = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += static_cast<char>(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\u%04x", c);
      quoted += escape;
    } else {
      quoted += static_cast<char>(c);
    }
  }
  return quoted + "\"";
}

const char *statusWord(const FuncResult &result) {
  if (!result.verified)
    return "UNVERIFIED";
  return result.pass ? "PASS" : "FAIL";
}

bool writeJson(const std::string &path, const Options &options,
               const std::string &status, const std::string &device,
               const std::string &reason,
               const std::vector<FuncResult> &results, int exitCode) {
  std::string json = "{\n";
  json += "  \"status\": " + jsonString(status) + ",\n";
  json += "  \"exit_code\": " + std::to_string(exitCode) + ",\n";
  if (!reason.empty())
    json += "  \"reason\": " + jsonString(reason) + ",\n";
  json +=
      "  \"device\": " + (device.empty() ? "null" : jsonString(device)) + ",\n";
  json += "  \"gpu_library\": " + jsonString(options.gpuLib) + ",\n";
  json += "  \"reference_library\": " +
          (options.refLib.empty() ? "null" : jsonString(options.refLib)) +
          ",\n";
  json += "  \"seed\": " + std::to_string(options.seed) + ",\n";
  json += "  \"warmup\": " + std::to_string(options.warmup) + ",\n";
  json += "  \"reps\": " + std::to_string(options.reps) + ",\n";
  json += "  \"functions\": [";
  for (size_t f = 0; f < results.size(); ++f) {
    const FuncResult &result = results[f];
    json += f ? ",\n" : "\n";
    json += "    {\n      \"name\": " + jsonString(result.func->name) + ",\n";
    std::string word = statusWord(result);
    std::transform(word.begin(), word.end(), word.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    json += "      \"status\": " + jsonString(word) + ",\n";
    json +=
        "      \"signature\": " + jsonString(result.func->signature()) + ",\n";
    json += "      \"outputs\": [";
    for (size_t o = 0; o < result.outputs.size(); ++o) {
      const OutputResult &output = result.outputs[o];
      json += o ? ",\n" : "\n";
      json += "        {\"index\": " + std::to_string(output.index) +
              ", \"type\": " + jsonString(output.arg->str()) +
              ", \"rel_l2\": " + jsonNumber(output.comparison.relL2) +
              ", \"max_abs\": " + jsonNumber(output.comparison.maxAbs) +
              ", \"rtol_l2\": " + jsonNumber(output.rtolL2) + ", \"atol\": " +
              (output.atol < 0 ? "null" : jsonNumber(output.atol)) +
              ", \"max_ulp\": " + std::to_string(output.comparison.maxUlp) +
              ", \"ulp_mismatches\": " +
              std::to_string(output.comparison.ulpMismatches) +
              ", \"gpu_nonfinite\": " +
              std::to_string(output.comparison.gpuNonFinite) +
              ", \"ref_nonfinite\": " +
              std::to_string(output.comparison.refNonFinite) +
              ", \"pass\": " + (output.pass ? "true" : "false") + "}";
    }
    json += result.outputs.empty() ? "],\n" : "\n      ],\n";
    if (result.timed)
      json += "      \"time_ms\": {\"median\": " + jsonNumber(result.medianMs) +
              ", \"min\": " + jsonNumber(result.minMs) +
              ", \"mean\": " + jsonNumber(result.meanMs) +
              ", \"reps\": " + std::to_string(options.reps) + "}\n";
    else
      json += "      \"time_ms\": null\n";
    json += "    }";
  }
  json += results.empty() ? "]\n}\n" : "\n  ]\n}\n";

  FILE *file = std::fopen(path.c_str(), "w");
  if (!file) {
    printError("cannot write " + path + ": " + std::strerror(errno));
    return false;
  }
  bool ok = std::fwrite(json.data(), 1, json.size(), file) == json.size();
  ok = std::fclose(file) == 0 && ok;
  if (!ok)
    printError("cannot write " + path);
  return ok;
}

//===----------------------------------------------------------------------===//
// Running one function
//===----------------------------------------------------------------------===//

/// Device buffers of one function's args, freed on destruction.
struct DeviceBuffers {
  std::vector<void *> pointers;
  ~DeviceBuffers() {
    for (void *pointer : pointers)
      hidetFree(pointer);
  }
};

/// Runs, checks and times `func`. Returns false on a CUDA error (reported).
/// A kernel that spins for a fixed number of cycles (~100 us). Launched
/// before each timed call, it lets the host enqueue the call's kernels
/// while the GPU is still busy, so that launch gaps stay out of the timing
/// (the same method as the project's PyTorch baselines, which queue behind
/// torch.cuda._sleep). PTX, so that the driver compiles it for any GPU.
struct SpinKernel {
  static constexpr const char *kPtx =
      ".version 7.0\n.target sm_70\n.address_size 64\n"
      ".visible .entry hidet_spin(.param .u64 cycles) {\n"
      "  .reg .u64 %rd<4>;\n  .reg .pred %p;\n"
      "  ld.param.u64 %rd1, [cycles];\n  mov.u64 %rd2, %clock64;\n"
      "SPIN:\n  mov.u64 %rd3, %clock64;\n  sub.u64 %rd3, %rd3, %rd2;\n"
      "  setp.lt.u64 %p, %rd3, %rd1;\n  @%p bra SPIN;\n  ret;\n}\n";
  hidetModule_t module = nullptr;
  hidetFunction_t function = nullptr;

  void launch(hidetStream_t stream) {
    if (!module) {
      module = mgpuModuleLoadJIT(kPtx, /*optLevel=*/2);
      if (module)
        function = mgpuModuleGetFunction(module, "hidet_spin");
    }
    if (!function)
      return;
    uint64_t cycles = 200000; // ~100 us at 2 GHz
    void *params[] = {&cycles};
    mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr, 1);
  }
  ~SpinKernel() {
    if (module)
      mgpuModuleUnload(module);
  }
};

bool runFunction(const FuncSpec &func, void *gpuEntry, void *refEntry,
                 const Options &options, hidetStream_t stream,
                 FuncResult &result) {
  result.func = &func;
  std::string label = func.name;
  size_t numArgs = func.args.size();

  // Inputs from the seeded generator; the reference gets the same bytes.
  std::mt19937_64 rng(options.seed);
  std::vector<std::vector<unsigned char>> hostData(numArgs);
  for (size_t i = 0; i < numArgs; ++i) {
    const ArgSpec &arg = func.args[i];
    hostData[i].assign(arg.getSizeBytes(), 0xFF);
    if (!arg.isOutput)
      fillRandom(arg, rng, hostData[i].data());
  }

  DeviceBuffers device;
  std::vector<std::vector<int64_t>> gpuDescriptors, refDescriptors;
  std::vector<void *> gpuArgs, refArgs;
  for (size_t i = 0; i < numArgs; ++i) {
    const ArgSpec &arg = func.args[i];
    void *buffer = hidetMalloc(arg.getSizeBytes());
    if (!buffer)
      return reportCudaError(label + ": allocating arg " + std::to_string(i));
    device.pointers.push_back(buffer);
    // Outputs start as 0xFF bytes (NaN), so unwritten elements fail.
    int status = arg.isOutput ? hidetMemsetD8(buffer, 0xFF, arg.getSizeBytes())
                              : hidetMemcpyHtoD(buffer, hostData[i].data(),
                                                arg.getSizeBytes());
    if (status != HIDET_RUNTIME_OK)
      return reportCudaError(label + ": preparing arg " + std::to_string(i));
    gpuDescriptors.push_back(makeDescriptor(buffer, arg));
    refDescriptors.push_back(makeDescriptor(hostData[i].data(), arg));
  }
  for (size_t i = 0; i < numArgs; ++i) {
    gpuArgs.push_back(gpuDescriptors[i].data());
    refArgs.push_back(refDescriptors[i].data());
  }

  // One checked run.
  callEntry(gpuEntry, gpuArgs);
  hidetStreamSynchronize(stream);
  hidetDeviceSynchronize();
  if (!checkRuntime(label))
    return false;
  std::vector<std::vector<unsigned char>> gpuOutputs(numArgs);
  for (size_t i = func.numInputs; i < numArgs; ++i) {
    gpuOutputs[i].resize(func.args[i].getSizeBytes());
    hidetMemcpyDtoH(gpuOutputs[i].data(), device.pointers[i],
                    gpuOutputs[i].size());
  }
  if (!checkRuntime(label + ": copying outputs back"))
    return false;

  if (refEntry && options.refOnGpu) {
    // A GPU reference gets its own device copies of the same inputs; its
    // outputs come back into hostData, as a CPU reference writes them.
    DeviceBuffers refDevice;
    std::vector<std::vector<int64_t>> descriptors;
    refArgs.clear();
    for (size_t i = 0; i < numArgs; ++i) {
      const ArgSpec &arg = func.args[i];
      void *buffer = hidetMalloc(arg.getSizeBytes());
      if (!buffer)
        return reportCudaError(label + ": allocating reference arg " +
                               std::to_string(i));
      refDevice.pointers.push_back(buffer);
      int status =
          arg.isOutput
              ? hidetMemsetD8(buffer, 0xFF, arg.getSizeBytes())
              : hidetMemcpyHtoD(buffer, hostData[i].data(), arg.getSizeBytes());
      if (status != HIDET_RUNTIME_OK)
        return reportCudaError(label + ": preparing reference arg " +
                               std::to_string(i));
      descriptors.push_back(makeDescriptor(buffer, arg));
    }
    for (size_t i = 0; i < numArgs; ++i)
      refArgs.push_back(descriptors[i].data());
    callEntry(refEntry, refArgs);
    hidetStreamSynchronize(stream);
    hidetDeviceSynchronize();
    for (size_t i = func.numInputs; i < numArgs; ++i)
      hidetMemcpyDtoH(hostData[i].data(), refDevice.pointers[i],
                      hostData[i].size());
    if (!checkRuntime(label + ": running the GPU reference"))
      return false;
  } else if (refEntry) {
    callEntry(refEntry, refArgs);
  }
  if (refEntry) {
    result.verified = true;
    for (size_t i = func.numInputs; i < numArgs; ++i) {
      const ArgSpec &arg = func.args[i];
      OutputResult output;
      output.index = i;
      output.arg = &arg;
      output.comparison =
          compare(arg, gpuOutputs[i].data(), hostData[i].data());
      output.rtolL2 = options.rtolL2 >= 0 ? options.rtolL2
                                          : getDefaultRelL2Tolerance(arg.dtype);
      output.atol = options.atol;
      output.maxUlp = options.maxUlp;
      const Comparison &c = output.comparison;
      output.pass = c.gpuNonFinite == 0 && c.refNonFinite == 0 &&
                    c.relL2 <= output.rtolL2 &&
                    (output.atol < 0 || c.maxAbs <= output.atol) &&
                    (output.maxUlp < 0 || c.maxUlp <= output.maxUlp);
      result.pass = result.pass && output.pass;
      result.worstRelL2 = std::max(result.worstRelL2, c.relL2);
      result.worstMaxAbs = std::max(result.worstMaxAbs, c.maxAbs);
      if (isFloatDType(arg.dtype)) {
        result.worstMaxUlp = std::max(result.worstMaxUlp, c.maxUlp);
        result.ulpMismatches += c.ulpMismatches;
      }
      result.outputs.push_back(output);
    }
  }

  if (options.reps == 0)
    return true;
  for (long long i = 0; i < options.warmup; ++i) {
    callEntry(gpuEntry, gpuArgs);
    if (!checkRuntime(label + ": warm-up"))
      return false;
  }
  hidetStreamSynchronize(stream);
  // Events for all reps up front, so timing adds no host work between
  // calls; the compiled code's own work goes to the same stream.
  std::vector<hidetEvent_t> starts, ends;
  bool ok = true;
  for (long long i = 0; i < options.reps && ok; ++i) {
    starts.push_back(hidetEventCreate());
    ends.push_back(hidetEventCreate());
    ok = starts.back() && ends.back();
  }
  std::vector<double> times;
  SpinKernel spin;
  for (long long i = 0; i < options.reps && ok; ++i) {
    // Keep the GPU busy while the host enqueues the call, so that the
    // events measure GPU time, not host launch gaps.
    if (options.queueBehindSpin)
      spin.launch(stream);
    hidetEventRecord(starts[i], stream);
    // The end is recorded inside the function's final stream wait, so the
    // host's wake-up stays out; a function that does not wait gets it here.
    hidetRuntimeRecordBeforeSync(ends[i]);
    callEntry(gpuEntry, gpuArgs);
    if (hidetRuntimeRecordBeforeSync(nullptr) == ends[i])
      hidetEventRecord(ends[i], stream);
    ok = checkRuntime(label + ": timed run");
  }
  if (ok) {
    hidetEventSynchronize(ends.back());
    for (long long i = 0; i < options.reps && ok; ++i) {
      float ms = 0;
      ok = hidetEventElapsedMs(starts[i], ends[i], &ms) == HIDET_RUNTIME_OK;
      times.push_back(ms);
    }
    ok = checkRuntime(label + ": reading timers") && ok;
  }
  for (hidetEvent_t event : starts)
    hidetEventDestroy(event);
  for (hidetEvent_t event : ends)
    hidetEventDestroy(event);
  if (!ok)
    return reportCudaError(label);

  std::vector<double> sorted = times;
  std::sort(sorted.begin(), sorted.end());
  size_t n = sorted.size();
  result.timed = true;
  result.medianMs =
      n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
  result.minMs = sorted.front();
  double sum = 0;
  for (double t : sorted)
    sum += t;
  result.meanMs = sum / static_cast<double>(n);
  return true;
}

void printResult(const FuncResult &result, const std::string &device) {
  std::string line =
      "hidet-run: " + result.func->name + " " + statusWord(result);
  if (result.verified) {
    line += " rel_l2=" + formatNumber("%.2g", result.worstRelL2) +
            " max_abs=" + formatNumber("%.2g", result.worstMaxAbs);
    // Only when bounded: near zero the distance in values says little (an
    // f32 output that crosses zero is millions of values off).
    bool ulpBounded =
        std::any_of(result.outputs.begin(), result.outputs.end(),
                    [](const OutputResult &o) { return o.maxUlp >= 0; });
    if (ulpBounded && result.worstMaxUlp >= 0)
      line += " max_ulp=" + std::to_string(result.worstMaxUlp) +
              " ulp_mismatches=" + std::to_string(result.ulpMismatches);
    // The error norms skip NaN and Inf elements; count them instead.
    int64_t nonFinite = 0;
    for (const OutputResult &output : result.outputs)
      nonFinite += output.comparison.gpuNonFinite;
    if (nonFinite)
      line += " gpu_nan_or_inf=" + std::to_string(nonFinite);
  }
  if (result.timed)
    line += " median_ms=" + formatNumber("%.4g", result.medianMs) +
            " min_ms=" + formatNumber("%.4g", result.minMs) +
            " mean_ms=" + formatNumber("%.4g", result.meanMs);
  line += " (device: " + device + ")";
  std::printf("%s\n", line.c_str());
  // Per-output details when they say more than the summary.
  if (result.pass && result.outputs.size() <= 1)
    return;
  for (const OutputResult &output : result.outputs) {
    const Comparison &c = output.comparison;
    std::string detail = "  output " + std::to_string(output.index) + " (" +
                         output.arg->str() +
                         "): rel_l2=" + formatNumber("%.2g", c.relL2) +
                         " (bound " + formatNumber("%.2g", output.rtolL2) +
                         ") max_abs=" + formatNumber("%.2g", c.maxAbs);
    if (output.atol >= 0)
      detail += " (bound " + formatNumber("%.2g", output.atol) + ")";
    if (isFloatDType(output.arg->dtype)) {
      detail += " max_ulp=" + std::to_string(c.maxUlp);
      if (output.maxUlp >= 0)
        detail += " (bound " + std::to_string(output.maxUlp) + ")";
      detail += " ulp_mismatches=" + std::to_string(c.ulpMismatches);
    }
    if (c.gpuNonFinite)
      detail += " gpu_nan_or_inf=" + std::to_string(c.gpuNonFinite);
    if (c.refNonFinite)
      detail += " ref_nan_or_inf=" + std::to_string(c.refNonFinite);
    detail += output.pass ? " ok" : " MISMATCH";
    std::printf("%s\n", detail.c_str());
  }
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
    if (func->args.size() > kMaxArgs) {
      printError("'" + func->name + "' has " +
                 std::to_string(func->args.size()) +
                 " args; hidet-run calls functions of at most " +
                 std::to_string(kMaxArgs));
      return kExitError;
    }
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
    std::printf("hidet-run: no --ref library given: outputs are not "
                "verified\n");
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
  std::fflush(stdout);
  // Unload while the driver is alive: the GPU library's destructor unloads
  // its module. Reverse order, the GPU library last.
  for (auto it = libraries.rbegin(); it != libraries.rend(); ++it)
    if (it->handle)
      dlclose(it->handle);
  return exitCode;
}
