//===- TaskMappingTestSupport.h - Task-mapping test helpers -----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What the task-mapping tests share: shorthands for the primitives, a
// naive evaluator of Hidet's definitions to compare the library with, a
// seeded generator of random mappings, and an IndexBuilder that evaluates
// emitTasks' program on integers.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_UNITTESTS_ALGEBRA_TASKMAPPINGTESTSUPPORT_H
#define HIDET_UNITTESTS_ALGEBRA_TASKMAPPINGTESTSUPPORT_H

#include "Hidet/Algebra/TaskMapping.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace hidet {
namespace algebra {

// Let GoogleTest print mappings and hints in failure messages (found by ADL).
void PrintTo(const TaskMapping &m, std::ostream *os);
void PrintTo(const LoopHint &h, std::ostream *os);

namespace test {

using TM = TaskMapping;
using Tasks = std::vector<Task>;

//===----------------------------------------------------------------------===//
// Shorthands and printing
//===----------------------------------------------------------------------===//

TM spatial(Shape shape);
TM colSpatial(Shape shape);
TM repeat(Shape shape);
TM colRepeat(Shape shape);

/// Hidet's binary `outer * inner`; kept as a nested tree on purpose so that
/// chains such as `a * b * c` exercise the left-associative nesting.
TM operator*(const TM &outer, const TM &inner);

std::string show(const Task &t);
std::string show(const Tasks &tasks);

//===----------------------------------------------------------------------===//
// Naive reference evaluator of Hidet's semantics
//===----------------------------------------------------------------------===//

/// A mapping as Hidet's Python classes define it: a worker count, a task
/// shape and a worker -> ordered task list function. Written from the spec,
/// sharing nothing with the library but the accessors of the tree.
struct RefMapping {
  int64_t numWorkers = 1;
  Shape taskShape;
  std::function<Tasks(int64_t)> on;
};

/// Hidet's strides_from_ranks: walk from the innermost rank outwards.
Shape refStrides(const Shape &shape, const Ranks &ranks);
RefMapping refSpatial(const Shape &shape, const Ranks &ranks);
RefMapping refRepeat(const Shape &shape, const Ranks &ranks);
RefMapping refMul(const RefMapping &outer, const RefMapping &inner);
RefMapping refProject(const RefMapping &base, const std::vector<int64_t> &dims);

/// Evaluates `m` by the reference definitions; an n-ary composition is the
/// left-nested chain of binary products, as Hidet's `a * b * c`.
RefMapping toRef(const TM &m);

/// Compares `m` with the reference on workers [0, 2 * num_workers), so that
/// Hidet's wrap-around of out-of-range workers is covered as well.
::testing::AssertionResult matchesReference(const TM &m, const RefMapping &ref);
::testing::AssertionResult matchesReference(const TM &m);

/// Same workers, same task shape and the same ordered task list on workers
/// [0, 2 * num_workers).
::testing::AssertionResult sameEnumeration(const TM &a, const TM &b);

/// True when every worker's tasks are distinct from every other task of any
/// worker and together they cover the task grid exactly once.
::testing::AssertionResult isExactPartition(const TM &m);

//===----------------------------------------------------------------------===//
// Random mappings
//===----------------------------------------------------------------------===//

struct GenOptions {
  bool allowProject = true;
  /// A dimension forced to extent 1 in every factor (-1: none).
  int64_t unitDim = -1;
  int64_t maxExtent = 3;
  int maxDepth = 2;
  /// Upper bound on num_workers * tasks_per_worker, to keep enumeration fast.
  int64_t budget = 1024;
};

class MappingGen {
public:
  explicit MappingGen(uint32_t seed) : rng(seed) {}

  int64_t uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  }
  bool coin(int percent = 50) { return uniform(1, 100) <= percent; }

  Ranks ranks(size_t rank) {
    Ranks r = rowMajorRanks(rank);
    std::shuffle(r.begin(), r.end(), rng);
    return r;
  }

  Shape shape(size_t rank, const GenOptions &opts) {
    Shape s;
    for (size_t i = 0; i < rank; ++i)
      s.push_back(static_cast<int64_t>(i) == opts.unitDim
                      ? 1
                      : uniform(1, opts.maxExtent));
    return s;
  }

  LoopHints hints(const Shape &shape) {
    if (coin())
      return {}; // the defaults
    LoopHints h;
    for (size_t i = 0; i < shape.size(); ++i) {
      switch (uniform(0, 2)) {
      case 0:
        h.push_back(LoopHint::none());
        break;
      case 1:
        h.push_back(LoopHint::full());
        break;
      default:
        h.push_back(LoopHint::unrollBy(uniform(2, 4)));
        break;
      }
    }
    return h;
  }

  TM leaf(size_t rank, const GenOptions &opts, bool isSpatial) {
    Shape s = shape(rank, opts);
    Ranks r = ranks(rank);
    if (isSpatial)
      return TM::spatial(s, r);
    return TM::repeat(s, r, hints(s));
  }

  TM leaf(size_t rank, const GenOptions &opts) {
    return leaf(rank, opts, coin());
  }

  /// A composition of 1-3 factors, each a leaf or (while depth allows) a
  /// nested mapping, optionally under a projection.
  TM tree(size_t rank, const GenOptions &opts, int depth) {
    std::vector<TM> factors;
    int64_t n = uniform(1, 3);
    for (int64_t k = 0; k < n; ++k)
      factors.push_back(depth > 0 && coin(30) ? tree(rank, opts, depth - 1)
                                              : leaf(rank, opts));
    TM m =
        factors.size() == 1 && coin() ? factors.front() : TM::compose(factors);
    if (opts.allowProject && coin(20)) {
      std::vector<int64_t> dims;
      for (size_t i = 0; i < rank; ++i)
        if (coin(40))
          dims.push_back(static_cast<int64_t>(i));
      if (!dims.empty())
        m = TM::project(m, dims);
    }
    return m;
  }

  /// A random mapping of rank 1-3 (or `rank`) within the budget.
  TM mapping(const GenOptions &opts, size_t rank = 0) {
    for (;;) {
      size_t r = rank ? rank : static_cast<size_t>(uniform(1, 3));
      TM m = tree(r, opts, opts.maxDepth);
      if (m.getNumWorkers() * m.getTasksPerWorker() <= opts.budget)
        return m;
    }
  }

private:
  std::mt19937 rng;
};

//===----------------------------------------------------------------------===//
// An IndexBuilder that evaluates the emitted program on integers
//===----------------------------------------------------------------------===//

class EvalBuilder final : public IndexBuilder<int64_t> {
public:
  struct LoopRecord {
    int64_t extent;
    LoopHint hint;
  };

  int64_t constant(int64_t value) override { return value; }
  int64_t add(int64_t lhs, int64_t rhs) override { return lhs + rhs; }
  int64_t mulConst(int64_t lhs, int64_t rhs) override { return lhs * rhs; }
  int64_t divConst(int64_t lhs, int64_t rhs) override {
    EXPECT_GT(rhs, 1) << "division by a constant <= 1 is wasted code";
    ++numDiv;
    return lhs / rhs;
  }
  int64_t remConst(int64_t lhs, int64_t rhs) override {
    EXPECT_GT(rhs, 1) << "remainder by a constant <= 1 is wasted code";
    ++numRem;
    return lhs % rhs;
  }
  void loop(int64_t extent, LoopHint hint,
            const std::function<void(int64_t)> &body) override {
    EXPECT_GT(extent, 1) << "loops of extent 1 should not be emitted";
    // The first visit of each nesting level describes the static loop nest.
    if (depth == loops.size())
      loops.push_back({extent, hint});
    ++depth;
    for (int64_t iv = 0; iv < extent; ++iv)
      body(iv);
    --depth;
  }

  std::vector<LoopRecord> loops;
  size_t depth = 0;
  int numDiv = 0;
  int numRem = 0;
};

/// Runs emitTasks for `worker` and returns the tasks the body saw, in order.
Tasks emitted(const TM &m, int64_t worker, int64_t workerBound,
              EvalBuilder *builder = nullptr);

} // namespace test
} // namespace algebra
} // namespace hidet

#endif // HIDET_UNITTESTS_ALGEBRA_TASKMAPPINGTESTSUPPORT_H
