//===- Report.cpp - Results and messages of hidet-run ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Report.h"

#include "Options.h"

#include "hidet/Runtime.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>

using namespace hidet::run;
using namespace llvm;

void hidet::run::printError(const std::string &message) {
  errs() << "hidet-run: " << message << "\n";
}

bool hidet::run::checkRuntime(const std::string &what) {
  const char *message = nullptr;
  if (hidetRuntimeLastError(&message) == HIDET_RUNTIME_OK)
    return true;
  printError(what + ": CUDA error: " + message);
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

void printOutput(raw_ostream &os, const OutputResult &output) {
  const Comparison &c = output.comparison;
  os << "  output " << output.index << " (" << output.arg->str() << "):";
  printMeasure(os, "rel_l2", c.relL2);
  printBound(os, output.rtolL2);
  printMeasure(os, "max_abs", c.maxAbs);
  if (output.atol >= 0)
    printBound(os, output.atol);
  if (isFloatDType(output.arg->dtype)) {
    os << " max_ulp=" << c.maxUlp;
    if (output.maxUlp >= 0)
      os << " (bound " << output.maxUlp << ")";
    os << " ulp_mismatches=" << c.ulpMismatches;
  }
  if (c.gpuNonFinite)
    os << " gpu_nan_or_inf=" << c.gpuNonFinite;
  if (c.refNonFinite)
    os << " ref_nan_or_inf=" << c.refNonFinite;
  os << (output.pass ? " ok" : " MISMATCH") << "\n";
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

void writeOutputJson(json::OStream &json, const OutputResult &output) {
  const Comparison &c = output.comparison;
  json.object([&] {
    json.attribute("index", static_cast<int64_t>(output.index));
    json.attribute("type", output.arg->str());
    json.attribute("rel_l2", jsonNumber(c.relL2));
    json.attribute("max_abs", jsonNumber(c.maxAbs));
    json.attribute("rtol_l2", jsonNumber(output.rtolL2));
    json.attribute("atol", output.atol < 0 ? json::Value(nullptr)
                                           : jsonNumber(output.atol));
    json.attribute("max_ulp", c.maxUlp);
    json.attribute("ulp_mismatches", c.ulpMismatches);
    json.attribute("gpu_nonfinite", c.gpuNonFinite);
    json.attribute("ref_nonfinite", c.refNonFinite);
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
  if (result.verified) {
    printMeasure(os, "rel_l2", result.worstRelL2);
    printMeasure(os, "max_abs", result.worstMaxAbs);
    // Only when bounded: near zero the distance in values says little (an
    // f32 output that crosses zero is millions of values off).
    bool ulpBounded = any_of(
        result.outputs, [](const OutputResult &o) { return o.maxUlp >= 0; });
    if (ulpBounded && result.worstMaxUlp >= 0)
      os << " max_ulp=" << result.worstMaxUlp
         << " ulp_mismatches=" << result.ulpMismatches;
    // The error norms skip NaN and Inf elements; count them instead.
    int64_t nonFinite = 0;
    for (const OutputResult &output : result.outputs)
      nonFinite += output.comparison.gpuNonFinite;
    if (nonFinite)
      os << " gpu_nan_or_inf=" << nonFinite;
  }
  if (result.timed)
    os << " median_ms=" << format("%.4g", result.medianMs)
       << " min_ms=" << format("%.4g", result.minMs)
       << " mean_ms=" << format("%.4g", result.meanMs);
  os << " (device: " << device << ")\n";
  // Per-output details when they say more than the summary.
  if (result.pass && result.outputs.size() <= 1)
    return;
  for (const OutputResult &output : result.outputs)
    printOutput(os, output);
}

bool hidet::run::writeJson(const std::string &path, const Options &options,
                           const std::string &status, const std::string &device,
                           const std::string &reason,
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
      json.attribute("gpu_library", options.gpuLib);
      json.attribute("reference_library", jsonStringOrNull(options.refLib));
      json.attribute("seed", options.seed);
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
