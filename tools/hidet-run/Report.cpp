//===- Report.cpp - Results and messages of hidet-run ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "Options.h"

#include "hidet/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace hidet::run;
using namespace llvm;

void hidet::run::printError(const std::string &message) {
  errs() << "hidet-run: " << message << "\n";
}

bool hidet::run::checkRuntime(const std::string &what) {
  const char *message = nullptr;
  int code = hidetRuntimeLastError(&message);
  if (code == HIDET_RUNTIME_OK)
    return true;
  // Positive codes are the driver's; the runtime's own messages name the
  // file or call at fault.
  printError((what.empty() ? "" : what + ": ") +
             (code > 0 ? "CUDA error: " : "") + message);
  hidetRuntimeClearError();
  return false;
}

bool hidet::run::reportCudaError(const std::string &what) {
  if (checkRuntime(what))
    printError(what + ": failed");
  return false;
}

namespace {

const char *statusWord(const FuncResult &result) {
  if (!result.verified)
    return "UNVERIFIED";
  return result.pass ? "PASS" : "FAIL";
}

/// Writes " <key>=<value>" with two significant digits.
void printMeasure(raw_ostream &os, StringRef key, double value) {
  os << " " << key << "=" << format("%.2g", value);
}

/// Writes " (bound <value>)" with two significant digits.
void printBound(raw_ostream &os, double value) {
  os << " (bound " << format("%.2g", value) << ")";
}

/// The position of element `flat` of a row-major `shape`: "[1, 2, 3]".
std::string formatIndex(const std::vector<int64_t> &shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  std::string text = "[";
  for (size_t i = 0; i < index.size(); ++i)
    text += (i ? ", " : "") + std::to_string(index[i]);
  return text + "]";
}

/// An element value with the digits its dtype has.
std::string formatValue(DType dtype, double value) {
  const char *style = !isFloatDType(dtype)  ? "%.0f"
                      : dtype == DType::F64 ? "%.17g"
                                            : "%.9g";
  char text[64];
  std::snprintf(text, sizeof(text), style, value);
  return text;
}

/// Writes " of <n> beyond atol + rtol*|<what>| (rtol=<x> atol=<y>); worst
/// at <index> (element <i>): got <out>, <what> <value>" for an elementwise
/// check with mismatches.
void printMismatches(raw_ostream &os, const ArgSpec &arg, const Closeness &c,
                     StringRef what, const char *style, double rtol,
                     double atol) {
  os << " of " << arg.getNumElements() << " beyond atol + rtol*|" << what
     << "| (rtol=" << format(style, rtol) << " atol=" << format(style, atol)
     << "); worst at " << formatIndex(arg.shape, c.worstIndex) << " (element "
     << c.worstIndex << "): got " << formatValue(arg.dtype, c.worstOut) << ", "
     << what << " " << formatValue(arg.dtype, c.worstExpected);
}

void printRefCheck(raw_ostream &os, const OutputResult &output) {
  const RefCheck &check = output.ref;
  const Comparison &c = check.comparison;
  const ArgSpec &arg = *output.arg;
  os << "  output " << output.index << " (" << arg.str() << "):";
  printMeasure(os, "rel_l2", c.relL2);
  printBound(os, check.rtolL2);
  printMeasure(os, "max_abs", c.maxAbs);
  if (check.maxAbs >= 0)
    printBound(os, check.maxAbs);
  if (isFloatDType(arg.dtype)) {
    os << " max_ulp=" << c.maxUlp;
    if (check.maxUlp >= 0)
      os << " (bound " << check.maxUlp << ")";
    os << " ulp_mismatches=" << c.ulpMismatches;
  }
  if (c.gpuNonFinite)
    os << " gpu_nan_or_inf=" << c.gpuNonFinite;
  if (c.refNonFinite)
    os << " ref_nan_or_inf=" << c.refNonFinite;
  const Closeness &e = check.elements;
  os << " mismatches=" << e.mismatches;
  if (e.mismatches)
    printMismatches(os, arg, e, "ref", "%.2g", check.rtol, check.atol);
  else
    os << " (rtol=" << format("%.2g", check.rtol)
       << " atol=" << format("%.2g", check.atol) << ", worst "
       << format("%.2g", e.worstRatio) << " of its bound)";
  os << (check.pass ? " ok" : " MISMATCH") << "\n";
}

void printExpectedCheck(raw_ostream &os, const OutputResult &output) {
  const Closeness &c = output.closeness;
  const ArgSpec &arg = *output.arg;
  os << "  output " << output.index << " (" << arg.str() << ") vs "
     << output.expectedFile << ":";
  if (output.expectedRelL2Bound >= 0) {
    printMeasure(os, "rel_l2", output.expectedRelL2);
    printBound(os, output.expectedRelL2Bound);
  }
  printMeasure(os, "max_abs", c.maxAbs);
  if (output.outNonFinite)
    os << " nan_or_inf=" << output.outNonFinite;
  os << " mismatches=" << c.mismatches;
  if (output.expectedPass || c.mismatches == 0) {
    os << (output.expectedPass ? " ok\n" : " MISMATCH\n");
    return;
  }
  printMismatches(os, arg, c, "expected", "%g", output.rtol,
                  output.getAbsBound());
  if (output.atolRms > 0)
    os << " (atol = " << format("%g", output.atol) << " + "
       << format("%g", output.atolRms)
       << "*rms, rms=" << format("%g", output.expectedRms) << ")";
  os << " MISMATCH\n";
}

/// A number, or null where JSON has none (NaN, infinities).
json::Value jsonNumber(double value) {
  if (std::isfinite(value))
    return value;
  return nullptr;
}

/// A string, or null when empty.
json::Value jsonStringOrNull(const std::string &text) {
  if (text.empty())
    return nullptr;
  return text;
}

/// The "worst" attribute of an elementwise check: the element furthest
/// beyond (or nearest to) its bound, with `what` naming its expected value;
/// null for no elements.
void writeWorstJson(json::OStream &json, const ArgSpec &arg, const Closeness &c,
                    StringRef what) {
  if (c.worstIndex < 0) {
    json.attribute("worst", nullptr);
    return;
  }
  json.attributeObject("worst", [&] {
    json.attribute("element", c.worstIndex);
    json.attribute("index", formatIndex(arg.shape, c.worstIndex));
    json.attribute("got", jsonNumber(c.worstOut));
    json.attribute(what, jsonNumber(c.worstExpected));
    json.attribute("of_bound", jsonNumber(c.worstRatio));
  });
}

void writeExpectedJson(json::OStream &json, const OutputResult &output) {
  const Closeness &c = output.closeness;
  json.object([&] {
    json.attribute("file", output.expectedFile);
    json.attribute("rtol", jsonNumber(output.rtol));
    json.attribute("atol", jsonNumber(output.getAbsBound()));
    json.attribute("atol_rms", jsonNumber(output.atolRms));
    json.attribute("rms", jsonNumber(output.expectedRms));
    json.attribute("rel_l2", jsonNumber(output.expectedRelL2));
    json.attribute("rel_l2_bound", output.expectedRelL2Bound < 0
                                       ? json::Value(nullptr)
                                       : jsonNumber(output.expectedRelL2Bound));
    json.attribute("max_abs", jsonNumber(c.maxAbs));
    json.attribute("mismatches", c.mismatches);
    writeWorstJson(json, *output.arg, c, "expected");
    json.attribute("pass", output.expectedPass);
  });
}

/// The elementwise check against the reference, or null where there was
/// none.
void writeElementsJson(json::OStream &json, const OutputResult &output) {
  if (!output.refChecked) {
    json.value(nullptr);
    return;
  }
  const RefCheck &check = output.ref;
  json.object([&] {
    json.attribute("rtol", jsonNumber(check.rtol));
    json.attribute("atol", jsonNumber(check.atol));
    json.attribute("atol_rms", check.atolRms < 0 ? json::Value(nullptr)
                                                 : jsonNumber(check.atolRms));
    json.attribute("ref_rms", jsonNumber(check.comparison.refRms));
    json.attribute("mismatches", check.elements.mismatches);
    writeWorstJson(json, *output.arg, check.elements, "ref");
  });
}

void writeOutputJson(json::OStream &json, const OutputResult &output) {
  const RefCheck &check = output.ref;
  const Comparison &c = check.comparison;
  // The measures against the reference, or null where there was none.
  auto measure = [&](json::Value value) {
    return output.refChecked ? std::move(value) : json::Value(nullptr);
  };
  json.object([&] {
    json.attribute("index", static_cast<int64_t>(output.index));
    json.attribute("type", output.arg->str());
    json.attribute("rel_l2", measure(jsonNumber(c.relL2)));
    json.attribute("max_abs", measure(jsonNumber(c.maxAbs)));
    json.attribute("rtol_l2", measure(jsonNumber(check.rtolL2)));
    json.attribute("max_abs_bound", check.maxAbs < 0
                                        ? json::Value(nullptr)
                                        : measure(jsonNumber(check.maxAbs)));
    json.attribute("max_ulp", measure(c.maxUlp));
    json.attribute("ulp_mismatches", measure(c.ulpMismatches));
    json.attribute("gpu_nonfinite", measure(c.gpuNonFinite));
    json.attribute("ref_nonfinite", measure(c.refNonFinite));
    json.attributeBegin("elements");
    writeElementsJson(json, output);
    json.attributeEnd();
    json.attributeBegin("expected");
    if (output.expectedFile.empty())
      json.value(nullptr);
    else
      writeExpectedJson(json, output);
    json.attributeEnd();
    json.attribute("pass", output.pass);
  });
}

void writeFuncJson(json::OStream &json, const FuncResult &result,
                   long long reps) {
  json.object([&] {
    json.attribute("name", result.func->name);
    json.attribute("status", StringRef(statusWord(result)).lower());
    json.attribute("signature", result.func->signature());
    json.attributeArray("outputs", [&] {
      for (const OutputResult &output : result.outputs)
        writeOutputJson(json, output);
    });
    if (result.hasStats) {
      json.attributeObject("memory", [&] {
        json.attribute("weights_bytes",
                       static_cast<int64_t>(result.weightBytes));
        json.attribute("workspace_bytes",
                       static_cast<int64_t>(result.workspaceBytes));
        json.attribute("intermediates_bytes",
                       static_cast<int64_t>(result.intermediateBytes));
      });
      json.attribute("kernels", static_cast<int64_t>(result.kernelLaunches));
      json.attribute("cuda_graph", result.cudaGraph);
    }
    if (result.profileRuns > 0) {
      json.attributeObject("profile", [&] {
        json.attribute("runs", static_cast<int64_t>(result.profileRuns));
        json.attributeArray("launches", [&] {
          for (const FuncResult::KernelTime &kernel : result.kernels)
            json.object([&] {
              json.attribute("kernel", kernel.name);
              json.attribute("ms", jsonNumber(kernel.ms));
              json.attributeArray("samples_ms", [&] {
                for (double ms : kernel.samples)
                  json.value(jsonNumber(ms));
              });
            });
        });
      });
    }
    if (!result.timed) {
      json.attribute("time_ms", nullptr);
      return;
    }
    json.attributeObject("time_ms", [&] {
      json.attribute("median", jsonNumber(result.medianMs));
      json.attribute("min", jsonNumber(result.minMs));
      json.attribute("mean", jsonNumber(result.meanMs));
      json.attribute("reps", reps);
    });
  });
}

} // namespace

void hidet::run::printResult(const FuncResult &result,
                             const std::string &device) {
  raw_ostream &os = outs();
  os << "hidet-run: " << result.func->name << " " << statusWord(result);
  bool refChecked = any_of(result.outputs,
                           [](const OutputResult &o) { return o.refChecked; });
  if (refChecked) {
    printMeasure(os, "rel_l2", result.worstRelL2);
    printMeasure(os, "max_abs", result.worstMaxAbs);
    if (result.refMismatches)
      os << " mismatches=" << result.refMismatches;
    // Only when bounded: near zero the distance in values says little (an
    // f32 output that crosses zero is millions of values off).
    bool ulpBounded = any_of(result.outputs, [](const OutputResult &o) {
      return o.ref.maxUlp >= 0;
    });
    if (ulpBounded && result.worstMaxUlp >= 0)
      os << " max_ulp=" << result.worstMaxUlp
         << " ulp_mismatches=" << result.ulpMismatches;
    // The error norms skip NaN and Inf elements; count them instead.
    int64_t nonFinite = 0;
    for (const OutputResult &output : result.outputs)
      nonFinite += output.ref.comparison.gpuNonFinite;
    if (nonFinite)
      os << " gpu_nan_or_inf=" << nonFinite;
  }
  if (result.expectedChecked) {
    if (result.worstExpectedRelL2 >= 0)
      printMeasure(os, "expected_rel_l2", result.worstExpectedRelL2);
    printMeasure(os, "expected_max_abs", result.worstExpectedMaxAbs);
    if (result.expectedMismatches)
      os << " expected_mismatches=" << result.expectedMismatches;
  }
  if (result.timed)
    os << " median_ms=" << format("%.4g", result.medianMs)
       << " min_ms=" << format("%.4g", result.minMs)
       << " mean_ms=" << format("%.4g", result.meanMs);
  os << " (device: " << device << ")\n";
  // Per-output details when they say more than the summary.
  if (result.pass && result.outputs.size() <= 1)
    return;
  for (const OutputResult &output : result.outputs) {
    if (output.refChecked)
      printRefCheck(os, output);
    if (!output.expectedFile.empty())
      printExpectedCheck(os, output);
  }
}

bool hidet::run::writeJson(const std::string &path, const Options &options,
                           const std::string &status, const std::string &target,
                           const std::string &device, const std::string &reason,
                           const std::vector<FuncResult> &results,
                           int exitCode) {
  std::error_code error;
  raw_fd_ostream file(path, error, sys::fs::OF_Text);
  if (error) {
    printError("cannot write " + path + ": " + error.message());
    return false;
  }
  {
    json::OStream json(file, /*IndentSize=*/2);
    json.object([&] {
      json.attribute("status", status);
      json.attribute("exit_code", exitCode);
      if (!reason.empty())
        json.attribute("reason", reason);
      json.attribute("device", jsonStringOrNull(device));
      json.attribute("library", options.lib);
      json.attribute("target", target);
      json.attribute("reference_library", jsonStringOrNull(options.refLib));
      json.attribute("seed", options.seed);
      json.attribute("input_dist", getInputDistName(options.inputDist));
      json.attribute("warmup", options.warmup);
      json.attribute("reps", options.reps);
      json.attributeArray("functions", [&] {
        for (const FuncResult &result : results)
          writeFuncJson(json, result, options.reps);
      });
    });
  }
  file << "\n";
  file.close();
  if (file.has_error()) {
    printError("cannot write " + path + ": " + file.error().message());
    file.clear_error();
    return false;
  }
  return true;
}

void hidet::run::printProfile(const FuncResult &result) {
  if (result.profileRuns <= 0)
    return;
  // Launches of one kernel name added up, largest total first.
  struct Row {
    std::string name;
    double ms = 0;
    int launches = 0;
  };
  std::vector<Row> rows;
  llvm::StringMap<size_t> index;
  double total = 0;
  for (const FuncResult::KernelTime &kernel : result.kernels) {
    auto [it, inserted] = index.try_emplace(kernel.name, rows.size());
    if (inserted)
      rows.push_back({kernel.name, 0, 0});
    Row &row = rows[it->second];
    row.ms += kernel.ms;
    ++row.launches;
    total += kernel.ms;
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const Row &a, const Row &b) { return a.ms > b.ms; });
  raw_ostream &os = outs();
  os << "hidet-run: " << result.func->name << " profile: "
     << result.kernels.size() << " launches, "
     << format("%.4f", total) << " ms in kernels (median of "
     << result.profileRuns << " direct runs)\n";
  os << format("  %10s %6s %8s  %s\n", "ms", "share", "launches", "kernel");
  for (const Row &row : rows)
    os << format("  %10.4f %5.1f%% %8d  %s\n", row.ms,
                 total > 0 ? 100.0 * row.ms / total : 0.0, row.launches,
                 row.name.empty() ? "(unnamed)" : row.name.c_str());
}
