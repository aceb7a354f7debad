//===- MemoryPlan.h - Offsets of buffers in one arena -----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Static memory planning for the temporaries of a compiled function: given
// each buffer's size and live range (the positions of its first and last use
// in a straight-line program), assign every buffer an offset in one arena so
// that buffers whose live ranges overlap do not overlap in memory. Buffers
// whose live ranges are disjoint may share bytes.
//
// The placement is the greedy-by-size heuristic used by TensorFlow Lite's
// arena planner (Pisarchyk and Lee, "Efficient Memory Management for Deep
// Neural Net Inference", 2020): the largest buffer first, each at the lowest
// offset (best-fitting gap) that clears the buffers already placed whose
// live ranges overlap its own. It is within a few percent of optimal on
// inference graphs and runs in O(n^2 log n), well under a millisecond for a
// few thousand buffers.
//
// In place: a buffer may name another whose last use is its first use (an
// op that reads one and writes the other element by element). The two then
// get the same offset, planned as one buffer covering both live ranges.
//
// Plain C++ (no MLIR), like the task-mapping algebra, so that the unit tests
// and a runtime can use it alone.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_ANALYSIS_MEMORYPLAN_H
#define HIDET_ANALYSIS_MEMORYPLAN_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hidet {

/// One buffer to place.
struct BufferLiveRange {
  /// Size in bytes (0 is allowed and takes no space).
  uint64_t size = 0;
  /// Positions of the first and last use, first <= last.
  int64_t first = 0;
  int64_t last = 0;
  /// The index of a buffer that this one may overwrite in place. The hint
  /// is taken when that buffer's last use is this one's first use, comes
  /// after its own first use, and no other buffer overwrites it; otherwise
  /// the two are planned apart.
  std::optional<size_t> inPlaceOf;
};

struct MemoryPlan {
  /// Offset of each buffer, a multiple of the alignment.
  std::vector<uint64_t> offsets;
  /// The arena's size: the end of the highest buffer, aligned.
  uint64_t arenaSize = 0;
  /// What the buffers would take one after another (each aligned).
  uint64_t sumOfSizes = 0;
  /// For each buffer, the buffer it overwrites in place (a hint that was
  /// taken), or nothing.
  std::vector<std::optional<size_t>> inPlaceOf;
  unsigned getNumInPlace() const;
};

/// Places `buffers` in one arena, every offset a multiple of `alignment`
/// (a power of two). Deterministic: the same input gives the same plan.
MemoryPlan planMemory(const std::vector<BufferLiveRange> &buffers,
                      uint64_t alignment);

/// Checks `plan` against `buffers`: every offset aligned, every buffer inside
/// the arena, and no two buffers with overlapping live ranges overlapping in
/// memory unless one overwrites the other in place. Returns a description of
/// the first violation, or nothing.
std::optional<std::string>
verifyMemoryPlan(const std::vector<BufferLiveRange> &buffers,
                 const MemoryPlan &plan, uint64_t alignment);

} // namespace hidet

#endif // HIDET_ANALYSIS_MEMORYPLAN_H
