//===- Records.h - Tuning records -------------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Tuning records: the schedules a tuner measured fastest, keyed by the
// anchor's signature (what its kernel computes and reads, with its fused
// ops) and the chip. The file is JSON (docs/Tuning.md):
//
//   {"format": "hidet-tuning-records", "version": 1,
//    "records": [{"signature": "...", "chip": "sm_90a",
//                 "schedule": "#hidet.wgmma_matmul<...>", "time_ms": 0.012,
//                 "default_schedule": "#hidet.wgmma_matmul<...>",
//                 "default_time_ms": 0.015, "date": "2026-11-26",
//                 "tool": "hidet-tune 2"}]}
//
// hidet-select-schedules{tuning-records=FILE} applies them; a record that
// is malformed is reported with its index and skipped, never applied.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TUNING_RECORDS_H
#define HIDET_TUNING_RECORDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hidet {
namespace tuning {

/// The tool that writes measured records, with the version of its
/// measurements: a record of another tool or version is measured again.
/// The version changes when the templates change what a schedule's time
/// is, or the tuner how it measures and picks (3: the SIMT template's
/// cp.async stages and epilogue loads, after which ViT-B/16's f32 record
/// at batch 1 ran slower than the heuristic; 4: profiles that time kernels
/// rather than launches, and a pick tested at a level for all candidates).
constexpr llvm::StringLiteral kTunerVersion = "hidet-tune 4";

/// The format name and version the file declares.
constexpr llvm::StringLiteral kRecordsFormat = "hidet-tuning-records";
constexpr int64_t kRecordsVersion = 1;

/// One anchor's tuned schedule.
struct TuningRecord {
  /// Its index in the file's "records".
  size_t index = 0;
  /// The anchor's signature (templates::anchorSignature).
  std::string signature;
  /// The chip it was measured on (`#hidet.target`'s chip, e.g. sm_90a).
  std::string chip;
  /// The schedule attribute, as MLIR prints it.
  std::string schedule;
  /// Its measured time, and the heuristic's schedule and time in the same
  /// measurement (milliseconds; negative when not measured).
  double timeMs = -1;
  std::string defaultSchedule;
  double defaultTimeMs = -1;
  /// When (YYYY-MM-DD) and by what it was measured.
  std::string date;
  std::string tool;
};

/// A record that was not read, and why.
struct RecordProblem {
  /// Its index in "records".
  size_t index = 0;
  std::string why;
};

/// The records of a file's text. Fails (with `error`) when the text is not
/// JSON or not a records file of a known version; a malformed record is
/// skipped and described in `problems`.
std::optional<std::vector<TuningRecord>>
parseRecords(llvm::StringRef text, std::vector<RecordProblem> &problems,
             std::string &error);

/// The JSON text of a records file holding `records`.
std::string printRecords(llvm::ArrayRef<TuningRecord> records);

/// The record for `signature` on `chip`, or null. With several, the last
/// one (a later measurement appended to the file) wins.
const TuningRecord *findRecord(llvm::ArrayRef<TuningRecord> records,
                               llvm::StringRef signature, llvm::StringRef chip);

/// Whether `r` is a measurement of this tuner's version (kTunerVersion),
/// which a tuning run need not repeat.
bool isCurrentMeasurement(const TuningRecord &r);

/// `older` and `newer` as one file: a record of `newer` replaces the one of
/// `older` with its signature and chip; at most `limit` records are kept
/// (0: all), the newest (`newer`'s, then `older`'s latest first) first
/// dropped last. Indices are renumbered.
std::vector<TuningRecord> mergeRecords(llvm::ArrayRef<TuningRecord> older,
                                       llvm::ArrayRef<TuningRecord> newer,
                                       size_t limit);

} // namespace tuning
} // namespace hidet

#endif // HIDET_TUNING_RECORDS_H
