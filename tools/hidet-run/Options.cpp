//===- Options.cpp - Command line of hidet-run ----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "OnnxTensor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <initializer_list>
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

/// `@<file>`: a file to read or write. The `@` leaves room for values
/// given inline.
class FileParser : public cl::parser<std::string> {
public:
  using cl::parser<std::string>::parser;

  bool parse(cl::Option &option, StringRef argName, StringRef arg,
             std::string &value) {
    if (arg.size() >= 2 && arg.front() == '@') {
      value = arg.drop_front().str();
      return false;
    }
    return option.error("'" + arg + "' is not @<file>", argName);
  }
};

constexpr unsigned long long kMaxCalls = 100000000;

cl::OptionCategory libraryCategory("Libraries");
cl::OptionCategory dataCategory("Inputs and outputs");
cl::OptionCategory checkCategory("Verification");
cl::OptionCategory timingCategory("Timing");
cl::OptionCategory reportCategory("Report");

cl::list<std::string> libPaths(
    cl::Positional, cl::OneOrMore,
    cl::desc("<lib.so>... (several: run one after another in one process, "
             "each with the same options)"),
    cl::value_desc("lib.so"), cl::cat(libraryCategory));

cl::opt<std::string>
    refLib("ref",
           cl::desc("Reference build of the same program (usually the CPU "
                    "build), run on the same inputs: every output is "
                    "compared with the reference's, as a whole (--rtol-l2) "
                    "and element by element (--ref-rtol, --ref-atol-rms)"),
           cl::value_desc("ref-lib.so"), cl::cat(libraryCategory));

cl::opt<bool>
    refGpu("ref-gpu",
           cl::desc("The reference is a GPU build although its manifest "
                    "names no target: give it device buffers"),
           cl::cat(libraryCategory));

cl::opt<std::string>
    funcName("func",
             cl::desc("Only this function (default: all in the manifest; "
                      "needed with several and file or weights options)"),
             cl::value_desc("name"), cl::cat(libraryCategory));

cl::list<std::string, bool, FileParser>
    inputFiles("input",
               cl::desc("An input from a NumPy .npy or ONNX TensorProto .pb "
                        "file of the manifest's dtype and shape; repeat for "
                        "the inputs in order (weights excepted), the rest "
                        "are random"),
               cl::value_desc("@file"), cl::cat(dataCategory));

cl::opt<std::string, false, FileParser> weightsFile(
    "weights",
    cl::desc("The weights file (hidet-compile --external-weights) that fills "
             "the inputs the manifest marks 'weight', by name; uploaded once "
             "(default: the file the manifest names, else the weights the "
             "library holds)"),
    cl::value_desc("@file"), cl::cat(dataCategory));

cl::list<std::string, bool, FileParser> expectedFiles(
    "expected-output",
    cl::desc("An expected output from a .npy or .pb file; repeat for the "
             "outputs in order. Compared elementwise (--rtol, --atol, "
             "--atol-rms) and, with --expected-rel-l2, by the relative L2 "
             "error"),
    cl::value_desc("@file"), cl::cat(dataCategory));

cl::list<std::string, bool, FileParser>
    outputFiles("output",
                cl::desc("Save an output as .npy; repeat for the outputs in "
                         "order. Nothing is written when the run fails "
                         "with an error"),
                cl::value_desc("@file.npy"), cl::cat(dataCategory));

cl::opt<unsigned long long, false, CountParser<>>
    seed("seed", cl::desc("Seed of the random inputs (default 0)"),
         cl::value_desc("n"), cl::init(0), cl::cat(dataCategory));

cl::opt<InputDist> inputDist(
    "input-dist",
    cl::desc("How the random float inputs are drawn, each rounded to its "
             "dtype (integers are in [-8, 8] without 0, i1 0 or 1, "
             "whatever the distribution)"),
    cl::values(
        clEnumValN(InputDist::Uniform, "uniform",
                   "uniform in (-1, 1), never 0 (default)"),
        clEnumValN(InputDist::Normal, "normal",
                   "standard normal (sum of 12 uniforms less 6), never 0"),
        clEnumValN(InputDist::Sparse, "sparse",
                   "3 of 4 exactly 0, the others uniform in (-1, 1)"),
        clEnumValN(InputDist::ZerosAndOnes, "zeros-and-ones",
                   "half 0, a quarter 1, a quarter -1 (exact sums, ties)"),
        clEnumValN(InputDist::Wide, "wide",
                   "random sign, magnitudes spread evenly over the "
                   "binades 2^-10 to 2^10 (f16: 2^-5 to 2^5)")),
    cl::init(InputDist::Uniform), cl::cat(dataCategory));

cl::opt<double, false, BoundParser> relTolerance(
    "rtol",
    cl::desc("Against --expected-output: relative tolerance, each "
             "element within atol + rtol*|expected|, NaN only where "
             "NaN is expected (default 1e-3)"),
    cl::value_desc("x"), cl::init(1e-3), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> absTolerance(
    "atol",
    cl::desc("Against --expected-output: absolute tolerance (default "
             "1e-7)"),
    cl::value_desc("x"), cl::init(1e-7), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> rmsTolerance(
    "atol-rms",
    cl::desc("Against --expected-output: add k times the root mean square of "
             "each expected output to its absolute tolerance, which then "
             "scales with the output (default 0)"),
    cl::value_desc("k"), cl::init(0), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> expectedRelL2Bound(
    "expected-rel-l2",
    cl::desc("Against --expected-output: also bound "
             "||out-expected||/||expected|| for every output (default: not "
             "checked)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> relL2Bound(
    "rtol-l2",
    cl::desc("Against --ref: bound on ||out-ref||/||ref|| for every output "
             "(default per dtype: f32 1e-5, f16 2e-3, bf16 1.6e-2, f64 "
             "1e-10, integers exact)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> refRelTolerance(
    "ref-rtol",
    cl::desc("Against --ref: each element within atol + rtol*|ref| (NaN "
             "and Inf fail); the relative tolerance (default per dtype, "
             "2 eps + 8 u32: f32 7.2e-7, f16 1.95e-3, bf16 1.56e-2)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> refAbsTolerance(
    "ref-atol",
    cl::desc("Against --ref: the absolute tolerance of each element "
             "(default: --ref-atol-rms times the reference's RMS)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser> refAbsTolerancePerRms(
    "ref-atol-rms",
    cl::desc("Against --ref: the absolute tolerance of each element as a "
             "multiple of the RMS of the reference's output (default per "
             "dtype, 2 eps + 3 u32 sqrt(n), n the reduction length: f32 "
             "4.6e-5, f16 2.0e-3, bf16 1.57e-2)"),
    cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<unsigned long long, false, CountParser<>> reductionLength(
    "reduction-length",
    cl::desc("Against --ref: the length n of the longest sum behind an "
             "output, which the default --ref-atol-rms grows with (default "
             "65536)"),
    cl::value_desc("n"), cl::cat(checkCategory));

cl::opt<double, false, BoundParser>
    maxAbs("max-abs",
           cl::desc("Against --ref: also bound max |out-ref| (default: not "
                    "checked)"),
           cl::value_desc("x"), cl::cat(checkCategory));

cl::opt<unsigned long long, false, CountParser<>> maxUlp(
    "max-ulp",
    cl::desc("Against --ref: also bound, for float outputs, how many values "
             "of the dtype lie between out and ref, and print the most and "
             "the count of differing elements (default: not checked)"),
    cl::value_desc("n"), cl::cat(checkCategory));

cl::opt<unsigned long long, false, CountParser<kMaxCalls>>
    warmup("warmup", cl::desc("Untimed calls before timing (default 10)"),
           cl::value_desc("n"), cl::init(10), cl::cat(timingCategory));

cl::opt<unsigned long long, false, CountParser<kMaxCalls>>
    reps("reps", cl::desc("Timed calls (default 100; 0 skips timing)"),
         cl::value_desc("n"), cl::init(100), cl::cat(timingCategory));

cl::opt<unsigned long long, false, CountParser<kMaxCalls>> profileRuns(
    "profile",
    cl::desc("Profile a GPU library: n more runs (after one that is not "
             "counted), each direct (not a graph replay) with CUDA events "
             "around every kernel launch and queued behind a spin as long "
             "as the uncounted run took on the host; prints the time per "
             "kernel (the median over the n runs) and adds it to --json "
             "(default 0: off)"),
    cl::value_desc("n"), cl::init(0), cl::cat(timingCategory));

cl::opt<bool> noSpin("no-spin",
                     cl::desc("Time (and --profile) a GPU library without "
                              "first queueing a spin kernel (~100 us; for "
                              "--profile as long as a run takes the host): "
                              "the spin keeps host launch gaps out of the "
                              "GPU time"),
                     cl::cat(timingCategory));

cl::opt<bool> cudaGraph(
    "cuda-graph",
    cl::desc("Run a GPU library's calls after the first as replays of a "
             "CUDA graph captured once (default on; --cuda-graph=false runs "
             "each call's launches from the host)"),
    cl::init(true), cl::cat(timingCategory));

cl::opt<std::string> jsonPath("json",
                              cl::desc("Also write the results as JSON"),
                              cl::value_desc("file"), cl::cat(reportCategory));

cl::opt<std::string>
    jsonDir("json-dir",
            cl::desc("Also write each library's results as JSON, to "
                     "DIR/<its file name less its last extension>.json "
                     "(for several libraries)"),
            cl::value_desc("DIR"), cl::cat(reportCategory));

// Not listed: --help shows --help only.
cl::opt<bool> shortHelp("h", cl::desc("Alias for --help"), cl::Hidden,
                        cl::callback([](const bool &value) {
                          if (!value)
                            return;
                          cl::PrintHelpMessage(/*Hidden=*/false,
                                               /*Categorized=*/true);
                          std::exit(kExitPass);
                        }));

cl::extrahelp filesHelp(
    "\nTensor files: NumPy .npy (format 1 to 3, little-endian, C order; "
    "bf16 as\nml_dtypes saves it, '<V2') or, for names ending in .pb, ONNX "
    "TensorProto\n(raw_data or the typed fields; no strings or external "
    "data). Unsigned integers\nare bits: they fill integer args of their "
    "width, and f16 or bf16 ones for 16 bits.\n");

cl::extrahelp refCheckHelp(
    "\nAgainst --ref, an output passes when neither side has a NaN or an "
    "infinity,\n||out-ref||/||ref|| <= --rtol-l2, every element has\n"
    "|out-ref| <= atol + rtol*|ref| with atol = --ref-atol or --ref-atol-rms "
    "times\nthe RMS of the reference's output (the absolute term covers "
    "sums that cancel\nto near zero), and --max-abs and --max-ulp hold when "
    "given. The defaults come\nfrom the output dtype's eps (2^-23, 2^-10, "
    "2^-7 for f32, f16, bf16) and the\nf32 accumulator's unit roundoff u32 "
    "(2^-24); docs/GPUExecution.md derives them.\n");

cl::extrahelp exitStatusHelp(
    "\nExit status: 0 pass, 1 mismatch, 2 usage/loading/file/CUDA error, 3 no "
    "CUDA device.\n");

const char *const kOverview =
    "run, check and time compiled Hidet libraries\n"
    "\n"
    "Runs the functions that <lib.so> lists in its hidet_manifest, on the\n"
    "CPU or the GPU as the manifest's target says, on inputs from files or\n"
    "a seeded generator; checks each output against expected files and\n"
    "against the --ref library's, and times them. Several libraries run one\n"
    "after another in one process (one CUDA context), each as if alone, up\n"
    "to the first that fails with an error.\n";

const char *const kUsage =
    "usage: hidet-run <lib.so>... [--ref <ref-lib.so>] [--input=@x.npy ...] "
    "[--expected-output=@y.npy ...] [options]; see hidet-run --help\n";

/// llvm::cl reads an argument that starts with `@` as a response file and
/// puts its contents in its place, so a file value that follows its option
/// as a separate argument (`--input @x.npy`) is joined to it
/// (`--input=@x.npy`), which llvm::cl leaves alone.
std::vector<std::string> joinFileValues(int argc, char **argv) {
  std::vector<std::string> args;
  for (int i = 0; i < argc; ++i) {
    StringRef arg = argv[i];
    bool takesFile =
        arg == "--input" || arg == "--expected-output" || arg == "--output";
    if (takesFile && i + 1 < argc && argv[i + 1][0] == '@') {
      args.push_back((arg + "=" + argv[i + 1]).str());
      ++i;
      continue;
    }
    args.push_back(arg.str());
  }
  return args;
}

/// Checks what the parser cannot: how the options go together.
bool checkCombinations() {
  auto usageError = [](const Twine &message) {
    errs() << "hidet-run: " << message << "\n" << kUsage;
    return false;
  };
  if ((relTolerance.getNumOccurrences() || absTolerance.getNumOccurrences() ||
       rmsTolerance.getNumOccurrences() ||
       expectedRelL2Bound.getNumOccurrences()) &&
      expectedFiles.empty())
    return usageError("--rtol, --atol, --atol-rms and --expected-rel-l2 bound "
                      "the comparison with --expected-output files; against "
                      "--ref, bound --ref-rtol, --ref-atol, --ref-atol-rms, "
                      "--rtol-l2, --max-abs or --max-ulp");
  for (cl::Option *option : std::initializer_list<cl::Option *>{
           &refRelTolerance, &refAbsTolerance, &refAbsTolerancePerRms,
           &reductionLength})
    if (option->getNumOccurrences() && refLib.empty())
      return usageError("--" + option->ArgStr +
                        " bounds the comparison with the --ref library, "
                        "but no --ref is given");
  if (refAbsTolerance.getNumOccurrences() &&
      refAbsTolerancePerRms.getNumOccurrences())
    return usageError("--ref-atol and --ref-atol-rms both give the absolute "
                      "tolerance: give one");
  if (reductionLength.getNumOccurrences() &&
      (refAbsTolerance.getNumOccurrences() ||
       refAbsTolerancePerRms.getNumOccurrences()))
    return usageError("--reduction-length sets the default of "
                      "--ref-atol-rms, which --ref-atol or --ref-atol-rms "
                      "replaces: give one");
  if (reductionLength.getNumOccurrences() && reductionLength == 0)
    return usageError("--reduction-length=0: a sum has at least 1 term");
  StringSet<> seen;
  for (const std::string &path : outputFiles) {
    if (!StringRef(path).ends_with(".npy"))
      return usageError("--output=@" + path +
                        ": outputs are saved as NumPy files, whose names end "
                        "in .npy");
    if (!seen.insert(path).second)
      return usageError("--output=@" + path + " is given twice");
  }
  if (!jsonPath.empty() && !jsonDir.empty())
    return usageError("--json names one report file and --json-dir a folder "
                      "of them: give one");
  if (libPaths.size() > 1) {
    std::string count = std::to_string(libPaths.size());
    if (!jsonPath.empty())
      return usageError("--json writes one library's report; for " + count +
                        " libraries give --json-dir");
    if (!outputFiles.empty())
      return usageError("--output saves one library's outputs; " + count +
                        " libraries are given");
  }
  if (jsonDir.empty())
    return true;
  StringMap<std::string> reports;
  for (const std::string &path : libPaths) {
    std::string report = jsonReportName(path);
    auto [it, inserted] = reports.try_emplace(report, path);
    if (!inserted)
      return usageError(path + " and " + it->second + " would both write " +
                        report + " in --json-dir");
  }
  return true;
}

} // namespace

std::string hidet::run::jsonReportName(const std::string &libPath) {
  return (sys::path::stem(libPath) + ".json").str();
}

bool hidet::run::parseOptions(int argc, char **argv, Options &options) {
  cl::HideUnrelatedOptions({&libraryCategory, &dataCategory, &checkCategory,
                            &timingCategory, &reportCategory});
  cl::SetVersionPrinter([](raw_ostream &os) {
    os << "hidet-run (Hidet-MLIR), with LLVM " LLVM_VERSION_STRING
          " Support; ONNX TensorProto files "
       << (hasTensorProtoSupport() ? "supported" : "not supported") << "\n";
  });
  std::vector<std::string> args = joinFileValues(argc, argv);
  std::vector<const char *> argPointers;
  for (const std::string &arg : args)
    argPointers.push_back(arg.c_str());
  if (!cl::ParseCommandLineOptions(static_cast<int>(argPointers.size()),
                                   argPointers.data(), kOverview, &errs(),
                                   /*VFS=*/nullptr, /*EnvVar=*/nullptr,
                                   /*LongOptionsUseDoubleDash=*/true)) {
    errs() << kUsage;
    return false;
  }
  if (!checkCombinations())
    return false;
  options.libs.assign(libPaths.begin(), libPaths.end());
  options.lib = options.libs.front();
  options.jsonDir = jsonDir;
  options.refLib = refLib;
  options.func = funcName;
  options.jsonPath = jsonPath;
  options.inputs.assign(inputFiles.begin(), inputFiles.end());
  options.expectedOutputs.assign(expectedFiles.begin(), expectedFiles.end());
  options.outputs.assign(outputFiles.begin(), outputFiles.end());
  options.weights = weightsFile;
  options.seed = seed;
  options.inputDist = inputDist;
  options.warmup = static_cast<long long>(warmup);
  options.reps = static_cast<long long>(reps);
  options.profileRuns = static_cast<long long>(profileRuns);
  options.rtol = relTolerance;
  options.atol = absTolerance;
  options.atolRms = rmsTolerance;
  if (expectedRelL2Bound.getNumOccurrences())
    options.expectedRelL2 = expectedRelL2Bound;
  if (relL2Bound.getNumOccurrences())
    options.refBounds.rtolL2 = relL2Bound;
  if (refRelTolerance.getNumOccurrences())
    options.refBounds.rtol = refRelTolerance;
  if (refAbsTolerance.getNumOccurrences())
    options.refBounds.atol = refAbsTolerance;
  if (refAbsTolerancePerRms.getNumOccurrences())
    options.refBounds.atolRms = refAbsTolerancePerRms;
  if (reductionLength.getNumOccurrences())
    options.refBounds.reductionLength =
        static_cast<int64_t>(std::min<unsigned long long>(
            reductionLength, std::numeric_limits<int64_t>::max()));
  if (maxAbs.getNumOccurrences())
    options.refBounds.maxAbs = maxAbs;
  // No distance between two 64-bit values exceeds the largest int64_t.
  if (maxUlp.getNumOccurrences())
    options.refBounds.maxUlp =
        static_cast<long long>(std::min<unsigned long long>(
            maxUlp, std::numeric_limits<long long>::max()));
  options.queueBehindSpin = !noSpin;
  options.cudaGraph = cudaGraph;
  options.refOnGpu = refGpu;
  return true;
}
