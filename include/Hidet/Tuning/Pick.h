//===- Pick.h - Tuning records from measured rounds -------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The last step of tuning (docs/Tuning.md): from a plan (hidet-plan-tuning's
// plan.json) and the profiles of its rounds' libraries (hidet-run --profile
// --json), the record of each signature: the candidate whose kernels took
// the least time in a round whose outputs passed their checks, where it is
// faster than the default by a margin and by a one-sided rank test of the
// profiled runs; otherwise the default.
//
// A round's outputs are checked either in its profiled run (the profile's
// status is "pass") or, so that only the rounds that matter pay for a
// check, in a run of their own after the profiles (the check's report):
// the profiles are taken unverified, the rounds whose candidates would win
// are listed (PickOptions::acceptUnverified), checked, and picked again.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TUNING_PICK_H
#define HIDET_TUNING_PICK_H

#include "Hidet/Tuning/Records.h"

#include <map>

namespace hidet {
namespace tuning {

/// What tuning did for one signature of a plan: the summary a person or a
/// script reads beside the records.
struct AnchorOutcome {
  std::string signature;
  /// The names of its kernels (the same in every round).
  std::vector<std::string> kernels;
  /// Its candidates in the plan: one compiled per round, the default first.
  int64_t candidates = 0;
  /// The rounds that measured it and did not fail their checks.
  int64_t timed = 0;
  /// The round of the fastest candidate (faster than the default by the
  /// margin and the test) when its outputs were not verified: the round to
  /// check. Without PickOptions::acceptUnverified it is not recorded, and
  /// the record is the fastest of the verified rounds.
  std::optional<int64_t> uncheckedRound;
  /// Its record among those returned, when a round measured it.
  std::optional<size_t> record;
  /// The round of its fastest candidate, when that was not the default's
  /// and the default was kept (not faster by the margin, or not
  /// significantly), with that time and the test's p-value (negative when
  /// the profiles had no samples to test).
  std::optional<int64_t> rejectedRound;
  double rejectedMs = 0;
  double pValue = -1;
  /// How many candidates other than the default a round timed: the
  /// fastest was found among them, and tested at the level
  /// significanceLevel gives for that many.
  int64_t compared = 0;
};

/// When a candidate replaces the default: it must be faster by at least
/// `minGain` (a fraction of the default's time) and, where the profiles
/// have each run's time, faster by a one-sided Mann-Whitney U test at
/// `significance` divided by the number of candidates it was the fastest
/// of (significanceLevel).
struct PickOptions {
  double minGain = 0.01;
  double significance = 0.05;
  /// Whether a round whose outputs were not verified (neither its profiled
  /// run nor a check of its own passed) may give a record: to list the
  /// rounds to check. The default (the default schedule's round) needs no
  /// check in either case.
  bool acceptUnverified = false;
};

/// The level at which the fastest of `compared` candidates is tested
/// against the default: `options.significance / compared` (Bonferroni).
/// The test is of the fastest, not of one candidate chosen beforehand: if
/// all were as fast as the default, one of 30 would pass a test at 0.05
/// far more often than 5% of the time (on the H200, 30-candidate spaces of
/// 6 us GEMMs gave picks 5% slower than their defaults at p = 0.01 to
/// 0.02). At this level, the chance of taking any candidate no faster
/// than the default stays at most `options.significance`.
double significanceLevel(const PickOptions &options, int64_t compared);

/// The p-value of a one-sided Mann-Whitney U test that `candidate`'s runs
/// are faster than `reference`'s (the normal approximation, with the tie
/// and continuity corrections); 1 without samples on either side. A rank
/// test, as the pick compares medians: one slow run (a cold cache) moves a
/// mean and its variance, not the ranks.
double rankLessPValue(llvm::ArrayRef<double> candidate,
                      llvm::ArrayRef<double> reference);

/// Picks the records of `plan` (plan.json's text) from the profiles of its
/// rounds (round index -> hidet-run's JSON text) and the checks of rounds
/// whose profiles are unverified (round index -> the JSON of a hidet-run
/// that checked its outputs). A round whose profiled run or check did not
/// pass, or whose profile is missing or malformed, is skipped and described
/// in `skipped`; a signature measured in no round gets no record. Fails
/// (with `error`) when the plan is not a plan. Records get `date` and
/// `tool`. With `outcomes`, it also gets one entry per signature of the
/// plan, in the plan's order. `options` decides when a candidate replaces
/// the default.
std::optional<std::vector<TuningRecord>>
pickRecords(llvm::StringRef plan, const std::map<int64_t, std::string> &rounds,
            llvm::StringRef date, llvm::StringRef tool,
            std::vector<std::string> &skipped, std::string &error,
            std::vector<AnchorOutcome> *outcomes = nullptr,
            const PickOptions &options = {},
            const std::map<int64_t, std::string> &checks = {});

/// When a round is clearly slower than the best for a signature, after a
/// short first measurement: its time is at least `margin` (a fraction of
/// the best's time) above the best round's, and a one-sided rank test of
/// the profiled runs finds the best faster at `significance` (without
/// each run's time, no round is clearly slower).
struct EliminationOptions {
  double margin = 0.05;
  double significance = 0.01;
};

/// Early elimination between a short measurement of every round and a
/// longer one (docs/Tuning.md). A round measures one candidate of each
/// signature, so it is measured again unless each of its candidates is
/// clearly slower than its signature's best round.
struct Elimination {
  /// The rounds to measure again, in order; the default's round (0)
  /// always, being the reference of the pick.
  std::vector<int64_t> survivors;
  /// The rounds eliminated: round -> how many signatures it measured.
  std::map<int64_t, int64_t> eliminated;
};

/// Eliminates the rounds of `plan` (plan.json's text) whose candidates are
/// all clearly slower (`options`) in the profiles of a first measurement
/// (round index -> hidet-run's JSON text). A round whose profile cannot be
/// used (a failed check, no profile) is described in `skipped` and is
/// neither. Fails (with `error`) when the plan is not a plan.
std::optional<Elimination>
eliminateRounds(llvm::StringRef plan,
                const std::map<int64_t, std::string> &rounds,
                std::vector<std::string> &skipped, std::string &error,
                const EliminationOptions &options = {});

} // namespace tuning
} // namespace hidet

#endif // HIDET_TUNING_PICK_H
