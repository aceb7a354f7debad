//===- Pick.h - Tuning records from measured rounds -------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The last step of tuning (docs/Tuning.md): from a plan (hidet-plan-tuning's
// plan.json) and the profiles of its rounds' libraries (hidet-run --profile
// --json), the record of each signature: the candidate whose kernels took
// the least time in a round whose outputs passed their checks.
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
  /// The rounds that measured it and passed their checks.
  int64_t timed = 0;
  /// Its record among those returned, when a round measured it.
  std::optional<size_t> record;
};

/// Picks the records of `plan` (plan.json's text) from the profiles of its
/// rounds (round index -> hidet-run's JSON text). A round whose run did not
/// pass, or whose profile is missing or malformed, is skipped and described
/// in `skipped`; a signature measured in no round gets no record. Fails
/// (with `error`) when the plan is not a plan. Records get `date` and
/// `tool`. With `outcomes`, it also gets one entry per signature of the
/// plan, in the plan's order.
std::optional<std::vector<TuningRecord>>
pickRecords(llvm::StringRef plan, const std::map<int64_t, std::string> &rounds,
            llvm::StringRef date, llvm::StringRef tool,
            std::vector<std::string> &skipped, std::string &error,
            std::vector<AnchorOutcome> *outcomes = nullptr);

} // namespace tuning
} // namespace hidet

#endif // HIDET_TUNING_PICK_H
