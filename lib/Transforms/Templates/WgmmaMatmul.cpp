//===- WgmmaMatmul.cpp - The Hopper (wgmma) matmul template ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a matmul template (f16/bf16 operands, f32 accumulation) for A
// with K contiguous and B with N contiguous. A block computes BM x BN tiles
// of C with BM / 64 consumer warpgroups and one producer warpgroup (warp
// specialization); step g counts the K tiles of all the block's output
// tiles:
//
//   producer:             for each K step g:  wait empty[g % S];
//                         load A and B's K tile into stage g % S,
//                         completing on full[g % S]
//   consumer warpgroup w: for each K step g:  wait full[g % S];
//                         wgmma rows [64 w, 64 w + 64) of the tile;
//                         once the wgmma of step g - 1 retired (wait
//                         group 1), arrive on empty[(g - 1) % S]
//
// so the tensor cores never wait for a load that S - 1 earlier steps could
// hide. The consumers' tasks are spatial(BM / 64, 1) over warpgroups times
// the wgmma accumulator layout (PTX ISA, "wgmma m64nNk16 D fragments"):
// thread t of a warpgroup holds, for j < BN / 8 and i, c < 2, element
// (16 (t / 32) + (t % 32) / 4 + 8 i, 8 j + 2 (t % 4) + c) in register
// 4 j + 2 i + c.
//
// A stage holds A's BM x 64 tile and B's 64 x BN tile as BN / 64 boxes of
// 64 x 64 (N innermost, which wgmma reads transposed), each row 128 bytes
// with its 16-byte pieces permuted by the 128-byte swizzle (piece q of row
// r at q ^ (r % 8)), the layout wgmma reads. Two producers fill it:
//  - TMA, when both operands are row-major 2-D buffers: one thread issues
//    the boxes (tensor maps created on the host), which arrive on the full
//    mbarrier with their byte count;
//  - cp.async otherwise (batched matmuls, an im2col's rows): the producer's
//    128 threads copy 16-byte pieces to their swizzled places, keep S - 2
//    steps of copies in flight, and arrive on a step's full mbarrier once
//    its copies landed and were fenced for the async proxy that wgmma reads
//    through. (S - 2: the consumers release a stage one step after reading
//    it, so waiting for S - 1 would deadlock.)
// Past the operands' edges both fill zeros, so the main loop needs no
// masks.
//
// The epilogue: each consumer warpgroup converts its accumulators and
// stores them through its own shared chunk of 64 rows x 64 bytes, then to
// C in coalesced 16-byte rows; each warp stages and stores its own 16 rows,
// so a warp synchronizes only its lanes, never other warps.
// With a persistent schedule, as many blocks as the SMs hold walk the
// tiles t = block_x + i grid_x, and a block's producer fills the next
// tile's stages during that epilogue. With split-K a tile is a K slice of
// an output tile, whose epilogue writes f32 to the slice's part of a
// workspace; a second kernel adds the slices to C.
//
// The ops are upstream's nvgpu ops (tma.async.load, device_async_copy,
// mbarrier.*, warpgroup.generate.descriptor, warpgroup.mma); only the
// epilogue reads the accumulator registers itself, because
// nvgpu.warpgroup.mma.store writes f32 only and addresses rows by the
// absolute thread id.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "GemmKernel.h"
#include "SplitK.h"

#include "../Pipelining/Pipelining.h"
#include "../Utils/KernelBuilder.h"

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;

using schedule::WgmmaMatmulSchedule;

static constexpr int64_t kSwizzleAlign = WgmmaMatmulSchedule::kSwizzleAlign;

/// Whether `x` is a plain row-major 2-D `rows x cols` operand (a tensor, or
/// a buffer with the identity layout), which a TMA tensor map can describe.
static bool isRowMajor2D(const GemmOperand &x, int64_t rows, int64_t cols) {
  auto type = dyn_cast<ShapedType>(x.buffer.getType());
  if (auto memref = dyn_cast<MemRefType>(x.buffer.getType());
      memref && !memref.getLayout().isIdentity())
    return false;
  return type && type.getRank() == 2 && type.getDimSize(0) == rows &&
         type.getDimSize(1) == cols && x.innerDim == 1 && !x.broadcast;
}

/// Whether TMA can load both operands: one GEMM of row-major 2-D A and B
/// whose rows are multiples of 16 bytes (a tensor map's strides must be).
static bool tmaLoads(const GemmProblem &p) {
  return p.batch == 1 && isRowMajor2D(p.a, p.m, p.k) &&
         isRowMajor2D(p.b, p.k, p.n) && p.k % 8 == 0 && p.n % 8 == 0;
}

/// 16-bit elements in a 16-byte piece: what one cp.async moves, and a
/// swizzle unit.
static constexpr int64_t kPiece = 8;

std::string hidet::templates::whyNoWgmma(const GemmProblem &p) {
  bool half = (p.aElt.isF16() && p.bElt.isF16()) ||
              (p.aElt.isBF16() && p.bElt.isBF16());
  if (!half)
    return "wgmma takes f16 or bf16 operands";
  if (!p.cElt.isF16() && !p.cElt.isBF16() && !p.cElt.isF32())
    return "the wgmma template writes f16, bf16 or f32 results";
  if (p.a.apply || p.b.apply)
    return "an elementwise prologue is applied to the loaded values in "
           "registers, and the wgmma template copies raw bytes (TMA or "
           "cp.async)";
  if (tmaLoads(p))
    return "";
  // cp.async: 16-byte pieces along A's K and B's N, the stages' rows (the
  // upstream descriptors read K-major A and N-major B only).
  if (p.a.innerDim != 1)
    return "the wgmma template reads A with K contiguous (K-major)";
  if (p.a.vectorWidth < kPiece)
    return "the wgmma template loads A in 16-byte pieces along K (K a "
           "multiple of 8)";
  if (p.b.innerDim != 1)
    return "the wgmma template reads B with N contiguous (N-major)";
  if (p.b.vectorWidth < kPiece)
    return "the wgmma template loads B in 16-byte pieces along N (N a "
           "multiple of 8)";
  return "";
}

/// A static-shape view of `shape` at byte `offset` of dynamic shared memory
/// `smem`.
static Value sharedView(OpBuilder &b, Location loc, Value smem, Value offset,
                        ArrayRef<int64_t> shape, Type elt) {
  auto type = MemRefType::get(
      shape, elt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(b, loc, type, smem, offset, ValueRange{});
}

/// An i32 constant.
static Value i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

namespace {
/// What the parts of the kernel share.
struct Kernel {
  Kernel(const GemmProblem &p, const WgmmaMatmulSchedule &sched,
         const GemmGrid &grid)
      : p(p), sched(sched), grid(grid) {}
  const GemmProblem &p;
  const WgmmaMatmulSchedule &sched;
  GemmGrid grid;
  bool tma = true;
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
  Value warpgroupRows(OpBuilder &b, Location loc, Value m0) const {
    if (pingpong)
      return m0;
    return affine(b, loc, warpgroup, WgmmaMatmulSchedule::kWarpgroupRows, m0);
  }
  Value tid, blockId, warpgroup;
  /// Dynamic shared memory and the offset of its first 1024-byte aligned
  /// byte, where the stages start.
  Value smem, base;
  /// The stages between the producer and the consumers.
  pipelining::StageRing ring;
  /// With pingpong: completes phase i when tile i's consumer has waited for
  /// all its stages, which orders the consumers' main loops.
  Value order;
  /// The tensor maps (with cp.async: values of their type, which is all
  /// that the descriptors read of them).
  Value mapA, mapB;

  Value stageBase(OpBuilder &b, Location loc, Value stage) const {
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
  Value forEachTile(
      OpBuilder &b, Location loc,
      function_ref<void(OpBuilder &, const GemmBlock &, Value, Value)> body,
      function_ref<Value(OpBuilder &, Value)> mine = {}) const {
    auto loop =
        scf::ForOp::create(b, loc, blockId, cst(b, loc, numTiles),
                           cst(b, loc, numBlocks), ValueRange{cst(b, loc, 0)});
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value t = loop.getInductionVar();
    Value first = loop.getRegionIterArg(0);
    int64_t perBatch = grid.tilesM * grid.tilesN;
    Value tile = arith::RemUIOp::create(b, loc, t, cst(b, loc, perBatch));
    Value rest = arith::DivUIOp::create(b, loc, t, cst(b, loc, perBatch));
    Value batch = rest, split = cst(b, loc, 0);
    if (grid.splits > 1) {
      batch = arith::DivUIOp::create(b, loc, rest, cst(b, loc, grid.splits));
      split = arith::RemUIOp::create(b, loc, rest, cst(b, loc, grid.splits));
    }
    GemmBlock blk = gemmBlockAt(b, loc, p, grid, batch, split, tile);
    Value index = arith::DivUIOp::create(b, loc, t, cst(b, loc, numBlocks));
    if (mine) {
      auto own = scf::IfOp::create(b, loc, mine(b, index), /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&own.getThenRegion().front());
      body(b, blk, first, index);
    } else {
      body(b, blk, first, index);
    }
    Value next = arith::AddIOp::create(
        b, loc, first,
        b.createOrFold<arith::SubIOp>(loc, blk.kEnd, blk.kBegin));
    scf::YieldOp::create(b, loc, next);
    return loop.getResult(0);
  }
  /// The block's K step of K tile `i` of a tile `blk` whose first step is
  /// `first`.
  static Value step(OpBuilder &b, Location loc, const GemmBlock &blk,
                    Value first, Value i) {
    return arith::AddIOp::create(
        b, loc, first, b.createOrFold<arith::SubIOp>(loc, i, blk.kBegin));
  }
  /// The producer's loop: for each K step of each of the block's tiles,
  /// waits until the step's stage is empty and calls `body(blk, step,
  /// stage, k0, at)` (k0: the K tile's first element; at: the stage's
  /// offset). Returns the block's count of K steps.
  Value forEachLoad(OpBuilder &b, Location loc,
                    function_ref<void(OpBuilder &, const GemmBlock &, Value,
                                      Value, Value, Value)>
                        body) const {
    return forEachTile(
        b, loc, [&](OpBuilder &b, const GemmBlock &blk, Value first, Value) {
          auto loop =
              scf::ForOp::create(b, loc, blk.kBegin, blk.kEnd, cst(b, loc, 1));
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(loop.getBody());
          Value i = loop.getInductionVar();
          Value g0 = step(b, loc, blk, first, i);
          Value stage = ring.stageOf(b, loc, g0);
          ring.waitEmpty(b, loc, g0, stage);
          Value k0 = arith::MulIOp::create(
              b, loc, i, cst(b, loc, WgmmaMatmulSchedule::kBlockK));
          body(b, blk, g0, stage, k0, stageBase(b, loc, stage));
        });
  }
};
} // namespace

/// The TMA producer: its first thread loads each K step's boxes.
static void buildTmaProducer(OpBuilder &b, Location loc, const Kernel &k) {
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  const WgmmaMatmulSchedule &sched = k.sched;
  Type elt = k.p.aElt;
  Value leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, k.tid,
                            cst(b, loc, k.W * sched.kWarpgroupThreads));
  auto issue = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&issue.getThenRegion().front());
  nvgpu::TmaPrefetchOp::create(b, loc, k.mapA, Value());
  nvgpu::TmaPrefetchOp::create(b, loc, k.mapB, Value());
  k.forEachLoad(
      b, loc,
      [&](OpBuilder &b, const GemmBlock &blk, Value step, Value stage, Value k0,
          Value at) {
        k.ring.arriveFullExpectingBytes(b, loc, stage, sched.stageBytes());
        // Coordinates are innermost first: (k, m) for A, (n, k) for B.
        nvgpu::TmaAsyncLoadOp::create(
            b, loc, sharedView(b, loc, k.smem, at, {k.BM, BK}, elt),
            k.ring.full, k.mapA, ValueRange{k0, blk.m0}, stage, Value(),
            Value());
        for (int64_t j = 0; j < k.BN / 64; ++j)
          nvgpu::TmaAsyncLoadOp::create(
              b, loc,
              sharedView(
                  b, loc, k.smem,
                  arith::AddIOp::create(
                      b, loc, at,
                      cst(b, loc, sched.aBytes() + j * sched.boxBytes())),
                  {64, BK}, elt),
              k.ring.full, k.mapB,
              ValueRange{
                  arith::AddIOp::create(b, loc, blk.n0, cst(b, loc, j * 64)),
                  k0},
              stage, Value(), Value());
      });
}

/// The cp.async producer: its 128 threads copy each K step's pieces. Thread
/// t copies piece t % 8 of rows t / 8 + 16 r of A's tile and of each of
/// B's boxes; (t / 8) % 8 is then the swizzle of all its rows, so every
/// piece of the thread lands at the same swizzled column.
static void buildAsyncCopyProducer(OpBuilder &b, Location loc,
                                   const Kernel &k) {
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  int64_t threads = WgmmaMatmulSchedule::kWarpgroupThreads;
  int64_t rowsPerPass = threads / kPiece;
  const GemmProblem &p = k.p;
  const WgmmaMatmulSchedule &sched = k.sched;
  // Steps whose copies may still be in flight after the current one's
  // were issued (see the file comment).
  int64_t inFlight = k.S - 2;
  Value thread =
      arith::SubIOp::create(b, loc, k.tid, cst(b, loc, k.W * threads));
  Value piece = arith::RemUIOp::create(b, loc, thread, cst(b, loc, kPiece));
  Value row0 = arith::DivUIOp::create(b, loc, thread, cst(b, loc, kPiece));
  Value column = arith::MulIOp::create(
      b, loc,
      arith::XOrIOp::create(
          b, loc, piece,
          arith::RemUIOp::create(b, loc, row0, cst(b, loc, kPiece))),
      cst(b, loc, kPiece));
  Value flatA = flatten(b, loc, p.a.buffer);
  Value flatB = flatten(b, loc, p.b.buffer);
  Value eight = cst(b, loc, kPiece), none = cst(b, loc, 0);

  // Copies the 16 bytes at (row, col) of `x` (rows < rowExtent, columns <
  // colExtent; zeros past them) to element `dst` of `tile`.
  auto copy = [&](OpBuilder &b, const GemmOperand &x, Value flat, Value batch,
                  Value row, int64_t rowExtent, Value col, int64_t colExtent,
                  Value tile, Value dst) {
    Value inRow = lessThan(b, loc, row, rowExtent);
    Value inCol = lessThan(b, loc, col, colExtent);
    Value src = clampedOffset(b, loc, x, batch, row, inRow, col, inCol);
    Value count = arith::SelectOp::create(
        b, loc, insideOperand(b, loc, x, row, inRow, col, inCol), eight, none);
    nvgpu::DeviceAsyncCopyOp::create(b, loc, tile, ValueRange{dst}, flat,
                                     ValueRange{src}, b.getIndexAttr(kPiece),
                                     count,
                                     /*bypassL1=*/b.getUnitAttr());
  };
  // Once the copies of `step` landed: make them visible to the async proxy
  // and arrive on its full mbarrier.
  auto release = [&](OpBuilder &b, Value step) {
    k.ring.arriveFull(b, loc, k.ring.stageOf(b, loc, step));
  };
  auto fence = [&](OpBuilder &b) {
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
  };

  Value total = k.forEachLoad(
      b, loc,
      [&](OpBuilder &b, const GemmBlock &blk, Value step, Value stage, Value k0,
          Value at) {
        Value colA = arith::AddIOp::create(
            b, loc, k0, arith::MulIOp::create(b, loc, piece, eight));
        Value tileA = sharedView(b, loc, k.smem, at, {k.BM * BK}, p.aElt);
        for (int64_t r = 0; r < k.BM / rowsPerPass; ++r) {
          Value row =
              arith::AddIOp::create(b, loc, row0, cst(b, loc, r * rowsPerPass));
          copy(b, p.a, flatA, blk.batch,
               arith::AddIOp::create(b, loc, blk.m0, row), p.m, colA, p.k,
               tileA, affine(b, loc, row, BK, column));
        }
        Value tileB = sharedView(
            b, loc, k.smem,
            arith::AddIOp::create(b, loc, at, cst(b, loc, sched.aBytes())),
            {k.BN * BK}, p.bElt);
        for (int64_t j = 0; j < k.BN / 64; ++j) {
          Value colB = arith::AddIOp::create(
              b, loc, blk.n0,
              affine(b, loc, piece, kPiece, cst(b, loc, j * 64)));
          for (int64_t r = 0; r < BK / rowsPerPass; ++r) {
            Value row = arith::AddIOp::create(b, loc, row0,
                                              cst(b, loc, r * rowsPerPass));
            copy(b, p.b, flatB, blk.batch,
                 arith::AddIOp::create(b, loc, k0, row), p.k, colB, p.n, tileB,
                 affine(b, loc, row, BK,
                        affine(b, loc, cst(b, loc, j), 64 * BK, column)));
          }
        }
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
        // Step - inFlight has landed once at most inFlight groups are pending.
        Value ready = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            step, cst(b, loc, inFlight));
        auto done = scf::IfOp::create(b, loc, ready, /*withElse=*/false);
        b.setInsertionPointToStart(&done.getThenRegion().front());
        NVVM::CpAsyncWaitGroupOp::create(b, loc, inFlight);
        fence(b);
        release(b, arith::SubIOp::create(b, loc, step, cst(b, loc, inFlight)));
      });
  // The last steps: all copies landed.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  fence(b);
  Value first = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, total, cst(b, loc, inFlight)),
      cst(b, loc, inFlight));
  auto tail = scf::ForOp::create(b, loc, first, total, cst(b, loc, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(tail.getBody());
  release(b, tail.getInductionVar());
}

/// The LLVM form of a consumer's accumulators: `perThread` f32 registers
/// a thread, in the nested struct that nvgpu lowers them to.
static LLVM::LLVMStructType accumulatorStruct(MLIRContext *ctx,
                                              int64_t perThread) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, {LLVM::LLVMStructType::getLiteral(
               ctx, SmallVector<Type>(perThread, Float32Type::get(ctx)))});
}

/// A consumer warpgroup's main loop, which `accumulate` builds, and its
/// epilogue for the block `blk`: its 64 rows of C from the accumulators,
/// through its shared chunk. Warp w of the warpgroup holds rows
/// [16 w, 16 w + 16) of them and stores them itself, so only the warp's own
/// lanes synchronize around its 16 rows of the chunk.
static void buildEpilogue(OpBuilder &b, Location loc, const Kernel &k,
                          const GemmBlock &blk,
                          function_ref<Value()> accumulate) {
  MLIRContext *ctx = b.getContext();
  const GemmProblem &p = k.p;
  const WgmmaMatmulSchedule &sched = k.sched;
  int64_t wgThreads = WgmmaMatmulSchedule::kWarpgroupThreads;
  int64_t rows = WgmmaMatmulSchedule::kWarpgroupRows;
  int64_t warpRows = rows / (wgThreads / kernel::kWarpSize);
  Type f32 = b.getF32Type(), ct = k.output.targetElt();
  int64_t bytes = ct.getIntOrFloatBitWidth() / 8;
  int64_t chunkCols = WgmmaMatmulSchedule::epilogueColumns(bytes);
  // The warpgroup's chunk buffers: chunk c is staged in buffer c % buffers.
  int64_t buffers = sched.epilogueBuffers();
  Value chunksBase =
      affine(b, loc, k.warpgroup, buffers * sched.epilogueChunkBytes(bytes),
             arith::AddIOp::create(b, loc, k.base,
                                   cst(b, loc, k.S * sched.stageBytes())));
  SmallVector<Value, 2> chunkBuffers;
  for (int64_t slot = 0; slot < buffers; ++slot)
    chunkBuffers.push_back(
        sharedView(b, loc, k.smem,
                   arith::AddIOp::create(
                       b, loc, chunksBase,
                       cst(b, loc, slot * sched.epilogueChunkBytes(bytes))),
                   {rows, chunkCols + WgmmaMatmulSchedule::kEpiloguePad}, ct));
  auto warpBarrier = [&]() {
    NVVM::SyncWarpOp::create(b, loc, i32(b, loc, -1));
  };

  Value inWg = arith::RemUIOp::create(b, loc, k.tid, cst(b, loc, wgThreads));
  Value warp =
      arith::DivUIOp::create(b, loc, inWg, cst(b, loc, kernel::kWarpSize));
  Value lane =
      arith::RemUIOp::create(b, loc, k.tid, cst(b, loc, kernel::kWarpSize));
  // Row 16 (warp) + lane / 4 (+ 8 i) of the warpgroup's rows, column
  // 2 (lane % 4) (+ 8 j).
  Value warpRow0 = arith::MulIOp::create(b, loc, warp, cst(b, loc, warpRows));
  Value row0 = arith::AddIOp::create(
      b, loc, warpRow0, arith::DivUIOp::create(b, loc, lane, cst(b, loc, 4)));
  Value col0 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, lane, cst(b, loc, 4)),
      cst(b, loc, 2));
  Value m0 = k.warpgroupRows(b, loc, blk.m0);
  const GemmOutput &output = k.output;
  GemmOperand out = output.target();
  Value outBatch = output.targetBatch(b, loc, blk);
  Value flatOut = output.workspace ? flatten(b, loc, out.buffer) : blk.flatC;
  auto pairType = VectorType::get({2}, f32);
  bool zeroStart = p.cInit && matchPattern(p.cInit, m_PosZeroFloat());

  // The warp's rows of a chunk -> C in rows of `width` elements (16 bytes
  // when C's rows allow), spread over its lanes by auto_map.
  int64_t width =
      out.innerDim == 1 ? std::min<int64_t>(out.vectorWidth, 16 / bytes) : 1;
  // A fused epilogue stores its own output, in vectors it can keep whole.
  const fusion::Epilogue *epilogue = output.workspace ? nullptr : p.epilogue;
  if (epilogue)
    width = std::min<int64_t>(
        {width, epilogue->maxVectorWidth(),
         16 / (epilogue->outputElementType().getIntOrFloatBitWidth() / 8)});
  auto pieces = *algebra::TaskMapping::autoMap({warpRows, chunkCols / width},
                                               kernel::kWarpSize);
  algebra::Shape rep = pieces.getFactors()[0].getShape();
  algebra::Shape spat = pieces.getFactors()[1].getShape();
  SmallVector<Type, 2> two(2, b.getIndexType());
  auto pos = hidet::tm::SpatialOp::create(
      b, loc, two, lane, hidet::tm::SpatialAttr::get(ctx, spat));
  auto vecType = VectorType::get({width}, ct);

  // The lane's pieces of chunk c: their rows and columns in the warpgroup's
  // rows and the chunk, and in C.
  struct Piece {
    Value row, col, gr, gc;
  };
  auto piecesOf = [&](int64_t c) {
    // Unrolled here rather than by a tm.repeat, whose region would hide the
    // pieces from the loads issued a chunk ahead.
    SmallVector<Piece> ps;
    for (int64_t r0 = 0; r0 < rep[0]; ++r0)
      for (int64_t r1 = 0; r1 < rep[1]; ++r1) {
        Piece q;
        q.row = arith::AddIOp::create(
            b, loc, warpRow0,
            arith::AddIOp::create(b, loc, pos.getResult(0),
                                  cst(b, loc, r0 * spat[0])));
        q.col = arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(b, loc, pos.getResult(1),
                                  cst(b, loc, r1 * spat[1])),
            cst(b, loc, width));
        q.gr = arith::AddIOp::create(b, loc, m0, q.row);
        q.gc = arith::AddIOp::create(
            b, loc, blk.n0,
            arith::AddIOp::create(b, loc, q.col, cst(b, loc, c * chunkCols)));
        ps.push_back(q);
      }
    return ps;
  };
  // A fused epilogue's side inputs (a bias, a residual) for chunk c, loaded
  // one chunk ahead so that their latency overlaps the staging of the chunk
  // before. Pieces past C's edges load at the last row and vector inside
  // (C's columns hold whole vectors), and are not stored.
  // When the tiles divide C, every piece is inside it: no piece is checked,
  // and the chunk's pieces form one straight-line block, which the backend
  // interleaves (one branch per piece kept its math 8 elements wide).
  bool tilesInside = p.m % k.BM == 0 && p.n % k.BN == 0;
  auto sideInputsOf = [&](ArrayRef<Piece> ps) {
    SmallVector<SmallVector<Value>> loaded;
    if (!epilogue)
      return loaded;
    Value lastRow = cst(b, loc, p.m - 1);
    Value lastCol = cst(b, loc, p.n - width);
    for (const Piece &q : ps) {
      Value gr = q.gr, gc = q.gc;
      if (!tilesInside) {
        gr = arith::MinSIOp::create(b, loc, gr, lastRow);
        gc = arith::MinSIOp::create(b, loc, gc, lastCol);
      }
      loaded.push_back(epilogue->loadSideInputs(
          b, loc, p.c.position(b, loc, blk.batch, gr, gc), width));
    }
    return loaded;
  };

  int64_t chunks = k.BN / chunkCols;
  SmallVector<Piece> pieces0 = piecesOf(0);
  // With pingpong tiles the first chunk's side inputs are loaded before the
  // main loop, whose time hides their latency (bias + ReLU at 4096 x 3072 x
  // 768 ran 7% faster); other schedules load them after it (before it, two
  // of them measured 5% and 10% slower in the pingpong sweep at a761ce9).
  SmallVector<SmallVector<Value>> sideInputs;
  if (k.pingpong)
    sideInputs = sideInputsOf(pieces0);
  Value acc = accumulate();
  if (!k.pingpong)
    sideInputs = sideInputsOf(pieces0);
  Value regs = UnrealizedConversionCastOp::create(
                   b, loc, accumulatorStruct(ctx, k.BN / 2), acc)
                   .getResult(0);
  // Chunk c's fragments -> its buffer, 2 columns of a row per store.
  auto stage = [&](int64_t c) {
    int64_t n0 = c * chunkCols;
    Value chunk = chunkBuffers[c % buffers];
    for (int64_t j = n0 / 8; j < (n0 + chunkCols) / 8; ++j)
      for (int64_t i = 0; i < 2; ++i) {
        Value row = arith::AddIOp::create(b, loc, row0, cst(b, loc, 8 * i));
        Value col =
            arith::AddIOp::create(b, loc, col0, cst(b, loc, 8 * j - n0));
        Value pair = arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
        for (int64_t e = 0; e < 2; ++e) {
          Value v = LLVM::ExtractValueOp::create(
              b, loc, regs, ArrayRef<int64_t>{0, 4 * j + 2 * i + e});
          // C's start: the fill value, or C's own value (0 past the edges);
          // the split-K reduction adds it instead. The accumulators start
          // at +0.0, so a +0.0 fill is already in them.
          if (!output.workspace && !zeroStart) {
            Value init = output.loadInit(
                b, loc, blk, arith::AddIOp::create(b, loc, m0, row),
                arith::AddIOp::create(
                    b, loc, blk.n0,
                    arith::AddIOp::create(b, loc, col, cst(b, loc, n0 + e))));
            v = arith::AddFOp::create(b, loc, v, init);
          }
          pair =
              vector::InsertOp::create(b, loc, v, pair, ArrayRef<int64_t>{e});
        }
        Value converted =
            ct == f32 ? pair
                      : arith::TruncFOp::create(b, loc,
                                                VectorType::get({2}, ct), pair)
                            .getResult();
        vector::StoreOp::create(b, loc, converted, chunk, ValueRange{row, col});
      }
  };
  // With two buffers chunk c + 1 is staged before chunk c is stored, so
  // that the backend overlaps the staging with the stores (and the
  // epilogue's math), and one warp barrier per chunk orders both: chunk
  // c + 1's stores before its reads, and chunk c's reads before chunk c + 2
  // reuses its buffer. With one, each chunk is staged, read and released.
  bool ahead = buffers > 1;
  if (ahead) {
    stage(0);
    warpBarrier();
  }
  for (int64_t c = 0; c < chunks; ++c) {
    SmallVector<Piece> ps = c == 0 ? pieces0 : piecesOf(c);
    SmallVector<Piece> nextPs;
    SmallVector<SmallVector<Value>> nextSideInputs;
    if (epilogue && c + 1 < chunks) {
      nextPs = piecesOf(c + 1);
      nextSideInputs = sideInputsOf(nextPs);
    }
    if (!ahead) {
      stage(c);
      warpBarrier();
    } else if (c + 1 < chunks) {
      stage(c + 1);
    }
    Value chunk = chunkBuffers[c % buffers];
    for (auto [index, q] : llvm::enumerate(ps)) {
      OpBuilder::InsertionGuard g(b);
      if (!tilesInside) {
        Value inside = arith::AndIOp::create(
            b, loc, lessThan(b, loc, q.gr, p.m), lessThan(b, loc, q.gc, p.n));
        auto store = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
        b.setInsertionPointToStart(&store.getThenRegion().front());
      }
      Value v = vector::LoadOp::create(b, loc, vecType, chunk,
                                       ValueRange{q.row, q.col});
      if (epilogue) {
        epilogue->store(
            b, loc, p.c.position(b, loc, blk.batch, q.gr, q.gc),
            width == 1 ? vector::ExtractOp::create(b, loc, v, 0).getResult()
                       : v,
            sideInputs[index]);
        continue;
      }
      vector::StoreOp::create(b, loc, v, flatOut,
                              elementOffset(b, loc, out, outBatch, q.gr, q.gc),
                              /*nontemporal=*/false, vectorAlign(ct, width));
    }
    warpBarrier();
    sideInputs = std::move(nextSideInputs);
  }
}

/// Zero accumulators for `accType` (`perThread` f32 registers a thread),
/// each defined in a register of its own by an inline mov. nvgpu's
/// warpgroup.mma.init.accumulator gives them one zero constant, which the
/// backend copies into wgmma's registers after the main loop's first
/// wgmma.fence; there ptxas serialized the wgmmas of the implicit-GEMM
/// convolutions (warning C7520, "compiler-inserted WG.AR in divergent
/// path"), with the copies before the fence it did not.
static Value zeroAccumulators(OpBuilder &b, Location loc, Type accType,
                              int64_t perThread) {
  MLIRContext *ctx = b.getContext();
  LLVM::LLVMStructType outer = accumulatorStruct(ctx, perThread);
  Type inner = outer.getBody().front();
  std::string code, constraints;
  for (int64_t i = 0; i < perThread; ++i) {
    code += "mov.b32 $" + std::to_string(i) + ", 0;\n";
    constraints += (i ? ",=f" : "=f");
  }
  // Side effects keep the movs where they are written: before the fence.
  Value zeros = LLVM::InlineAsmOp::create(
                    b, loc, inner, ValueRange{}, code, constraints,
                    /*has_side_effects=*/true, /*is_align_stack=*/false,
                    LLVM::TailCallKind::None,
                    LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
                    /*operand_attrs=*/ArrayAttr())
                    .getRes();
  Value acc =
      LLVM::InsertValueOp::create(b, loc, LLVM::PoisonOp::create(b, loc, outer),
                                  zeros, ArrayRef<int64_t>{0});
  return UnrealizedConversionCastOp::create(b, loc, accType, acc).getResult(0);
}

/// A consumer warpgroup: the wgmma main loop and the epilogue of each of
/// the block's tiles.
static void buildConsumer(OpBuilder &b, Location loc, const Kernel &k) {
  MLIRContext *ctx = b.getContext();
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  Type elt = k.p.aElt;
  auto accType = nvgpu::WarpgroupAccumulatorType::get(
      ctx, VectorType::get({64, k.BN}, b.getF32Type()));
  auto tile = [&](OpBuilder &b, const GemmBlock &blk, Value first,
                  Value index) {
    // Pingpong: the main loop of tile i starts once tile i - 1's consumer
    // waited for all its stages. Then the steps before this tile's have
    // landed, so that a stage's parity, which cannot tell rounds two apart,
    // is this step's.
    if (k.pingpong) {
      Value later = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                          index, cst(b, loc, 0));
      auto wait = scf::IfOp::create(b, loc, later, /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&wait.getThenRegion().front());
      Value before = arith::SubIOp::create(b, loc, index, cst(b, loc, 1));
      Value parity = arith::IndexCastOp::create(
          b, loc, b.getI1Type(),
          arith::RemUIOp::create(b, loc, before, cst(b, loc, 2)));
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, k.order, parity, cst(b, loc, pipelining::kMBarrierWaitHintNs),
          cst(b, loc, 0));
    }
    auto accumulate = [&]() -> Value {
      Value acc0 = zeroAccumulators(b, loc, accType, k.BN / 2);
      auto loop = scf::ForOp::create(b, loc, blk.kBegin, blk.kEnd,
                                     cst(b, loc, 1), ValueRange{acc0});
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(loop.getBody());
        Value i = loop.getInductionVar();
        Value step = Kernel::step(b, loc, blk, first, i);
        Value stage = k.ring.stageOf(b, loc, step);
        k.ring.waitFull(b, loc, step, stage);
        Value at = k.stageBase(b, loc, stage);
        Value aTile = sharedView(
            b, loc, k.smem,
            k.pingpong ? at
                       : affine(b, loc, k.warpgroup,
                                WgmmaMatmulSchedule::kWarpgroupRows *
                                    WgmmaMatmulSchedule::kSwizzleRowBytes,
                                at),
            {64, BK}, elt);
        Value bTile = sharedView(
            b, loc, k.smem,
            arith::AddIOp::create(b, loc, at, cst(b, loc, k.sched.aBytes())),
            {BK, k.BN}, elt);
        auto descType = [&](Value tile) {
          return nvgpu::WarpgroupMatrixDescriptorType::get(
              ctx, cast<MemRefType>(tile.getType()));
        };
        Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(
            b, loc, descType(aTile), aTile, k.mapA);
        Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(
            b, loc, descType(bTile), bTile, k.mapB);
        // Leaves the step's wgmma group in flight and waits for the previous
        // one, whose stage is then released.
        Value acc = nvgpu::WarpgroupMmaOp::create(
            b, loc, accType, descA, descB, /*waitGroup=*/uint64_t(1),
            /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(),
            loop.getRegionIterArg(0));
        Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                               i, blk.kBegin);
        auto release = scf::IfOp::create(b, loc, notFirst, /*withElse=*/false);
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(&release.getThenRegion().front());
          k.ring.arriveEmpty(b, loc, k.ring.previousStage(b, loc, step));
        }
        scf::YieldOp::create(b, loc, acc);
      }
      // The next tile's consumer may start its main loop.
      if (k.pingpong)
        nvgpu::MBarrierArriveOp::create(b, loc, k.order, cst(b, loc, 0));
      // The tile's last stage is free once its wgmma retired.
      NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(0));
      Value last =
          Kernel::step(b, loc, blk, first,
                       arith::SubIOp::create(b, loc, blk.kEnd, cst(b, loc, 1)));
      k.ring.arriveEmpty(b, loc, k.ring.stageOf(b, loc, last));
      return loop.getResult(0);
    };
    buildEpilogue(b, loc, k, blk, accumulate);
  };
  if (!k.pingpong) {
    k.forEachTile(b, loc, tile);
    return;
  }
  // Tile i of the block is consumer i % 2's.
  k.forEachTile(b, loc, tile, [&](OpBuilder &b, Value index) -> Value {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq,
        arith::RemUIOp::create(b, loc, index, cst(b, loc, 2)), k.warpgroup);
  });
}

/// The body of the launch: shared memory, mbarriers, and the roles.
static void buildKernel(OpBuilder &b, Location loc, Kernel &k,
                        gpu::LaunchOp launch) {
  MLIRContext *ctx = b.getContext();
  int64_t wgThreads = WgmmaMatmulSchedule::kWarpgroupThreads;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  k.tid = launch.getThreadIds().x;
  k.blockId = launch.getBlockIds().x;
  k.warpgroup = arith::DivUIOp::create(b, loc, k.tid, cst(b, loc, wgThreads));

  // Dynamic shared memory, from its first 1024-byte aligned byte.
  k.smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, k.smem);
  k.base = arith::RemUIOp::create(
      b, loc,
      arith::SubIOp::create(
          b, loc, cst(b, loc, kSwizzleAlign),
          arith::RemUIOp::create(b, loc, address, cst(b, loc, kSwizzleAlign))),
      cst(b, loc, kSwizzleAlign));

  // full[s]: the stage's loads landed (TMA: one arrival, the producer's,
  // plus the bytes; cp.async: an arrival of each producer thread). empty[s]:
  // every consumer thread is done reading it.
  k.ring = pipelining::StageRing::create(b, loc, k.S);
  if (k.pingpong)
    k.order = nvgpu::MBarrierCreateOp::create(
        b, loc, nvgpu::MBarrierGroupType::get(ctx, workgroup, 1));
  Value isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          k.tid, cst(b, loc, 0));
  {
    auto init = scf::IfOp::create(b, loc, isThread0, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&init.getThenRegion().front());
    // A stage is read by every consumer, or with pingpong by one.
    k.ring.init(b, loc, k.tma ? 1 : wgThreads,
                (k.pingpong ? 1 : k.W) * wgThreads);
    if (k.pingpong)
      nvgpu::MBarrierInitOp::create(b, loc, k.order, cst(b, loc, wgThreads),
                                    cst(b, loc, 0), Value());
    // The initialized barriers, visible to the async proxy (TMA's
    // completions) too.
    NVVM::FenceMbarrierInitOp::create(b, loc);
  }
  gpu::BarrierOp::create(b, loc);

  Value isConsumer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           k.warpgroup, cst(b, loc, k.W));
  auto roles = scf::IfOp::create(b, loc, isConsumer, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&roles.getElseRegion().front());
    if (k.registers[0])
      NVVM::SetMaxRegisterOp::create(b, loc, k.registers[0],
                                     NVVM::SetMaxRegisterAction::decrease);
    if (k.tma)
      buildTmaProducer(b, loc, k);
    else
      buildAsyncCopyProducer(b, loc, k);
  }
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&roles.getThenRegion().front());
  if (k.registers[1])
    NVVM::SetMaxRegisterOp::create(b, loc, k.registers[1],
                                   NVVM::SetMaxRegisterAction::increase);
  buildConsumer(b, loc, k);
}

void hidet::templates::buildWgmmaMatmul(OpBuilder &b, Location loc,
                                        const GemmProblem &p, WgmmaMatmulAttr s,
                                        const schedule::TargetLimits &limits,
                                        int64_t reduceBlockSize) {
  MLIRContext *ctx = b.getContext();
  WgmmaMatmulSchedule sched = s.toSchedule();
  int64_t BM = sched.block[0], BN = sched.block[1];
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  Type elt = p.aElt;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  bool tma = tmaLoads(p);

  // The tensor maps of A (BM x 64 boxes) and B (64 x 64 boxes), both
  // 128-byte swizzled and zero-filled past the edges; the descriptors read
  // the swizzle from their type.
  auto mapType = [&](int64_t rows) {
    return nvgpu::TensorMapDescriptorType::get(
        ctx, MemRefType::get({rows, BK}, elt, AffineMap(), workgroup),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  };
  auto createMap = [&](Value buffer, int64_t rows) {
    Value unranked = memref::CastOp::create(
        b, loc, UnrankedMemRefType::get(elt, Attribute()), buffer);
    return nvgpu::TmaCreateDescriptorOp::create(
        b, loc, mapType(rows), unranked,
        ValueRange{cst(b, loc, rows), cst(b, loc, BK)});
  };
  // The kernel gets the maps as 64-bit integers (the addresses their
  // lowering makes of them): a launch argument of tensor-map type cannot be
  // lowered once outlined (gpu.func has no conversion for it), lowering
  // nvgpu before outlining would change every other kernel's arguments,
  // and a pair of casts to !llvm.ptr and back would fold away.
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  auto asInteger = [&](Value map) {
    Value ptr =
        UnrealizedConversionCastOp::create(b, loc, ptrType, map).getResult(0);
    return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
  };
  Value addressA, addressB;
  if (tma) {
    addressA = asInteger(createMap(p.a.buffer, BM));
    addressB = asInteger(createMap(p.b.buffer, BK));
  }

  Kernel k(p, sched,
           GemmGrid(p, BM, BN, BK, sched.grid.swizzle, sched.grid.splitK));
  k.tma = tma;
  k.output = {&p, createSplitKWorkspace(b, loc, p, k.grid.splits)};
  k.BM = BM;
  k.BN = BN;
  k.S = sched.stages;
  k.W = sched.consumers();
  k.pingpong = sched.pingpong;
  k.registers = sched.rebalancedRegisters(limits, tma);
  k.numTiles = p.batch * k.grid.splits * k.grid.tilesM * k.grid.tilesN;
  int64_t resultBytes = k.output.targetElt().getIntOrFloatBitWidth() / 8;
  k.numBlocks = sched.gridBlocks(k.numTiles, limits, resultBytes);
  int64_t sharedBytes = sched.sharedBytes(resultBytes);

  createLaunch(
      b, loc, hidet::tm::SpatialAttr::get(ctx, ArrayRef<int64_t>{k.numBlocks}),
      /*workersPerBlock=*/1, sched.numThreads(),
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(launch);
          launch.getDynamicSharedMemorySizeMutable().assign(
              i32(b, loc, sharedBytes));
        }
        auto asMap = [&](Value address, int64_t rows) {
          Value ptr = address
                          ? LLVM::IntToPtrOp::create(b, loc, ptrType, address)
                                .getResult()
                          : LLVM::ZeroOp::create(b, loc, ptrType).getResult();
          return UnrealizedConversionCastOp::create(b, loc, mapType(rows), ptr)
              .getResult(0);
        };
        k.mapA = asMap(addressA, BM);
        k.mapB = asMap(addressB, BK);
        buildKernel(b, loc, k, launch);
      });
  if (k.output.workspace)
    emitSplitKReduction(b, loc, p, k.output.workspace, k.grid.splits,
                        reduceBlockSize);
}
