//===- WgmmaMatmulSpace.h - Schedule space of the wgmma matmul --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The hardware-centric schedule space of the Hopper (sm_90a) matmul
// template: loads into 128-byte-swizzled shared memory (TMA, or cp.async
// where TMA cannot describe an operand), completing on mbarriers, and wgmma
// on warpgroups, with a producer warpgroup that only issues the loads (warp
// specialization), optionally persistent. As plain C++, like the other
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
  /// One block per SM that walks the output tiles (its producer loads the
  /// next tile while the consumers store the last), instead of one block
  /// per tile.
  bool persistent = false;
  /// Two consumer warpgroups take the block's 64-row tiles in turns, each a
  /// whole tile (BM = 64): one stores and applies the epilogue while the
  /// other runs its main loop, so the tensor cores do not wait for
  /// epilogues. The stages serialize their main loops.
  bool pingpong = false;

  /// K elements per stage: one 128-byte swizzle span of 16-bit elements.
  static constexpr int64_t kBlockK = 64;
  /// Rows of C a consumer warpgroup owns (the M of wgmma).
  static constexpr int64_t kWarpgroupRows = 64;
  static constexpr int64_t kWarpgroupThreads = 128;

  int64_t consumers() const { return pingpong ? 2 : block[0] / kWarpgroupRows; }
  /// The consumer warpgroups and the producer warpgroup.
  int64_t numThreads() const { return (consumers() + 1) * kWarpgroupThreads; }
  /// The 128-byte swizzle: a row of a tile is 128 bytes (64 16-bit
  /// elements of K), and its 8-row pattern needs 1024-byte alignment.
  static constexpr int64_t kSwizzleRowBytes = 128;
  static constexpr int64_t kSwizzleAlign = 1024;
  /// The epilogue stages C through shared memory in chunks of 64 rows (a
  /// consumer warpgroup's) by 64 bytes, each consumer in its own buffer
  /// (each warp in its own 16 rows of it), so that no warp waits for another
  /// or for the stages.
  static constexpr int64_t kEpilogueRowBytes = 64;
  /// Elements of padding per row of a chunk (16 bytes for 16-bit results),
  /// so that the 8 rows of one fragment store start in different banks.
  static constexpr int64_t kEpiloguePad = 8;
  /// Chunk buffers per consumer: with two, the next chunk is staged while
  /// the last one is stored. Only for 64 x 256 accumulators, whose
  /// registers leave an SM one block anyway; smaller tiles keep one, so as
  /// not to cost a resident block its shared memory (128 x 64 tiles with 4
  /// stages fit twice only with one).
  int64_t epilogueBuffers() const { return block[1] == 256 ? 2 : 1; }

  /// Bytes of A's BM x 64 tile in a stage, and of one of B's 64 x 64 boxes.
  int64_t aBytes() const { return block[0] * kSwizzleRowBytes; }
  static constexpr int64_t boxBytes() { return kBlockK * kSwizzleRowBytes; }
  /// Bytes of one stage: A's tile and B's BN / 64 boxes.
  int64_t stageBytes() const { return aBytes() + block[1] / 64 * boxBytes(); }
  /// Columns of an epilogue chunk for results of `resultBytes`.
  static constexpr int64_t epilogueColumns(int64_t resultBytes) {
    return kEpilogueRowBytes / resultBytes;
  }
  /// Bytes of one consumer's epilogue chunk.
  static constexpr int64_t epilogueChunkBytes(int64_t resultBytes) {
    return kWarpgroupRows * (epilogueColumns(resultBytes) + kEpiloguePad) *
           resultBytes;
  }
  /// Dynamic shared memory for results of `resultBytes` (f32 by default,
  /// the most): the stages, the consumers' epilogue chunk buffers after
  /// them, and the slack for aligning the stages at run time.
  int64_t sharedBytes(int64_t resultBytes = 4) const {
    return stages * stageBytes() +
           consumers() * epilogueBuffers() * epilogueChunkBytes(resultBytes) +
           kSwizzleAlign;
  }
  /// Registers per consumer thread: the f32 accumulators of its 64 x BN
  /// rows, and a reserve for addresses and the epilogue.
  int64_t estimatedRegisters() const { return block[1] / 2 + 32; }
  /// Per-thread registers the producer keeps when the warpgroups rebalance
  /// the register file (setmaxnreg): a TMA producer only issues loads from
  /// one thread; a cp.async producer computes every thread's addresses
  /// (with 40 a pingpong one spilled).
  static constexpr int64_t kTmaProducerRegisters = 40;
  static constexpr int64_t kAsyncCopyProducerRegisters = 56;
  /// The registers of the producer and of each consumer after rebalancing,
  /// or {0, 0} when the warpgroups keep the launch's. Only two consumers of
  /// 64 x 256 accumulators (128 registers each) rebalance: ptxas gives such
  /// a kernel the launch's cap (the SM's registers over the threads, in
  /// multiples of 8: 168 for 384 threads), and the consumers take what the
  /// producer gives back (232 or 224 each), so that the epilogue has
  /// registers beside the accumulators. A smaller kernel gets fewer than
  /// the cap, and its consumers would wait for registers the pool never
  /// holds.
  std::array<int64_t, 2> rebalancedRegisters(const TargetLimits &limits,
                                             bool tmaProducer) const;
  /// Blocks an SM holds at once, for results of `resultBytes`.
  int64_t resident(const TargetLimits &limits, int64_t resultBytes = 4) const {
    return residentBlocks(numThreads(), estimatedRegisters(),
                          sharedBytes(resultBytes), limits);
  }
  /// The grid for `tiles` output tiles: a block per tile, or with
  /// `persistent` as many as the SMs hold at once (at most one per tile),
  /// but one per SM for blocks of one consumer warpgroup.
  int64_t gridBlocks(int64_t tiles, const TargetLimits &limits,
                     int64_t resultBytes = 4) const {
    if (!persistent)
      return tiles;
    int64_t blocks =
        limits.numSMs * (consumers() == 1 ? 1 : resident(limits, resultBytes));
    return tiles < blocks ? tiles : blocks;
  }
  bool operator==(const WgmmaMatmulSchedule &o) const {
    return block == o.block && stages == o.stages && grid == o.grid &&
           persistent == o.persistent && pingpong == o.pingpong;
  }
};

/// Why `s` cannot run (a message naming the field), or empty when it can.
/// Structural checks only when `limits` is null.
std::string checkWgmmaSchedule(const WgmmaMatmulSchedule &s,
                               const TargetLimits *limits = nullptr);

/// The valid schedules for `limits`, in a fixed order.
std::vector<WgmmaMatmulSchedule>
enumerateWgmmaSpace(const TargetLimits &limits);

/// The heuristic for `batch` M x N x K outputs: of nine tiles (128 x 256 to
/// 64 x 64) that are not mostly padding (tileFits) and split-K into 1 to 16
/// slices of at least 4 K steps, the pair with the least estimated time
/// (waves of one block per SM times the tile's area over its measured
/// efficiency times its K steps, plus a split's reduction); 4 stages (fewer
/// when shared memory is short), tiles in groups of 8 rows, and a
/// persistent grid for more than one wave of blocks whose K loops are short
/// (at most 16 K steps). A persistent 128 x 256 pick becomes pingpong
/// 64 x 256 tiles, whose epilogues run under the other consumer's main
/// loop. A convolution whose window has `windowTaps` > 1 taps of at least
/// one K step of channels each takes 64-row tiles instead (pingpong
/// 64 x 256 for N >= 256), with the model's split, when they are at least
/// a quarter as many as the SMs.
WgmmaMatmulSchedule defaultWgmmaSchedule(int64_t batch, int64_t m, int64_t n,
                                         int64_t k, const TargetLimits &limits,
                                         int64_t windowTaps = 1);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_WGMMAMATMULSPACE_H
