//===- Options.cpp - Command line of hidet-run ----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

using namespace hidet::run;
using namespace llvm;

namespace {

/// An integer from 0 to `Max`.
template <unsigned long long Max =
              std::numeric_limits<unsigned long long>::max()>
class CountParser : public cl::parser<unsigned long long> {
public:
  using cl::parser<unsigned long long>::parser;

  bool parse(cl::Option &option, StringRef argName, StringRef arg,
             unsigned long long &value) {
    if (!arg.getAsInteger(10, value) && value <= Max)
      return false;
    if (Max == std::numeric_limits<unsigned long long>::max())
      return option.error("'" + arg + "' is not a non-negative integer",
                          argName);
    return option.error(
        "'" + arg + "' is not an integer from 0 to " + utostr(Max), argName);
  }
};

/// A finite number that is not negative.
class BoundParser : public cl::parser<double> {
public:
  using cl::parser<double>::parser;

  bool parse(cl::Option &option, StringRef argName, StringRef arg,
             double &value) {
    if (!arg.getAsDouble(value) && std::isfinite(value) && value >= 0)
      return false;
    return option.error("'" + arg + "' is not a non-negative number", argName);
  }
};

constexpr unsigned long long kMaxCalls = 100000000;

cl::OptionCategory libraryCategory("Libraries");
cl::OptionCategory checkCategory("Verification");
cl::OptionCategory timingCategory("Timing");
cl::OptionCategory outputCategory("Output");

cl::opt<std::string> gpuLib(cl::Positional, cl::Required,
                            cl::desc("<gpu-lib.so>"),
                            cl::value_desc("gpu-lib.so"),
                            cl::cat(libraryCategory));

cl::opt<std::string>
    refLib("ref",
           cl::desc("CPU reference build; without it nothing is "
                    "verified"),
           cl::value_desc("cpu-lib.so"), cl::cat(libraryCategory));

cl::opt<bool>
    refGpu("ref-gpu",
           cl::desc("The reference is a GPU build too (e.g. naive kernels "
                    "from hidet-gpu-pipeline{anchors=0}): it gets device "
                    "buffers"),
           cl::cat(libraryCategory));

cl::opt<std::string>
    funcName("func",
             cl::desc("Only this function (default: all in the manifest)"),
             cl::value_desc("name"), cl::cat(libraryCategory));

cl::opt<unsigned long long, false, CountParser<>>
    seed("seed", cl::desc("Input generator seed (default 0)"),
         cl::value_desc("n"), cl::init(0), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> relL2Bound(
    "rtol-l2",
    cl::desc("Bound on ||gpu-ref||/||ref|| for every output (default per "
             "dtype: f32 1e-5, f16 2e-3, bf16 1.6e-2, f64 1e-10, integers "
             "exact)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser>
    absBound("atol",
             cl::desc("Also bound max |gpu-ref| (default: not checked)"),
             cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<unsigned long long, false, CountParser<>> maxUlp(
    "max-ulp",
    cl::desc("Also bound, for float outputs, how many values of the dtype "
             "lie between gpu and ref, and print the most and the count of "
             "differing elements (default: not checked)"),
    cl::value_desc("n"), cl::cat(checkCategory));

cl::opt<unsigned long long, false, CountParser<kMaxCalls>>
    warmup("warmup", cl::desc("Untimed calls before timing (default 10)"),
           cl::value_desc("n"), cl::init(10), cl::cat(timingCategory));

cl::opt<unsigned long long, false, CountParser<kMaxCalls>>
    reps("reps", cl::desc("Timed calls (default 100; 0 skips timing)"),
         cl::value_desc("n"), cl::init(100), cl::cat(timingCategory));

cl::opt<bool> noSpin("no-spin",
                     cl::desc("Time without first queueing a ~100 us spin "
                              "kernel (the spin keeps host launch gaps out "
                              "of the GPU time)"),
                     cl::cat(timingCategory));

cl::opt<std::string> jsonPath("json",
                              cl::desc("Also write the results as JSON"),
                              cl::value_desc("file"), cl::cat(outputCategory));

// Not listed: --help shows --help only.
cl::opt<bool> shortHelp("h", cl::desc("Alias for --help"), cl::Hidden,
                        cl::callback([](const bool &value) {
                          if (!value)
                            return;
                          cl::PrintHelpMessage(/*Hidden=*/false,
                                               /*Categorized=*/true);
                          std::exit(kExitPass);
                        }));

cl::extrahelp exitStatusHelp(
    "\nExit status: 0 pass, 1 mismatch, 2 usage/loading/CUDA error, 3 no "
    "CUDA device.\n");

const char *const kOverview =
    "run, check and time compiled Hidet libraries\n"
    "\n"
    "Runs the functions that <gpu-lib.so> lists in its hidet_manifest on\n"
    "random inputs, checks each output against the --ref library's and\n"
    "times them.\n";

} // namespace

bool hidet::run::parseOptions(int argc, char **argv, Options &options) {
  cl::HideUnrelatedOptions(
      {&libraryCategory, &checkCategory, &timingCategory, &outputCategory});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "hidet-run (Hidet-MLIR), with LLVM " LLVM_VERSION_STRING " Support\n";
  });
  if (!cl::ParseCommandLineOptions(argc, argv, kOverview, &errs(),
                                   /*VFS=*/nullptr, /*EnvVar=*/nullptr,
                                   /*LongOptionsUseDoubleDash=*/true)) {
    errs() << "usage: hidet-run <gpu-lib.so> [--ref <cpu-lib.so> "
              "[--ref-gpu]] [options]; see hidet-run --help\n";
    return false;
  }
  options.gpuLib = gpuLib;
  options.refLib = refLib;
  options.func = funcName;
  options.jsonPath = jsonPath;
  options.seed = seed;
  options.warmup = static_cast<long long>(warmup);
  options.reps = static_cast<long long>(reps);
  if (relL2Bound.getNumOccurrences())
    options.rtolL2 = relL2Bound;
  if (absBound.getNumOccurrences())
    options.atol = absBound;
  // No distance between two 64-bit values exceeds the largest int64_t.
  if (maxUlp.getNumOccurrences())
    options.maxUlp = static_cast<long long>(std::min<unsigned long long>(
        maxUlp, std::numeric_limits<long long>::max()));
  options.queueBehindSpin = !noSpin;
  options.refOnGpu = refGpu;
  return true;
}
