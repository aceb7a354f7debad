//===- Report.h - Results and messages of hidet-run -------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What hidet-run found for each function, and how it says so: one summary
// line per function (with per-output details when they say more), errors
// on stderr, and the --json report.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_REPORT_H
#define HIDET_RUN_REPORT_H

#include "Data.h"
#include "Tolerance.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hidet::run {

struct Options;

/// The checks of one output: against the reference's, against an expected
/// file, or both.
struct OutputResult {
  size_t index = 0;
  const ArgSpec *arg = nullptr;
  bool refChecked = false;
  RefCheck ref;
  /// Empty: no expected file.
  std::string expectedFile;
  Closeness closeness;
  /// The bounds of the elementwise check: rtol, and the absolute bound
  /// atol + atolRms * expectedRms (the expected output's root mean square).
  double rtol = 0, atol = 0;
  double atolRms = 0, expectedRms = 0;
  /// atolRms of 0 adds nothing, also where the RMS is infinite (elements
  /// near the largest double).
  double getAbsBound() const {
    return atolRms > 0 ? atol + atolRms * expectedRms : atol;
  }
  /// The NaNs and infinities of the output (the L2 error and max_abs are
  /// over the elements where both sides are finite).
  int64_t outNonFinite = 0;
  /// ||out - expected|| / ||expected||, and its bound (negative: none).
  double expectedRelL2 = 0;
  double expectedRelL2Bound = -1;
  bool expectedPass = true;
  bool pass = true;
};

struct FuncResult {
  const FuncSpec *func = nullptr;
  bool verified = false;
  bool pass = true;
  std::vector<OutputResult> outputs;
  double worstRelL2 = 0;
  double worstMaxAbs = 0;
  /// Elements beyond their bound against the reference, over the outputs.
  int64_t refMismatches = 0;
  /// Over the outputs checked against expected files.
  bool expectedChecked = false;
  double worstExpectedMaxAbs = 0;
  int64_t expectedMismatches = 0;
  /// Over the outputs whose relative L2 error is bounded (-1: none).
  double worstExpectedRelL2 = -1;
  /// Over the float outputs (-1: none).
  int64_t worstMaxUlp = -1;
  int64_t ulpMismatches = 0;
  bool timed = false;
  double medianMs = 0, minMs = 0, meanMs = 0;
  /// The model runtime's figures for the library (hidetModelGetStats).
  bool hasStats = false;
  uint64_t weightBytes = 0, workspaceBytes = 0, intermediateBytes = 0;
  int kernelLaunches = -1;
  bool cudaGraph = false;
  /// --profile: each kernel launch of a run, in order, with its median time.
  struct KernelTime {
    std::string name;
    /// The median over the profiled runs, and each run's time in run order.
    double ms = 0;
    std::vector<double> samples;
  };
  std::vector<KernelTime> kernels;
  long long profileRuns = 0;
};

/// Prints the profile of `result` (if any): the kernels by total time.
void printProfile(const FuncResult &result);

/// Prints "hidet-run: <message>" to stderr.
void printError(const std::string &message);

/// Prints and clears the runtime's error, if any; returns whether there was
/// none.
bool checkRuntime(const std::string &what);

/// Reports the runtime's error for a failed step; always false.
bool reportCudaError(const std::string &what);

/// Prints the summary line of `result` to stdout, and a line per output
/// when it failed or has several.
void printResult(const FuncResult &result, const std::string &device);

/// Writes the JSON report to `path`. `status` is the run's ("pass", "fail",
/// "unverified", "error" or "no-device"); `target` the library's ("cpu" or
/// "gpu"); `device` and `reason` are left out (null, absent) when empty.
/// Returns false, with the error printed, when the file cannot be written.
bool writeJson(const std::string &path, const Options &options,
               const std::string &status, const std::string &target,
               const std::string &device, const std::string &reason,
               const std::vector<FuncResult> &results, int exitCode);

} // namespace hidet::run

#endif // HIDET_RUN_REPORT_H
