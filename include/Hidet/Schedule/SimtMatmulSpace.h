//===- SimtMatmulSpace.h - Schedule space of the SIMT matmul ----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The hardware-centric schedule space of the SIMT matmul template, as plain
// C++ (no MLIR types): candidates are enumerated from hardware-meaningful
// values (warp counts, 32-lane shapes, per-thread tiles, K steps) and
// filtered against the target's limits, never derived from the input size.
// The #hidet.simt_matmul verifier uses the same validity checks, so a
// schedule is valid in the IR iff it is in the space.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_SIMTMATMULSPACE_H
#define HIDET_SCHEDULE_SIMTMATMULSPACE_H

#include "Hidet/Schedule/Target.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hidet {
namespace schedule {

/// One SIMT matmul schedule (the fields of #hidet.simt_matmul).
struct SimtMatmulSchedule {
  std::array<int64_t, 2> blockWarps, warpOuter, warpMid, warpInner;
  int64_t blockK;
  GridSchedule grid = {};
  /// 0: global loads staged in registers, two shared-memory stages
  /// (Hidet's double buffering); N >= 2: cp.async copies into N stages,
  /// N - 1 K tiles ahead of the math.
  int64_t stages = 0;

  int64_t numThreads() const { return blockWarps[0] * blockWarps[1] * 32; }
  int64_t blockM() const {
    return blockWarps[0] * warpOuter[0] * warpMid[0] * warpInner[0];
  }
  int64_t blockN() const {
    return blockWarps[1] * warpOuter[1] * warpMid[1] * warpInner[1];
  }
  /// Accumulators per thread.
  int64_t accumulators() const {
    return warpOuter[0] * warpInner[0] * warpOuter[1] * warpInner[1];
  }
  /// Padding (elements) after each K row of A's shared tile, which is
  /// k-major (BK rows of BM): the global loads (or cp.async copies) give a
  /// warp's lanes BK consecutive k of 32 / BK rows of A, so without it
  /// their stores fall into 32 / BK banks (8-way conflicts at BK = 8).
  /// max(4, 32 / BK) more spreads them (a multiple of 4 keeps the rows
  /// 16-byte aligned for the vector loads of the FMA loop). With cp.async,
  /// and with register staging for threads of at most 32 accumulators. On
  /// the H100, register staging: up to 1.15x faster (128 x 3072 x 768
  /// 1.13x, 197 x 2304 x 768 1.15x, 333 x 444 x 555 1.05x), while the tiles
  /// of 64, whose kernels take 127 registers, came out 6-7% slower with it
  /// (4096 x 768 x 3072, 4096 x 768 x 768); cp.async (3 stages): 1.27x at
  /// 4096 x 3072 x 768 (0.591 -> 0.466 ms), 1.24x at 4096 x 768 x 3072.
  int64_t paddingA() const {
    return accumulators() <= 32 || stages != 0
               ? std::max<int64_t>(4, 32 / blockK)
               : 0;
  }
  /// Padding (elements) after each K row of B's shared tile where B is
  /// stored K-contiguous (attention's K read as K^T) and copied with
  /// cp.async: the 4-byte copies then give a warp's lanes BK consecutive k
  /// of 32 / BK columns, A's case, and the same padding spreads them.
  /// Measured on the H100 (graph replay, medians of 200) on attention's
  /// Q K^T: 384 heads of 128 x 128 x 64 0.0420 -> 0.0396 ms, of 197 x 197 x
  /// 64 0.135 -> 0.126; 12 heads 0.0064 -> 0.0059 and 0.0128 -> 0.0111.
  /// Kept for every cp.async schedule (the operand's layout is the
  /// problem's), so that the resources a schedule is checked against cover
  /// it.
  int64_t paddingB() const {
    return stages != 0 ? std::max<int64_t>(4, 32 / blockK) : 0;
  }
  /// Shared-memory stages of the A and B tiles.
  int64_t sharedStages() const { return stages == 0 ? 2 : stages; }
  /// Shared memory of the A and B tiles, all stages, in bytes (f32), with
  /// B's padding.
  int64_t sharedBytes() const {
    return sharedStages() * (blockM() + paddingA() + blockN() + paddingB()) *
           blockK * 4;
  }
  /// Registers per thread: accumulators, the global loads of both tiles
  /// staged in registers (none with cp.async), and a reserve for addresses
  /// and loop state.
  int64_t estimatedRegisters() const;
  bool operator==(const SimtMatmulSchedule &o) const;
};

/// Why `s` cannot run (a message naming the field), or empty when it can.
/// Structural checks only when `limits` is null.
std::string checkSimtSchedule(const SimtMatmulSchedule &s,
                              const TargetLimits *limits = nullptr);

/// The `stages` values of the space: register staging, or 3 or 4 cp.async
/// stages (what the heuristic takes).
inline constexpr int64_t kSimtStageValues[] = {0, 3, 4};

/// The valid schedules for `limits`, in a fixed order.
std::vector<SimtMatmulSchedule> enumerateSimtSpace(const TargetLimits &limits);

/// Whether `s`'s tile (warps, lane layout, repeats and K step; not its
/// grid or stages) is one of those the heuristic chooses among.
bool isHeuristicSimtTile(const SimtMatmulSchedule &s);

/// Warps an SM needs to hide the SIMT loop's latencies: with fewer, the
/// heuristic splits K.
inline constexpr int64_t kSimtWarpsPerSM = 8;

/// The fewest K steps a split-K slice of a batch-1 product keeps by
/// default: 12 heads of attention's 197 x 197 x 64 (8 steps of 8) measured
/// fastest unsplit.
inline constexpr int64_t kMinSimtStepsPerSlice = 6;

/// The most blocks per SM that splitting K in a batch-1 product may give
/// (the measured best were 2.9 to 4.4).
inline constexpr double kMaxSimtSplitBlocksPerSM = 4.5;

/// The heuristic: one product (`batch` 1) of more than 16 rows whose 64x64
/// tiles give the SMs fewer than kSimtWarpsPerSM warps and whose K splits
/// in two takes 64x64 tiles and the most K slices (at most 16) that keep
/// kMaxSimtSplitBlocksPerSM blocks per SM and kMinSimtStepsPerSlice K steps
/// each. Otherwise, the largest of three hardware tile shapes (128x128,
/// 64x64, 32x64) that gives each SM a block for `batch` M x N outputs, else
/// 32x64, or 16x32 for outputs of at most 16 rows; tiles in groups of 8
/// rows. 32x64 tiles split K into the most slices (at most 16) that keep 16
/// K steps each and 6 blocks per SM; larger tiles whose blocks give an SM
/// fewer than kSimtWarpsPerSM warps split K into slices of 8 K steps at
/// least; the others get defaultGrid's split-K. With `asyncCopy` (the
/// operands allow cp.async), the 128-row tiles and their 64 x 128 halves
/// copy with cp.async, and 128 x 128 tiles that give each SM two blocks
/// unsplit take 128 threads of 128 accumulators instead of 256 of 64.
SimtMatmulSchedule defaultSimtSchedule(int64_t batch, int64_t m, int64_t n,
                                       int64_t k, const TargetLimits &limits,
                                       bool asyncCopy = false);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_SIMTMATMULSPACE_H
