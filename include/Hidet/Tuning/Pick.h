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

/// Picks the records of `plan` (plan.json's text) from the profiles of its
/// rounds (round index -> hidet-run's JSON text). A round whose run did not
/// pass, or whose profile is missing or malformed, is skipped and described
/// in `skipped`; a signature measured in no round gets no record. Fails
/// (with `error`) when the plan is not a plan. Records get `date` and
/// `tool`.
std::optional<std::vector<TuningRecord>>
pickRecords(llvm::StringRef plan, const std::map<int64_t, std::string> &rounds,
            llvm::StringRef date, llvm::StringRef tool,
            std::vector<std::string> &skipped, std::string &error);

} // namespace tuning
} // namespace hidet

#endif // HIDET_TUNING_PICK_H
