//===- Target.h - Target limits and grid-level schedule fields --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What every matmul schedule space shares: the description of the GPU it
// is filtered against (one per chip), and the grid-level fields
// (thread-block swizzle and split-K) that any template takes.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_TARGET_H
#define HIDET_SCHEDULE_TARGET_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hidet {
namespace schedule {

/// The chip the project targets when none is named: the H100 SXM.
inline constexpr const char *kDefaultChip = "sm_90a";

/// What the schedules and templates need to know about a GPU: its limits
/// (what the spaces are filtered against and the heuristics size grids
/// by) and which instructions it has. One description per chip
/// (`targetForChip`); every pass reads it from the IR's `#hidet.target`.
struct TargetLimits {
  /// The chip, as NVPTX names it (`sm_80`, `sm_90a`, ...).
  std::string chip = kDefaultChip;
  int64_t maxThreadsPerBlock = 1024;
  /// Shared memory a block may use: the opt-in limit (the templates take
  /// dynamic shared memory, and the runtime raises the kernel's limit at
  /// launch when it needs more than 48 KB).
  int64_t maxSharedBytesPerBlock = 227 * 1024;
  int64_t maxRegistersPerThread = 255;
  int64_t numSMs = 132;
  int64_t registersPerSM = 64 * 1024;
  int64_t sharedBytesPerSM = 228 * 1024;
  int64_t maxThreadsPerSM = 2048;
  int64_t maxBlocksPerSM = 32;
  /// The L2 cache, which operands re-read by many blocks are served from.
  int64_t l2Bytes = 50 * 1024 * 1024;
  /// cp.async (sm_80 and later).
  bool hasAsyncCopy = true;
  /// The bulk tensor copy engine, TMA (sm_90 and later).
  bool hasTma = true;
  /// wgmma and setmaxnreg (sm_90a only).
  bool hasWgmma = true;

  /// The H100 SXM (sm_90a), the project's reference GPU.
  static TargetLimits h100();
};

/// The description of `chip` (sm_80, sm_86, sm_89, sm_90, sm_90a), or
/// none for a chip the project does not know.
std::optional<TargetLimits> targetForChip(const std::string &chip);

/// The chips `targetForChip` knows, in ascending order.
std::vector<std::string> knownChips();

/// Grid-level fields. `swizzle`: tile rows per group of the grouped tile
/// order (1: row-major order). `splitK`: K slices computed by separate
/// blocks and summed by a second kernel (1: none).
struct GridSchedule {
  int64_t swizzle = 1;
  int64_t splitK = 1;
  bool operator==(const GridSchedule &o) const {
    return swizzle == o.swizzle && splitK == o.splitK;
  }
};

/// Why `g` is malformed (naming the field), or empty.
std::string checkGridSchedule(const GridSchedule &g);

/// Why a kernel needing `sharedBytes` of shared memory and about
/// `registers` registers per thread does not fit `limits`, or empty.
std::string checkResources(int64_t sharedBytes, int64_t registers,
                           const TargetLimits &limits);

/// Hardware-meaningful values of the grid fields, for the enumerations.
inline constexpr int64_t kSwizzleValues[] = {1, 8};
inline constexpr int64_t kSplitKValues[] = {1, 2, 4, 8, 16};
/// The fewest K steps (of a template's block K) a split-K slice is worth:
/// the heuristics split no further, nor does the tuning space.
inline constexpr int64_t kMinStepsPerSlice = 4;

/// How many blocks of `threads` threads using `registers` registers each
/// and `sharedBytes` of shared memory an SM holds at once.
int64_t residentBlocks(int64_t threads, int64_t registers, int64_t sharedBytes,
                       const TargetLimits &limits);

/// Whether a grid of `blocks` blocks gives at least 90% of `perSM` blocks
/// to every SM.
bool fillsTheGpu(int64_t blocks, int64_t perSM, const TargetLimits &limits);

/// The heuristic's split-K for an output of `blocks` blocks, `resident` of
/// which fit on an SM, and `kTiles` K steps: split only when the blocks
/// leave SMs without min(resident, 2) blocks (a second block hides the
/// latency the first waits on), into the most slices (a power of two, at
/// most 16) that keep the grid within the blocks the SMs hold at once and
/// at least 4 K steps per slice.
int64_t defaultSplitK(int64_t blocks, int64_t resident, int64_t kTiles,
                      const TargetLimits &limits);

/// The grid fields the heuristics give the tile they picked: groups of 8
/// tile rows, and split-K (defaultSplitK) when the tile is their fallback
/// or leaves an SM without a block (measured faster for skinny outputs,
/// slower for tall ones that a larger tile already fills).
GridSchedule defaultGrid(bool fallback, int64_t blocks, int64_t resident,
                         int64_t kTiles, const TargetLimits &limits);

/// Whether a tile side of `tile` fits an extent of `extent`: at most the
/// extent rounded up to a power of two (16 at least), so that no more than
/// half of a tile is padding.
bool tileFits(int64_t tile, int64_t extent);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_TARGET_H
