//===- Wgmma.h - The parts of the Hopper matmul template --------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The interface between the parts of the wgmma template, whose kernel
// WgmmaMatmul.cpp describes: the state they share (Kernel) and the
// builders of the kernel's roles, the producer (WgmmaProducer.cpp), the
// consumers' main loop (WgmmaConsumer.cpp) and their epilogue
// (WgmmaEpilogue.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_WGMMA_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_WGMMA_H

#include "GemmKernel.h"
#include "SplitK.h"

#include "../Pipelining/Pipelining.h"
#include "../Utils/KernelBuilder.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

#include <array>

namespace hidet {
namespace templates {
namespace wgmma {

using schedule::WgmmaMatmulSchedule;

/// 16-bit elements in a 16-byte piece: what one cp.async moves, and a
/// swizzle unit.
constexpr int64_t kPiece = 8;

/// The columns of one of B's boxes: a 128-byte swizzled row of 16-bit
/// elements (a stage holds B's tile as BN / kBoxCols of them).
constexpr int64_t kBoxCols = WgmmaMatmulSchedule::kSwizzleRowBytes / 2;

/// The rows of a warpgroup's 64 that each of its warps stores.
constexpr int64_t kWarpRows =
    WgmmaMatmulSchedule::kWarpgroupRows /
    (WgmmaMatmulSchedule::kWarpgroupThreads / kernel::kWarpSize);

/// What the parts of the kernel share.
struct Kernel {
  Kernel(const GemmProblem &p, const WgmmaMatmulSchedule &sched,
         const GemmGrid &grid)
      : p(p), sched(sched), grid(grid) {}
  const GemmProblem &p;
  const WgmmaMatmulSchedule &sched;
  GemmGrid grid;
  /// TMA loads both operands (the TMA producer), or B alone beside A's
  /// cp.async copies (tmaB).
  bool tma = true;
  bool tmaB = false;
  /// The cp.async producer's threads arrive on a step's full mbarrier as
  /// their copies land, and the consumers fence a stage for the async proxy
  /// once it is full.
  bool asyncArrive = false;
  /// Tiles (output tiles of all batches and K slices) and blocks.
  int64_t numTiles = 0, numBlocks = 0;
  /// Where the epilogue writes: C, or with split-K the f32 workspace.
  GemmOutput output{};
  int64_t BM = 0, BN = 0, S = 0, W = 0;
  /// The consumers take whole tiles in turns (schedule field pingpong).
  bool pingpong = false;
  /// Per-thread registers of the producer and of each consumer after
  /// setmaxnreg, or {0, 0} for the launch's
  /// (WgmmaMatmulSchedule::rebalancedRegisters).
  std::array<int64_t, 2> registers = {0, 0};
  /// The first row of the tile that consumer `warpgroup` computes: its 64
  /// rows of a shared tile, or a whole tile of its own.
  mlir::Value warpgroupRows(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value m0) const {
    if (pingpong)
      return m0;
    return affine(b, loc, warpgroup, WgmmaMatmulSchedule::kWarpgroupRows, m0);
  }
  mlir::Value tid, blockId, warpgroup;
  /// Dynamic shared memory and the offset of its first 1024-byte aligned
  /// byte, where the stages start.
  mlir::Value smem, base;
  /// The stages between the producer and the consumers.
  pipelining::StageRing ring;
  /// With pingpong: completes phase i when tile i's consumer has waited for
  /// all its stages, which orders the consumers' main loops.
  mlir::Value order;
  /// The tensor maps (with cp.async: values of their type, which is all
  /// that the descriptors read of them).
  mlir::Value mapA, mapB;

  mlir::Value stageBase(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::Value stage) const {
    return affine(b, loc, stage, sched.stageBytes(), base);
  }
  /// `body(blk, first)` for each of the block's tiles t = block_x + i
  /// grid_x, where `first` is the block's K step of the tile's first K tile
  /// (steps count the K tiles of all the block's tiles, whose K slices may
  /// differ in length); returns the block's count of K steps. A tile is
  /// (batch, K slice, output tile), in that order.
  /// (Tiles past the last, when the grid does not divide them, are a
  /// ragged end that a task mapping cannot express, hence a plain loop.)
  /// `body` gets the tile's index among the block's tiles too. With
  /// `mine` set, it runs only for the tiles `mine(index)` holds for,
  /// though steps count them all.
  mlir::Value forEachTile(
      mlir::OpBuilder &b, mlir::Location loc,
      llvm::function_ref<void(mlir::OpBuilder &, const GemmBlock &, mlir::Value,
                              mlir::Value)>
          body,
      llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)> mine = {})
      const;
  /// The block's K step of K tile `i` of a tile `blk` whose first step is
  /// `first`.
  static mlir::Value step(mlir::OpBuilder &b, mlir::Location loc,
                          const GemmBlock &blk, mlir::Value first,
                          mlir::Value i);
  /// The producer's loop: for each K step of each of the block's tiles,
  /// waits until the step's stage is empty and calls `body(blk, step,
  /// stage, k0, at)` (k0: the K tile's first element; at: the stage's
  /// offset). Returns the block's count of K steps.
  mlir::Value forEachLoad(
      mlir::OpBuilder &b, mlir::Location loc,
      llvm::function_ref<void(mlir::OpBuilder &, const GemmBlock &, mlir::Value,
                              mlir::Value, mlir::Value, mlir::Value)>
          body) const;
};

/// A static-shape view of `shape` at byte `offset` of dynamic shared memory
/// `smem`.
mlir::Value sharedView(mlir::OpBuilder &b, mlir::Location loc, mlir::Value smem,
                       mlir::Value offset, llvm::ArrayRef<int64_t> shape,
                       mlir::Type elt);

/// An i32 constant.
mlir::Value i32(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// The LLVM form of a consumer's accumulators: `perThread` f32 registers
/// a thread, in the nested struct that nvgpu lowers them to.
mlir::LLVM::LLVMStructType accumulatorStruct(mlir::MLIRContext *ctx,
                                             int64_t perThread);

/// The TMA producer: its first thread loads each K step's boxes.
void buildTmaProducer(mlir::OpBuilder &b, mlir::Location loc, const Kernel &k);

/// The cp.async producer: its 128 threads copy each K step's pieces (of A
/// only when Kernel::tmaB, its first thread issuing B's boxes by TMA).
void buildAsyncCopyProducer(mlir::OpBuilder &b, mlir::Location loc,
                            const Kernel &k);

/// A consumer warpgroup: the wgmma main loop and the epilogue of each of
/// the block's tiles.
void buildConsumer(mlir::OpBuilder &b, mlir::Location loc, const Kernel &k);

/// A consumer warpgroup's main loop, which `accumulate` builds, and its
/// epilogue for the block `blk`: its 64 rows of C from the accumulators,
/// through its shared chunk.
void buildEpilogue(mlir::OpBuilder &b, mlir::Location loc, const Kernel &k,
                   const GemmBlock &blk,
                   llvm::function_ref<mlir::Value()> accumulate);

} // namespace wgmma
} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_WGMMA_H
