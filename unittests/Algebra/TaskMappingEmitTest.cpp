//===- TaskMappingEmitTest.cpp - Tests of emitTasks -----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// emitTasks, the per-worker program of a mapping, evaluated on integers by
// an IndexBuilder (TaskMappingTestSupport.h): the tasks it visits for every
// worker, its loop nest and hints, and the worker arithmetic it emits.
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
// emitTasks
//===----------------------------------------------------------------------===//

TEST(EmitTasks, SpatialDropsOutermostRemainderWithBound) {
  TM m = spatial({4, 8});
  EvalBuilder bounded, unbounded;
  EXPECT_EQ(emitted(m, 13, 32, &bounded), Tasks({{1, 5}}));
  EXPECT_EQ(emitted(m, 13, 0, &unbounded), Tasks({{1, 5}}));
  EXPECT_EQ(bounded.numRem, 1) << "only the inner dimension needs `% 8`";
  EXPECT_EQ(unbounded.numRem, 2) << "an unknown worker needs both remainders";
  EXPECT_EQ(bounded.numDiv, 1);
  EXPECT_TRUE(bounded.loops.empty());

  EvalBuilder col;
  EXPECT_EQ(emitted(colSpatial({4, 8}), 13, 32, &col), Tasks({{1, 3}}));
  EXPECT_EQ(col.numRem, 1) << "the outermost dim of col_spatial is dim 1";

  EvalBuilder nested;
  emitted(spatial({2, 4}) * spatial({4, 8}), 45, 256, &nested);
  EXPECT_EQ(nested.numRem, 3);
}

TEST(EmitTasks, LoweredFormOfMmaCMap) {
  // §1.8: for i0 < 2 (u+): for j1 < 2 (u+): [i0*4 + w/8, (w%8)*2 + j1].
  TM m = repeat({2, 1}) * spatial({4, 8}) * repeat({1, 2});
  for (int64_t w = 0; w < 32; ++w) {
    EvalBuilder b;
    Tasks got = emitted(m, w, 32, &b);
    Tasks formula;
    for (int64_t i0 = 0; i0 < 2; ++i0)
      for (int64_t j1 = 0; j1 < 2; ++j1)
        formula.push_back({i0 * 4 + w / 8, (w % 8) * 2 + j1});
    EXPECT_EQ(got, formula) << "worker " << w;
    EXPECT_EQ(got, m.tasksOf(w)) << "worker " << w;
    ASSERT_EQ(b.loops.size(), 2u) << "extent-1 loops must vanish";
    EXPECT_EQ(b.loops[0].extent, 2);
    EXPECT_EQ(b.loops[1].extent, 2);
    EXPECT_EQ(b.loops[0].hint, LoopHint::full());
    EXPECT_EQ(b.loops[1].hint, LoopHint::full());
    EXPECT_EQ(b.numRem, 1);
  }
}

TEST(EmitTasks, HonoursExplicitHintsInRankOrder) {
  TM m = TM::repeat({4, 2}, {1, 0}, {LoopHint::unrollBy(2), LoopHint::none()}) *
         spatial({2, 2});
  EvalBuilder b;
  EXPECT_EQ(emitted(m, 3, 4, &b), m.tasksOf(3));
  ASSERT_EQ(b.loops.size(), 2u);
  // Rank 0 is dimension 1, so its loop is the outer one.
  EXPECT_EQ(b.loops[0].extent, 2);
  EXPECT_EQ(b.loops[0].hint, LoopHint::none());
  EXPECT_EQ(b.loops[1].extent, 4);
  EXPECT_EQ(b.loops[1].hint, LoopHint::unrollBy(2));
}

TEST(EmitTasks, SpecExamplesForEveryWorker) {
  std::vector<TM> mappings = {
      spatial({4, 8}),
      colSpatial({4, 8}),
      repeat({2, 3}),
      colRepeat({2, 3}),
      repeat({2, 1}) * spatial({4, 8}),
      spatial({4, 8}) * repeat({2, 1}),
      spatial({2, 4}) * spatial({4, 8}),
      repeat({2, 1}) * spatial({8, 4}) * repeat({1, 2}),
      colRepeat({2, 2}) * spatial({8, 4}) * repeat({1, 2}),
      colSpatial({4, 8}) * colRepeat({2, 1}),
      colRepeat({2, 1}) * colSpatial({4, 8}) * colRepeat({2, 1}),
      *TM::autoMap({8, 16, 24}, 32),
      TM::project(spatial({4, 8}) * repeat({2, 2}), {0}),
  };
  for (const TM &m : mappings) {
    int64_t n = m.getNumWorkers();
    for (int64_t bound : {int64_t(0), n})
      for (int64_t w = 0; w < n; ++w)
        ASSERT_EQ(emitted(m, w, bound), m.tasksOf(w))
            << m.str() << " worker " << w << " bound " << bound;
  }
}

TEST(EmitTasks, RandomMappingsAllWorkersAndBounds) {
  MappingGen gen(10);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    int64_t n = m.getNumWorkers();
    int64_t partialBound = gen.uniform(1, 2 * n);
    for (int64_t w = 0; w < n; ++w) {
      EvalBuilder known, unknown;
      ASSERT_EQ(emitted(m, w, n, &known), m.tasksOf(w))
          << m.str() << " worker " << w << " bound " << n;
      ASSERT_EQ(emitted(m, w, 0, &unknown), m.tasksOf(w))
          << m.str() << " worker " << w << " unknown bound";
      EXPECT_LE(known.numRem, unknown.numRem) << m.str();
      EXPECT_EQ(known.loops.size(), unknown.loops.size()) << m.str();
    }
    // Any bound is honoured for the workers below it.
    for (int64_t w = 0; w < partialBound; ++w)
      ASSERT_EQ(emitted(m, w, partialBound), m.tasksOf(w))
          << m.str() << " worker " << w << " bound " << partialBound;
    // Without a bound, out-of-range workers wrap as in Hidet's Python.
    for (int64_t w = n; w < 3 * n; ++w)
      ASSERT_EQ(emitted(m, w, 0), m.tasksOf(w))
          << m.str() << " worker " << w << " (wrap) unknown bound";
  }
}

TEST(EmitTasks, LoopStructureOfRandomMappings) {
  // One loop per non-unit repeat dimension, outer factors first, each
  // factor's dimensions in rank order, with that factor's hints.
  MappingGen gen(12);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    std::vector<EvalBuilder::LoopRecord> expected;
    for (const Leaf &leaf : m.flatten()) {
      if (leaf.isSpatial)
        continue;
      for (int64_t r = 0; r < static_cast<int64_t>(leaf.shape.size()); ++r)
        for (size_t i = 0; i < leaf.shape.size(); ++i)
          if (leaf.ranks[i] == r && leaf.shape[i] > 1)
            expected.push_back({leaf.shape[i], leaf.hints[i]});
    }
    EvalBuilder b;
    Tasks tasks = emitted(m, 0, m.getNumWorkers(), &b);
    EXPECT_EQ(static_cast<int64_t>(tasks.size()), m.getTasksPerWorker())
        << m.str();
    ASSERT_EQ(b.loops.size(), expected.size()) << m.str();
    for (size_t k = 0; k < expected.size(); ++k) {
      EXPECT_EQ(b.loops[k].extent, expected[k].extent)
          << m.str() << " loop " << k;
      EXPECT_EQ(b.loops[k].hint, expected[k].hint) << m.str() << " loop " << k;
    }
  }
}

TEST(EmitTasks, PureRepeatEmitsNoWorkerArithmetic) {
  EvalBuilder b;
  EXPECT_EQ(emitted(repeat({2, 5}), 7, 0, &b), repeat({2, 5}).tasksOf(7));
  EXPECT_EQ(b.numDiv, 0);
  EXPECT_EQ(b.numRem, 0);
  ASSERT_EQ(b.loops.size(), 2u);
  EXPECT_EQ(b.loops[0].hint, LoopHint::full());
  EXPECT_EQ(b.loops[1].hint, LoopHint::none());
}

} // namespace
