//===- hidet-tune.cpp - Tuning records from measured rounds ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The last step of tuning (docs/Tuning.md): reads a plan (hidet-compile
// --tuning-plan) and the profiles of its rounds' libraries (hidet-run
// --profile N --json), and writes the records of the fastest candidates.
//
//   hidet-tune records --plan=DIR/plan.json DIR/round-*.profile.json \
//       [DIR/round-*.check.json] [--merge=cache.json] -o records.json
//   hidet-tune to-check --plan=DIR/plan.json DIR/round-*.profile.json \
//       [DIR/round-*.check.json]
//   hidet-tune survivors --plan=DIR/plan.json DIR/round-*.profile.json
//
// `survivors` is early elimination: after a short first measurement of
// every round, it prints the rounds to measure again (one per line), those
// that are not clearly slower than the best for every signature they
// measure (--eliminate-margin, --eliminate-significance), and the
// default's round.
//
// A round is checked in its profiled run (hidet-run with expected outputs)
// or afterwards, in a run of its own whose report is round-N.check.json:
// then the profiles are unverified, `to-check` prints the rounds whose
// candidates would win if they passed (one per line), those are checked,
// and `to-check` is asked again until it prints nothing. `records` takes a
// winner only from a round whose outputs passed (the default's excepted).
//
// With --merge, the records of earlier runs (a cache of tuned signatures)
// are kept beside the new ones, a new one replacing an old one of its
// signature and chip, at most --max-records of them.
//
// A candidate replaces the default only when it is faster by --min-gain
// and, where the profiles hold each run's time (hidet-run's samples_ms),
// by a one-sided rank test (Mann-Whitney U) at --significance divided by
// the number of candidates it was the fastest of; otherwise
// the record keeps the default schedule and says so.
//
// A profile's round is the number after "round-" in its file name. The
// table of what was picked goes to standard output, one row per signature
// of the plan (its first kernel, candidates compiled, rounds timed, best
// schedule, time, default's time, speed-up); with --json=FILE the same
// summary is written for scripts. Rounds that could not be used are
// reported on standard error. The records and summary files are written
// whole or not at all.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Pick.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>
#include <set>

using namespace llvm;
using namespace hidet::tuning;

static cl::OptionCategory category("hidet-tune options");
static cl::opt<std::string> command(cl::Positional, cl::Required,
                                    cl::desc("<command: records, to-check, "
                                             "survivors>"),
                                    cl::cat(category));
static cl::list<std::string>
    profiles(cl::Positional, cl::ZeroOrMore,
             cl::desc("<round-N.profile.json | round-N.check.json>..."),
             cl::cat(category));
static cl::opt<std::string> planFile("plan", cl::Required,
                                     cl::desc("The plan (plan.json)"),
                                     cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string> outputFile("o",
                                       cl::desc("The records file to write "
                                                "(records; required)"),
                                       cl::value_desc("file"),
                                       cl::cat(category));
static cl::opt<std::string>
    date("date", cl::desc("The records' date (default: today, UTC)"),
         cl::cat(category));
static cl::opt<std::string> mergeFile(
    "merge",
    cl::desc("Records measured before (a tuning cache): kept where this run "
             "measured nothing of their signature; a file that does not "
             "exist yet is empty"),
    cl::value_desc("file"), cl::cat(category));
static cl::opt<std::string>
    summaryFile("json",
                cl::desc("Also write the summary (one entry per signature, "
                         "the skipped rounds) as JSON"),
                cl::value_desc("file"), cl::cat(category));
static cl::opt<double> minGain(
    "min-gain",
    cl::desc("A candidate replaces the default only when faster by this "
             "fraction of the default's time (default 0.01)"),
    cl::init(0.01), cl::cat(category));
static cl::opt<double> significance(
    "significance",
    cl::desc("A candidate replaces the default only when a one-sided rank "
             "test (Mann-Whitney U) of the profiled runs finds it faster at "
             "this level divided by the candidates it was the fastest of "
             "(default 0.05; profiles with each run's time)"),
    cl::init(0.05), cl::cat(category));
static cl::opt<double> eliminateMargin(
    "eliminate-margin",
    cl::desc("survivors: a round is clearly slower for a signature when at "
             "least this fraction slower than the best (default 0.05)"),
    cl::init(0.05), cl::cat(category));
static cl::opt<double> eliminateSignificance(
    "eliminate-significance",
    cl::desc("survivors: ... and when a one-sided rank test of the profiled "
             "runs finds the best faster at this level (default 0.01)"),
    cl::init(0.01), cl::cat(category));
static cl::opt<unsigned> maxRecords(
    "max-records",
    cl::desc("Keep at most this many records, the newest (0: all; default "
             "10000)"),
    cl::init(10000), cl::cat(category));

static int fail(const Twine &message) {
  errs() << "hidet-tune: " << message << "\n";
  return 1;
}

/// Writes `text` to `path` whole or not at all (upstream's writeToOutput:
/// a temporary file, renamed); false with a message on standard error when
/// it cannot.
static bool writeWhole(StringRef path, StringRef text) {
  Error error = writeToOutput(path, [&](raw_ostream &os) {
    os << text;
    return Error::success();
  });
  if (!error)
    return true;
  // The message names the file: "'path': reason".
  fail("cannot write " + toString(std::move(error)));
  return false;
}

/// The summary of `outcomes` as JSON.
static std::string summaryJson(const std::vector<AnchorOutcome> &outcomes,
                               const std::vector<TuningRecord> &records,
                               const std::vector<std::string> &skipped,
                               const PickOptions &pick) {
  json::Array anchors;
  for (const AnchorOutcome &o : outcomes) {
    json::Object a{{"signature", o.signature},
                   {"kernels", json::Array(o.kernels)},
                   {"candidates", o.candidates},
                   {"timed", o.timed}};
    if (o.pValue >= 0) {
      a["p_value"] = o.pValue;
      a["significance_level"] = significanceLevel(pick, o.compared);
    }
    if (o.uncheckedRound)
      a["unchecked_round"] = *o.uncheckedRound;
    if (o.rejectedRound) {
      a["rejected_round"] = *o.rejectedRound;
      a["rejected_time_ms"] = o.rejectedMs;
    }
    if (o.record) {
      const TuningRecord &r = records[*o.record];
      a["schedule"] = r.schedule;
      a["time_ms"] = r.timeMs;
      a["default_schedule"] = r.defaultSchedule;
      if (r.defaultTimeMs >= 0) {
        a["default_time_ms"] = r.defaultTimeMs;
        a["speedup"] = r.defaultTimeMs / r.timeMs;
      }
    }
    anchors.push_back(std::move(a));
  }
  json::Object summary{{"format", "hidet-tune-summary"},
                       {"version", 1},
                       {"tool", kTunerVersion},
                       {"anchors", std::move(anchors)},
                       {"skipped_rounds", json::Array(skipped)}};
  std::string text;
  raw_string_ostream os(text);
  os << formatv("{0:2}", json::Value(std::move(summary))) << "\n";
  return text;
}

static std::string today() {
  std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", std::gmtime(&now));
  return text;
}

int main(int argc, char **argv) {
  InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(argc, argv,
                              "Hidet-MLIR tuner: records from measured "
                              "rounds (docs/Tuning.md)\n");
  bool listChecks = command == "to-check";
  bool listSurvivors = command == "survivors";
  if (command != "records" && !listChecks && !listSurvivors)
    return fail("unknown command '" + command +
                "' (records, to-check, survivors)");
  if (command == "records" && outputFile.empty())
    return fail("records: no output file (-o)");
  if (!(eliminateMargin >= 0))
    return fail("--eliminate-margin must be at least 0, got " +
                formatv("{0}", eliminateMargin.getValue()));
  if (!(eliminateSignificance > 0 && eliminateSignificance <= 1))
    return fail("--eliminate-significance must be in (0, 1], got " +
                formatv("{0}", eliminateSignificance.getValue()));
  if (!(minGain >= 0 && minGain < 1))
    return fail("--min-gain must be in [0, 1), got " +
                formatv("{0}", minGain.getValue()));
  if (!(significance > 0 && significance <= 1))
    return fail("--significance must be in (0, 1], got " +
                formatv("{0}", significance.getValue()));
  auto plan = MemoryBuffer::getFile(planFile, /*IsText=*/true);
  if (!plan)
    return fail("cannot read '" + planFile + "': " + plan.getError().message());
  std::map<int64_t, std::string> rounds, checks;
  Regex roundName("round-([0-9]+)(\\.check)?");
  for (const std::string &file : profiles) {
    SmallVector<StringRef, 3> match;
    if (!roundName.match(sys::path::filename(file), &match))
      return fail("'" + file + "' does not name its round (round-N...)");
    int64_t round = std::stoll(match[1].str());
    bool isCheck = !match[2].empty();
    auto text = MemoryBuffer::getFile(file, /*IsText=*/true);
    if (!text)
      return fail("cannot read '" + file + "': " + text.getError().message());
    if (!(isCheck ? checks : rounds)
             .emplace(round, (*text)->getBuffer().str())
             .second)
      return fail(Twine("two ") + (isCheck ? "checks" : "profiles") +
                  " of round " + std::to_string(round));
  }
  std::vector<std::string> skipped;
  std::string error;
  if (listSurvivors) {
    if (!checks.empty())
      return fail("survivors: checks are not read (profiles only)");
    auto elimination = eliminateRounds(
        (*plan)->getBuffer(), rounds, skipped, error,
        EliminationOptions{eliminateMargin, eliminateSignificance});
    if (!elimination)
      return fail("'" + planFile + "': " + error);
    for (const std::string &why : skipped)
      errs() << "hidet-tune: skipped " << why << "\n";
    for (auto [round, signatures] : elimination->eliminated)
      errs() << "hidet-tune: round " << round
             << " eliminated: clearly slower than the best for each of its "
             << signatures << " signature" << (signatures == 1 ? "" : "s")
             << "\n";
    errs() << "hidet-tune: " << elimination->eliminated.size() << " of "
           << elimination->eliminated.size() + elimination->survivors.size()
           << " rounds eliminated\n";
    for (int64_t round : elimination->survivors)
      outs() << round << "\n";
    return 0;
  }
  std::vector<AnchorOutcome> outcomes;
  PickOptions options{minGain, significance, /*acceptUnverified=*/listChecks};
  auto records =
      pickRecords((*plan)->getBuffer(), rounds, date.empty() ? today() : date,
                  kTunerVersion, skipped, error, &outcomes, options, checks);
  if (!records)
    return fail("'" + planFile + "': " + error);
  for (const std::string &why : skipped)
    errs() << "hidet-tune: skipped " << why << "\n";
  if (listChecks) {
    std::set<int64_t> toCheck;
    for (const AnchorOutcome &o : outcomes)
      if (o.uncheckedRound)
        toCheck.insert(*o.uncheckedRound);
    for (int64_t round : toCheck)
      outs() << round << "\n";
    return 0;
  }
  for (auto [i, o] : llvm::enumerate(outcomes))
    if (o.uncheckedRound)
      errs() << "hidet-tune: anchor " << i << ": round " << *o.uncheckedRound
             << " was the fastest, but its outputs were not checked: not "
                "recorded (hidet-tune to-check lists the rounds to check)\n";
  std::vector<TuningRecord> written = *records;
  if (!mergeFile.empty() && sys::fs::exists(mergeFile)) {
    auto old = MemoryBuffer::getFile(mergeFile, /*IsText=*/true);
    if (!old)
      return fail("cannot read '" + mergeFile + "': " +
                  old.getError().message());
    std::vector<RecordProblem> problems;
    auto before = parseRecords((*old)->getBuffer(), problems, error);
    if (!before)
      return fail("'" + mergeFile + "': " + error);
    for (const RecordProblem &p : problems)
      errs() << "hidet-tune: '" << mergeFile << "': record " << p.index
             << " is malformed (" << p.why << "); dropped\n";
    written = mergeRecords(*before, *records, maxRecords);
  } else if (maxRecords && written.size() > maxRecords) {
    written = mergeRecords({}, written, maxRecords);
  }

  // The summary first: when the records cannot be written either, the
  // summary just written goes too, so that a failed run leaves neither.
  if (!summaryFile.empty() &&
      !writeWhole(summaryFile,
                  summaryJson(outcomes, *records, skipped, options)))
    return 1;
  if (!writeWhole(outputFile, printRecords(written))) {
    if (!summaryFile.empty())
      sys::fs::remove(summaryFile);
    return 1;
  }

  outs() << "| # | anchor | candidates | timed | schedule | ms | default ms "
            "| speed-up |\n|---|---|---|---|---|---|---|---|\n";
  for (auto [i, o] : llvm::enumerate(outcomes)) {
    outs() << "| " << i << " | `"
           << (o.kernels.empty() ? "-" : o.kernels.front()) << "`";
    if (o.kernels.size() > 1)
      outs() << " (+" << o.kernels.size() - 1 << ")";
    outs() << " | " << o.candidates << " | " << o.timed << " | ";
    if (!o.record) {
      outs() << "- | - | - | - |\n";
      continue;
    }
    const TuningRecord &r = (*records)[*o.record];
    outs() << "`" << r.schedule << "` | " << format("%.4f", r.timeMs) << " | ";
    if (r.defaultTimeMs >= 0)
      outs() << format("%.4f", r.defaultTimeMs) << " | "
             << format("%.2fx", r.defaultTimeMs / r.timeMs) << " |\n";
    else
      outs() << "- | - |\n";
  }
  // Why a faster candidate was not taken.
  for (auto [i, o] : llvm::enumerate(outcomes)) {
    if (!o.rejectedRound || !o.record)
      continue;
    const TuningRecord &r = (*records)[*o.record];
    outs() << "anchor " << i << ": the default kept; round "
           << *o.rejectedRound << " took " << format("%.4f", o.rejectedMs)
           << " ms (" << format("%.3fx", r.defaultTimeMs / o.rejectedMs)
           << ")";
    if (o.pValue >= 0)
      outs() << ", p = " << format("%.3g", o.pValue);
    outs() << formatv(": not faster by --min-gain={0}", minGain.getValue());
    if (o.pValue >= 0) {
      outs() << formatv(" at --significance={0}", significance.getValue());
      if (o.compared > 1)
        outs() << " over " << o.compared << " candidates ("
               << format("%.3g", significanceLevel(options, o.compared))
               << " each)";
    }
    outs() << "\n";
  }
  return 0;
}
