//===- TaskMapping.h - Task-mapping algebra ---------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The task-mapping algebra of Hidet (ASPLOS'23) as plain C++: no MLIR types.
// Attributes, verifiers, the task-table printer, the lowering to loops and the
// schedule templates all call into this file, and the unit tests check it
// against brute-force enumeration. It is the one source of truth for what a
// mapping means.
//
// A task mapping has a number of workers, a task shape of rank d, and for each
// worker an ordered list of tasks (d-tuples):
//
//   spatial(s, ranks)  num_workers = prod(s); worker w owns exactly one task,
//                      t[i] = (w / stride[i]) % s[i].
//   repeat(s, ranks)   num_workers = 1; the worker owns every task of s, in the
//                      order of a loop nest whose outermost loop is the
//                      dimension of rank 0.
//   outer * inner      workers and task extents multiply; the inner mapping
//                      takes the fast-varying part of the worker id and the
//                      tasks are t_outer * s_inner + t_inner, outer major.
//   project(m, dims)   m with the given dimensions pinned to 0 (extent 1).
//
// `ranks[i]` is the significance of dimension i: rank 0 is the outermost
// (largest stride), rank d-1 the innermost. The default is row-major.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_ALGEBRA_TASKMAPPING_H
#define HIDET_ALGEBRA_TASKMAPPING_H

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace hidet {
namespace algebra {

using Shape = std::vector<int64_t>;
using Ranks = std::vector<int64_t>;
using Task = std::vector<int64_t>;

/// A per-dimension loop hint of a repeat mapping: how the loop that walks the
/// dimension is unrolled when the mapping is lowered.
struct LoopHint {
  enum class Kind {
    None,   ///< keep the loop
    Full,   ///< unroll the loop completely (Hidet's `u+`)
    Factor, ///< unroll by `factor` (Hidet's `uN`)
  };
  Kind kind = Kind::None;
  int64_t factor = 1;

  static LoopHint none() { return {Kind::None, 1}; }
  static LoopHint full() { return {Kind::Full, 0}; }
  static LoopHint unrollBy(int64_t factor) { return {Kind::Factor, factor}; }
  /// Hidet's default: loops of constant extent below 4 are fully unrolled.
  static LoopHint defaultFor(int64_t extent) {
    return extent < 4 ? full() : none();
  }
  bool operator==(const LoopHint &o) const {
    return kind == o.kind && (kind != Kind::Factor || factor == o.factor);
  }
  bool operator!=(const LoopHint &o) const { return !(*this == o); }
};
using LoopHints = std::vector<LoopHint>;

/// Largest number of workers or tasks a mapping may have (products stay far
/// from int64 overflow).
constexpr int64_t kMaxTasks = int64_t(1) << 40;

/// Returns the identity permutation [0, 1, ..., rank-1] (row-major ranks).
Ranks rowMajorRanks(size_t rank);
/// Returns [rank-1, ..., 1, 0] (column-major ranks).
Ranks colMajorRanks(size_t rank);
/// Strides of the mixed-radix numbering of `shape` in the order of `ranks`:
/// stride[i] = prod(shape[j] for ranks[j] > ranks[i]).
Shape stridesFromRanks(const Shape &shape, const Ranks &ranks);
/// Product of the extents.
int64_t product(const Shape &shape);

/// Validation helpers. Each returns an empty string when the input is valid
/// and otherwise a message that names the offending value; callers turn it
/// into a diagnostic.
std::string checkShape(const Shape &shape);
std::string checkRanks(const Ranks &ranks, size_t rank);
std::string checkHints(const LoopHints &hints, size_t rank);

class TaskMapping;

/// One primitive factor of a flattened mapping (spatial or repeat), together
/// with the dimensions zeroed by enclosing projections.
struct Leaf {
  bool isSpatial = true;
  Shape shape;
  Ranks ranks;
  LoopHints hints;          ///< repeat only
  std::vector<bool> zeroed; ///< dims pinned to 0 by a projection
  int64_t numWorkers() const { return isSpatial ? product(shape) : 1; }
};

/// An immutable task mapping; cheap to copy (shares its tree).
class TaskMapping {
public:
  enum class Kind { Spatial, Repeat, Compose, Project };

  /// Constructors assume valid arguments (see check* above); an empty `ranks`
  /// means row-major and empty `hints` means LoopHint::defaultFor per dim.
  static TaskMapping spatial(Shape shape, Ranks ranks = {});
  static TaskMapping repeat(Shape shape, Ranks ranks = {}, LoopHints hints = {});
  /// `factors[0] * factors[1] * ...` (outermost first). All factors must
  /// have the same rank and there must be at least one.
  static TaskMapping compose(std::vector<TaskMapping> factors);
  /// Pins `dims` (a set of dimension indices) to 0.
  static TaskMapping project(TaskMapping base, std::vector<int64_t> dims);

  /// Hidet's auto_map: `repeat(R, ranks) * spatial(S, ranks)` such that
  /// contiguous workers take contiguous tasks. Fails with a message when the
  /// number of tasks is not a multiple of `workers`.
  static std::optional<TaskMapping> autoMap(const Shape &shape, int64_t workers,
                                            Ranks ranks = {},
                                            std::string *error = nullptr);

  Kind getKind() const;
  size_t getRank() const;
  int64_t getNumWorkers() const;
  const Shape &getTaskShape() const;
  /// Number of tasks each worker owns (with repetitions, if any).
  int64_t getTasksPerWorker() const;

  /// Spatial/Repeat: the extents, ranks and (repeat) hints of this leaf.
  const Shape &getShape() const;
  const Ranks &getRanks() const;
  const LoopHints &getHints() const;
  /// Compose: the factors, outermost first. Project: the single base.
  const std::vector<TaskMapping> &getFactors() const;
  /// Project: the pinned dimensions.
  const std::vector<int64_t> &getProjectedDims() const;

  /// The tasks of `worker`, in order, by Hidet's recursive definition
  /// (spatial wraps for workers beyond num_workers).
  std::vector<Task> tasksOf(int64_t worker) const;

  /// The mapping as a list of primitive factors, outermost first, with nested
  /// compositions flattened and projections turned into per-leaf masks.
  std::vector<Leaf> flatten() const;

  /// Algebraic simplification to a canonical form: nested compositions are
  /// flattened, factors whose extents are all 1 are dropped, and adjacent
  /// spatial*spatial or repeat*repeat factors are merged where the result is
  /// the same mapping. Never changes the worker -> tasks function.
  TaskMapping simplify() const;

  /// Removes dimension `dim`, whose extent must be 1 in every factor.
  TaskMapping dropUnitDim(size_t dim) const;

  /// Structural equality (same tree, same parameters).
  bool operator==(const TaskMapping &other) const;
  bool operator!=(const TaskMapping &other) const { return !(*this == other); }

  /// Hidet-like text, e.g. `repeat(2, 1).spatial(4, 8)`; for messages.
  std::string str() const;

private:
  struct Node;
  explicit TaskMapping(std::shared_ptr<const Node> node);
  std::shared_ptr<const Node> node;
};

/// If `outer * inner` (both spatial, or both repeat with compatible hints)
/// equals a single primitive mapping, returns it.
std::optional<TaskMapping> mergeFactors(const TaskMapping &outer,
                                        const TaskMapping &inner);

//===----------------------------------------------------------------------===//
// Emission of index arithmetic
//===----------------------------------------------------------------------===//

/// The builder through which the algebra emits code. `V` is the value type of
/// the client: an MLIR `Value` in the lowering, a plain integer in the unit
/// tests, which evaluate the emitted program and compare it with tasksOf().
template <typename V>
class IndexBuilder {
public:
  virtual ~IndexBuilder() = default;
  virtual V constant(int64_t value) = 0;
  virtual V add(V lhs, V rhs) = 0;
  virtual V mulConst(V lhs, int64_t rhs) = 0;
  virtual V divConst(V lhs, int64_t rhs) = 0;
  virtual V remConst(V lhs, int64_t rhs) = 0;
  /// Emits a loop `for iv in [0, extent)` honouring `hint` and calls `body`
  /// with the induction variable (once per iteration when fully unrolled).
  virtual void loop(int64_t extent, LoopHint hint,
                    const std::function<void(V)> &body) = 0;
};

/// Emits the tasks of `worker` under `mapping`: computes every spatial
/// coordinate once, opens one loop per non-unit repeat dimension (outer
/// factors outermost, each factor's loops in rank order) and calls `body`
/// with the task indices inside the innermost loop.
///
/// `workerBound` is an exclusive upper bound of the worker id when one is
/// known (0 otherwise). Values whose bound proves `x % n == x` skip the
/// remainder; in particular, when `workerBound <= num_workers` the outermost
/// modulo of the decomposition disappears. Callers that cannot prove the
/// bound either accept Hidet's wrap-around semantics or guard the worker.
template <typename V>
void emitTasks(const TaskMapping &mapping, IndexBuilder<V> &b, V worker,
               int64_t workerBound,
               const std::function<void(const std::vector<V> &)> &body);

//===----------------------------------------------------------------------===//
// Implementation of emitTasks (a template, so it lives in the header).
//===----------------------------------------------------------------------===//

namespace detail {
/// Ceiling division for non-negative operands.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
} // namespace detail

template <typename V>
void emitTasks(const TaskMapping &mapping, IndexBuilder<V> &b, V worker,
               int64_t workerBound,
               const std::function<void(const std::vector<V> &)> &body) {
  std::vector<Leaf> leaves = mapping.flatten();
  const size_t rank = mapping.getRank();
  const size_t numLeaves = leaves.size();

  // scale[j][i]: weight of leaf j's coordinate in task dimension i, i.e. the
  // product of the (projected) extents of the leaves inside it.
  // workerStride[j]: number of workers of the leaves inside leaf j.
  std::vector<Shape> scale(numLeaves, Shape(rank, 1));
  std::vector<int64_t> workerStride(numLeaves, 1);
  for (size_t j = numLeaves; j-- > 0;) {
    if (j + 1 < numLeaves) {
      workerStride[j] = workerStride[j + 1] * leaves[j + 1].numWorkers();
      for (size_t i = 0; i < rank; ++i)
        scale[j][i] = scale[j + 1][i] *
                      (leaves[j + 1].zeroed[i] ? 1 : leaves[j + 1].shape[i]);
    }
  }

  // Partial task indices; an empty optional stands for the constant 0 so that
  // no arithmetic is emitted for dimensions a factor does not touch.
  std::vector<std::optional<V>> partial(rank);
  auto accumulate = [&](size_t dim, V value, int64_t weight) {
    V term = weight == 1 ? value : b.mulConst(value, weight);
    partial[dim] = partial[dim] ? b.add(*partial[dim], term) : term;
  };

  // Spatial coordinates: t = (w / (workerStride * stride)) % extent, where
  // the remainder is skipped when the bound of the quotient proves it.
  for (size_t j = 0; j < numLeaves; ++j) {
    const Leaf &leaf = leaves[j];
    if (!leaf.isSpatial)
      continue;
    Shape strides = stridesFromRanks(leaf.shape, leaf.ranks);
    for (size_t i = 0; i < rank; ++i) {
      if (leaf.shape[i] == 1 || leaf.zeroed[i])
        continue;
      int64_t divisor = workerStride[j] * strides[i];
      V coord = divisor == 1 ? worker : b.divConst(worker, divisor);
      bool fits = workerBound > 0 &&
                  detail::ceilDiv(workerBound, divisor) <= leaf.shape[i];
      if (!fits)
        coord = b.remConst(coord, leaf.shape[i]);
      accumulate(i, coord, scale[j][i]);
    }
  }

  // Repeat loops, outer factors first and each factor's dims in rank order.
  struct LoopDim {
    size_t dim;
    int64_t extent;
    LoopHint hint;
    int64_t weight; // 0 when the dimension is projected away
  };
  std::vector<LoopDim> loops;
  for (size_t j = 0; j < numLeaves; ++j) {
    const Leaf &leaf = leaves[j];
    if (leaf.isSpatial)
      continue;
    for (int64_t r = 0; r < static_cast<int64_t>(rank); ++r) {
      for (size_t i = 0; i < rank; ++i) {
        if (leaf.ranks[i] != r || leaf.shape[i] == 1)
          continue;
        loops.push_back({i, leaf.shape[i], leaf.hints[i],
                         leaf.zeroed[i] ? 0 : scale[j][i]});
      }
    }
  }

  std::function<void(size_t)> open = [&](size_t level) {
    if (level == loops.size()) {
      std::vector<V> task;
      task.reserve(rank);
      for (size_t i = 0; i < rank; ++i)
        task.push_back(partial[i] ? *partial[i] : b.constant(0));
      body(task);
      return;
    }
    const LoopDim &l = loops[level];
    b.loop(l.extent, l.hint, [&](V iv) {
      std::optional<V> saved = partial[l.dim];
      if (l.weight != 0)
        accumulate(l.dim, iv, l.weight);
      open(level + 1);
      partial[l.dim] = saved;
    });
  };
  open(0);
}

} // namespace algebra
} // namespace hidet

#endif // HIDET_ALGEBRA_TASKMAPPING_H
