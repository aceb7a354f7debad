//===- RecordsTest.cpp - Tuning records -----------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Tuning/Records.h"

#include <gtest/gtest.h>

using namespace hidet::tuning;

namespace {

TuningRecord record(std::string signature, std::string chip,
                    std::string schedule) {
  TuningRecord r;
  r.signature = std::move(signature);
  r.chip = std::move(chip);
  r.schedule = std::move(schedule);
  return r;
}

std::vector<TuningRecord> parse(const std::string &text,
                                std::vector<RecordProblem> &problems) {
  std::string error;
  auto records = parseRecords(text, problems, error);
  EXPECT_TRUE(records.has_value()) << error;
  return records ? *records : std::vector<TuningRecord>();
}

TEST(TuningRecords, PrintThenParseKeepsEveryField) {
  TuningRecord full = record("linalg.matmul(memref<64x64xf16>) {a = \"q\"}",
                             "sm_90a", "#hidet.wgmma_matmul<block = [64, 64]>");
  full.timeMs = 0.0125;
  full.defaultSchedule = "#hidet.wgmma_matmul<block = [128, 128]>";
  full.defaultTimeMs = 0.02;
  full.date = "2026-11-26";
  full.tool = "hidet-tune 2";
  TuningRecord bare = record("sig", "sm_80", "#hidet.mma_matmul<>");
  std::vector<RecordProblem> problems;
  std::vector<TuningRecord> back = parse(printRecords({full, bare}), problems);
  EXPECT_TRUE(problems.empty());
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].index, 0u);
  EXPECT_EQ(back[0].signature, full.signature);
  EXPECT_EQ(back[0].chip, "sm_90a");
  EXPECT_EQ(back[0].schedule, full.schedule);
  EXPECT_DOUBLE_EQ(back[0].timeMs, 0.0125);
  EXPECT_EQ(back[0].defaultSchedule, full.defaultSchedule);
  EXPECT_DOUBLE_EQ(back[0].defaultTimeMs, 0.02);
  EXPECT_EQ(back[0].date, "2026-11-26");
  EXPECT_EQ(back[0].tool, "hidet-tune 2");
  // Unmeasured times stay unmeasured; optional texts stay empty.
  EXPECT_EQ(back[1].index, 1u);
  EXPECT_LT(back[1].timeMs, 0);
  EXPECT_LT(back[1].defaultTimeMs, 0);
  EXPECT_TRUE(back[1].defaultSchedule.empty());
}

TEST(TuningRecords, MalformedRecordsAreSkippedWithTheirIndex) {
  std::string text = R"({"format": "hidet-tuning-records", "version": 1,
    "records": [
      {"signature": "a", "chip": "sm_90a", "schedule": "#s"},
      {"chip": "sm_90a", "schedule": "#s"},
      {"signature": "b", "chip": "", "schedule": "#s"},
      {"signature": "c", "chip": "sm_90a", "schedule": 3},
      {"signature": "d", "chip": "sm_90a", "schedule": "#s", "time_ms": "x"},
      [],
      {"signature": "e", "chip": "sm_90a", "schedule": "#s"}]})";
  std::vector<RecordProblem> problems;
  std::vector<TuningRecord> records = parse(text, problems);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].signature, "a");
  EXPECT_EQ(records[1].signature, "e");
  EXPECT_EQ(records[1].index, 6u);
  ASSERT_EQ(problems.size(), 5u);
  EXPECT_EQ(problems[0].index, 1u);
  EXPECT_EQ(problems[0].why, "no \"signature\"");
  EXPECT_EQ(problems[1].why, "\"chip\" is empty");
  EXPECT_EQ(problems[2].why, "\"schedule\" is not a string");
  EXPECT_EQ(problems[3].why, "\"time_ms\" is not a number");
  EXPECT_EQ(problems[4].index, 5u);
  EXPECT_EQ(problems[4].why, "not an object");
}

TEST(TuningRecords, FilesOfAnotherKindOrVersionAreRejected) {
  std::vector<RecordProblem> problems;
  std::string error;
  EXPECT_FALSE(parseRecords("{", problems, error));
  EXPECT_NE(error.find("not JSON"), std::string::npos) << error;
  EXPECT_FALSE(parseRecords("[]", problems, error));
  EXPECT_EQ(error, "not a JSON object");
  EXPECT_FALSE(parseRecords(R"({"format": "other", "version": 1,
                                "records": []})",
                            problems, error));
  EXPECT_EQ(error, "\"format\" is not \"hidet-tuning-records\"");
  EXPECT_FALSE(parseRecords(R"({"format": "hidet-tuning-records",
                                "version": 2, "records": []})",
                            problems, error));
  EXPECT_EQ(error, "version 2 (this build reads version 1)");
  EXPECT_FALSE(parseRecords(R"({"format": "hidet-tuning-records",
                                "version": 1})",
                            problems, error));
  EXPECT_EQ(error, "no \"records\" array");
  EXPECT_TRUE(problems.empty());
}

TEST(TuningRecords, LookupMatchesSignatureAndChipAndTakesTheLast) {
  std::vector<TuningRecord> records = {
      record("a", "sm_90a", "#first"), record("a", "sm_80", "#ampere"),
      record("b", "sm_90a", "#other"), record("a", "sm_90a", "#second")};
  const TuningRecord *r = findRecord(records, "a", "sm_90a");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->schedule, "#second");
  ASSERT_NE(findRecord(records, "a", "sm_80"), nullptr);
  EXPECT_EQ(findRecord(records, "a", "sm_80")->schedule, "#ampere");
  EXPECT_EQ(findRecord(records, "a", "sm_89"), nullptr);
  EXPECT_EQ(findRecord(records, "c", "sm_90a"), nullptr);
}

} // namespace

namespace {

TuningRecord measured(std::string signature, std::string schedule,
                      std::string tool = kTunerVersion.str()) {
  TuningRecord r = record(std::move(signature), "sm_90a", std::move(schedule));
  r.timeMs = 0.01;
  r.tool = std::move(tool);
  return r;
}

TEST(TuningRecords, CurrentMeasurementsAreThisTunersWithATime) {
  EXPECT_TRUE(isCurrentMeasurement(measured("a", "#s")));
  EXPECT_FALSE(isCurrentMeasurement(measured("a", "#s", "hidet-tune 0")));
  EXPECT_FALSE(isCurrentMeasurement(record("a", "sm_90a", "#s")));
}

TEST(TuningRecords, MergeReplacesBySignatureAndChipAndKeepsTheNewest) {
  std::vector<TuningRecord> older = {measured("a", "#a-old"),
                                     measured("b", "#b-old"),
                                     record("a", "sm_80", "#a-ampere")};
  std::vector<TuningRecord> newer = {measured("a", "#a-new"),
                                     measured("c", "#c-new")};
  std::vector<TuningRecord> all = mergeRecords(older, newer, 0);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(findRecord(all, "a", "sm_90a")->schedule, "#a-new");
  EXPECT_EQ(findRecord(all, "a", "sm_80")->schedule, "#a-ampere");
  EXPECT_EQ(findRecord(all, "b", "sm_90a")->schedule, "#b-old");
  EXPECT_EQ(findRecord(all, "c", "sm_90a")->schedule, "#c-new");
  for (size_t i = 0; i < all.size(); ++i)
    EXPECT_EQ(all[i].index, i);
  // A bound keeps the newest: the new records, then the latest old ones.
  std::vector<TuningRecord> three = mergeRecords(older, newer, 3);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_NE(findRecord(three, "a", "sm_90a"), nullptr);
  EXPECT_NE(findRecord(three, "c", "sm_90a"), nullptr);
  EXPECT_NE(findRecord(three, "a", "sm_80"), nullptr);
  EXPECT_EQ(findRecord(three, "b", "sm_90a"), nullptr);
}

} // namespace
