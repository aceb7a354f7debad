//===- TaskMapping.cpp - Task-mapping algebra -----------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements the plain-C++ task-mapping algebra: construction,
// validation, enumeration of a worker's tasks, auto_map, flattening and the
// algebraic simplifications used by canonicalization.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Algebra/TaskMapping.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <sstream>

using namespace hidet::algebra;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

Ranks hidet::algebra::rowMajorRanks(size_t rank) {
  Ranks ranks(rank);
  std::iota(ranks.begin(), ranks.end(), 0);
  return ranks;
}

Ranks hidet::algebra::colMajorRanks(size_t rank) {
  Ranks ranks = rowMajorRanks(rank);
  std::reverse(ranks.begin(), ranks.end());
  return ranks;
}

Shape hidet::algebra::stridesFromRanks(const Shape &shape, const Ranks &ranks) {
  Shape strides(shape.size(), 1);
  for (size_t i = 0; i < shape.size(); ++i)
    for (size_t j = 0; j < shape.size(); ++j)
      if (ranks[j] > ranks[i])
        strides[i] *= shape[j];
  return strides;
}

int64_t hidet::algebra::product(const Shape &shape) {
  int64_t p = 1;
  for (int64_t e : shape)
    p *= e;
  return p;
}

static std::string join(const std::vector<int64_t> &values) {
  std::ostringstream os;
  for (size_t i = 0; i < values.size(); ++i)
    os << (i ? ", " : "") << values[i];
  return os.str();
}

std::string hidet::algebra::checkShape(const Shape &shape) {
  if (shape.empty())
    return "task shape must have at least one dimension";
  // Guard the products computed everywhere else against int64 overflow.
  int64_t p = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] <= 0)
      return "extent of dimension " + std::to_string(i) +
             " must be positive, got " + std::to_string(shape[i]);
    if (p > kMaxTasks / shape[i])
      return "task shape [" + join(shape) + "] has more than 2^40 tasks";
    p *= shape[i];
  }
  return "";
}

std::string hidet::algebra::checkRanks(const Ranks &ranks, size_t rank) {
  if (ranks.size() != rank)
    return "ranks has " + std::to_string(ranks.size()) +
           " entries but the task shape has rank " + std::to_string(rank);
  std::vector<bool> seen(rank, false);
  for (int64_t r : ranks) {
    if (r < 0 || r >= static_cast<int64_t>(rank))
      return "ranks [" + join(ranks) + "] is not a permutation of [0, " +
             std::to_string(rank) + "): " + std::to_string(r) +
             " is out of range";
    if (seen[r])
      return "ranks [" + join(ranks) + "] is not a permutation: " +
             std::to_string(r) + " appears twice";
    seen[r] = true;
  }
  return "";
}

std::string hidet::algebra::checkHints(const LoopHints &hints, size_t rank) {
  if (hints.size() != rank)
    return "unroll has " + std::to_string(hints.size()) +
           " entries but the task shape has rank " + std::to_string(rank);
  for (size_t i = 0; i < hints.size(); ++i)
    if (hints[i].kind == LoopHint::Kind::Factor && hints[i].factor < 2)
      return "unroll factor of dimension " + std::to_string(i) +
             " must be at least 2, got " + std::to_string(hints[i].factor);
  return "";
}

//===----------------------------------------------------------------------===//
// TaskMapping
//===----------------------------------------------------------------------===//

struct TaskMapping::Node {
  Kind kind;
  Shape shape;     // leaves: extents
  Ranks ranks;     // leaves
  LoopHints hints; // repeat
  std::vector<TaskMapping> factors; // compose: factors; project: {base}
  std::vector<int64_t> projected;   // project
  // Derived.
  Shape taskShape;
  int64_t numWorkers = 1;
  int64_t tasksPerWorker = 1;
};

TaskMapping::TaskMapping(std::shared_ptr<const Node> node)
    : node(std::move(node)) {}

TaskMapping TaskMapping::spatial(Shape shape, Ranks ranks) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Spatial;
  if (ranks.empty())
    ranks = rowMajorRanks(shape.size());
  n->taskShape = shape;
  n->numWorkers = product(shape);
  n->tasksPerWorker = 1;
  n->shape = std::move(shape);
  n->ranks = std::move(ranks);
  return TaskMapping(n);
}

TaskMapping TaskMapping::repeat(Shape shape, Ranks ranks, LoopHints hints) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Repeat;
  if (ranks.empty())
    ranks = rowMajorRanks(shape.size());
  if (hints.empty())
    for (int64_t e : shape)
      hints.push_back(LoopHint::defaultFor(e));
  n->taskShape = shape;
  n->numWorkers = 1;
  n->tasksPerWorker = product(shape);
  n->shape = std::move(shape);
  n->ranks = std::move(ranks);
  n->hints = std::move(hints);
  return TaskMapping(n);
}

TaskMapping TaskMapping::compose(std::vector<TaskMapping> factors) {
  assert(!factors.empty() && "composition needs at least one factor");
  auto n = std::make_shared<Node>();
  n->kind = Kind::Compose;
  n->taskShape = Shape(factors.front().getRank(), 1);
  for (const TaskMapping &f : factors) {
    assert(f.getRank() == n->taskShape.size() && "rank mismatch");
    for (size_t i = 0; i < n->taskShape.size(); ++i)
      n->taskShape[i] *= f.getTaskShape()[i];
    n->numWorkers *= f.getNumWorkers();
    n->tasksPerWorker *= f.getTasksPerWorker();
  }
  n->factors = std::move(factors);
  return TaskMapping(n);
}

TaskMapping TaskMapping::project(TaskMapping base, std::vector<int64_t> dims) {
  auto n = std::make_shared<Node>();
  n->kind = Kind::Project;
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  n->taskShape = base.getTaskShape();
  for (int64_t d : dims)
    n->taskShape[d] = 1;
  n->numWorkers = base.getNumWorkers();
  n->tasksPerWorker = base.getTasksPerWorker();
  n->factors = {std::move(base)};
  n->projected = std::move(dims);
  return TaskMapping(n);
}

std::optional<TaskMapping> TaskMapping::autoMap(const Shape &shape,
                                                int64_t workers, Ranks ranks,
                                                std::string *error) {
  auto fail = [&](const std::string &msg) -> std::optional<TaskMapping> {
    if (error)
      *error = msg;
    return std::nullopt;
  };
  if (std::string msg = checkShape(shape); !msg.empty())
    return fail(msg);
  if (ranks.empty())
    ranks = rowMajorRanks(shape.size());
  if (std::string msg = checkRanks(ranks, shape.size()); !msg.empty())
    return fail(msg);
  if (workers <= 0)
    return fail("number of workers must be positive, got " +
                std::to_string(workers));
  int64_t numTasks = product(shape);
  if (numTasks % workers != 0)
    return fail("auto_map cannot distribute the " + std::to_string(numTasks) +
                " tasks of shape [" + join(shape) + "] over " +
                std::to_string(workers) +
                " workers: the task count is not a multiple of the worker "
                "count");
  const size_t rank = shape.size();
  Shape spatialShape(rank), repeatShape(rank);
  int64_t remain = workers;
  for (int64_t r = static_cast<int64_t>(rank) - 1; r >= 0; --r) {
    size_t dim = std::find(ranks.begin(), ranks.end(), r) - ranks.begin();
    spatialShape[dim] = std::gcd(remain, shape[dim]);
    repeatShape[dim] = shape[dim] / spatialShape[dim];
    remain /= spatialShape[dim];
  }
  // Divisibility of the task count makes the greedy gcd split exact; keep the
  // check so that a future change to the split cannot silently idle workers.
  if (remain != 1)
    return fail("auto_map leaves " + std::to_string(remain) +
                " of the workers idle for shape [" + join(shape) + "]");
  return compose({repeat(repeatShape, ranks), spatial(spatialShape, ranks)});
}

TaskMapping::Kind TaskMapping::getKind() const { return node->kind; }
size_t TaskMapping::getRank() const { return node->taskShape.size(); }
int64_t TaskMapping::getNumWorkers() const { return node->numWorkers; }
const Shape &TaskMapping::getTaskShape() const { return node->taskShape; }
int64_t TaskMapping::getTasksPerWorker() const { return node->tasksPerWorker; }
const Shape &TaskMapping::getShape() const { return node->shape; }
const Ranks &TaskMapping::getRanks() const { return node->ranks; }
const LoopHints &TaskMapping::getHints() const { return node->hints; }
const std::vector<TaskMapping> &TaskMapping::getFactors() const {
  return node->factors;
}
const std::vector<int64_t> &TaskMapping::getProjectedDims() const {
  return node->projected;
}

std::vector<Task> TaskMapping::tasksOf(int64_t worker) const {
  switch (node->kind) {
  case Kind::Spatial: {
    Shape strides = stridesFromRanks(node->shape, node->ranks);
    Task t(node->shape.size());
    for (size_t i = 0; i < t.size(); ++i)
      t[i] = (worker / strides[i]) % node->shape[i];
    return {t};
  }
  case Kind::Repeat: {
    // Enumerate the grid and order it by the linear index in rank order.
    Shape strides = stridesFromRanks(node->shape, node->ranks);
    int64_t count = product(node->shape);
    std::vector<Task> tasks(count, Task(node->shape.size()));
    for (int64_t lin = 0; lin < count; ++lin)
      for (size_t i = 0; i < node->shape.size(); ++i)
        tasks[lin][i] = (lin / strides[i]) % node->shape[i];
    return tasks;
  }
  case Kind::Compose: {
    // Left-associative binary composition, exactly as Hidet defines it.
    int64_t innerWorkers = 1;
    for (size_t k = 1; k < node->factors.size(); ++k)
      innerWorkers *= node->factors[k].getNumWorkers();
    std::vector<Task> acc = node->factors.front().tasksOf(worker / innerWorkers);
    for (size_t k = 1; k < node->factors.size(); ++k) {
      const TaskMapping &inner = node->factors[k];
      innerWorkers /= inner.getNumWorkers();
      int64_t innerWorker = (worker / innerWorkers) % inner.getNumWorkers();
      std::vector<Task> innerTasks = inner.tasksOf(innerWorker);
      std::vector<Task> next;
      next.reserve(acc.size() * innerTasks.size());
      for (const Task &o : acc)
        for (const Task &in : innerTasks) {
          Task t(o.size());
          for (size_t i = 0; i < t.size(); ++i)
            t[i] = o[i] * inner.getTaskShape()[i] + in[i];
          next.push_back(std::move(t));
        }
      acc = std::move(next);
    }
    return acc;
  }
  case Kind::Project: {
    std::vector<Task> tasks = node->factors.front().tasksOf(worker);
    for (Task &t : tasks)
      for (int64_t d : node->projected)
        t[d] = 0;
    return tasks;
  }
  }
  return {};
}

static void flattenInto(const TaskMapping &m, const std::vector<bool> &zeroed,
                        std::vector<Leaf> &out) {
  switch (m.getKind()) {
  case TaskMapping::Kind::Spatial:
  case TaskMapping::Kind::Repeat: {
    Leaf leaf;
    leaf.isSpatial = m.getKind() == TaskMapping::Kind::Spatial;
    leaf.shape = m.getShape();
    leaf.ranks = m.getRanks();
    leaf.hints = m.getHints();
    leaf.zeroed = zeroed;
    out.push_back(std::move(leaf));
    return;
  }
  case TaskMapping::Kind::Compose:
    for (const TaskMapping &f : m.getFactors())
      flattenInto(f, zeroed, out);
    return;
  case TaskMapping::Kind::Project: {
    std::vector<bool> inner = zeroed;
    for (int64_t d : m.getProjectedDims())
      inner[d] = true;
    flattenInto(m.getFactors().front(), inner, out);
    return;
  }
  }
}

std::vector<Leaf> TaskMapping::flatten() const {
  std::vector<Leaf> leaves;
  flattenInto(*this, std::vector<bool>(getRank(), false), leaves);
  return leaves;
}

//===----------------------------------------------------------------------===//
// Simplification
//===----------------------------------------------------------------------===//

/// Position of task coordinate `t` of a primitive mapping in its numbering:
/// the worker id for spatial, the iteration index for repeat. Both are
/// mixed-radix numbers with weights stridesFromRanks().
///
/// `outer * inner` equals the primitive mapping `C` of extents s_o * s_i and
/// ranks `rc` iff for every task pair the combined position matches:
///   pos_o(t_o) * N_i + pos_i(t_i) == pos_C(t_o * s_i + t_i)
/// for all t_o, t_i. Both sides are linear in the coordinates, so this holds
/// iff the coefficients agree on every dimension of extent > 1:
///   stride_o[d] * N_i == s_i[d] * stride_C[d]   (where s_o[d] > 1)
///   stride_i[d]       == stride_C[d]            (where s_i[d] > 1)
/// where N_i is the inner count (workers for spatial, tasks for repeat).
static bool mergesWithRanks(const TaskMapping &outer, const TaskMapping &inner,
                            const Ranks &ranks) {
  const Shape &so = outer.getShape(), &si = inner.getShape();
  Shape merged(so.size());
  for (size_t d = 0; d < so.size(); ++d)
    merged[d] = so[d] * si[d];
  Shape strideO = stridesFromRanks(so, outer.getRanks());
  Shape strideI = stridesFromRanks(si, inner.getRanks());
  Shape strideC = stridesFromRanks(merged, ranks);
  int64_t innerCount = product(si);
  for (size_t d = 0; d < so.size(); ++d) {
    if (so[d] > 1 && strideO[d] * innerCount != si[d] * strideC[d])
      return false;
    if (si[d] > 1 && strideI[d] != strideC[d])
      return false;
  }
  return true;
}

/// The ranks that give every dimension of the merged shape the stride that
/// mergesWithRanks() requires. Needed when neither factor's ranks work: the
/// ranks of extent-1 dimensions are arbitrary, so e.g. spatial(1, 3) *
/// spatial(2, 1) is a column-major spatial(2, 3) although both factors are
/// row-major. Dimensions of merged extent 1 go innermost.
static Ranks requiredRanks(const TaskMapping &outer, const TaskMapping &inner) {
  const Shape &so = outer.getShape(), &si = inner.getShape();
  Shape strideO = stridesFromRanks(so, outer.getRanks());
  Shape strideI = stridesFromRanks(si, inner.getRanks());
  int64_t innerCount = product(si);
  std::vector<int64_t> want(so.size(), 0);
  for (size_t d = 0; d < so.size(); ++d) {
    if (si[d] > 1)
      want[d] = strideI[d];
    else if (so[d] > 1)
      want[d] = strideO[d] * innerCount;
  }
  std::vector<size_t> order(so.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return want[a] > want[b]; });
  Ranks ranks(so.size());
  for (size_t r = 0; r < order.size(); ++r)
    ranks[order[r]] = static_cast<int64_t>(r);
  return ranks;
}

std::optional<TaskMapping>
hidet::algebra::mergeFactors(const TaskMapping &outer,
                             const TaskMapping &inner) {
  auto kind = outer.getKind();
  if (kind != inner.getKind() ||
      (kind != TaskMapping::Kind::Spatial && kind != TaskMapping::Kind::Repeat))
    return std::nullopt;
  const size_t rank = outer.getRank();
  Shape merged(rank);
  for (size_t d = 0; d < rank; ++d)
    merged[d] = outer.getShape()[d] * inner.getShape()[d];

  LoopHints hints;
  if (kind == TaskMapping::Kind::Repeat) {
    // A merged dimension keeps the hint of the factor that iterates it; when
    // both do, they must agree.
    for (size_t d = 0; d < rank; ++d) {
      int64_t so = outer.getShape()[d], si = inner.getShape()[d];
      LoopHint ho = outer.getHints()[d], hi = inner.getHints()[d];
      if (so > 1 && si > 1 && ho != hi)
        return std::nullopt;
      if (so > 1 && si > 1 && ho.kind == LoopHint::Kind::Factor)
        return std::nullopt;
      hints.push_back(so > 1 ? ho : (si > 1 ? hi : LoopHint::defaultFor(1)));
    }
  }
  for (const Ranks &ranks :
       {outer.getRanks(), inner.getRanks(), requiredRanks(outer, inner)}) {
    if (!mergesWithRanks(outer, inner, ranks))
      continue;
    if (kind == TaskMapping::Kind::Spatial)
      return TaskMapping::spatial(merged, ranks);
    return TaskMapping::repeat(merged, ranks, hints);
  }
  return std::nullopt;
}

static bool isIdentityFactor(const TaskMapping &m) {
  // A primitive mapping over extents that are all 1 has one worker and one
  // task (0, ..., 0): it is the unit of composition.
  return (m.getKind() == TaskMapping::Kind::Spatial ||
          m.getKind() == TaskMapping::Kind::Repeat) &&
         product(m.getShape()) == 1;
}

TaskMapping TaskMapping::simplify() const {
  switch (node->kind) {
  case Kind::Spatial:
  case Kind::Repeat:
    return *this;
  case Kind::Project: {
    TaskMapping base = node->factors.front().simplify();
    // Projecting dimensions that are already 1 is the identity.
    bool trivial = true;
    for (int64_t d : node->projected)
      trivial &= base.getTaskShape()[d] == 1;
    if (trivial)
      return base;
    return project(base, node->projected);
  }
  case Kind::Compose:
    break;
  }
  std::vector<TaskMapping> flat;
  std::function<void(const TaskMapping &)> collect = [&](const TaskMapping &m) {
    if (m.getKind() == Kind::Compose) {
      for (const TaskMapping &f : m.getFactors())
        collect(f);
      return;
    }
    TaskMapping s = m.simplify();
    if (s.getKind() == Kind::Compose) {
      collect(s);
      return;
    }
    if (!isIdentityFactor(s))
      flat.push_back(s);
  };
  collect(*this);

  // Merge adjacent primitive factors until no pair merges.
  std::vector<TaskMapping> merged;
  for (const TaskMapping &f : flat) {
    if (!merged.empty())
      if (std::optional<TaskMapping> m = mergeFactors(merged.back(), f)) {
        merged.back() = *m;
        continue;
      }
    merged.push_back(f);
  }
  if (merged.empty())
    return node->factors.front().getKind() == Kind::Repeat
               ? repeat(Shape(getRank(), 1))
               : spatial(Shape(getRank(), 1));
  if (merged.size() == 1)
    return merged.front();
  return compose(merged);
}

TaskMapping TaskMapping::dropUnitDim(size_t dim) const {
  auto dropRanks = [&](const Ranks &ranks) {
    Ranks out;
    for (size_t i = 0; i < ranks.size(); ++i)
      if (i != dim)
        out.push_back(ranks[i] > ranks[dim] ? ranks[i] - 1 : ranks[i]);
    return out;
  };
  auto dropAt = [&](auto vec) {
    vec.erase(vec.begin() + dim);
    return vec;
  };
  switch (node->kind) {
  case Kind::Spatial:
    return spatial(dropAt(node->shape), dropRanks(node->ranks));
  case Kind::Repeat:
    return repeat(dropAt(node->shape), dropRanks(node->ranks),
                  dropAt(node->hints));
  case Kind::Compose: {
    std::vector<TaskMapping> factors;
    for (const TaskMapping &f : node->factors)
      factors.push_back(f.dropUnitDim(dim));
    return compose(factors);
  }
  case Kind::Project: {
    std::vector<int64_t> dims;
    for (int64_t d : node->projected)
      if (d != static_cast<int64_t>(dim))
        dims.push_back(d > static_cast<int64_t>(dim) ? d - 1 : d);
    TaskMapping base = node->factors.front().dropUnitDim(dim);
    return dims.empty() ? base : project(base, dims);
  }
  }
  return *this;
}

bool TaskMapping::operator==(const TaskMapping &other) const {
  if (node == other.node)
    return true;
  if (node->kind != other.node->kind)
    return false;
  return node->shape == other.node->shape && node->ranks == other.node->ranks &&
         node->hints == other.node->hints &&
         node->factors == other.node->factors &&
         node->projected == other.node->projected;
}

std::string TaskMapping::str() const {
  std::ostringstream os;
  auto leaf = [&](const char *name) {
    os << name << "(" << join(node->shape);
    if (node->ranks != rowMajorRanks(node->shape.size()))
      os << ", ranks=[" << join(node->ranks) << "]";
    os << ")";
  };
  switch (node->kind) {
  case Kind::Spatial:
    leaf("spatial");
    break;
  case Kind::Repeat:
    leaf("repeat");
    break;
  case Kind::Compose:
    for (size_t i = 0; i < node->factors.size(); ++i)
      os << (i ? "." : "") << node->factors[i].str();
    break;
  case Kind::Project:
    os << "project(" << node->factors.front().str() << ", dims=["
       << join(node->projected) << "])";
    break;
  }
  return os.str();
}
