//===- TaskMappingTestSupport.cpp - Task-mapping test helpers -------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The helpers of TaskMappingTestSupport.h.
//
//===----------------------------------------------------------------------===//

#include "TaskMappingTestSupport.h"

#include <set>
#include <sstream>

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

namespace test {

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

/// Runs emitTasks for `worker` and returns the tasks the body saw, in order.
Tasks emitted(const TM &m, int64_t worker, int64_t workerBound,
              EvalBuilder *builder) {
  EvalBuilder local;
  EvalBuilder &b = builder ? *builder : local;
  Tasks out;
  emitTasks<int64_t>(m, b, worker, workerBound,
                     [&](const std::vector<int64_t> &t) { out.push_back(t); });
  return out;
}

} // namespace test
} // namespace algebra
} // namespace hidet
