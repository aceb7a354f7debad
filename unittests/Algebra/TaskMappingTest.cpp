//===- TaskMappingTest.cpp - Tests of the task-mapping algebra ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Unit tests of the plain-C++ task-mapping algebra. Every result of the
// library is checked against an independent, naive evaluator of Hidet's
// definitions (binary, left-associative `outer * inner`), against the worked
// examples of the Hidet source, and against the PTX fragment layouts of
// mma.sync. Random mappings come from a seeded std::mt19937 so that failures
// reproduce. The tests are built with -fno-exceptions.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Algebra/TaskMapping.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

using namespace hidet::algebra;

// Let GoogleTest print mappings and hints in failure messages (found by ADL).
namespace hidet {
namespace algebra {
void PrintTo(const TaskMapping &m, std::ostream *os) { *os << m.str(); }
void PrintTo(const LoopHint &h, std::ostream *os) {
  switch (h.kind) {
  case LoopHint::Kind::None:
    *os << "none";
    return;
  case LoopHint::Kind::Full:
    *os << "full";
    return;
  case LoopHint::Kind::Factor:
    *os << "unroll by " << h.factor;
    return;
  }
}
} // namespace algebra
} // namespace hidet

namespace {

using TM = TaskMapping;
using Tasks = std::vector<Task>;

//===----------------------------------------------------------------------===//
// Shorthands and printing
//===----------------------------------------------------------------------===//

TM spatial(Shape shape) { return TM::spatial(std::move(shape)); }
TM colSpatial(Shape shape) {
  size_t rank = shape.size();
  return TM::spatial(std::move(shape), colMajorRanks(rank));
}
TM repeat(Shape shape) { return TM::repeat(std::move(shape)); }
TM colRepeat(Shape shape) {
  size_t rank = shape.size();
  return TM::repeat(std::move(shape), colMajorRanks(rank));
}

/// Hidet's binary `outer * inner`; kept as a nested tree on purpose so that
/// chains such as `a * b * c` exercise the left-associative nesting.
TM operator*(const TM &outer, const TM &inner) {
  return TM::compose({outer, inner});
}

std::string show(const Task &t) {
  std::ostringstream os;
  os << "(";
  for (size_t i = 0; i < t.size(); ++i)
    os << (i ? "," : "") << t[i];
  os << ")";
  return os.str();
}

std::string show(const Tasks &tasks) {
  std::string s = "[";
  for (size_t i = 0; i < tasks.size(); ++i)
    s += (i ? " " : "") + show(tasks[i]);
  return s + "]";
}

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
Shape refStrides(const Shape &shape, const Ranks &ranks) {
  Shape strides(shape.size(), 0);
  int64_t acc = 1;
  for (int64_t r = static_cast<int64_t>(shape.size()) - 1; r >= 0; --r) {
    size_t dim = std::find(ranks.begin(), ranks.end(), r) - ranks.begin();
    strides[dim] = acc;
    acc *= shape[dim];
  }
  return strides;
}

RefMapping refSpatial(const Shape &shape, const Ranks &ranks) {
  Shape strides = refStrides(shape, ranks);
  int64_t workers = 1;
  for (int64_t e : shape)
    workers *= e;
  return {workers, shape, [=](int64_t w) {
            Task t;
            for (size_t i = 0; i < shape.size(); ++i)
              t.push_back((w / strides[i]) % shape[i]);
            return Tasks{t};
          }};
}

RefMapping refRepeat(const Shape &shape, const Ranks &ranks) {
  // The whole grid in any order, then sorted by the rank-order linear index.
  Tasks grid{Task{}};
  for (int64_t extent : shape) {
    Tasks next;
    for (const Task &prefix : grid)
      for (int64_t v = 0; v < extent; ++v) {
        Task t = prefix;
        t.push_back(v);
        next.push_back(t);
      }
    grid = next;
  }
  Shape strides = refStrides(shape, ranks);
  auto key = [&](const Task &t) {
    int64_t k = 0;
    for (size_t i = 0; i < t.size(); ++i)
      k += t[i] * strides[i];
    return k;
  };
  std::stable_sort(grid.begin(), grid.end(), [&](const Task &a, const Task &b) {
    return key(a) < key(b);
  });
  return {1, shape, [grid](int64_t) { return grid; }};
}

RefMapping refMul(const RefMapping &outer, const RefMapping &inner) {
  Shape shape;
  for (size_t i = 0; i < outer.taskShape.size(); ++i)
    shape.push_back(outer.taskShape[i] * inner.taskShape[i]);
  return {outer.numWorkers * inner.numWorkers, shape,
          [outer, inner](int64_t w) {
            Tasks result;
            for (const Task &to : outer.on(w / inner.numWorkers))
              for (const Task &ti : inner.on(w % inner.numWorkers)) {
                Task t;
                for (size_t i = 0; i < to.size(); ++i)
                  t.push_back(to[i] * inner.taskShape[i] + ti[i]);
                result.push_back(t);
              }
            return result;
          }};
}

RefMapping refProject(const RefMapping &base,
                      const std::vector<int64_t> &dims) {
  Shape shape = base.taskShape;
  for (int64_t d : dims)
    shape[d] = 1;
  return {base.numWorkers, shape, [base, dims](int64_t w) {
            Tasks tasks = base.on(w);
            for (Task &t : tasks)
              for (int64_t d : dims)
                t[d] = 0;
            return tasks;
          }};
}

/// Evaluates `m` by the reference definitions; an n-ary composition is the
/// left-nested chain of binary products, as Hidet's `a * b * c`.
RefMapping toRef(const TM &m) {
  switch (m.getKind()) {
  case TM::Kind::Spatial:
    return refSpatial(m.getShape(), m.getRanks());
  case TM::Kind::Repeat:
    return refRepeat(m.getShape(), m.getRanks());
  case TM::Kind::Compose: {
    RefMapping acc = toRef(m.getFactors().front());
    for (size_t k = 1; k < m.getFactors().size(); ++k)
      acc = refMul(acc, toRef(m.getFactors()[k]));
    return acc;
  }
  case TM::Kind::Project:
    return refProject(toRef(m.getFactors().front()), m.getProjectedDims());
  }
  return {};
}

/// Compares `m` with the reference on workers [0, 2 * num_workers), so that
/// Hidet's wrap-around of out-of-range workers is covered as well.
::testing::AssertionResult matchesReference(const TM &m,
                                            const RefMapping &ref) {
  if (m.getNumWorkers() != ref.numWorkers)
    return ::testing::AssertionFailure()
           << m.str() << ": num_workers " << m.getNumWorkers() << ", reference "
           << ref.numWorkers;
  if (m.getTaskShape() != ref.taskShape)
    return ::testing::AssertionFailure()
           << m.str() << ": task shape " << show(m.getTaskShape())
           << ", reference " << show(ref.taskShape);
  for (int64_t w = 0; w < 2 * ref.numWorkers; ++w) {
    Tasks got = m.tasksOf(w), want = ref.on(w);
    if (got != want)
      return ::testing::AssertionFailure()
             << m.str() << " on worker " << w << ": " << show(got)
             << ", reference " << show(want);
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult matchesReference(const TM &m) {
  return matchesReference(m, toRef(m));
}

/// Same workers, same task shape and the same ordered task list on workers
/// [0, 2 * num_workers).
::testing::AssertionResult sameEnumeration(const TM &a, const TM &b) {
  if (a.getNumWorkers() != b.getNumWorkers())
    return ::testing::AssertionFailure()
           << a.str() << " has " << a.getNumWorkers() << " workers, " << b.str()
           << " has " << b.getNumWorkers();
  if (a.getTaskShape() != b.getTaskShape())
    return ::testing::AssertionFailure()
           << a.str() << " has task shape " << show(a.getTaskShape()) << ", "
           << b.str() << " has " << show(b.getTaskShape());
  for (int64_t w = 0; w < 2 * a.getNumWorkers(); ++w) {
    Tasks ta = a.tasksOf(w), tb = b.tasksOf(w);
    if (ta != tb)
      return ::testing::AssertionFailure()
             << "worker " << w << ": " << a.str() << " gives " << show(ta)
             << " but " << b.str() << " gives " << show(tb);
  }
  return ::testing::AssertionSuccess();
}

/// True when every worker's tasks are distinct from every other task of any
/// worker and together they cover the task grid exactly once.
::testing::AssertionResult isExactPartition(const TM &m) {
  std::set<Task> seen;
  int64_t count = 0;
  for (int64_t w = 0; w < m.getNumWorkers(); ++w) {
    for (const Task &t : m.tasksOf(w)) {
      for (size_t i = 0; i < t.size(); ++i)
        if (t[i] < 0 || t[i] >= m.getTaskShape()[i])
          return ::testing::AssertionFailure()
                 << m.str() << ": worker " << w << " task " << show(t)
                 << " is outside the task shape";
      if (!seen.insert(t).second)
        return ::testing::AssertionFailure()
               << m.str() << ": task " << show(t) << " of worker " << w
               << " is owned twice";
      ++count;
    }
  }
  if (count != product(m.getTaskShape()))
    return ::testing::AssertionFailure()
           << m.str() << ": workers own " << count << " tasks of "
           << product(m.getTaskShape());
  return ::testing::AssertionSuccess();
}

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
              EvalBuilder *builder = nullptr) {
  EvalBuilder local;
  EvalBuilder &b = builder ? *builder : local;
  Tasks out;
  emitTasks<int64_t>(m, b, worker, workerBound,
                     [&](const std::vector<int64_t> &t) { out.push_back(t); });
  return out;
}

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

//===----------------------------------------------------------------------===//
// The reference evaluator against tasksOf
//===----------------------------------------------------------------------===//

TEST(ReferenceEvaluator, HandBuiltReferences) {
  // References assembled directly from the definitions, not from the tree.
  EXPECT_TRUE(matchesReference(
      repeat({2, 1}) * spatial({4, 8}),
      refMul(refRepeat({2, 1}, {0, 1}), refSpatial({4, 8}, {0, 1}))));
  EXPECT_TRUE(matchesReference(
      TM::compose({spatial({2, 2}), colRepeat({3, 1}), colSpatial({2, 4})}),
      refMul(refMul(refSpatial({2, 2}, {0, 1}), refRepeat({3, 1}, {1, 0})),
             refSpatial({2, 4}, {1, 0}))));
  EXPECT_TRUE(matchesReference(
      TM::project(spatial({4, 8}) * repeat({2, 2}), {1}),
      refProject(refMul(refSpatial({4, 8}, {0, 1}), refRepeat({2, 2}, {0, 1})),
                 {1})));
  EXPECT_TRUE(matchesReference(TM::repeat({2, 3, 2}, {2, 0, 1}) *
                                   TM::spatial({3, 1, 2}, {1, 2, 0}),
                               refMul(refRepeat({2, 3, 2}, {2, 0, 1}),
                                      refSpatial({3, 1, 2}, {1, 2, 0}))));
}

TEST(ReferenceEvaluator, RandomMappings) {
  MappingGen gen(2024);
  GenOptions opts;
  for (int iter = 0; iter < 400; ++iter) {
    TM m = gen.mapping(opts);
    ASSERT_TRUE(matchesReference(m)) << "iteration " << iter;
    EXPECT_EQ(static_cast<int64_t>(m.tasksOf(0).size()), m.getTasksPerWorker())
        << m.str();
  }
}

//===----------------------------------------------------------------------===//
// Randomized composition properties
//===----------------------------------------------------------------------===//

TEST(RandomComposition, Associativity) {
  MappingGen gen(1);
  GenOptions opts;
  opts.maxDepth = 1;
  opts.budget = 64;
  for (int iter = 0; iter < 300; ++iter) {
    size_t rank = gen.uniform(1, 3);
    TM a = gen.mapping(opts, rank), b = gen.mapping(opts, rank),
       c = gen.mapping(opts, rank);
    TM leftNested = (a * b) * c;
    TM rightNested = a * (b * c);
    TM flat = TM::compose({a, b, c});
    EXPECT_TRUE(sameEnumeration(leftNested, rightNested));
    EXPECT_TRUE(sameEnumeration(leftNested, flat));
    EXPECT_EQ(flat.getTasksPerWorker(), a.getTasksPerWorker() *
                                            b.getTasksPerWorker() *
                                            c.getTasksPerWorker());
  }
}

TEST(RandomComposition, ProjectionFreeMappingsAreBijections) {
  // Without projections every (worker, iteration) pair owns a distinct task:
  // workers are disjoint and together they cover the task grid.
  MappingGen gen(2);
  GenOptions opts;
  opts.allowProject = false;
  opts.maxExtent = 4;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    EXPECT_EQ(m.getNumWorkers() * m.getTasksPerWorker(),
              product(m.getTaskShape()))
        << m.str();
    EXPECT_TRUE(isExactPartition(m));
  }
}

TEST(RandomComposition, TasksPerWorker) {
  MappingGen gen(3);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM m = gen.mapping(opts);
    int64_t expected = 1;
    for (const Leaf &leaf : m.flatten())
      if (!leaf.isSpatial)
        expected *= product(leaf.shape);
    EXPECT_EQ(m.getTasksPerWorker(), expected) << m.str();
    for (int64_t w = 0; w < m.getNumWorkers(); ++w)
      ASSERT_EQ(static_cast<int64_t>(m.tasksOf(w).size()),
                m.getTasksPerWorker())
          << m.str() << " on worker " << w;
  }
}

TEST(RandomComposition, FlattenKeepsLeavesInOrder) {
  TM inner = TM::project(spatial({2, 4}) * repeat({2, 1}), {0});
  TM m = TM::compose({repeat({1, 2}), inner, colSpatial({2, 2})});
  std::vector<Leaf> leaves = m.flatten();
  ASSERT_EQ(leaves.size(), 4u);
  EXPECT_FALSE(leaves[0].isSpatial);
  EXPECT_TRUE(leaves[1].isSpatial);
  EXPECT_EQ(leaves[1].shape, Shape({2, 4}));
  EXPECT_EQ(leaves[1].zeroed, std::vector<bool>({true, false}));
  EXPECT_EQ(leaves[2].zeroed, std::vector<bool>({true, false}));
  EXPECT_EQ(leaves[3].zeroed, std::vector<bool>({false, false}));
  EXPECT_EQ(leaves[3].ranks, Ranks({1, 0}));
  EXPECT_EQ(leaves[3].numWorkers(), 4);
  EXPECT_EQ(leaves[2].numWorkers(), 1);
}

//===----------------------------------------------------------------------===//
// simplify()
//===----------------------------------------------------------------------===//

bool isPrimitive(const TM &m) {
  return m.getKind() == TM::Kind::Spatial || m.getKind() == TM::Kind::Repeat;
}

TEST(Simplify, PreservesEnumerationOfRandomMappings) {
  MappingGen gen(4);
  GenOptions opts;
  opts.maxExtent = 4;
  int changed = 0;
  for (int iter = 0; iter < 500; ++iter) {
    TM m = gen.mapping(opts);
    TM s = m.simplify();
    ASSERT_TRUE(sameEnumeration(m, s))
        << "simplify changed " << m.str() << " into " << s.str();
    EXPECT_EQ(s.getTasksPerWorker(), m.getTasksPerWorker()) << m.str();
    changed += s != m;
    // The result is flat: no composition directly inside a composition.
    if (s.getKind() == TM::Kind::Compose) {
      for (const TM &f : s.getFactors())
        EXPECT_NE(f.getKind(), TM::Kind::Compose) << s.str();
    }
  }
  EXPECT_GT(changed, 50) << "the random mappings rarely simplify";
}

TEST(Simplify, IsIdempotent) {
  // A canonical form must be a fixed point.
  MappingGen gen(5);
  GenOptions opts;
  opts.maxExtent = 4;
  for (int iter = 0; iter < 500; ++iter) {
    TM s = gen.mapping(opts).simplify();
    EXPECT_EQ(s.simplify(), s)
        << s.str() << " simplifies further to " << s.simplify().str();
  }
}

TEST(Simplify, MergesSpatialFactors) {
  TM a = (spatial({2, 1}) * spatial({1, 8})).simplify();
  EXPECT_EQ(a, spatial({2, 8})) << a.str();
  TM b = (spatial({4}) * spatial({8})).simplify();
  EXPECT_EQ(b, spatial({32})) << b.str();
  // Column-major: the inner factor takes the fast dimension 0.
  TM c = (colSpatial({1, 4}) * colSpatial({2, 1})).simplify();
  EXPECT_EQ(c, colSpatial({2, 4})) << c.str();
  // Row-major factors whose product is column-major: only the extent-1
  // dimensions leave room for it, so the merge has to find new ranks.
  TM d = (spatial({1, 3}) * spatial({2, 1})).simplify();
  ASSERT_TRUE(isPrimitive(d)) << d.str();
  EXPECT_EQ(d.getRanks(), Ranks({1, 0})) << d.str();
  EXPECT_TRUE(sameEnumeration(d, spatial({1, 3}) * spatial({2, 1})));
}

TEST(Simplify, MergesRepeatFactors) {
  TM m = (repeat({2}) * repeat({3})).simplify();
  ASSERT_EQ(m.getKind(), TM::Kind::Repeat) << m.str();
  EXPECT_EQ(m.getShape(), Shape({6}));
  EXPECT_EQ(m.getRanks(), Ranks({0}));
  // Both loops were fully unrolled, so the merged loop stays fully unrolled.
  EXPECT_EQ(m.getHints(), LoopHints({LoopHint::full()}));
  EXPECT_EQ(m.tasksOf(0), Tasks({{0}, {1}, {2}, {3}, {4}, {5}}));

  TM two = (repeat({4, 1}) * repeat({1, 8})).simplify();
  EXPECT_EQ(two, repeat({4, 8})) << two.str();
}

TEST(Simplify, DropsIdentityFactors) {
  TM a = (spatial({1, 1}) * spatial({4, 8})).simplify();
  EXPECT_EQ(a, spatial({4, 8})) << a.str();
  TM b = TM::compose(
             {repeat({2, 1}), spatial({1, 1}), repeat({1, 1}), spatial({4, 8})})
             .simplify();
  EXPECT_EQ(b, repeat({2, 1}) * spatial({4, 8})) << b.str();
  TM all = (spatial({1, 1}) * repeat({1, 1})).simplify();
  EXPECT_TRUE(isPrimitive(all)) << all.str();
  EXPECT_EQ(all.getTaskShape(), Shape({1, 1}));
  EXPECT_EQ(all.getNumWorkers(), 1);
  EXPECT_EQ(all.tasksOf(0), Tasks({{0, 0}}));
}

TEST(Simplify, FlattensNestedCompositions) {
  TM nested = repeat({2, 1}) * spatial({4, 8}) * repeat({1, 2});
  TM s = nested.simplify();
  EXPECT_EQ(s, TM::compose({repeat({2, 1}), spatial({4, 8}), repeat({1, 2})}))
      << s.str();
  TM deep = TM::compose({TM::compose({TM::compose({repeat({2, 1})})}),
                         spatial({4, 8}) * repeat({1, 2})});
  EXPECT_EQ(deep.simplify(), s) << deep.simplify().str();
}

TEST(Simplify, DropsTrivialProjections) {
  TM base = spatial({4, 1}) * repeat({2, 1});
  TM trivial = TM::project(base, {1});
  EXPECT_EQ(trivial.simplify().getKind(), TM::Kind::Compose)
      << "projecting extent-1 dims is the identity: "
      << trivial.simplify().str();
  EXPECT_TRUE(sameEnumeration(trivial, trivial.simplify()));
  TM real = TM::project(spatial({4, 8}), {0});
  EXPECT_EQ(real.simplify().getKind(), TM::Kind::Project);
}

TEST(Simplify, KeepsNonMergeableSpatialPair) {
  TM m = spatial({4, 8}) * spatial({2, 2});
  TM s = m.simplify();
  ASSERT_EQ(s.getKind(), TM::Kind::Compose) << s.str();
  ASSERT_EQ(s.getFactors().size(), 2u);
  EXPECT_EQ(s.getFactors()[0], spatial({4, 8}));
  EXPECT_EQ(s.getFactors()[1], spatial({2, 2}));
  // No single spatial mapping has this enumeration: its task shape would be
  // (8, 16), and worker 1 moving along dimension 1 would make dimension 1
  // (extent 16) the innermost, so worker 2 would get (0, 2), not (1, 0).
  EXPECT_EQ(m.tasksOf(1), Tasks({{0, 1}}));
  EXPECT_EQ(m.tasksOf(2), Tasks({{1, 0}}));
  EXPECT_EQ(m.tasksOf(4), Tasks({{0, 2}}));
  for (const Ranks &ranks : {rowMajorRanks(2), colMajorRanks(2)})
    EXPECT_FALSE(sameEnumeration(m, TM::spatial({8, 16}, ranks)))
        << "ranks " << show(ranks);
  EXPECT_FALSE(mergeFactors(spatial({4, 8}), spatial({2, 2})).has_value());
}

//===----------------------------------------------------------------------===//
// mergeFactors
//===----------------------------------------------------------------------===//

/// Whether `outer * inner` equals a primitive of the same kind, by trying
/// every ranks permutation of the merged shape.
bool mergeableByBruteForce(const TM &outer, const TM &inner) {
  TM product = outer * inner;
  Ranks ranks = rowMajorRanks(outer.getRank());
  do {
    TM candidate = outer.getKind() == TM::Kind::Spatial
                       ? TM::spatial(product.getTaskShape(), ranks)
                       : TM::repeat(product.getTaskShape(), ranks);
    if (sameEnumeration(product, candidate))
      return true;
  } while (std::next_permutation(ranks.begin(), ranks.end()));
  return false;
}

TEST(MergeFactors, RandomPairs) {
  MappingGen gen(6);
  GenOptions opts;
  opts.maxExtent = 4;
  int merged = 0, notMerged = 0;
  for (int iter = 0; iter < 1000; ++iter) {
    size_t rank = gen.uniform(1, 3);
    bool isSpatial = gen.coin();
    TM outer = gen.leaf(rank, opts, isSpatial);
    TM inner = gen.leaf(rank, opts, isSpatial);
    if (!isSpatial) {
      // Hints decide mergeability too; test the pure geometry here.
      outer = TM::repeat(outer.getShape(), outer.getRanks(),
                         LoopHints(rank, LoopHint::none()));
      inner = TM::repeat(inner.getShape(), inner.getRanks(),
                         LoopHints(rank, LoopHint::none()));
    }
    std::optional<TM> m = mergeFactors(outer, inner);
    bool possible = mergeableByBruteForce(outer, inner);
    if (m) {
      ++merged;
      EXPECT_EQ(m->getKind(), outer.getKind());
      EXPECT_TRUE(sameEnumeration(*m, outer * inner));
    } else {
      ++notMerged;
    }
    EXPECT_EQ(m.has_value(), possible)
        << outer.str() << " * " << inner.str()
        << (possible ? " equals a primitive mapping but was not merged"
                     : " was merged");
  }
  EXPECT_GT(merged, 100);
  EXPECT_GT(notMerged, 100);
}

TEST(MergeFactors, RejectsMixedAndComposite) {
  EXPECT_FALSE(mergeFactors(spatial({4}), repeat({2})).has_value());
  EXPECT_FALSE(mergeFactors(repeat({2}), spatial({4})).has_value());
  EXPECT_FALSE(
      mergeFactors(spatial({2}) * spatial({2}), spatial({2})).has_value());
  EXPECT_FALSE(mergeFactors(TM::project(spatial({2, 2}), {0}), spatial({1, 2}))
                   .has_value());
  // The outer factor splits dimension 1 above the inner dimension 0 in the
  // worker numbering, which no mixed-radix numbering of (2, 8) does.
  EXPECT_FALSE(mergeFactors(spatial({1, 2}), spatial({2, 4})).has_value());
}

TEST(MergeFactors, HintsMustAgree) {
  TM full2 = TM::repeat({2}, {}, {LoopHint::full()});
  TM none3 = TM::repeat({3}, {}, {LoopHint::none()});
  TM none4 = TM::repeat({4}, {}, {LoopHint::none()});
  TM by2 = TM::repeat({4}, {}, {LoopHint::unrollBy(2)});
  EXPECT_FALSE(mergeFactors(full2, none3).has_value())
      << "different hints on a shared loop";
  EXPECT_FALSE(mergeFactors(by2, by2).has_value())
      << "unroll factors do not compose";
  std::optional<TM> m = mergeFactors(none3, none4);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(*m, TM::repeat({12}, {}, {LoopHint::none()}));
  // A dimension iterated by one factor only keeps that factor's hint.
  std::optional<TM> one = mergeFactors(
      TM::repeat({4, 1}, {}, {by2.getHints()[0], LoopHint::full()}),
      TM::repeat({1, 8}));
  ASSERT_TRUE(one.has_value());
  EXPECT_EQ(one->getHints()[0], LoopHint::unrollBy(2));
  EXPECT_EQ(one->getHints()[1], LoopHint::none());
  EXPECT_TRUE(sameEnumeration(
      *one, TM::repeat({4, 1}, {}, {by2.getHints()[0], LoopHint::full()}) *
                TM::repeat({1, 8})));
}

//===----------------------------------------------------------------------===//
// dropUnitDim
//===----------------------------------------------------------------------===//

Task without(const Task &t, size_t dim) {
  Task r = t;
  r.erase(r.begin() + dim);
  return r;
}

TEST(DropUnitDim, Examples) {
  EXPECT_EQ(spatial({4, 1, 8}).dropUnitDim(1), spatial({4, 8}));
  EXPECT_EQ(TM::spatial({4, 1, 8}, {2, 0, 1}).dropUnitDim(1),
            TM::spatial({4, 8}, {1, 0}));
  TM r = TM::repeat({1, 3}, {1, 0}, {LoopHint::full(), LoopHint::unrollBy(3)})
             .dropUnitDim(0);
  EXPECT_EQ(r, TM::repeat({3}, {0}, {LoopHint::unrollBy(3)}));
  EXPECT_EQ(TM::project(spatial({4, 1}), {1}).dropUnitDim(1), spatial({4}))
      << "a projection of only the dropped dim disappears";
  TM p = TM::project(spatial({4, 1, 8}), {0, 1}).dropUnitDim(1);
  ASSERT_EQ(p.getKind(), TM::Kind::Project);
  EXPECT_EQ(p.getProjectedDims(), std::vector<int64_t>({0}));
}

TEST(DropUnitDim, RandomMappings) {
  MappingGen gen(8);
  for (int iter = 0; iter < 300; ++iter) {
    size_t rank = gen.uniform(2, 3);
    GenOptions opts;
    opts.unitDim = gen.uniform(0, rank - 1);
    TM m = gen.mapping(opts, rank);
    TM d = m.dropUnitDim(opts.unitDim);
    EXPECT_EQ(d.getRank(), rank - 1) << m.str();
    EXPECT_EQ(d.getNumWorkers(), m.getNumWorkers()) << m.str();
    EXPECT_EQ(d.getTaskShape(), without(m.getTaskShape(), opts.unitDim))
        << m.str();
    for (int64_t w = 0; w < 2 * m.getNumWorkers(); ++w) {
      Tasks expected;
      for (const Task &t : m.tasksOf(w))
        expected.push_back(without(t, opts.unitDim));
      ASSERT_EQ(d.tasksOf(w), expected)
          << m.str() << " without dim " << opts.unitDim << " = " << d.str()
          << ", worker " << w;
    }
    EXPECT_TRUE(matchesReference(d));
  }
}

//===----------------------------------------------------------------------===//
// project
//===----------------------------------------------------------------------===//

TEST(Project, Example) {
  TM m = TM::project(spatial({4, 8}), {1});
  EXPECT_EQ(m.getKind(), TM::Kind::Project);
  EXPECT_EQ(m.getNumWorkers(), 32);
  EXPECT_EQ(m.getTaskShape(), Shape({4, 1}));
  EXPECT_EQ(m.tasksOf(13), Tasks({{1, 0}}));
  TM dups = TM::project(spatial({2, 2, 2}), {2, 0, 2});
  EXPECT_EQ(dups.getProjectedDims(), std::vector<int64_t>({0, 2}))
      << "dims are normalized to a sorted set";
  EXPECT_EQ(dups.getTaskShape(), Shape({1, 2, 1}));
}

TEST(Project, RandomMappings) {
  MappingGen gen(9);
  GenOptions opts;
  for (int iter = 0; iter < 300; ++iter) {
    TM base = gen.mapping(opts);
    std::vector<int64_t> dims;
    for (size_t i = 0; i < base.getRank(); ++i)
      if (gen.coin())
        dims.push_back(i);
    if (dims.empty())
      dims.push_back(gen.uniform(0, base.getRank() - 1));
    TM p = TM::project(base, dims);
    EXPECT_EQ(p.getNumWorkers(), base.getNumWorkers()) << p.str();
    EXPECT_EQ(p.getTasksPerWorker(), base.getTasksPerWorker()) << p.str();
    Shape shape = base.getTaskShape();
    for (int64_t d : dims)
      shape[d] = 1;
    EXPECT_EQ(p.getTaskShape(), shape) << p.str();
    for (int64_t w = 0; w < base.getNumWorkers(); ++w) {
      Tasks expected = base.tasksOf(w);
      for (Task &t : expected)
        for (int64_t d : dims)
          t[d] = 0;
      ASSERT_EQ(p.tasksOf(w), expected) << p.str() << " worker " << w;
    }
  }
}

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
