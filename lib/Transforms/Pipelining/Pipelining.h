//===- Pipelining.h - Software pipelines of the matmul K loops --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The K loop of a matmul kernel overlaps the loads of later K tiles with
// the math on the current one in one of three ways; this header is the
// entry point to all of them.
//
// 1. Register double buffering (emitDoubleBufferedKLoop), Hidet's own: the
//    next tile is loaded from global memory into registers before the math
//    on the current one and stored to the other of two shared stages after
//    it, with one barrier per step. The SIMT template uses it, and the
//    mma.sync template with `stages = 0`; it needs nothing of the hardware
//    beyond shared memory and takes prologues applied in registers.
//
// 2. Multi-stage cp.async (emitStagedCopyKLoop, then the
//    `hidet-pipeline-shared-copies` pass of PipelineSharedCopies.cpp): the
//    template writes the loop synchronously (barrier, masked copies into
//    one shared tile, barrier, math) and marks it with its stage count;
//    the pass turns the copies into cp.async groups, multi-buffers the
//    tiles and pipelines the loop with upstream's nvgpu::createAsyncGroups,
//    memref::multiBuffer and scf::pipelineForLoop. The mma.sync template
//    uses it when its schedule has `stages = N` (N >= 2), which
//    whyNoAsyncCopy allows for operands copied as raw bytes in 4-, 8- or
//    16-byte pieces.
//
// 3. A producer/consumer stage ring on mbarriers (StageRing), for
//    warp-specialized kernels: a producer warpgroup fills S stages of
//    shared memory (TMA or cp.async) and signals each stage's `full`
//    barrier; the consumers wait on it, run their math and arrive on the
//    stage's `empty` barrier, which the producer waits on before it fills
//    the stage again. The wgmma template (sm_90a) uses it. Which loop the
//    ring runs in (the producer's and consumers' walk over a persistent
//    block's tiles, with the K steps counted across them) stays in the
//    template, since it is that template's tile order; the ring owns the
//    barriers, their phases and the stage of each step.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_PIPELINING_PIPELINING_H
#define HIDET_LIB_TRANSFORMS_PIPELINING_PIPELINING_H

#include "mlir/IR/Builders.h"

namespace hidet {
namespace pipelining {

//===----------------------------------------------------------------------===//
// 1. Register double buffering (KLoops.cpp)
//===----------------------------------------------------------------------===//

/// Hidet's double-buffered K loop over K tiles [kBegin, kEnd) of `blockK`
/// elements, with shared memory in two stages: `load(k0)` brings the tile
/// starting at k0 into registers, `store(stage)` moves it to a stage,
/// `compute(stage)` runs the math on one. The first tile is stored to stage
/// 0; then each step loads the next tile, computes on its stage, stores the
/// loaded tile to the other stage (last read before the previous barrier)
/// and synchronizes once.
void emitDoubleBufferedKLoop(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value kBegin,
    mlir::Value kEnd, int64_t blockK,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> load,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> store,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> compute);

//===----------------------------------------------------------------------===//
// 2. Multi-stage cp.async (KLoops.cpp, PipelineSharedCopies.cpp)
//===----------------------------------------------------------------------===//

/// The K loop over K tiles [kBegin, kEnd) of `blockK` elements that
/// `hidet-pipeline-shared-copies` pipelines over `stages` stages, written
/// synchronously: each step synchronizes (the tile about to be overwritten
/// was read in the previous step), calls `copy(k0)` to copy the K tile
/// starting at k0 into shared memory (masked vector transfers of 4, 8 or
/// 16 bytes, which become cp.async copies), synchronizes again (the copies
/// are visible) and calls `compute`. The loop carries `stages` in
/// hidet.pipeline_stages.
void emitStagedCopyKLoop(
    mlir::OpBuilder &b, mlir::Location loc, mlir::Value kBegin,
    mlir::Value kEnd, int64_t blockK, int64_t stages,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> copy,
    llvm::function_ref<void(mlir::OpBuilder &)> compute);

//===----------------------------------------------------------------------===//
// 3. The producer/consumer stage ring (StageRing.cpp)
//===----------------------------------------------------------------------===//

/// The spin hint of an mbarrier wait (in ns): the wait loops until the
/// phase completes either way; this only bounds one try.
constexpr int64_t kMBarrierWaitHintNs = 10000000;

/// `stages` stages of shared memory passed between a producer and its
/// consumers through two groups of mbarriers in workgroup memory: full[s]
/// completes when stage s is loaded, empty[s] when every consumer is done
/// reading it. Steps count the K tiles the ring carries; step g uses stage
/// g % stages in its round g / stages, and a wait checks the parity of the
/// round.
struct StageRing {
  int64_t stages = 0;
  /// Steps stay below 2^31: their stages and rounds are computed in 32 bits
  /// (index math is 64-bit in the kernels; a division by a stage count that
  /// is not a power of two is then a 64-bit multiply-high in every step).
  bool narrow = false;
  mlir::Value full, empty;

  /// Creates the two barrier groups (uninitialized). `maxSteps` bounds the
  /// steps the ring carries (0: unbounded).
  static StageRing create(mlir::OpBuilder &b, mlir::Location loc,
                          int64_t stages, int64_t maxSteps = 0);
  /// Initializes every stage's barriers, full[s] to complete after
  /// `fullArrivals` arrivals and empty[s] after `emptyArrivals`. One thread
  /// runs it, before a barrier that the whole block passes.
  void init(mlir::OpBuilder &b, mlir::Location loc, int64_t fullArrivals,
            int64_t emptyArrivals) const;

  /// The stage of `step`.
  mlir::Value stageOf(mlir::OpBuilder &b, mlir::Location loc,
                      mlir::Value step) const;
  /// The stage of the step before `step`.
  mlir::Value previousStage(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value step) const;

  /// The producer: waits until `stage` (the stage of `step`) is empty. The
  /// first round passes at once (it waits for the phase before the first,
  /// which counts as complete).
  void waitEmpty(mlir::OpBuilder &b, mlir::Location loc, mlir::Value step,
                 mlir::Value stage) const;
  /// The producer: arrives on full[stage] (its loads into it landed).
  void arriveFull(mlir::OpBuilder &b, mlir::Location loc,
                  mlir::Value stage) const;
  /// The producer: arrives on full[stage] and has it wait for `bytes` more
  /// bytes of asynchronous loads (TMA) completing on it.
  void arriveFullExpectingBytes(mlir::OpBuilder &b, mlir::Location loc,
                                mlir::Value stage, int64_t bytes) const;

  /// A consumer: waits until `stage` (the stage of `step`) is full.
  void waitFull(mlir::OpBuilder &b, mlir::Location loc, mlir::Value step,
                mlir::Value stage) const;
  /// A consumer: arrives on empty[stage] (it no longer reads it).
  void arriveEmpty(mlir::OpBuilder &b, mlir::Location loc,
                   mlir::Value stage) const;

  /// full[stage] as a shared-memory pointer, for the NVVM mbarrier ops
  /// that nvgpu has no form of (cp.async's arrival, expect_tx alone).
  mlir::Value fullPointer(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Value stage) const;
};

/// Orders the block's generic-proxy writes to shared memory (cp.async
/// copies, stores) before the async proxy's reads (wgmma, TMA stores):
/// fence.proxy.async.shared::cta.
void fenceSharedForAsyncProxy(mlir::OpBuilder &b, mlir::Location loc);

} // namespace pipelining
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_PIPELINING_PIPELINING_H
