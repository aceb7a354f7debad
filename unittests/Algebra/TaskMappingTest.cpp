//===- TaskMappingTest.cpp - Tests of the task-mapping algebra ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Unit tests of the plain-C++ task-mapping algebra: its helpers and
// validation, the primitives, the worked examples of the Hidet source, the
// PTX fragment layouts of mma.sync and auto_map. Every result is checked
// against an independent, naive evaluator of Hidet's definitions (binary,
// left-associative `outer * inner`; TaskMappingTestSupport.h). Random
// mappings come from a seeded std::mt19937 so that failures reproduce. The
// tests are built with -fno-exceptions.
//
//===----------------------------------------------------------------------===//

#include "TaskMappingTestSupport.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <set>

using namespace hidet::algebra;
using namespace hidet::algebra::test;

namespace {

//===----------------------------------------------------------------------===//
// Helpers and validation
//===----------------------------------------------------------------------===//

TEST(TaskMappingHelpers, RowAndColumnMajorRanks) {
  EXPECT_EQ(rowMajorRanks(0), Ranks{});
  EXPECT_EQ(rowMajorRanks(1), Ranks({0}));
  EXPECT_EQ(rowMajorRanks(3), Ranks({0, 1, 2}));
  EXPECT_EQ(colMajorRanks(1), Ranks({0}));
  EXPECT_EQ(colMajorRanks(3), Ranks({2, 1, 0}));
}

TEST(TaskMappingHelpers, StridesOfTheSpecExamples) {
  // §1.2: shape (4,8) is row-major with ranks [0,1], column-major with [1,0].
  EXPECT_EQ(stridesFromRanks({4, 8}, {0, 1}), Shape({8, 1}));
  EXPECT_EQ(stridesFromRanks({4, 8}, {1, 0}), Shape({1, 4}));
  EXPECT_EQ(stridesFromRanks({2, 3, 4}, rowMajorRanks(3)), Shape({12, 4, 1}));
  EXPECT_EQ(stridesFromRanks({2, 3, 4}, colMajorRanks(3)), Shape({1, 2, 6}));
  // Dimension 1 is outermost, dimension 0 innermost.
  EXPECT_EQ(stridesFromRanks({2, 3, 4}, {2, 0, 1}), Shape({1, 8, 2}));
}

TEST(TaskMappingHelpers, StridesMatchHidetAlgorithm) {
  MappingGen gen(7);
  for (int iter = 0; iter < 200; ++iter) {
    size_t rank = gen.uniform(1, 4);
    Shape shape;
    for (size_t i = 0; i < rank; ++i)
      shape.push_back(gen.uniform(1, 6));
    Ranks ranks = gen.ranks(rank);
    EXPECT_EQ(stridesFromRanks(shape, ranks), refStrides(shape, ranks))
        << "shape " << show(shape) << " ranks " << show(ranks);
  }
}

TEST(TaskMappingHelpers, Product) {
  EXPECT_EQ(product({}), 1);
  EXPECT_EQ(product({7}), 7);
  EXPECT_EQ(product({2, 3, 4}), 24);
}

TEST(TaskMappingValidation, ValidInputsHaveNoMessage) {
  EXPECT_EQ(checkShape({1}), "");
  EXPECT_EQ(checkShape({4, 8}), "");
  EXPECT_EQ(checkRanks({0}, 1), "");
  EXPECT_EQ(checkRanks({1, 0}, 2), "");
  EXPECT_EQ(checkRanks({2, 0, 1}, 3), "");
  EXPECT_EQ(checkHints({}, 0), "");
  EXPECT_EQ(checkHints(
                {LoopHint::none(), LoopHint::full(), LoopHint::unrollBy(2)}, 3),
            "");
}

TEST(TaskMappingValidation, BadShapes) {
  std::string empty = checkShape({});
  EXPECT_FALSE(empty.empty()) << "a rank-0 task shape must be rejected";

  std::string zero = checkShape({4, 0});
  EXPECT_FALSE(zero.empty());
  EXPECT_NE(zero.find("dimension 1"), std::string::npos) << zero;
  EXPECT_NE(zero.find("0"), std::string::npos) << zero;

  std::string negative = checkShape({-3, 2});
  EXPECT_FALSE(negative.empty());
  EXPECT_NE(negative.find("dimension 0"), std::string::npos) << negative;
  EXPECT_NE(negative.find("-3"), std::string::npos) << negative;

  std::string huge = checkShape({int64_t(1) << 30, int64_t(1) << 30});
  EXPECT_FALSE(huge.empty()) << "products that may overflow must be rejected";
}

TEST(TaskMappingValidation, BadRanks) {
  std::string length = checkRanks({0, 1}, 3);
  EXPECT_FALSE(length.empty());
  EXPECT_NE(length.find("2"), std::string::npos) << length;
  EXPECT_NE(length.find("3"), std::string::npos) << length;

  std::string duplicate = checkRanks({0, 0}, 2);
  EXPECT_FALSE(duplicate.empty());
  EXPECT_NE(duplicate.find("twice"), std::string::npos) << duplicate;

  std::string outOfRange = checkRanks({0, 2}, 2);
  EXPECT_FALSE(outOfRange.empty());
  EXPECT_NE(outOfRange.find("2"), std::string::npos) << outOfRange;

  std::string negative = checkRanks({-1, 0}, 2);
  EXPECT_FALSE(negative.empty());
  EXPECT_NE(negative.find("-1"), std::string::npos) << negative;
}

TEST(TaskMappingValidation, BadHints) {
  std::string length = checkHints({LoopHint::none()}, 2);
  EXPECT_FALSE(length.empty());
  EXPECT_NE(length.find("1"), std::string::npos) << length;

  std::string one = checkHints({LoopHint::none(), LoopHint::unrollBy(1)}, 2);
  EXPECT_FALSE(one.empty());
  EXPECT_NE(one.find("dimension 1"), std::string::npos) << one;

  std::string zero = checkHints({LoopHint::unrollBy(0)}, 1);
  EXPECT_FALSE(zero.empty());
  EXPECT_NE(zero.find("dimension 0"), std::string::npos) << zero;
}

TEST(TaskMappingValidation, LoopHintDefaultsAndEquality) {
  // Hidet's ForStmtAttr.from_extent: constant extents below 4 become `u+`.
  for (int64_t e : {1, 2, 3})
    EXPECT_EQ(LoopHint::defaultFor(e), LoopHint::full()) << "extent " << e;
  for (int64_t e : {4, 5, 16, 1024})
    EXPECT_EQ(LoopHint::defaultFor(e), LoopHint::none()) << "extent " << e;
  EXPECT_EQ(LoopHint::unrollBy(2), LoopHint::unrollBy(2));
  EXPECT_NE(LoopHint::unrollBy(2), LoopHint::unrollBy(4));
  EXPECT_NE(LoopHint::full(), LoopHint::none());
  EXPECT_NE(LoopHint::full(), LoopHint::unrollBy(2));
}

//===----------------------------------------------------------------------===//
// Primitive mappings
//===----------------------------------------------------------------------===//

TEST(TaskMappingPrimitives, Spatial) {
  TM m = spatial({4, 8});
  EXPECT_EQ(m.getKind(), TM::Kind::Spatial);
  EXPECT_EQ(m.getNumWorkers(), 32);
  EXPECT_EQ(m.getTaskShape(), Shape({4, 8}));
  EXPECT_EQ(m.getTasksPerWorker(), 1);
  EXPECT_EQ(m.getRanks(), Ranks({0, 1})) << "default ranks are row-major";
  EXPECT_EQ(m.tasksOf(13), Tasks({{1, 5}}));
  for (int64_t w = 0; w < 32; ++w)
    EXPECT_EQ(m.tasksOf(w), Tasks({{w / 8, w % 8}})) << "worker " << w;
  EXPECT_EQ(m.tasksOf(13 + 32), m.tasksOf(13)) << "workers wrap around";
  EXPECT_TRUE(isExactPartition(m));
}

TEST(TaskMappingPrimitives, ColumnSpatial) {
  TM m = colSpatial({4, 8});
  EXPECT_EQ(m.getRanks(), Ranks({1, 0}));
  EXPECT_EQ(m.getNumWorkers(), 32);
  EXPECT_EQ(m.tasksOf(13), Tasks({{1, 3}}));
  for (int64_t w = 0; w < 32; ++w)
    EXPECT_EQ(m.tasksOf(w), Tasks({{w % 4, w / 4}})) << "worker " << w;
  EXPECT_TRUE(isExactPartition(m));
}

TEST(TaskMappingPrimitives, Repeat) {
  TM m = repeat({2, 3});
  EXPECT_EQ(m.getKind(), TM::Kind::Repeat);
  EXPECT_EQ(m.getNumWorkers(), 1);
  EXPECT_EQ(m.getTaskShape(), Shape({2, 3}));
  EXPECT_EQ(m.getTasksPerWorker(), 6);
  Tasks rowOrder = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
  EXPECT_EQ(m.tasksOf(0), rowOrder);
  EXPECT_EQ(m.tasksOf(5), rowOrder) << "repeat ignores the worker";
  ASSERT_EQ(m.getHints().size(), 2u);
  EXPECT_EQ(m.getHints()[0], LoopHint::full());
  EXPECT_EQ(m.getHints()[1], LoopHint::full());
  EXPECT_TRUE(isExactPartition(m));
}

TEST(TaskMappingPrimitives, ColumnRepeat) {
  TM m = colRepeat({2, 3});
  EXPECT_EQ(m.tasksOf(0),
            Tasks({{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}}));
  TM r = TM::repeat({2, 3, 2}, {1, 2, 0});
  // Dimension 2 outermost, then 0, then 1.
  Tasks expected;
  for (int64_t k = 0; k < 2; ++k)
    for (int64_t i = 0; i < 2; ++i)
      for (int64_t j = 0; j < 3; ++j)
        expected.push_back({i, j, k});
  EXPECT_EQ(r.tasksOf(0), expected);
}

TEST(TaskMappingPrimitives, RepeatDefaultHintsFollowExtents) {
  TM m = repeat({4, 2, 1, 7});
  ASSERT_EQ(m.getHints().size(), 4u);
  EXPECT_EQ(m.getHints()[0], LoopHint::none());
  EXPECT_EQ(m.getHints()[1], LoopHint::full());
  EXPECT_EQ(m.getHints()[2], LoopHint::full());
  EXPECT_EQ(m.getHints()[3], LoopHint::none());
  TM explicitHints =
      TM::repeat({4, 2}, {}, {LoopHint::unrollBy(2), LoopHint::none()});
  EXPECT_EQ(explicitHints.getHints()[0], LoopHint::unrollBy(2));
  EXPECT_EQ(explicitHints.getHints()[1], LoopHint::none());
  EXPECT_NE(explicitHints, repeat({4, 2})) << "hints are part of equality";
}

TEST(TaskMappingPrimitives, CompositionStructure) {
  TM m = TM::compose({repeat({2, 1}), spatial({4, 8}), repeat({1, 2})});
  EXPECT_EQ(m.getKind(), TM::Kind::Compose);
  ASSERT_EQ(m.getFactors().size(), 3u);
  EXPECT_EQ(m.getFactors()[1], spatial({4, 8}));
  EXPECT_EQ(m.getRank(), 2u);
  EXPECT_EQ(m.getNumWorkers(), 32);
  EXPECT_EQ(m.getTaskShape(), Shape({8, 16}));
  EXPECT_EQ(m.getTasksPerWorker(), 4);
  EXPECT_EQ(m, TM::compose({repeat({2, 1}), spatial({4, 8}), repeat({1, 2})}));
  EXPECT_NE(m, repeat({2, 1}) * spatial({4, 8}) * repeat({1, 2}))
      << "structural equality sees the nesting";
  EXPECT_NE(spatial({4, 8}), colSpatial({4, 8}));
  EXPECT_NE(spatial({4, 8}), repeat({4, 8}));
}

TEST(TaskMappingPrimitives, Printing) {
  EXPECT_EQ((repeat({2, 1}) * spatial({4, 8})).str(),
            "repeat(2, 1).spatial(4, 8)");
  std::string col = colSpatial({4, 8}).str();
  EXPECT_NE(col.find("1, 0"), std::string::npos)
      << "non-default ranks must be visible: " << col;
}

//===----------------------------------------------------------------------===//
// Worked examples of the spec (§1.8)
//===----------------------------------------------------------------------===//

struct WorkedExample {
  const char *name;
  std::function<std::optional<TM>()> build;
  int64_t numWorkers;
  Shape taskShape;
  std::vector<std::pair<int64_t, Tasks>> expected;
};

void PrintTo(const WorkedExample &e, std::ostream *os) { *os << e.name; }

class WorkedExampleTest : public ::testing::TestWithParam<WorkedExample> {};

TEST_P(WorkedExampleTest, MatchesTable) {
  const WorkedExample &e = GetParam();
  std::optional<TM> m = e.build();
  ASSERT_TRUE(m.has_value()) << e.name;
  EXPECT_EQ(m->getNumWorkers(), e.numWorkers) << m->str();
  EXPECT_EQ(m->getTaskShape(), e.taskShape) << m->str();
  for (const auto &[worker, tasks] : e.expected)
    EXPECT_EQ(m->tasksOf(worker), tasks) << m->str() << " on worker " << worker;
  EXPECT_TRUE(matchesReference(*m));
  EXPECT_TRUE(isExactPartition(*m));
  // Flattening the binary tree (and merging) keeps the enumeration.
  EXPECT_TRUE(sameEnumeration(*m, m->simplify()));
}

INSTANTIATE_TEST_SUITE_P(
    Spec, WorkedExampleTest,
    ::testing::Values(
        WorkedExample{"RepeatTimesSpatial",
                      [] {
                        return repeat({2, 1}) * spatial({4, 8});
                      },
                      32,
                      {8, 8},
                      {{13, {{1, 5}, {5, 5}}},
                       {0, {{0, 0}, {4, 0}}},
                       {31, {{3, 7}, {7, 7}}}}},
        WorkedExample{"SpatialTimesRepeat",
                      [] {
                        return spatial({4, 8}) * repeat({2, 1});
                      },
                      32,
                      {8, 8},
                      {{13, {{2, 5}, {3, 5}}}, {0, {{0, 0}, {1, 0}}}}},
        WorkedExample{"SpatialTimesSpatial",
                      [] {
                        return spatial({2, 4}) * spatial({4, 8});
                      },
                      256,
                      {8, 32},
                      {{13, {{1, 5}}}, {45, {{1, 13}}}, {255, {{7, 31}}}}},
        WorkedExample{
            "MmaM16N8K8C",
            [] {
              return repeat({2, 1}) * spatial({8, 4}) * repeat({1, 2});
            },
            32,
            {16, 8},
            {{13, {{3, 2}, {3, 3}, {11, 2}, {11, 3}}},
             {0, {{0, 0}, {0, 1}, {8, 0}, {8, 1}}}}},
        WorkedExample{
            "MmaM16N8K16A",
            [] {
              return colRepeat({2, 2}) * spatial({8, 4}) * repeat({1, 2});
            },
            32,
            {16, 16},
            {{13,
              {{3, 2},
               {3, 3},
               {11, 2},
               {11, 3},
               {3, 10},
               {3, 11},
               {11, 10},
               {11, 11}}}}},
        WorkedExample{"AutoMap128x2",
                      [] {
                        return TM::autoMap({128, 2}, 128);
                      },
                      128,
                      {128, 2},
                      {{5, {{2, 1}, {66, 1}}}}}),
    [](const ::testing::TestParamInfo<WorkedExample> &info) {
      return std::string(info.param.name);
    });

TEST(WorkedExamples, FlatAndNestedCompositionsAgree) {
  TM nested = repeat({2, 1}) * spatial({8, 4}) * repeat({1, 2});
  TM flat = TM::compose({repeat({2, 1}), spatial({8, 4}), repeat({1, 2})});
  TM right = repeat({2, 1}) * (spatial({8, 4}) * repeat({1, 2}));
  EXPECT_TRUE(sameEnumeration(nested, flat));
  EXPECT_TRUE(sameEnumeration(nested, right));
  EXPECT_EQ(flat.tasksOf(13), Tasks({{3, 2}, {3, 3}, {11, 2}, {11, 3}}));
}

//===----------------------------------------------------------------------===//
// mma.sync fragment maps (§1.10)
//===----------------------------------------------------------------------===//

struct FragmentMap {
  const char *name;
  std::function<TM()> build;
  Shape fragment;
  /// Element owned by register `p` of `lane`, from the PTX ISA fragment
  /// layouts (groupID = lane / 4, threadID_in_group = lane % 4).
  std::function<Task(int64_t lane, int64_t p)> ptx;
  std::vector<std::pair<int64_t, Tasks>> lanes;
};

void PrintTo(const FragmentMap &f, std::ostream *os) { *os << f.name; }

class FragmentMapTest : public ::testing::TestWithParam<FragmentMap> {};

TEST_P(FragmentMapTest, PartitionsTheFragment) {
  const FragmentMap &f = GetParam();
  TM m = f.build();
  EXPECT_EQ(m.getNumWorkers(), 32) << m.str();
  EXPECT_EQ(m.getTaskShape(), f.fragment) << m.str();
  EXPECT_EQ(m.getTasksPerWorker() * 32, product(f.fragment)) << m.str();
  EXPECT_TRUE(isExactPartition(m));
  EXPECT_TRUE(matchesReference(m));
}

TEST_P(FragmentMapTest, MatchesPtxLayout) {
  const FragmentMap &f = GetParam();
  TM m = f.build();
  for (int64_t lane = 0; lane < 32; ++lane) {
    Tasks tasks = m.tasksOf(lane);
    ASSERT_EQ(static_cast<int64_t>(tasks.size()), m.getTasksPerWorker());
    for (size_t p = 0; p < tasks.size(); ++p)
      EXPECT_EQ(tasks[p], f.ptx(lane, p))
          << m.str() << " lane " << lane << " register " << p;
  }
}

TEST_P(FragmentMapTest, ListedLanes) {
  const FragmentMap &f = GetParam();
  TM m = f.build();
  for (const auto &[lane, tasks] : f.lanes)
    EXPECT_EQ(m.tasksOf(lane), tasks) << m.str() << " lane " << lane;
}

INSTANTIATE_TEST_SUITE_P(
    Mma, FragmentMapTest,
    ::testing::Values(
        FragmentMap{
            "M16N8K8AandC",
            [] {
              return repeat({2, 1}) * spatial({8, 4}) * repeat({1, 2});
            },
            {16, 8},
            [](int64_t lane, int64_t p) {
              return Task{lane / 4 + 8 * (p / 2), 2 * (lane % 4) + p % 2};
            },
            {{13, {{3, 2}, {3, 3}, {11, 2}, {11, 3}}},
             {0, {{0, 0}, {0, 1}, {8, 0}, {8, 1}}}}},
        FragmentMap{"M16N8K8B",
                    [] {
                      return colSpatial({4, 8}) * colRepeat({2, 1});
                    },
                    {8, 8},
                    [](int64_t lane, int64_t p) {
                      return Task{2 * (lane % 4) + p, lane / 4};
                    },
                    {{13, {{2, 3}, {3, 3}}}, {0, {{0, 0}, {1, 0}}}}},
        FragmentMap{
            "M16N8K16A",
            [] {
              return colRepeat({2, 2}) * spatial({8, 4}) * repeat({1, 2});
            },
            {16, 16},
            [](int64_t lane, int64_t p) {
              return Task{lane / 4 + 8 * ((p / 2) % 2),
                          2 * (lane % 4) + p % 2 + 8 * (p / 4)};
            },
            {{13,
              {{3, 2},
               {3, 3},
               {11, 2},
               {11, 3},
               {3, 10},
               {3, 11},
               {11, 10},
               {11, 11}}}}},
        FragmentMap{
            "M16N8K16B",
            [] {
              return colRepeat({2, 1}) * colSpatial({4, 8}) * colRepeat({2, 1});
            },
            {16, 8},
            [](int64_t lane, int64_t p) {
              return Task{2 * (lane % 4) + p % 2 + 8 * (p / 2), lane / 4};
            },
            {{13, {{2, 3}, {3, 3}, {10, 3}, {11, 3}}}}}),
    [](const ::testing::TestParamInfo<FragmentMap> &info) {
      return std::string(info.param.name);
    });

//===----------------------------------------------------------------------===//
// auto_map (§1.6)
//===----------------------------------------------------------------------===//

struct AutoMapCase {
  const char *name;
  Shape shape;
  int64_t workers;
  Ranks ranks;
  Shape repeatShape;
  Shape spatialShape;
};

void PrintTo(const AutoMapCase &c, std::ostream *os) { *os << c.name; }

class AutoMapTest : public ::testing::TestWithParam<AutoMapCase> {};

TEST_P(AutoMapTest, DocstringCase) {
  const AutoMapCase &c = GetParam();
  std::string error;
  std::optional<TM> m = TM::autoMap(c.shape, c.workers, c.ranks, &error);
  ASSERT_TRUE(m.has_value()) << c.name << ": " << error;
  EXPECT_TRUE(error.empty()) << error;
  Ranks ranks = c.ranks.empty() ? rowMajorRanks(c.shape.size()) : c.ranks;
  TM expected = TM::compose(
      {TM::repeat(c.repeatShape, ranks), TM::spatial(c.spatialShape, ranks)});
  EXPECT_EQ(*m, expected) << "got " << m->str() << ", expected "
                          << expected.str();
  EXPECT_TRUE(sameEnumeration(*m, expected));
  EXPECT_EQ(m->getNumWorkers(), c.workers) << m->str();
  EXPECT_EQ(m->getTaskShape(), c.shape) << m->str();
  EXPECT_TRUE(isExactPartition(*m));
  EXPECT_TRUE(matchesReference(*m, refMul(refRepeat(c.repeatShape, ranks),
                                          refSpatial(c.spatialShape, ranks))));
}

INSTANTIATE_TEST_SUITE_P(
    Docstring, AutoMapTest,
    ::testing::Values(
        AutoMapCase{"S8x32W64", {8, 32}, 64, {}, {4, 1}, {2, 32}},
        AutoMapCase{"S8x64W64", {8, 64}, 64, {}, {8, 1}, {1, 64}},
        AutoMapCase{"S8x96W64", {8, 96}, 64, {}, {4, 3}, {2, 32}},
        AutoMapCase{"S8x128W64", {8, 128}, 64, {}, {8, 2}, {1, 64}},
        AutoMapCase{"S8x96W64Col", {8, 96}, 64, {1, 0}, {1, 12}, {8, 8}},
        AutoMapCase{"S64x8W64Col", {64, 8}, 64, {1, 0}, {1, 8}, {64, 1}},
        AutoMapCase{"S8x16x24W32", {8, 16, 24}, 32, {}, {8, 4, 3}, {1, 4, 8}},
        AutoMapCase{"S128x2W128", {128, 2}, 128, {}, {2, 1}, {64, 2}}),
    [](const ::testing::TestParamInfo<AutoMapCase> &info) {
      return std::string(info.param.name);
    });

TEST(AutoMap, IndivisibleTaskCountFails) {
  std::string error;
  std::optional<TM> m = TM::autoMap({8, 41}, 64, {}, &error);
  EXPECT_FALSE(m.has_value());
  ASSERT_FALSE(error.empty());
  // The message must let the user see what could not be distributed.
  EXPECT_NE(error.find("328"), std::string::npos) << error;
  EXPECT_NE(error.find("8, 41"), std::string::npos) << error;
  EXPECT_NE(error.find("64"), std::string::npos) << error;
  EXPECT_FALSE(TM::autoMap({8, 41}, 64).has_value())
      << "failing without an error sink must still fail";
}

TEST(AutoMap, InvalidArgumentsFail) {
  std::string error;
  EXPECT_FALSE(TM::autoMap({8, 8}, 0, {}, &error).has_value());
  EXPECT_NE(error.find("workers"), std::string::npos) << error;
  error.clear();
  EXPECT_FALSE(TM::autoMap({8, 0}, 8, {}, &error).has_value());
  EXPECT_FALSE(error.empty());
  error.clear();
  EXPECT_FALSE(TM::autoMap({8, 8}, 8, {0, 0}, &error).has_value());
  EXPECT_FALSE(error.empty());
}

TEST(AutoMap, RandomDivisibleShapesUseEveryWorker) {
  // Whenever the worker count divides the task count, the greedy gcd split
  // uses all workers and covers the shape exactly once.
  MappingGen gen(11);
  int checked = 0;
  for (int iter = 0; iter < 300; ++iter) {
    size_t rank = gen.uniform(1, 3);
    Shape shape;
    for (size_t i = 0; i < rank; ++i)
      shape.push_back(gen.uniform(1, 12));
    int64_t tasks = product(shape);
    std::vector<int64_t> divisors;
    for (int64_t d = 1; d <= tasks; ++d)
      if (tasks % d == 0)
        divisors.push_back(d);
    int64_t workers = divisors[gen.uniform(0, divisors.size() - 1)];
    Ranks ranks = gen.ranks(rank);
    std::string error;
    std::optional<TM> m = TM::autoMap(shape, workers, ranks, &error);
    ASSERT_TRUE(m.has_value())
        << show(shape) << " over " << workers << ": " << error;
    EXPECT_EQ(m->getNumWorkers(), workers) << m->str();
    EXPECT_EQ(m->getTaskShape(), shape) << m->str();
    EXPECT_TRUE(isExactPartition(*m));
    EXPECT_TRUE(matchesReference(*m));
    ++checked;
  }
  EXPECT_EQ(checked, 300);
}

} // namespace
