//===- MmaMatmulSpace.h - Schedule space of the mma matmul ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The hardware-centric schedule space of the tensor-core (mma.sync) matmul
// template, as plain C++: block tiles, warp tiles, the mma instruction
// shape and the grid fields, enumerated from hardware-meaningful values and
// filtered against the target. The #hidet.mma_matmul verifier uses the same
// checks.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_MMAMATMULSPACE_H
#define HIDET_SCHEDULE_MMAMATMULSPACE_H

#include "Hidet/Schedule/Target.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hidet {
namespace schedule {

/// One tensor-core matmul schedule (the fields of #hidet.mma_matmul).
struct MmaMatmulSchedule {
  std::array<int64_t, 3> block; ///< BM, BN, BK
  std::array<int64_t, 2> warp;  ///< WM, WN: the tile of C a warp owns
  std::array<int64_t, 3> mma = {16, 8, 16};
  GridSchedule grid = {};
  /// 0: global loads staged in registers, two shared-memory stages
  /// (Hidet's double buffering); N >= 2: an N-stage cp.async pipeline.
  int64_t stages = 0;
  /// tf32 (m16n8k8) only: the tf32 products that make one f32 product. 1:
  /// the operands rounded to tf32 (10-bit mantissas); 3: each operand split
  /// into a tf32 part and the tf32 of its rest, a * b = ah * bh + ah * bl +
  /// al * bh (the al * bl term is below f32's precision): f32 products for
  /// three times the tensor-core work, though the tensor cores' truncating
  /// accumulation still errs more than f32 sums over a long K.
  int64_t tf32Terms = 1;

  int64_t numWarps() const {
    return (block[0] / warp[0]) * (block[1] / warp[1]);
  }
  int64_t numThreads() const { return numWarps() * 32; }
  /// Bytes of one element of A and B: 16-bit for m16n8k16, f32 (run in
  /// tf32) for m16n8k8.
  int64_t elementBytes() const { return mma[2] == 8 ? 4 : 2; }
  /// Shared-memory stages of the A and B tiles.
  int64_t sharedStages() const { return stages == 0 ? 2 : stages; }
  /// Extra f32 columns of a warp's epilogue rows in shared memory, which
  /// spread the fragment's 8 rows over the banks.
  static constexpr int64_t kEpiloguePad = 8;
  /// Shared memory of the warps' epilogue chunks: 16 rows of the warp's
  /// tile each, in f32, through which the results go to C in coalesced
  /// rows.
  int64_t epilogueBytes() const {
    return numWarps() * 16 * (warp[1] + kEpiloguePad) * 4;
  }
  /// Shared memory of the A and B tiles, all stages, and the epilogue
  /// chunks, in bytes.
  int64_t sharedBytes() const {
    return sharedStages() * (block[0] + block[1]) * block[2] * elementBytes() +
           epilogueBytes();
  }
  /// Registers per thread: f32 accumulators, A and B fragments of one k
  /// step, the staged global loads, and a reserve for addresses.
  int64_t estimatedRegisters() const;
  bool operator==(const MmaMatmulSchedule &o) const {
    return block == o.block && warp == o.warp && mma == o.mma &&
           grid == o.grid && stages == o.stages && tf32Terms == o.tf32Terms;
  }
};

/// Why `terms` is not a number of tf32 products per f32 product (1, or 3
/// for split operands) as `name` ("tf32_terms", "tf32-terms"), or empty.
std::string checkTF32Terms(int64_t terms, const std::string &name);

/// Why `s` cannot run (a message naming the field), or empty when it can.
/// Structural checks only when `limits` is null.
std::string checkMmaSchedule(const MmaMatmulSchedule &s,
                             const TargetLimits *limits = nullptr);

/// The two instruction shapes: m16n8k16 (f16, bf16) and m16n8k8 (tf32).
inline constexpr std::array<int64_t, 3> kMma16 = {16, 8, 16};
inline constexpr std::array<int64_t, 3> kMmaTF32 = {16, 8, 8};

/// The valid schedules with instruction shape `mma` for `limits`, in a
/// fixed order.
std::vector<MmaMatmulSchedule>
enumerateMmaSpace(const TargetLimits &limits,
                  std::array<int64_t, 3> mma = kMma16);

/// The heuristic: the largest of four block tiles (128x128, 128x64, 64x64,
/// 16x64; 4 warps each) that is not mostly padding (tileFits) and fills
/// the GPU (fillsTheGpu) for `batch` M x N outputs, else the smallest, with
/// split-K (defaultSplitK) when the blocks are fewer than the SMs; tiles in
/// groups of 8 rows.
/// With `asyncCopy` (the operands' rows allow cp.async), a cp.async
/// pipeline with K tiles of 64 for the tiles of at least 64 rows, 3 stages
/// (4 for 64x64): measured on the H100 at 4096^3 f16, 0.37 ms against
/// 0.49 ms with register staging. With `mma` = kMmaTF32 the K tiles are
/// halved (f32 tiles are twice as large in shared memory).
MmaMatmulSchedule defaultMmaSchedule(int64_t batch, int64_t m, int64_t n,
                                     int64_t k, const TargetLimits &limits,
                                     std::array<int64_t, 3> mma = kMma16,
                                     bool asyncCopy = false);

/// Hardware-meaningful stage counts (0: register staging).
inline constexpr int64_t kStageValues[] = {0, 2, 3, 4};

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_MMAMATMULSPACE_H
