//===- PickTest.cpp - Tuning records from measured rounds -----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Pick.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace hidet::tuning;

namespace {

/// Two signatures: "a" (three candidates, kernels of two nodes, one with a
/// split-K reduction) and "b" (one candidate).
const char *kPlan = R"({"format": "hidet-tuning-plan", "version": 1,
  "chip": "sm_90a", "space": "small", "rounds": 3,
  "anchors": [
    {"signature": "a", "kernels": ["wgmma_q", "splitk_reduce_q", "wgmma_k"],
     "candidates": ["#a0", "#a1", "#a2"]},
    {"signature": "b", "kernels": ["mma_ffn"], "candidates": ["#b0"]}]})";

/// A passing hidet-run report whose profile has `launches` (kernel, ms).
std::string report(const std::vector<std::pair<std::string, double>> &launches,
                   const std::string &status = "pass") {
  std::string text = R"({"functions": [{"name": "main", "status": ")" +
                     status + R"(", "profile": {"runs": 10, "launches": [)";
  for (size_t i = 0; i < launches.size(); ++i)
    text += (i ? ", " : "") + std::string(R"({"kernel": ")") +
            launches[i].first + R"(", "ms": )" +
            std::to_string(launches[i].second) + "}";
  return text + "]}}]}";
}

TEST(PickRecords, TheFastestRoundOfEachSignature) {
  std::map<int64_t, std::string> rounds = {
      // Round 0: the defaults. a = 0.010 + 0.002 + 0.010, b = 0.05.
      {0, report({{"wgmma_q", 0.010}, {"splitk_reduce_q", 0.002},
                  {"wgmma_k", 0.010}, {"mma_ffn", 0.05}, {"row", 1.0}})},
      // Round 1: a is faster (no split-K reduction in this candidate).
      {1, report({{"wgmma_q", 0.008}, {"wgmma_k", 0.008}, {"mma_ffn", 0.06}})},
      // Round 2: a slower.
      {2, report({{"wgmma_q", 0.02}, {"wgmma_k", 0.02}})}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  auto records = pickRecords(kPlan, rounds, "2026-11-26", "test", skipped,
                             error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  // Both signatures, in the plan's order: a was timed in its three rounds,
  // b in round 0 only.
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].signature, "a");
  EXPECT_EQ(outcomes[0].kernels.front(), "wgmma_q");
  EXPECT_EQ(outcomes[0].candidates, 3);
  EXPECT_EQ(outcomes[0].timed, 3);
  EXPECT_EQ(outcomes[0].record, 0u);
  EXPECT_EQ(outcomes[1].candidates, 1);
  EXPECT_EQ(outcomes[1].timed, 1);
  EXPECT_EQ(outcomes[1].record, 1u);
  EXPECT_TRUE(skipped.empty());
  ASSERT_EQ(records->size(), 2u);
  const TuningRecord &a = (*records)[0];
  EXPECT_EQ(a.signature, "a");
  EXPECT_EQ(a.chip, "sm_90a");
  EXPECT_EQ(a.schedule, "#a1");
  EXPECT_NEAR(a.timeMs, 0.016, 1e-9);
  EXPECT_EQ(a.defaultSchedule, "#a0");
  EXPECT_NEAR(a.defaultTimeMs, 0.022, 1e-9);
  EXPECT_EQ(a.date, "2026-11-26");
  EXPECT_EQ(a.tool, "test");
  // b has one candidate: round 1's ffn kernel ran b's default again (the
  // round gives b nothing), so only round 0 counts.
  const TuningRecord &b = (*records)[1];
  EXPECT_EQ(b.schedule, "#b0");
  EXPECT_NEAR(b.timeMs, 0.05, 1e-9);
}

TEST(PickRecords, RoundsThatFailedOrHaveNoProfileAreSkipped) {
  std::map<int64_t, std::string> rounds = {
      {0, report({{"wgmma_q", 0.010}, {"wgmma_k", 0.010}})},
      // Faster, but its outputs failed their check.
      {1, report({{"wgmma_q", 0.001}, {"wgmma_k", 0.001}}, "fail")},
      {2, R"({"functions": [{"name": "main", "status": "pass"}]})"},
      {3, "{"}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  auto records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  ASSERT_EQ(records->size(), 1u);
  EXPECT_EQ((*records)[0].schedule, "#a0");
  // a was timed in round 0 only; b in none, so it has no record.
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_EQ(outcomes[0].timed, 1);
  EXPECT_EQ(outcomes[0].record, 0u);
  EXPECT_EQ(outcomes[1].timed, 0);
  EXPECT_FALSE(outcomes[1].record.has_value());
  ASSERT_EQ(skipped.size(), 3u);
  EXPECT_EQ(skipped[0], "round 1: function 'main' did not pass");
  EXPECT_EQ(skipped[1], "round 2: no profile (hidet-run --profile N)");
  EXPECT_EQ(skipped[2].rfind("round 3: not JSON", 0), 0u) << skipped[2];
}

/// A passing report of one launch per (kernel, samples): its median and
/// each run's time.
std::string sampled(
    const std::vector<std::pair<std::string, std::vector<double>>> &launches) {
  std::string text = R"({"functions": [{"name": "main", "status": "pass",
                         "profile": {"runs": 6, "launches": [)";
  for (size_t i = 0; i < launches.size(); ++i) {
    std::vector<double> sorted = launches[i].second;
    std::sort(sorted.begin(), sorted.end());
    text += (i ? ", " : "") + std::string(R"({"kernel": ")") +
            launches[i].first + R"(", "ms": )" +
            std::to_string(sorted[sorted.size() / 2]) + R"(, "samples_ms": [)";
    for (size_t r = 0; r < launches[i].second.size(); ++r)
      text += (r ? ", " : "") + std::to_string(launches[i].second[r]);
    text += "]}";
  }
  return text + "]}}]}";
}

TEST(Statistics, RankLessPValue) {
  std::vector<double> slow = {10.0, 10.2, 9.9, 10.1, 10.0, 9.8};
  std::vector<double> fast = {9.0, 9.1, 8.9, 9.2, 9.0, 8.8};
  // Every run faster: U = 36 of 36, z = (36 - 18 - 0.5) / sqrt(36 * 13 /
  // 12) = 2.80 (no ties across the groups; 9.0 twice, 10.0 twice).
  EXPECT_NEAR(rankLessPValue(fast, slow), 0.5 * std::erfc(2.8040 / std::sqrt(2.0)),
              1e-4);
  EXPECT_GT(rankLessPValue(slow, fast), 0.99);
  // The same runs on both sides: no evidence.
  EXPECT_GT(rankLessPValue(slow, slow), 0.5);
  // One cold run of the faster candidate does not hide the five others
  // (U = 30 of 36), as it would a mean (12.5 against 10) and a variance.
  std::vector<double> cold = fast;
  cold[0] = 30.0;
  EXPECT_LT(rankLessPValue(cold, slow), 0.05);
  // Interleaved runs: not significant.
  std::vector<double> near = {9.95, 10.15, 9.85, 10.05, 9.95, 9.9};
  double p = rankLessPValue(near, slow);
  EXPECT_GT(p, 0.05);
  EXPECT_LT(p, 0.5);
  // No samples; no spread at all.
  EXPECT_EQ(rankLessPValue({}, slow), 1.0);
  EXPECT_LT(rankLessPValue({1.0, 1.0, 1.0}, {2.0, 2.0, 2.0}), 0.05);
  EXPECT_GT(rankLessPValue({2.0, 2.0}, {2.0, 2.0}), 0.5);
}

TEST(PickRecords, TheDefaultStaysUnlessClearlySlower) {
  // a's kernels: wgmma_q and wgmma_k, summed run by run. Round 1 is 0.5%
  // faster (under the 1% margin), round 2 2% faster but within the noise
  // of six runs: the default stays, and the outcome names the fastest.
  std::vector<double> base = {1.00, 1.02, 0.98, 1.01, 0.99, 1.00};
  std::vector<double> noisy = {0.70, 1.25, 0.97, 0.98, 1.30, 0.75};
  auto scaled = [](std::vector<double> v, double f) {
    for (double &x : v)
      x *= f;
    return v;
  };
  std::map<int64_t, std::string> rounds = {
      {0, sampled({{"wgmma_q", base}, {"wgmma_k", base}, {"mma_ffn", base}})},
      {1, sampled({{"wgmma_q", scaled(base, 0.995)},
                   {"wgmma_k", scaled(base, 0.995)}})},
      {2, sampled({{"wgmma_q", noisy}, {"wgmma_k", noisy}})}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  auto records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
  EXPECT_DOUBLE_EQ((*records)[0].timeMs, (*records)[0].defaultTimeMs);
  ASSERT_TRUE(outcomes[0].rejectedRound.has_value());
  EXPECT_EQ(*outcomes[0].rejectedRound, 2);
  EXPECT_GT(outcomes[0].pValue, 0.05);
  // b had its default alone: nothing rejected, nothing tested.
  EXPECT_FALSE(outcomes[1].rejectedRound.has_value());
  EXPECT_LT(outcomes[1].pValue, 0);

  // The same 2% with runs that agree: significant, the candidate is taken.
  rounds[2] = sampled({{"wgmma_q", scaled(base, 0.98)},
                       {"wgmma_k", scaled(base, 0.98)}});
  outcomes.clear();
  records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a2");
  EXPECT_FALSE(outcomes[0].rejectedRound.has_value());
  EXPECT_LT(outcomes[0].pValue, 0.05);

  // A margin of 5% keeps the default again.
  records = pickRecords(kPlan, rounds, "", "", skipped, error, nullptr,
                        PickOptions{0.05, 0.05});
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
}

TEST(PickRecords, TheFastestOfSeveralIsTestedAtALevelForAll) {
  // Round 2 of a is 2% faster by its median, at p = 0.032. Alone against
  // the default it passes the test at 0.05. As the fastest of two
  // candidates it is tested at 0.025 and the default stays.
  std::vector<double> base = {1.00, 1.02, 0.98, 1.01, 0.99, 1.00};
  std::vector<double> faster = {0.97, 0.99, 0.96, 0.98, 1.005, 0.975};
  std::vector<double> slower = {1.05, 1.07, 1.03, 1.06, 1.04, 1.05};
  std::map<int64_t, std::string> rounds = {
      {0, sampled({{"wgmma_q", base}, {"wgmma_k", base}, {"mma_ffn", base}})},
      {2, sampled({{"wgmma_q", faster}, {"wgmma_k", faster}})}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  auto records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a2");
  EXPECT_EQ(outcomes[0].compared, 1);
  EXPECT_NEAR(outcomes[0].pValue, 0.032, 0.001);

  rounds[1] = sampled({{"wgmma_q", slower}, {"wgmma_k", slower}});
  outcomes.clear();
  records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
  EXPECT_EQ(outcomes[0].compared, 2);
  ASSERT_TRUE(outcomes[0].rejectedRound.has_value());
  EXPECT_EQ(*outcomes[0].rejectedRound, 2);
  EXPECT_NEAR(outcomes[0].pValue, 0.032, 0.001);
  EXPECT_DOUBLE_EQ(significanceLevel(PickOptions{}, outcomes[0].compared),
                   0.025);

  // At a family level of 0.1 (0.05 each) it is taken again.
  records = pickRecords(kPlan, rounds, "", "", skipped, error, nullptr,
                        PickOptions{0.01, 0.1});
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a2");
}

TEST(Statistics, SignificanceLevelDividesByTheCandidates) {
  PickOptions options{0.01, 0.06};
  EXPECT_DOUBLE_EQ(significanceLevel(options, 0), 0.06);
  EXPECT_DOUBLE_EQ(significanceLevel(options, 1), 0.06);
  EXPECT_DOUBLE_EQ(significanceLevel(options, 30), 0.002);
}

TEST(PickRecords, AWinnerNeedsItsOutputsChecked) {
  // Profiles without a check: a is fastest in round 2, then round 1.
  std::map<int64_t, std::string> rounds = {
      {0, report({{"wgmma_q", 0.010}, {"wgmma_k", 0.010}, {"mma_ffn", 0.05}},
                 "unverified")},
      {1, report({{"wgmma_q", 0.008}, {"wgmma_k", 0.008}}, "unverified")},
      {2, report({{"wgmma_q", 0.006}, {"wgmma_k", 0.006}}, "unverified")}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  PickOptions listing;
  listing.acceptUnverified = true;
  // Listing: round 2 would win and is to be checked; b's default needs no
  // check.
  auto records =
      pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes, listing);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_TRUE(skipped.empty());
  ASSERT_TRUE(outcomes[0].uncheckedRound.has_value());
  EXPECT_EQ(*outcomes[0].uncheckedRound, 2);
  EXPECT_EQ((*records)[0].schedule, "#a2");
  EXPECT_FALSE(outcomes[1].uncheckedRound.has_value());

  // Recording without checks: the unchecked winner is passed over, the
  // default (which needs none) kept, and the round still named.
  outcomes.clear();
  records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
  EXPECT_EQ(*outcomes[0].uncheckedRound, 2);

  // Round 2's check fails: it is skipped, and round 1 is the one to check.
  std::map<int64_t, std::string> checks = {
      {2, R"({"status": "fail", "exit_code": 1})"}};
  outcomes.clear();
  records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes,
                        listing, checks);
  ASSERT_TRUE(records.has_value()) << error;
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0], "round 2: its check did not pass (status 'fail')");
  EXPECT_EQ(outcomes[0].timed, 2);
  EXPECT_EQ(*outcomes[0].uncheckedRound, 1);

  // Round 1 passes its check: recorded, nothing left to check.
  checks[1] = R"({"status": "pass", "exit_code": 0})";
  for (const PickOptions &options : {listing, PickOptions{}}) {
    outcomes.clear();
    skipped.clear();
    records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes,
                          options, checks);
    ASSERT_TRUE(records.has_value()) << error;
    EXPECT_EQ((*records)[0].schedule, "#a1");
    EXPECT_DOUBLE_EQ((*records)[0].timeMs, 0.016);
    EXPECT_FALSE(outcomes[0].uncheckedRound.has_value());
  }

  // A check that is not JSON: the round is skipped, with the reason.
  checks[1] = "nope";
  skipped.clear();
  records =
      pickRecords(kPlan, rounds, "", "", skipped, error, nullptr, {}, checks);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].rfind("round 1: its check is not JSON", 0), 0u)
      << skipped[0];

  // A check that verified nothing is no check.
  checks[1] = R"({"status": "unverified", "exit_code": 0})";
  skipped.clear();
  records =
      pickRecords(kPlan, rounds, "", "", skipped, error, nullptr, {}, checks);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_EQ((*records)[0].schedule, "#a0");
  EXPECT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0],
            "round 1: its check verified nothing (no expected outputs)");
}

TEST(PickRecords, WithoutTheDefaultsRoundOnlyCheckedRoundsCount) {
  // Round 0 was not measured; round 1 is unverified: no record for a.
  std::map<int64_t, std::string> rounds = {
      {1, report({{"wgmma_q", 0.008}, {"wgmma_k", 0.008}}, "unverified")}};
  std::vector<std::string> skipped;
  std::string error;
  std::vector<AnchorOutcome> outcomes;
  auto records = pickRecords(kPlan, rounds, "", "", skipped, error, &outcomes);
  ASSERT_TRUE(records.has_value()) << error;
  EXPECT_TRUE(records->empty());
  ASSERT_EQ(outcomes.size(), 2u);
  EXPECT_FALSE(outcomes[0].record.has_value());
  EXPECT_EQ(*outcomes[0].uncheckedRound, 1);
}

TEST(PickRecords, APlanOfAnotherKindIsAnError) {
  std::vector<std::string> skipped;
  std::string error;
  EXPECT_FALSE(pickRecords(R"({"format": "hidet-tuning-records",
                               "version": 1, "records": []})",
                           {}, "", "", skipped, error));
  EXPECT_EQ(error, "not a version 1 tuning plan");
  EXPECT_FALSE(pickRecords("nope", {}, "", "", skipped, error));
  EXPECT_EQ(error.rfind("the plan is not JSON", 0), 0u) << error;
}

/// A passing report whose launches have each run's time: `runs` runs of
/// `ms` each, the r-th shifted by (r - runs / 2) * 1e-4 ms so that the runs
/// differ.
std::string
sampledReport(const std::vector<std::pair<std::string, double>> &launches,
              int runs = 6) {
  std::string text = R"({"functions": [{"name": "main", "status": "pass", )"
                     R"("profile": {"runs": )" +
                     std::to_string(runs) + R"(, "launches": [)";
  for (size_t i = 0; i < launches.size(); ++i) {
    text += (i ? ", " : "") + std::string(R"({"kernel": ")") +
            launches[i].first + R"(", "ms": )" +
            std::to_string(launches[i].second) + R"(, "samples_ms": [)";
    for (int r = 0; r < runs; ++r)
      text += (r ? ", " : "") +
              std::to_string(launches[i].second + (r - runs / 2) * 1e-4);
    text += "]}";
  }
  return text + "]}}]}";
}

/// Two signatures of two candidates each.
const char *kTwoByTwo = R"({"format": "hidet-tuning-plan", "version": 1,
  "chip": "sm_90a", "space": "small", "rounds": 2,
  "anchors": [
    {"signature": "a", "kernels": ["wgmma_a"], "candidates": ["#a0", "#a1"]},
    {"signature": "b", "kernels": ["wgmma_b"], "candidates": ["#b0", "#b1"]}]})";

TEST(EliminateRounds, ARoundGoesWhenEachOfItsCandidatesIsClearlySlower) {
  // Signature a: round 1 is its best; round 2 is 50% slower in every run.
  // Signature b (one candidate) is measured by round 0 alone.
  std::map<int64_t, std::string> rounds = {
      {0, sampledReport(
              {{"wgmma_q", 0.010}, {"wgmma_k", 0.010}, {"mma_ffn", 0.05}})},
      {1, sampledReport({{"wgmma_q", 0.008}, {"wgmma_k", 0.008}})},
      {2, sampledReport({{"wgmma_q", 0.012}, {"wgmma_k", 0.012}})}};
  std::vector<std::string> skipped;
  std::string error;
  auto e = eliminateRounds(kPlan, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_TRUE(skipped.empty());
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
  ASSERT_EQ(e->eliminated.size(), 1u);
  EXPECT_EQ(e->eliminated.at(2), 1);
  // The default's round stays even when it is clearly slower.
  rounds[0] = sampledReport({{"wgmma_q", 0.020}, {"wgmma_k", 0.020}});
  e = eliminateRounds(kPlan, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
}

TEST(EliminateRounds, ARoundStaysWhileOneOfItsCandidatesMayWin) {
  // Round 1 is clearly slower for a but the best for b.
  std::map<int64_t, std::string> rounds = {
      {0, sampledReport({{"wgmma_a", 0.010}, {"wgmma_b", 0.010}})},
      {1, sampledReport({{"wgmma_a", 0.020}, {"wgmma_b", 0.008}})}};
  std::vector<std::string> skipped;
  std::string error;
  auto e = eliminateRounds(kTwoByTwo, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(e->eliminated.empty());
  // Slower for both: eliminated, with its two signatures.
  rounds[1] = sampledReport({{"wgmma_a", 0.020}, {"wgmma_b", 0.020}});
  e = eliminateRounds(kTwoByTwo, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0}));
  EXPECT_EQ(e->eliminated.at(1), 2);
  // Within the margin (3% slower than the best, with a tiny p-value):
  // it stays.
  rounds[1] = sampledReport({{"wgmma_a", 0.0103}, {"wgmma_b", 0.0103}});
  e = eliminateRounds(kTwoByTwo, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
  // A larger margin keeps it; a stricter significance than six runs can
  // reach keeps it.
  rounds[1] = sampledReport({{"wgmma_a", 0.020}, {"wgmma_b", 0.020}});
  e = eliminateRounds(kTwoByTwo, rounds, skipped, error, {/*margin=*/1.5});
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
  e = eliminateRounds(kTwoByTwo, rounds, skipped, error,
                      {/*margin=*/0.05, /*significance=*/1e-4});
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
}

TEST(EliminateRounds, WithoutEachRunsTimeNothingGoes) {
  std::map<int64_t, std::string> rounds = {
      {0, report({{"wgmma_a", 0.010}, {"wgmma_b", 0.010}})},
      {1, report({{"wgmma_a", 0.100}, {"wgmma_b", 0.100}})}};
  std::vector<std::string> skipped;
  std::string error;
  auto e = eliminateRounds(kTwoByTwo, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0, 1}));
  // A round that failed is neither; a plan that is not one is an error.
  rounds[1] = report({{"wgmma_a", 0.005}}, "fail");
  e = eliminateRounds(kTwoByTwo, rounds, skipped, error);
  ASSERT_TRUE(e.has_value()) << error;
  EXPECT_EQ(e->survivors, (std::vector<int64_t>{0}));
  EXPECT_TRUE(e->eliminated.empty());
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_EQ(skipped[0].rfind("round 1: ", 0), 0u) << skipped[0];
  EXPECT_FALSE(eliminateRounds("{}", rounds, skipped, error));
  EXPECT_EQ(error, "not a version 1 tuning plan");
}

} // namespace
