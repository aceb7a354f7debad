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
  /// k-major (BK rows of BM): the global loads give a warp's lanes BK
  /// consecutive k of 32 / BK rows of A, so without it their stores fall
  /// into 32 / BK banks (8-way conflicts at BK = 8). max(4, 32 / BK) more
  /// spreads them (a multiple of 4 keeps the rows 16-byte aligned for the
  /// vector loads of the FMA loop). Only for threads of at most 32
  /// accumulators: on the H100 it made those kernels up to 1.15x faster
  /// (128 x 3072 x 768 1.13x, 197 x 2304 x 768 1.15x, 333 x 444 x 555
  /// 1.05x), while the tiles of 64, whose kernels take 127 registers, came
  /// out 6-7% slower with it (4096 x 768 x 3072, 4096 x 768 x 768).
  int64_t paddingA() const {
    return accumulators() <= 32 ? std::max<int64_t>(4, 32 / blockK) : 0;
  }
  /// Shared memory of the A and B tiles, two stages, in bytes (f32).
  int64_t sharedBytes() const {
    return 2 * (blockM() + paddingA() + blockN()) * blockK * 4;
  }
  /// Registers per thread: accumulators, the staged global loads of both
  /// tiles, and a reserve for addresses and loop state.
  int64_t estimatedRegisters() const;
  bool operator==(const SimtMatmulSchedule &o) const;
};

/// Why `s` cannot run (a message naming the field), or empty when it can.
/// Structural checks only when `limits` is null.
std::string checkSimtSchedule(const SimtMatmulSchedule &s,
                              const TargetLimits *limits = nullptr);

/// The valid schedules for `limits`, in a fixed order.
std::vector<SimtMatmulSchedule>
enumerateSimtSpace(const TargetLimits &limits);

/// Warps an SM needs to hide the SIMT loop's latencies: with fewer, the
/// heuristic splits K.
inline constexpr int64_t kSimtWarpsPerSM = 8;

/// The heuristic: the largest of three hardware tile shapes (128x128,
/// 64x64, 32x64) that gives each SM a block for `batch` M x N outputs, else
/// 32x64, or 16x32 for outputs of at most 16 rows; tiles in groups of 8
/// rows. 32x64 tiles split K into the most slices (at most 16) that keep 16
/// K steps each and 6 blocks per SM; larger tiles whose blocks give an SM
/// fewer than kSimtWarpsPerSM warps split K into slices of 8 K steps at
/// least; the others get defaultGrid's split-K.
SimtMatmulSchedule defaultSimtSchedule(int64_t batch, int64_t m, int64_t n,
                                       int64_t k, const TargetLimits &limits);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_SIMTMATMULSPACE_H
