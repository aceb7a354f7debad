//===- WgmmaMatmulSpace.h - Schedule space of the wgmma matmul --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The hardware-centric schedule space of the Hopper (sm_90a) matmul
// template: TMA loads into 128-byte-swizzled shared memory, completing on
// mbarriers, and wgmma on warpgroups, with a producer warpgroup that only
// issues the loads (warp specialization). As plain C++, like the other
// spaces; the #hidet.wgmma_matmul verifier uses the same checks.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_WGMMAMATMULSPACE_H
#define HIDET_SCHEDULE_WGMMAMATMULSPACE_H

#include "Hidet/Schedule/Target.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hidet {
namespace schedule {

/// One Hopper matmul schedule (the fields of #hidet.wgmma_matmul).
struct WgmmaMatmulSchedule {
  /// BM, BN: the block's tile of C. BM / 64 consumer warpgroups each own 64
  /// rows of it (one wgmma m64nBNk16 per 16 of K); BN is a multiple of the
  /// 64-column boxes that TMA loads B in.
  std::array<int64_t, 2> block;
  /// K tiles in flight: shared-memory stages of A and B.
  int64_t stages = 4;
  GridSchedule grid = {};

  /// K elements per stage: one 128-byte swizzle span of 16-bit elements.
  static constexpr int64_t kBlockK = 64;
  /// Rows of C a consumer warpgroup owns (the M of wgmma).
  static constexpr int64_t kWarpgroupRows = 64;
  static constexpr int64_t kWarpgroupThreads = 128;

  int64_t consumers() const { return block[0] / kWarpgroupRows; }
  /// The consumer warpgroups and the producer warpgroup.
  int64_t numThreads() const { return (consumers() + 1) * kWarpgroupThreads; }
  /// Bytes of one stage: a BM x 64 tile of A and a 64 x BN tile of B.
  int64_t stageBytes() const { return (block[0] + block[1]) * kBlockK * 2; }
  /// Dynamic shared memory: the stages, 1024-byte aligned at run time (the
  /// alignment of the 128-byte swizzle pattern). The epilogue reuses them.
  int64_t sharedBytes() const { return stages * stageBytes() + 1024; }
  /// Registers per consumer thread: the f32 accumulators of its 64 x BN
  /// rows, and a reserve for addresses and the epilogue.
  int64_t estimatedRegisters() const { return block[1] / 2 + 32; }
  bool operator==(const WgmmaMatmulSchedule &o) const {
    return block == o.block && stages == o.stages && grid == o.grid;
  }
};

/// Why `s` cannot run (a message naming the field), or empty when it can.
/// Structural checks only when `limits` is null.
std::string checkWgmmaSchedule(const WgmmaMatmulSchedule &s,
                               const TargetLimits *limits = nullptr);

/// The valid schedules for `limits`, in a fixed order.
std::vector<WgmmaMatmulSchedule>
enumerateWgmmaSpace(const TargetLimits &limits = TargetLimits::h100());

/// The heuristic for `batch` M x N x K outputs: of eight tiles (128 x 256 to
/// 64 x 64) that are not mostly padding (tileFits), the one with the least
/// estimated time, waves of one block per SM times the tile's area over its
/// measured efficiency; 4 stages (fewer when shared memory is short), tiles
/// in groups of 8 rows.
WgmmaMatmulSchedule defaultWgmmaSchedule(int64_t batch, int64_t m, int64_t n,
                                         int64_t k, const TargetLimits &limits);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_WGMMAMATMULSPACE_H
