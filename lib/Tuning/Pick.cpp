//===- Pick.cpp - Tuning records from measured rounds ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Pick.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <limits>

using namespace llvm;
using namespace hidet::tuning;

namespace {
struct PlanAnchor {
  std::string signature;
  std::vector<std::string> kernels, candidates;
};

/// The kernel times (ms, summed per name) of a passing hidet-run report, or
/// the reason it cannot be used.
std::string kernelTimes(StringRef text, StringMap<double> &times) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return "not JSON: " + toString(parsed.takeError());
  const json::Object *report = parsed->getAsObject();
  const json::Array *functions =
      report ? report->getArray("functions") : nullptr;
  if (!functions || functions->empty())
    return "no \"functions\"";
  bool profiled = false;
  for (const json::Value &f : *functions) {
    const json::Object *func = f.getAsObject();
    if (!func)
      return "a function is not an object";
    std::optional<StringRef> status = func->getString("status");
    if (!status || *status != "pass")
      return "function '" +
             func->getString("name").value_or("?").str() + "' did not pass";
    const json::Object *profile = func->getObject("profile");
    const json::Array *launches =
        profile ? profile->getArray("launches") : nullptr;
    if (!launches)
      continue;
    profiled = true;
    for (const json::Value &l : *launches) {
      const json::Object *launch = l.getAsObject();
      std::optional<StringRef> kernel =
          launch ? launch->getString("kernel") : std::nullopt;
      std::optional<double> ms =
          launch ? launch->getNumber("ms") : std::nullopt;
      if (!kernel || !ms)
        return "a launch without \"kernel\" and \"ms\"";
      times[*kernel] += *ms;
    }
  }
  return profiled ? "" : "no profile (hidet-run --profile N)";
}
} // namespace

std::optional<std::vector<TuningRecord>> hidet::tuning::pickRecords(
    StringRef planText, const std::map<int64_t, std::string> &rounds,
    StringRef date, StringRef tool, std::vector<std::string> &skipped,
    std::string &error, std::vector<AnchorOutcome> *outcomes) {
  Expected<json::Value> parsed = json::parse(planText);
  if (!parsed) {
    error = "the plan is not JSON: " + toString(parsed.takeError());
    return std::nullopt;
  }
  const json::Object *plan = parsed->getAsObject();
  if (!plan || plan->getString("format") != "hidet-tuning-plan" ||
      plan->getInteger("version") != 1) {
    error = "not a version 1 tuning plan";
    return std::nullopt;
  }
  std::string chip = plan->getString("chip").value_or("").str();
  const json::Array *entries = plan->getArray("anchors");
  if (chip.empty() || !entries) {
    error = "the plan has no \"chip\" or no \"anchors\"";
    return std::nullopt;
  }
  std::vector<PlanAnchor> anchors;
  for (const json::Value &e : *entries) {
    const json::Object *o = e.getAsObject();
    PlanAnchor a;
    auto strings = [&](StringRef key, std::vector<std::string> &out) {
      const json::Array *arr = o ? o->getArray(key) : nullptr;
      if (!arr)
        return false;
      for (const json::Value &v : *arr) {
        std::optional<StringRef> s = v.getAsString();
        if (!s)
          return false;
        out.push_back(s->str());
      }
      return true;
    };
    std::optional<StringRef> signature =
        o ? o->getString("signature") : std::nullopt;
    if (!signature || !strings("kernels", a.kernels) ||
        !strings("candidates", a.candidates) || a.candidates.empty()) {
      error = "a plan anchor without \"signature\", \"kernels\" or "
              "\"candidates\"";
      return std::nullopt;
    }
    a.signature = signature->str();
    anchors.push_back(std::move(a));
  }

  // time[anchor][round]: the anchor's kernels in that round.
  std::vector<std::map<int64_t, double>> times(anchors.size());
  for (const auto &[round, text] : rounds) {
    StringMap<double> kernels;
    if (std::string why = kernelTimes(text, kernels); !why.empty()) {
      skipped.push_back("round " + std::to_string(round) + ": " + why);
      continue;
    }
    for (auto [i, a] : llvm::enumerate(anchors)) {
      if (round < 0 || round >= static_cast<int64_t>(a.candidates.size()))
        continue;
      double sum = 0;
      bool found = false;
      for (const std::string &k : a.kernels)
        if (auto it = kernels.find(k); it != kernels.end()) {
          sum += it->second;
          found = true;
        }
      if (found)
        times[i][round] = sum;
    }
  }

  std::vector<TuningRecord> records;
  for (auto [i, a] : llvm::enumerate(anchors)) {
    if (outcomes) {
      AnchorOutcome o;
      o.signature = a.signature;
      o.kernels = a.kernels;
      o.candidates = a.candidates.size();
      o.timed = times[i].size();
      if (!times[i].empty())
        o.record = records.size();
      outcomes->push_back(std::move(o));
    }
    if (times[i].empty())
      continue;
    int64_t best = -1;
    double bestMs = std::numeric_limits<double>::infinity();
    for (const auto &[round, ms] : times[i])
      if (ms < bestMs) {
        best = round;
        bestMs = ms;
      }
    TuningRecord r;
    r.index = records.size();
    r.signature = a.signature;
    r.chip = chip;
    r.schedule = a.candidates[best];
    r.timeMs = bestMs;
    r.defaultSchedule = a.candidates.front();
    if (auto it = times[i].find(0); it != times[i].end())
      r.defaultTimeMs = it->second;
    r.date = date.str();
    r.tool = tool.str();
    records.push_back(std::move(r));
  }
  return records;
}
