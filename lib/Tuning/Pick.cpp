//===- Pick.cpp - Tuning records from measured rounds ---------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Pick.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <limits>
#include <set>

using namespace llvm;
using namespace hidet::tuning;

namespace {
struct PlanAnchor {
  std::string signature;
  std::vector<std::string> kernels, candidates;
};

/// A time (ms) and, where the profile has them, the time of each profiled
/// run (empty otherwise).
struct Measured {
  double ms = 0;
  std::vector<double> samples;

  /// Adds `other`, run by run; samples of different counts are dropped.
  void add(const Measured &other, bool first) {
    ms += other.ms;
    if (first)
      samples = other.samples;
    else if (samples.size() != other.samples.size())
      samples.clear();
    else
      for (size_t r = 0; r < samples.size(); ++r)
        samples[r] += other.samples[r];
  }
};

/// The kernel times (summed per name) of a hidet-run report that passed or
/// was not verified (`verified` says which), or the reason it cannot be
/// used.
std::string kernelTimes(StringRef text, StringMap<Measured> &times,
                        bool &verified) {
  verified = true;
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
    if (status == "unverified")
      verified = false;
    else if (status != "pass")
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
      Measured m{*ms, {}};
      if (const json::Array *samples = launch->getArray("samples_ms"))
        for (const json::Value &v : *samples) {
          std::optional<double> x = v.getAsNumber();
          if (!x)
            return "a launch's \"samples_ms\" holds a non-number";
          m.samples.push_back(*x);
        }
      auto [it, inserted] = times.try_emplace(*kernel);
      it->second.add(m, inserted);
    }
  }
  return profiled ? "" : "no profile (hidet-run --profile N)";
}

/// Whether the hidet-run report `text` of a round's check passed: empty if
/// so, otherwise why the round cannot be used.
std::string checkVerdict(StringRef text) {
  Expected<json::Value> parsed = json::parse(text);
  if (!parsed)
    return "its check is not JSON: " + toString(parsed.takeError());
  const json::Object *report = parsed->getAsObject();
  std::optional<StringRef> status =
      report ? report->getString("status") : std::nullopt;
  if (status == "pass")
    return "";
  if (status == "unverified")
    return "its check verified nothing (no expected outputs)";
  return "its check did not pass (status '" + status.value_or("?").str() + "')";
}

/// The choice among the measured rounds of one signature.
struct Choice {
  int64_t round = -1;
  double ms = 0;
  /// The fastest round, when the margin or the test kept the default.
  std::optional<int64_t> rejectedRound;
  double rejectedMs = 0;
  double pValue = -1;
  /// The candidates the fastest was found among (the default's excepted).
  int64_t compared = 0;
};

/// The fastest of `times`' rounds allowed by `allowed`, where it is faster
/// than the default (round 0) by `options`' margin and test; otherwise
/// the default (or, without a measured default, the fastest allowed).
template <typename Allowed>
Choice choose(const std::map<int64_t, Measured> &times, Allowed allowed,
              const PickOptions &options) {
  Choice c;
  c.ms = std::numeric_limits<double>::infinity();
  for (const auto &[round, m] : times)
    if (allowed(round) && m.ms < c.ms) {
      c.round = round;
      c.ms = m.ms;
    }
  // The default stays unless the fastest is faster by the margin and,
  // where there are samples, significantly: a pick within the noise of
  // the measurement would as often be slower.
  auto base = times.find(0);
  for (const auto &entry : times)
    c.compared += entry.first != 0;
  if (c.round > 0 && base != times.end()) {
    const Measured &fast = times.at(c.round), &dflt = base->second;
    bool faster = fast.ms <= dflt.ms * (1 - options.minGain);
    if (fast.samples.size() >= 2 && dflt.samples.size() >= 2) {
      c.pValue = rankLessPValue(fast.samples, dflt.samples);
      faster = faster && c.pValue < significanceLevel(options, c.compared);
    }
    if (!faster) {
      c.rejectedRound = c.round;
      c.rejectedMs = c.ms;
      c.round = 0;
      c.ms = dflt.ms;
    }
  }
  return c;
}
} // namespace

double hidet::tuning::significanceLevel(const PickOptions &options,
                                        int64_t compared) {
  return options.significance /
         static_cast<double>(std::max<int64_t>(1, compared));
}

double hidet::tuning::rankLessPValue(ArrayRef<double> candidate,
                                     ArrayRef<double> reference) {
  if (candidate.empty() || reference.empty())
    return 1;
  // U: the pairs in which the candidate's run is the faster, ties half.
  double u = 0;
  for (double c : candidate)
    for (double r : reference)
      u += c < r ? 1 : c == r ? 0.5 : 0;
  double n = candidate.size(), m = reference.size(), total = n + m;
  // Tie correction of the variance: each group of t equal times.
  std::vector<double> all(candidate.begin(), candidate.end());
  all.insert(all.end(), reference.begin(), reference.end());
  llvm::sort(all);
  double ties = 0;
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j] == all[i])
      ++j;
    double t = j - i;
    ties += t * t * t - t;
    i = j;
  }
  double variance =
      n * m / 12 * ((total + 1) - ties / (total * (total - 1)));
  double mean = n * m / 2;
  if (variance <= 0)
    return u > mean ? 0 : 1;
  double z = (u - mean - 0.5) / std::sqrt(variance);
  return 0.5 * std::erfc(z / std::sqrt(2.0));
}

namespace {
/// A plan's chip and anchors.
struct Plan {
  std::string chip;
  std::vector<PlanAnchor> anchors;
};

/// Reads plan.json's text; fails with `error` when it is not a plan.
std::optional<Plan> parsePlan(StringRef planText, std::string &error) {
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
  Plan result;
  result.chip = plan->getString("chip").value_or("").str();
  const json::Array *entries = plan->getArray("anchors");
  if (result.chip.empty() || !entries) {
    error = "the plan has no \"chip\" or no \"anchors\"";
    return std::nullopt;
  }
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
    result.anchors.push_back(std::move(a));
  }
  return result;
}

/// What the rounds measured: times[anchor][round], the time of the
/// anchor's kernels in that round, the rounds that could be used, and
/// those whose outputs passed (in their profiled run or their check). A
/// round that cannot be used is described in `skipped`.
struct RoundTimes {
  std::vector<std::map<int64_t, Measured>> times;
  std::set<int64_t> usable, verified;
};

RoundTimes measureRounds(const Plan &plan,
                         const std::map<int64_t, std::string> &rounds,
                         const std::map<int64_t, std::string> &checks,
                         std::vector<std::string> &skipped) {
  RoundTimes result;
  result.times.resize(plan.anchors.size());
  for (const auto &[round, text] : rounds) {
    StringMap<Measured> kernels;
    bool passed = false;
    std::string why = kernelTimes(text, kernels, passed);
    if (auto check = checks.find(round);
        why.empty() && !passed && check != checks.end()) {
      why = checkVerdict(check->second);
      passed = why.empty();
    }
    if (!why.empty()) {
      skipped.push_back("round " + std::to_string(round) + ": " + why);
      continue;
    }
    result.usable.insert(round);
    if (passed)
      result.verified.insert(round);
    for (auto [i, a] : llvm::enumerate(plan.anchors)) {
      if (round < 0 || round >= static_cast<int64_t>(a.candidates.size()))
        continue;
      Measured sum;
      bool found = false;
      for (const std::string &k : a.kernels)
        if (auto it = kernels.find(k); it != kernels.end()) {
          sum.add(it->second, !found);
          found = true;
        }
      if (found)
        result.times[i][round] = std::move(sum);
    }
  }
  return result;
}
} // namespace

std::optional<std::vector<TuningRecord>> hidet::tuning::pickRecords(
    StringRef planText, const std::map<int64_t, std::string> &rounds,
    StringRef date, StringRef tool, std::vector<std::string> &skipped,
    std::string &error, std::vector<AnchorOutcome> *outcomes,
    const PickOptions &options, const std::map<int64_t, std::string> &checks) {
  std::optional<Plan> plan = parsePlan(planText, error);
  if (!plan)
    return std::nullopt;
  const std::string &chip = plan->chip;
  const std::vector<PlanAnchor> &anchors = plan->anchors;
  RoundTimes measured = measureRounds(*plan, rounds, checks, skipped);
  const std::vector<std::map<int64_t, Measured>> &times = measured.times;
  const std::set<int64_t> &verified = measured.verified;

  std::vector<TuningRecord> records;
  for (auto [i, a] : llvm::enumerate(anchors)) {
    AnchorOutcome o;
    o.signature = a.signature;
    o.kernels = a.kernels;
    o.candidates = a.candidates.size();
    o.timed = times[i].size();
    if (times[i].empty()) {
      if (outcomes)
        outcomes->push_back(std::move(o));
      continue;
    }
    // The default needs no check: it is what a compilation without
    // records builds.
    auto isVerified = [&](int64_t round) {
      return round == 0 || verified.count(round);
    };
    Choice c = choose(
        times[i], [](int64_t) { return true; }, options);
    if (!isVerified(c.round)) {
      o.uncheckedRound = c.round;
      if (!options.acceptUnverified)
        c = choose(times[i], isVerified, options);
    }
    // Only unverified rounds measured it (and not the default's).
    if (c.round < 0) {
      if (outcomes)
        outcomes->push_back(std::move(o));
      continue;
    }
    o.record = records.size();
    int64_t best = c.round;
    double bestMs = c.ms;
    o.rejectedRound = c.rejectedRound;
    o.rejectedMs = c.rejectedMs;
    o.pValue = c.pValue;
    o.compared = c.compared;
    auto base = times[i].find(0);
    if (outcomes)
      outcomes->push_back(std::move(o));
    TuningRecord r;
    r.index = records.size();
    r.signature = a.signature;
    r.chip = chip;
    r.schedule = a.candidates[best];
    r.timeMs = bestMs;
    r.defaultSchedule = a.candidates.front();
    if (base != times[i].end())
      r.defaultTimeMs = base->second.ms;
    r.date = date.str();
    r.tool = tool.str();
    records.push_back(std::move(r));
  }
  return records;
}

std::optional<Elimination> hidet::tuning::eliminateRounds(
    StringRef planText, const std::map<int64_t, std::string> &rounds,
    std::vector<std::string> &skipped, std::string &error,
    const EliminationOptions &options) {
  std::optional<Plan> plan = parsePlan(planText, error);
  if (!plan)
    return std::nullopt;
  RoundTimes measured = measureRounds(*plan, rounds, {}, skipped);
  // Per round: the signatures it measured, and those for which it may
  // still be the best.
  std::map<int64_t, int64_t> measuredBy, contending;
  for (const std::map<int64_t, Measured> &times : measured.times) {
    if (times.empty())
      continue;
    auto best = llvm::min_element(times, [](const auto &x, const auto &y) {
      return x.second.ms < y.second.ms;
    });
    const Measured &fastest = best->second;
    for (const auto &[round, m] : times) {
      ++measuredBy[round];
      bool slower =
          round != best->first && m.ms >= fastest.ms * (1 + options.margin) &&
          fastest.samples.size() >= 2 && m.samples.size() >= 2 &&
          rankLessPValue(fastest.samples, m.samples) < options.significance;
      if (!slower)
        ++contending[round];
    }
  }
  Elimination result;
  for (int64_t round : measured.usable) {
    auto by = measuredBy.find(round);
    if (round == 0 || contending.count(round))
      result.survivors.push_back(round);
    else
      result.eliminated[round] = by == measuredBy.end() ? 0 : by->second;
  }
  return result;
}
