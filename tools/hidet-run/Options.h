//===- Options.h - Command line of hidet-run --------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// hidet-run's options, parsed with llvm::cl, and its exit statuses.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_RUN_OPTIONS_H
#define HIDET_RUN_OPTIONS_H

#include "Data.h"
#include "Tolerance.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hidet::run {

/// hidet-run's exit statuses, as --help lists them.
enum ExitCode {
  kExitPass = 0,
  kExitMismatch = 1,
  kExitError = 2,
  kExitNoDevice = 3,
};

struct Options {
  /// The libraries to run, one after another in one process.
  std::vector<std::string> libs;
  /// The library being run (one of `libs`).
  std::string lib;
  std::string refLib;   // Empty: no reference.
  std::string func;     // Empty: every function in the manifest.
  std::string jsonPath; // Empty: no JSON report.
  /// --json-dir: each library's JSON report as DIR/<its name less .so>.json.
  std::string jsonDir;
  /// Files of the first inputs, expected outputs and outputs, in order.
  std::vector<std::string> inputs;
  std::vector<std::string> expectedOutputs;
  std::vector<std::string> outputs;
  /// The weights file of functions with `weight` inputs; empty: none.
  std::string weights;
  uint64_t seed = 0;
  InputDist inputDist = InputDist::Uniform;
  long long warmup = 10;
  long long reps = 100;
  long long profileRuns = 0; // --profile: direct runs with kernel events.
  /// Against expected outputs: |out - exp| <= atol + rtol * |exp|, with
  /// atolRms times the root mean square of exp added to atol, and
  /// ||out - exp|| / ||exp|| <= expectedRelL2 where that is not negative.
  double rtol = 1e-3;
  double atol = 1e-7;
  double atolRms = 0;
  double expectedRelL2 = -1;
  /// Against the reference (Tolerance.h).
  RefBounds refBounds;
  bool queueBehindSpin = true; // --no-spin turns it off.
  bool refOnGpu = false;       // --ref-gpu
  bool cudaGraph = true;       // --cuda-graph

  /// Whether any option names files for one function's args.
  bool hasArgFiles() const {
    return !inputs.empty() || !expectedOutputs.empty() || !outputs.empty() ||
           !weights.empty();
  }
};

/// Parses the command line into `options`. --help, -h and --version print
/// to stdout and exit with status 0. On a usage error, prints it with a usage
/// line to stderr and returns false.
bool parseOptions(int argc, char **argv, Options &options);

/// The name of `libPath`'s report in --json-dir: its file name less its last
/// extension, with .json.
std::string jsonReportName(const std::string &libPath);

} // namespace hidet::run

#endif // HIDET_RUN_OPTIONS_H
