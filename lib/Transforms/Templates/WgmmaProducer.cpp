//===- WgmmaProducer.cpp - The producer of the Hopper template ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The producer warpgroup of the wgmma template: for each K step of the
// block's tiles, it waits until the step's stage is empty and loads A's and
// B's K tiles into it, with TMA, with cp.async, or A with cp.async and B
// with TMA.
//
//===----------------------------------------------------------------------===//

#include "Wgmma.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::wgmma;

Value Kernel::forEachLoad(OpBuilder &b, Location loc,
                          function_ref<void(OpBuilder &, const GemmBlock &,
                                            Value, Value, Value, Value)>
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

/// Loads B's K tile at `k0` of the block `blk` by TMA into the stage at
/// byte `at`, as BN / kBoxCols boxes of 64 x 64 that complete on the stage's
/// full mbarrier.
static void loadBoxesOfB(OpBuilder &b, Location loc, const Kernel &k,
                         const GemmBlock &blk, Value stage, Value k0,
                         Value at) {
  const WgmmaMatmulSchedule &sched = k.sched;
  for (int64_t j = 0; j < k.BN / kBoxCols; ++j)
    nvgpu::TmaAsyncLoadOp::create(
        b, loc,
        sharedView(
            b, loc, k.smem,
            arith::AddIOp::create(
                b, loc, at, cst(b, loc, sched.aBytes() + j * sched.boxBytes())),
            {kBoxCols, WgmmaMatmulSchedule::kBlockK}, k.p.bElt),
        k.ring.full, k.mapB,
        ValueRange{
            arith::AddIOp::create(b, loc, blk.n0, cst(b, loc, j * kBoxCols)),
            k0},
        stage, Value(), Value());
}

void hidet::templates::wgmma::buildTmaProducer(OpBuilder &b, Location loc,
                                               const Kernel &k) {
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
  k.forEachLoad(b, loc,
                [&](OpBuilder &b, const GemmBlock &blk, Value step, Value stage,
                    Value k0, Value at) {
                  k.ring.arriveFullExpectingBytes(b, loc, stage,
                                                  sched.stageBytes());
                  // Coordinates are innermost first: (k, m) for A, (n, k) for
                  // B.
                  nvgpu::TmaAsyncLoadOp::create(
                      b, loc, sharedView(b, loc, k.smem, at, {k.BM, BK}, elt),
                      k.ring.full, k.mapA, ValueRange{k0, blk.m0}, stage,
                      Value(), Value());
                  loadBoxesOfB(b, loc, k, blk, stage, k0, at);
                });
}

/// Thread t of the cp.async producer copies piece t % 8 of rows t / 8 + 16 r
/// of A's tile and of each of B's boxes; (t / 8) % 8 is then the swizzle of
/// all its rows, so every piece of the thread lands at the same swizzled
/// column.
void hidet::templates::wgmma::buildAsyncCopyProducer(OpBuilder &b, Location loc,
                                                     const Kernel &k) {
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  int64_t threads = WgmmaMatmulSchedule::kWarpgroupThreads;
  int64_t rowsPerPass = threads / kPiece;
  const GemmProblem &p = k.p;
  const WgmmaMatmulSchedule &sched = k.sched;
  // Steps whose copies may still be in flight after the current one's
  // were issued (see the file comment of WgmmaMatmul.cpp).
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
  // and arrive on its full mbarrier; with B by TMA, the first thread's
  // arrival expects B's bytes (which may have landed before it: the
  // transaction count goes below zero until then, and the phase completes
  // only once both are zero).
  int64_t bBytes = k.BN / kBoxCols * sched.boxBytes();
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                       cst(b, loc, 0));
  auto release = [&](OpBuilder &b, Value step) {
    Value stage = k.ring.stageOf(b, loc, step);
    if (!k.tmaB) {
      k.ring.arriveFull(b, loc, stage);
      return;
    }
    auto which = scf::IfOp::create(b, loc, leader, /*withElse=*/true);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&which.getThenRegion().front());
    k.ring.arriveFullExpectingBytes(b, loc, stage, bBytes);
    b.setInsertionPointToStart(&which.getElseRegion().front());
    k.ring.arriveFull(b, loc, stage);
  };

  if (k.tmaB) {
    auto prefetch = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&prefetch.getThenRegion().front());
    nvgpu::TmaPrefetchOp::create(b, loc, k.mapB, Value());
  }
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
        Value barrier =
            k.asyncArrive ? k.ring.fullPointer(b, loc, stage) : Value();
        if (k.tmaB) {
          auto issue = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPointToStart(&issue.getThenRegion().front());
          // Arriving by itself, the leader's arrival cannot carry B's bytes:
          // they are expected before its arrival, hence before the phase
          // can complete.
          if (k.asyncArrive)
            NVVM::MBarrierExpectTxOp::create(b, loc, barrier,
                                             i32(b, loc, bBytes));
          loadBoxesOfB(b, loc, k, blk, stage, k0, at);
        } else {
          Value tileB = sharedView(
              b, loc, k.smem,
              arith::AddIOp::create(b, loc, at, cst(b, loc, sched.aBytes())),
              {k.BN * BK}, p.bElt);
          for (int64_t j = 0; j < k.BN / kBoxCols; ++j) {
            Value colB = arith::AddIOp::create(
                b, loc, blk.n0,
                affine(b, loc, piece, kPiece, cst(b, loc, j * kBoxCols)));
            for (int64_t r = 0; r < BK / rowsPerPass; ++r) {
              Value row = arith::AddIOp::create(b, loc, row0,
                                                cst(b, loc, r * rowsPerPass));
              copy(b, p.b, flatB, blk.batch,
                   arith::AddIOp::create(b, loc, k0, row), p.k, colB, p.n,
                   tileB,
                   affine(b, loc, row, BK,
                          affine(b, loc, cst(b, loc, j), 64 * BK, column)));
            }
          }
        }
        if (k.asyncArrive) {
          // The thread's arrival, once all its copies so far landed; it
          // counts as one of the 128 the mbarrier expects (noinc).
          NVVM::CpAsyncMBarrierArriveOp::create(b, loc, barrier,
                                                /*noinc=*/true);
          return;
        }
        NVVM::CpAsyncCommitGroupOp::create(b, loc);
        // Step - inFlight has landed once at most inFlight groups are pending.
        Value ready = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                            step, cst(b, loc, inFlight));
        auto done = scf::IfOp::create(b, loc, ready, /*withElse=*/false);
        b.setInsertionPointToStart(&done.getThenRegion().front());
        NVVM::CpAsyncWaitGroupOp::create(b, loc, inFlight);
        pipelining::fenceSharedForAsyncProxy(b, loc);
        release(b, arith::SubIOp::create(b, loc, step, cst(b, loc, inFlight)));
      });
  if (k.asyncArrive) {
    // Every step arrives by itself; the threads exit once their copies
    // landed.
    NVVM::CpAsyncCommitGroupOp::create(b, loc);
    NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
    return;
  }
  // The last steps: all copies landed.
  NVVM::CpAsyncWaitGroupOp::create(b, loc, 0);
  pipelining::fenceSharedForAsyncProxy(b, loc);
  Value first = arith::SubIOp::create(
      b, loc, arith::MaxUIOp::create(b, loc, total, cst(b, loc, inFlight)),
      cst(b, loc, inFlight));
  auto tail = scf::ForOp::create(b, loc, first, total, cst(b, loc, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(tail.getBody());
  release(b, tail.getInductionVar());
}
