//===- MmaMatmul.cpp - The tensor-core matmul template --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The tensor-core matmul template (f16/bf16 operands, f32 accumulation). A
// block computes a BM x BN tile of C; its threads own the tile through
//
//   spatial(BM/WM, BN/WN) * repeat(WM/16, WN/8) * C fragment of m16n8k16
//
// where the fragment is repeat(2, 1) * spatial(8, 4) * repeat(1, 2) over
// the lanes (PTX ISA, "Matrix Fragments for mma.m16n8k16"). The spatial
// factors are tm.spatial ops on the warp and lane ids; the repeat factors
// are fully unrolled tm.repeat ops whose indices address private arrays
// (accumulators and fragments) that live in registers.
//
// Each K step moves a BM x BK tile of A and a BK x BN tile of B from global
// memory to shared memory in 16-byte pieces, spread over the threads by
// auto_map. With `stages = 0` the pieces go through registers into two
// shared stages: the next step's pieces are loaded into registers before
// this step's mma instructions run and stored to the other stage after
// them, with one barrier per step (Hidet's double buffering). With
// `stages = N` the template writes the copies synchronously (masked vector
// transfers into one shared tile, between two barriers) on a K loop marked
// with N, and `hidet-pipeline-shared-copies` turns them into an N-stage
// cp.async pipeline.
// Every tile keeps the memory order its operand has in global memory
// ([rows][k] or [k][rows]); ldmatrix transposes on the way to registers
// when needed, so transposed operands cost nothing. Inside a shared row,
// the 16-byte piece j of row r is stored at piece j ^ f(r), which spreads
// the 8 rows that one ldmatrix phase reads over all 32 banks.
//
// This file holds the entry point and the block's skeleton (the thread's
// place, the accumulators, the K loop, the results); the copies into shared
// memory are in MmaCopies.cpp and the fragments and mma.sync instructions
// in MmaFragments.cpp, steps of the MatmulBuilder of Mma.h.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "Mma.h"

#include "../Pipelining/Pipelining.h"
#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::mma;

/// Tiles keep the operand's contiguous dimension innermost (k when the
/// operand has none).
static int innerOf(const GemmOperand &x, int kDim) {
  return x.innerDim >= 0 ? x.innerDim : kDim;
}

MatmulBuilder::MatmulBuilder(OpBuilder &b, Location loc, const GemmProblem &p,
                             const schedule::MmaMatmulSchedule &sched)
    : b(b), loc(loc), ctx(b.getContext()), p(p), sched(sched),
      BM(sched.block[0]), BN(sched.block[1]), BK(sched.block[2]),
      WM(sched.warp[0]), WN(sched.warp[1]), MT(WM / 16), NT(WN / 8),
      threads(sched.numThreads()), elt(p.aElt), f32(b.getF32Type()),
      isBF16(elt.isBF16()), isTF32(elt.isF32()), mmaK(sched.mma[2]),
      perReg(isTF32 ? 1 : 2), kPiece(16 / (isTF32 ? 4 : 2)),
      tf32Terms(sched.tf32Terms),
      grid(p, BM, BN, BK, sched.grid.swizzle, sched.grid.splitK) {
  // Register staging holds two stages itself; a pipelined schedule's tiles
  // are multi-buffered by hidet-pipeline-shared-copies.
  int64_t stages = sched.stages == 0 ? 2 : 0;
  tileA = {BM, BK, innerOf(p.a, 1), kPiece, stages, Value()};
  tileB = {BK, BN, innerOf(p.b, 0), kPiece, stages, Value()};
}

void MatmulBuilder::build(int64_t reduceBlockSize) {
  output = {&p, createSplitKWorkspace(b, loc, p, grid.splits)};
  output.counters = splitKCounters(grid.splits, p.splitKInKernel,
                                   warpPartCount(p, grid, sched.numWarps()));
  SmallVector<Type> shared = {
      tileA.type(ctx, elt), tileB.type(ctx, elt),
      MemRefType::get(
          {sched.numWarps(), 16,
           WN + schedule::MmaMatmulSchedule::kEpiloguePad},
          f32, AffineMap(),
          gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup))};
  createLaunch(b, loc, kernelKind(schedule::TemplateKind::Mma), grid.mapping(ctx, p), /*workersPerBlock=*/1, threads,
               [&](OpBuilder &b, gpu::LaunchOp launch) {
                 SmallVector<Value> buffers = allocateShared(b, loc, shared);
                 tileA.buffer = buffers[0];
                 tileB.buffer = buffers[1];
                 chunks = buffers[2];
                 forEachGemmBlock(b, loc, p, grid,
                                  [&](OpBuilder &b, const GemmBlock &blk) {
                                    buildBlock(blk, launch.getThreadIds().x);
                                  });
               },
               /*workgroupBuffers=*/{});
  finishSplitK(b, loc, p, output, grid.splits, reduceBlockSize);
}

void MatmulBuilder::buildBlock(const GemmBlock &block, Value threadId) {
  blk = &block;
  tid = threadId;
  placeThread();
  initAccumulators();
  // Global -> registers -> shared memory.
  copyA = makeCopy(p.a, /*isA=*/true, tileA);
  copyB = makeCopy(p.b, /*isA=*/false, tileB);
  // Four registers of A per m tile, four of B per pair of n tiles, twice:
  // the fragments of K step kk live in half kk % 2.
  aFrag = memref::AllocaOp::create(b, loc,
                                   MemRefType::get({2 * MT, 4 * perReg}, elt));
  bFrag =
      memref::AllocaOp::create(b, loc, MemRefType::get({NT, 4 * perReg}, elt));
  if (tf32Terms == 3) {
    aRest = memref::AllocaOp::create(b, loc, cast<MemRefType>(aFrag.getType()));
    bRest = memref::AllocaOp::create(b, loc, cast<MemRefType>(bFrag.getType()));
  }
  mainLoop();
  storeResults();
}

void MatmulBuilder::placeThread() {
  Value warp =
      arith::DivUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  Value lane =
      arith::RemUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  SmallVector<Type, 2> two(2, b.getIndexType());
  // spatial(BM/WM, BN/WN): the warp's tile.
  auto warpPos = hidet::tm::SpatialOp::create(
      b, loc, two, warp, hidet::tm::SpatialAttr::get(ctx, {BM / WM, BN / WN}));
  wm0 = arith::MulIOp::create(b, loc, warpPos.getResult(0), cst(b, loc, WM));
  wn0 = arith::MulIOp::create(b, loc, warpPos.getResult(1), cst(b, loc, WN));
  LanePlace place = placeLane(b, loc, lane);
  group = place.group;
  inGroup = place.inGroup;
  matrix = place.matrix;
  matrixRow = place.matrixRow;
}

void MatmulBuilder::forAccumulators(
    function_ref<void(OpBuilder &, Value, Value, Value, Value)> body) {
  fullyUnrolled(b, loc, {MT, NT, 2, 2}, [&](OpBuilder &b, ValueRange r) {
    Value row = affine(b, loc, r[0], 16, wm0);
    row = affine(b, loc, r[2], 8, arith::AddIOp::create(b, loc, row, group));
    Value col = affine(b, loc, r[1], 8, wn0);
    col = affine(b, loc, inGroup, 2, arith::AddIOp::create(b, loc, col, r[3]));
    Value gr = arith::AddIOp::create(b, loc, blk->m0, row);
    Value gc = arith::AddIOp::create(b, loc, blk->n0, col);
    Value slot = affine(b, loc, r[2], 2, r[3]);
    body(b, gr, gc, r[0], affine(b, loc, r[1], 4, slot));
  });
}

/// Accumulators [MT][NT * 4] (f32), for the repeat(MT, NT) * repeat(2, 1) *
/// spatial(8, 4) * repeat(1, 2) tasks of the thread: [mi][ni * 4 + i * 2 +
/// j] is element (i, j) of the mma C fragment. They start from C.
void MatmulBuilder::initAccumulators() {
  accFlat =
      memref::AllocaOp::create(b, loc, MemRefType::get({MT, NT * 4}, f32));
  forAccumulators([&](OpBuilder &b, Value gr, Value gc, Value mi, Value slot) {
    memref::StoreOp::create(b, loc, output.loadInit(b, loc, *blk, gr, gc),
                            accFlat, ValueRange{mi, slot});
  });
}

/// The results go to C 16 rows of the warp's tile at a time, through the
/// warp's chunk in shared memory: the fragment layout gives a lane two
/// adjacent columns of 8 rows, so storing from it would write 8 bytes of 8
/// rows per instruction (partial sectors, which made a 384 x 197 x 197
/// f16 batch matmul store-bound); from the chunk, a warp's lanes store
/// consecutive columns of a row.
void MatmulBuilder::storeResults() {
  Value warp =
      arith::DivUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  Value lane =
      arith::RemUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  auto warpBarrier = [&]() {
    NVVM::SyncWarpOp::create(
        b, loc, arith::ConstantIntOp::create(b, loc, b.getI32Type(), -1));
  };
  int64_t perLane = 16 * WN / kernel::kWarpSize;
  for (int64_t mi = 0; mi < MT; ++mi) {
    // The accumulators of m tile mi into the chunk, at their rows and
    // columns in the warp's 16 x WN strip.
    fullyUnrolled(b, loc, {NT, 2, 2}, [&](OpBuilder &b, ValueRange r) {
      Value row = affine(b, loc, r[1], 8, group);
      Value col = affine(b, loc, inGroup, 2,
                         affine(b, loc, r[0], 8, r[2]));
      Value slot = affine(b, loc, r[0], 4, affine(b, loc, r[1], 2, r[2]));
      Value v = memref::LoadOp::create(
          b, loc, accFlat, ValueRange{cst(b, loc, mi), slot});
      memref::StoreOp::create(b, loc, v, chunks, ValueRange{warp, row, col});
    });
    warpBarrier();
    // Element e * 32 + lane of the strip, row-major: a row's columns go to
    // consecutive lanes.
    Value rowBase = arith::AddIOp::create(
        b, loc, blk->m0, affine(b, loc, cst(b, loc, mi), 16, wm0));
    Value colBase = arith::AddIOp::create(b, loc, blk->n0, wn0);
    for (int64_t e = 0; e < perLane; ++e) {
      Value idx = affine(b, loc, cst(b, loc, e), kernel::kWarpSize, lane);
      Value row = arith::DivUIOp::create(b, loc, idx, cst(b, loc, WN));
      Value col = arith::RemUIOp::create(b, loc, idx, cst(b, loc, WN));
      Value v = memref::LoadOp::create(b, loc, chunks,
                                       ValueRange{warp, row, col});
      output.store(b, loc, *blk, arith::AddIOp::create(b, loc, rowBase, row),
                   arith::AddIOp::create(b, loc, colBase, col), v);
    }
    warpBarrier();
  }
  // Split-K in the kernel: the warp's WM x WN rectangle is a part.
  if (output.counters)
    emitSplitKFixup(b, loc, output, grid.splits,
                    warpPartCounter(b, loc, grid, *blk, warp, sched.numWarps()),
                    blk->batch, arith::AddIOp::create(b, loc, blk->m0, wm0), WM,
                    arith::AddIOp::create(b, loc, blk->n0, wn0), WN, lane,
                    blk->flatC);
}

/// The K loop: register double buffering with `stages = 0`, else the
/// synchronous copies that hidet-pipeline-shared-copies pipelines.
void MatmulBuilder::mainLoop() {
  if (sched.stages == 0) {
    pipelining::emitDoubleBufferedKLoop(
        b, loc, blk->kBegin, blk->kEnd, BK,
        [&](OpBuilder &, Value k0) {
          fetch(copyA, k0);
          fetch(copyB, k0);
        },
        [&](OpBuilder &, Value stage) {
          stash(copyA, stage);
          stash(copyB, stage);
        },
        [&](OpBuilder &, Value stage) { compute(stage); });
    return;
  }
  pipelining::emitStagedCopyKLoop(
      b, loc, blk->kBegin, blk->kEnd, BK, sched.stages,
      [&](OpBuilder &b, Value k0) {
        copyTile(b, loc, p, *blk, copyA, k0);
        copyTile(b, loc, p, *blk, copyB, k0);
      },
      [&](OpBuilder &) { compute(Value()); });
}

void hidet::templates::buildMmaMatmul(OpBuilder &b, Location loc,
                                      const GemmProblem &p, MmaMatmulAttr s,
                                      int64_t reduceBlockSize) {
  schedule::MmaMatmulSchedule sched = s.toSchedule();
  mma::MatmulBuilder(b, loc, p, sched).build(reduceBlockSize);
}
