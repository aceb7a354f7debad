//===- Records.cpp - Tuning records ---------------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Reading and writing tuning records with llvm::json.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Records.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace hidet::tuning;

namespace {
/// Reads record `value`; returns the reason when it is malformed.
std::string readRecord(const json::Value &value, TuningRecord &r) {
  const json::Object *o = value.getAsObject();
  if (!o)
    return "not an object";
  auto text = [&](StringRef key, std::string &out, bool required) {
    const json::Value *v = o->get(key);
    if (!v)
      return required ? ("no \"" + key + "\"").str() : std::string();
    std::optional<StringRef> s = v->getAsString();
    if (!s)
      return ("\"" + key + "\" is not a string").str();
    out = s->str();
    if (required && out.empty())
      return ("\"" + key + "\" is empty").str();
    return std::string();
  };
  auto number = [&](StringRef key, double &out) {
    const json::Value *v = o->get(key);
    if (!v)
      return std::string();
    std::optional<double> d = v->getAsNumber();
    if (!d)
      return ("\"" + key + "\" is not a number").str();
    out = *d;
    return std::string();
  };
  for (std::string why :
       {text("signature", r.signature, true), text("chip", r.chip, true),
        text("schedule", r.schedule, true),
        text("default_schedule", r.defaultSchedule, false),
        text("date", r.date, false), text("tool", r.tool, false),
        number("time_ms", r.timeMs),
        number("default_time_ms", r.defaultTimeMs)})
    if (!why.empty())
      return why;
  return "";
}
} // namespace

std::optional<std::vector<TuningRecord>>
hidet::tuning::parseRecords(StringRef text, std::vector<RecordProblem> &problems,
                            std::string &error) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    error = "not JSON: " + toString(parsed.takeError());
    return std::nullopt;
  }
  const json::Object *file = parsed->getAsObject();
  if (!file) {
    error = "not a JSON object";
    return std::nullopt;
  }
  std::optional<StringRef> format = file->getString("format");
  if (!format || *format != kRecordsFormat) {
    error = ("\"format\" is not \"" + kRecordsFormat + "\"").str();
    return std::nullopt;
  }
  std::optional<int64_t> version = file->getInteger("version");
  if (!version || *version != kRecordsVersion) {
    error = "version " +
            (version ? std::to_string(*version) : std::string("missing")) +
            " (this build reads version " + std::to_string(kRecordsVersion) +
            ")";
    return std::nullopt;
  }
  const json::Array *entries = file->getArray("records");
  if (!entries) {
    error = "no \"records\" array";
    return std::nullopt;
  }
  std::vector<TuningRecord> records;
  for (auto [i, entry] : llvm::enumerate(*entries)) {
    TuningRecord r;
    r.index = i;
    if (std::string why = readRecord(entry, r); !why.empty()) {
      problems.push_back({i, why});
      continue;
    }
    records.push_back(std::move(r));
  }
  return records;
}

std::string hidet::tuning::printRecords(ArrayRef<TuningRecord> records) {
  std::string text;
  raw_string_ostream os(text);
  json::OStream j(os, /*IndentSize=*/2);
  // Times to 6 significant digits: what a measurement resolves, and what a
  // reader can read (json::OStream prints 17).
  auto time = [&](StringRef key, double ms) {
    j.attributeBegin(key);
    j.rawValue(llvm::formatv("{0}", llvm::format("%.6g", ms)).str());
    j.attributeEnd();
  };
  j.object([&] {
    j.attribute("format", kRecordsFormat);
    j.attribute("version", kRecordsVersion);
    j.attributeArray("records", [&] {
      for (const TuningRecord &r : records)
        j.object([&] {
          j.attribute("signature", r.signature);
          j.attribute("chip", r.chip);
          j.attribute("schedule", r.schedule);
          if (r.timeMs >= 0)
            time("time_ms", r.timeMs);
          if (!r.defaultSchedule.empty())
            j.attribute("default_schedule", r.defaultSchedule);
          if (r.defaultTimeMs >= 0)
            time("default_time_ms", r.defaultTimeMs);
          if (!r.date.empty())
            j.attribute("date", r.date);
          if (!r.tool.empty())
            j.attribute("tool", r.tool);
        });
    });
  });
  os << "\n";
  return text;
}

const TuningRecord *hidet::tuning::findRecord(ArrayRef<TuningRecord> records,
                                              StringRef signature,
                                              StringRef chip) {
  const TuningRecord *found = nullptr;
  for (const TuningRecord &r : records)
    if (r.signature == signature && r.chip == chip)
      found = &r;
  return found;
}

bool hidet::tuning::isCurrentMeasurement(const TuningRecord &r) {
  return r.tool == kTunerVersion && r.timeMs >= 0;
}

std::vector<TuningRecord>
hidet::tuning::mergeRecords(ArrayRef<TuningRecord> older,
                            ArrayRef<TuningRecord> newer, size_t limit) {
  // Newest first: newer's in reverse, then older's in reverse, each
  // signature and chip once.
  std::vector<const TuningRecord *> kept;
  auto take = [&](ArrayRef<TuningRecord> records) {
    for (const TuningRecord &r : llvm::reverse(records)) {
      if (limit && kept.size() == limit)
        return;
      if (llvm::none_of(kept, [&](const TuningRecord *k) {
            return k->signature == r.signature && k->chip == r.chip;
          }))
        kept.push_back(&r);
    }
  };
  take(newer);
  take(older);
  // Back in file order: the oldest first, so that a later record wins.
  std::vector<TuningRecord> out;
  for (const TuningRecord *r : llvm::reverse(kept)) {
    out.push_back(*r);
    out.back().index = out.size() - 1;
  }
  return out;
}
