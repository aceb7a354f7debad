//===- PickTest.cpp - Tuning records from measured rounds -----------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Pick.h"

#include <gtest/gtest.h>

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

} // namespace
