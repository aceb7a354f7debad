//===- SplitK.cpp - Split-K workspaces of the matmul templates ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The split-K workspace (its allocation and its addressing as a GEMM
// operand), the GemmOutput that sends a kernel's results to C or to it,
// and the kernel that adds its slices to C.
//
//===----------------------------------------------------------------------===//

#include "SplitK.h"
#include "Templates.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <numeric>

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;
using hidet::kernel::cst;
using hidet::kernel::lessThan;

//===----------------------------------------------------------------------===//
// The workspace
//===----------------------------------------------------------------------===//

Value hidet::templates::createSplitKWorkspace(OpBuilder &b, Location loc,
                                              const GemmProblem &p,
                                              int64_t splits) {
  if (splits <= 1)
    return Value();
  return memref::AllocOp::create(
      b, loc, MemRefType::get({splits, p.batch, p.m, p.n}, b.getF32Type()));
}

GemmOperand hidet::templates::splitKWorkspaceOperand(const GemmProblem &p,
                                                     Value workspace) {
  GemmOperand w;
  w.buffer = workspace;
  w.offset = stridedOffset({p.m * p.n, p.n, 1});
  w.innerDim = 1;
  w.vectorWidth = vectorWidthFor(Float32Type::get(workspace.getContext()), p.n);
  return w;
}

//===----------------------------------------------------------------------===//
// GemmOutput
//===----------------------------------------------------------------------===//

/// `row < m && col < n`.
static Value inOutput(OpBuilder &b, Location loc, const GemmProblem &p,
                      Value row, Value col) {
  return arith::AndIOp::create(b, loc, lessThan(b, loc, row, p.m),
                               lessThan(b, loc, col, p.n));
}

Value GemmOutput::loadInit(OpBuilder &b, Location loc, const GemmBlock &blk,
                           Value row, Value col) const {
  Type f32 = b.getF32Type();
  const GemmProblem &p = *problem;
  if (workspace)
    return arith::ConstantOp::create(b, loc, b.getZeroAttr(f32));
  if (p.cInit)
    return castTo(b, loc, p.cInit, f32);
  Value v = loadOrZero(
      b, loc, inOutput(b, loc, p, row, col), blk.flatC,
      [&](OpBuilder &b) {
        return SmallVector<Value>{
            elementOffset(b, loc, p.c, blk.batch, row, col)};
      },
      p.cElt);
  return castTo(b, loc, v, f32);
}

void GemmOutput::store(OpBuilder &b, Location loc, const GemmBlock &blk,
                       Value row, Value col, Value v) const {
  const GemmProblem &p = *problem;
  auto ifOp = scf::IfOp::create(b, loc, inOutput(b, loc, p, row, col),
                                /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&ifOp.getThenRegion().front());
  if (workspace) {
    memref::StoreOp::create(b, loc, v, workspace,
                            ValueRange{blk.split, blk.batch, row, col});
    return;
  }
  if (p.epilogue) {
    p.epilogue->store(b, loc, p.c.position(b, loc, blk.batch, row, col),
                      castTo(b, loc, v, p.cElt));
    return;
  }
  memref::StoreOp::create(b, loc, castTo(b, loc, v, p.cElt), blk.flatC,
                          elementOffset(b, loc, p.c, blk.batch, row, col));
}

GemmOperand GemmOutput::target() const {
  return workspace ? splitKWorkspaceOperand(*problem, workspace) : problem->c;
}

Type GemmOutput::targetElt() const {
  return workspace ? Float32Type::get(workspace.getContext()) : problem->cElt;
}

Value GemmOutput::targetBatch(OpBuilder &b, Location loc,
                              const GemmBlock &blk) const {
  return workspace ? affine(b, loc, blk.split, problem->batch, blk.batch)
                   : blk.batch;
}

//===----------------------------------------------------------------------===//
// The slices added in the GEMM kernel
//===----------------------------------------------------------------------===//

int64_t hidet::templates::splitKCounters(int64_t splits, bool inKernel,
                                         int64_t count) {
  return splits > 1 && inKernel ? count : 0;
}

/// Pieces of a part whose loads a lane issues before it stores any.
constexpr int64_t kSplitKFixupGroup = 8;

void hidet::templates::emitSplitKFixup(OpBuilder &b, Location loc,
                                       const GemmOutput &output, int64_t splits,
                                       Value counter, Value batch, Value row0,
                                       int64_t rows, Value col0, int64_t cols,
                                       Value lane, Value flatC) {
  const GemmProblem &p = *output.problem;
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type(), i32 = b.getI32Type();
  auto gpuScope = NVVM::MemScopeKindAttr::get(ctx, NVVM::MemScopeKind::GPU);
  int64_t threads = kernel::kWarpSize;
  Value thread = lane;
  // The warp's slice is in the workspace for all to see; then its lane 0
  // counts it.
  NVVM::MembarOp::create(b, loc, gpuScope);
  NVVM::SyncWarpOp::create(b, loc,
                           arith::ConstantIntOp::create(b, loc, -1, 32));
  Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                       cst(b, loc, 0));
  auto count = scf::IfOp::create(b, loc, TypeRange{b.getI1Type()}, leader,
                                 /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&count.getThenRegion().front());
    Value counters = PersistentCountersOp::create(
        b, loc, MemRefType::get({output.counters}, i32));
    Value before =
        memref::AtomicRMWOp::create(b, loc, arith::AtomicRMWKind::addi,
                                    arith::ConstantIntOp::create(b, loc, 1, 32),
                                    counters, ValueRange{counter});
    Value last = arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::eq, before,
        arith::ConstantIntOp::create(b, loc, splits - 1, 32));
    // The last one resets the counter for the next launch: every slice
    // has counted.
    auto reset = scf::IfOp::create(b, loc, last, /*withElse=*/false);
    b.setInsertionPointToStart(&reset.getThenRegion().front());
    memref::StoreOp::create(b, loc, arith::ConstantIntOp::create(b, loc, 0, 32),
                            counters, ValueRange{counter});
    b.setInsertionPointAfter(reset);
    scf::YieldOp::create(b, loc, last);
    b.setInsertionPointToStart(&count.getElseRegion().front());
    scf::YieldOp::create(
        b, loc, ValueRange{arith::ConstantIntOp::create(b, loc, 0, 1)});
  }
  // Every lane learns what lane 0 found.
  Value last = arith::TruncIOp::create(
      b, loc, b.getI1Type(),
      gpu::ShuffleOp::create(
          b, loc, arith::ExtUIOp::create(b, loc, i32, count.getResult(0)), 0,
          kernel::kWarpSize, gpu::ShuffleMode::IDX)
          .getShuffleResult());
  auto fixup = scf::IfOp::create(b, loc, last, /*withElse=*/false);
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(&fixup.getThenRegion().front());
  // The other slices' stores, seen after their counts (acquire).
  NVVM::MembarOp::create(b, loc, gpuScope);

  // Vectors of `width` consecutive columns, inside C's rows or outside.
  int64_t width = vectorWidthFor(f32, std::gcd(p.n, cols));
  if (p.epilogue)
    width = std::min(width, p.epilogue->maxVectorWidth());
  else if (p.c.innerDim != 1)
    width = 1;
  else
    width = std::min(width, p.c.vectorWidth);
  int64_t perRow = cols / width, pieces = rows * perRow;
  GemmOperand ws = splitKWorkspaceOperand(p, output.workspace);
  Value flatWs = flatten(b, loc, output.workspace);
  Type accType = width == 1 ? f32 : VectorType::get({width}, f32);
  Type cType = width == 1 ? p.cElt : VectorType::get({width}, p.cElt);
  auto load = [&](Value flat, Value offset, Type type) -> Value {
    if (!isa<VectorType>(type))
      return memref::LoadOp::create(b, loc, flat, offset);
    return vector::LoadOp::create(
        b, loc, type, flat, offset, /*nontemporal=*/false,
        kernel::vectorAlign(cast<VectorType>(type).getElementType(), width));
  };
  // The lane's pieces, `group` at a time: the loads of a group are issued
  // before any of its stores (addresses clamped into C, so that none is
  // guarded), which keeps them all in flight; stores that may alias later
  // loads would otherwise serialize every piece on its loads' latency.
  int64_t iters = (pieces + threads - 1) / threads;
  int64_t group = std::min(iters, kSplitKFixupGroup);
  auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0),
                                 cst(b, loc, (iters + group - 1) / group),
                                 cst(b, loc, 1));
  b.setInsertionPointToStart(loop.getBody());
  Value lastRow = cst(b, loc, p.m - 1), lastCol = cst(b, loc, p.n - width);
  struct Piece {
    Value row, col, inside, sum;
  };
  SmallVector<Piece> ps;
  for (int64_t j = 0; j < group; ++j) {
    Value it = affine(b, loc, loop.getInductionVar(), group, cst(b, loc, j));
    Value piece = affine(b, loc, it, threads, thread);
    Piece q;
    q.row = arith::AddIOp::create(
        b, loc, row0,
        arith::DivUIOp::create(b, loc, piece, cst(b, loc, perRow)));
    q.col = arith::AddIOp::create(
        b, loc, col0,
        arith::MulIOp::create(
            b, loc, arith::RemUIOp::create(b, loc, piece, cst(b, loc, perRow)),
            cst(b, loc, width)));
    q.inside = arith::AndIOp::create(
        b, loc, lessThan(b, loc, piece, pieces),
        arith::AndIOp::create(b, loc, lessThan(b, loc, q.row, p.m),
                              lessThan(b, loc, q.col, p.n)));
    Value row = arith::MinUIOp::create(b, loc, q.row, lastRow);
    Value col = arith::MinUIOp::create(b, loc, q.col, lastCol);
    if (p.cInit) {
      q.sum = castTo(b, loc, p.cInit, f32);
      if (width > 1)
        q.sum = vector::BroadcastOp::create(b, loc, accType, q.sum);
    } else {
      q.sum = castTo(
          b, loc,
          load(flatC, elementOffset(b, loc, p.c, batch, row, col), cType), f32);
    }
    // Slices are added in order, so the result does not depend on timing.
    for (int64_t s = 0; s < splits; ++s)
      q.sum = arith::AddFOp::create(
          b, loc, q.sum,
          load(flatWs,
               elementOffset(b, loc, ws,
                             affine(b, loc, cst(b, loc, s), p.batch, batch),
                             row, col),
               accType));
    ps.push_back(q);
  }
  for (const Piece &q : ps) {
    OpBuilder::InsertionGuard g(b);
    auto store = scf::IfOp::create(b, loc, q.inside, /*withElse=*/false);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    Value result = castTo(b, loc, q.sum, p.cElt);
    if (p.epilogue) {
      p.epilogue->store(b, loc, p.c.position(b, loc, batch, q.row, q.col),
                        result);
      continue;
    }
    Value cOffset = elementOffset(b, loc, p.c, batch, q.row, q.col);
    if (width == 1)
      memref::StoreOp::create(b, loc, result, flatC, cOffset);
    else
      vector::StoreOp::create(b, loc, result, flatC, cOffset,
                              /*nontemporal=*/false,
                              kernel::vectorAlign(p.cElt, width));
  }
}

Value hidet::templates::warpPartCounter(OpBuilder &b, Location loc,
                                        const GemmGrid &grid,
                                        const GemmBlock &blk, Value warp,
                                        int64_t warps) {
  Value tileRow =
      arith::DivUIOp::create(b, loc, blk.m0, cst(b, loc, grid.blockM));
  Value tileCol =
      arith::DivUIOp::create(b, loc, blk.n0, cst(b, loc, grid.blockN));
  Value tile = affine(b, loc, affine(b, loc, blk.batch, grid.tilesM, tileRow),
                      grid.tilesN, tileCol);
  return affine(b, loc, tile, warps, warp);
}

int64_t hidet::templates::warpPartCount(const GemmProblem &p,
                                        const GemmGrid &grid, int64_t warps) {
  return p.batch * grid.tilesM * grid.tilesN * warps;
}

void hidet::templates::finishSplitK(OpBuilder &b, Location loc,
                                    const GemmProblem &p,
                                    const GemmOutput &output, int64_t splits,
                                    int64_t reduceBlockSize) {
  if (!output.workspace)
    return;
  if (!output.counters) {
    emitSplitKReduction(b, loc, p, output.workspace, splits, reduceBlockSize);
    return;
  }
  memref::DeallocOp::create(b, loc, output.workspace);
}

//===----------------------------------------------------------------------===//
// The reduction kernel
//===----------------------------------------------------------------------===//

void hidet::templates::emitSplitKReduction(OpBuilder &b, Location loc,
                                           const GemmProblem &p,
                                           Value workspace, int64_t splits,
                                           int64_t blockSize) {
  auto mapping = hidet::tm::SpatialAttr::get(
      b.getContext(), ArrayRef<int64_t>{p.batch, p.m, p.n});
  kernel::createLaunch(
      b, loc, kSplitKReduceKind, mapping, blockSize, blockSize, [&](OpBuilder &b, gpu::LaunchOp) {
        auto elems = hidet::tm::ForEachOp::create(
            b, loc, mapping, hidet::tm::GPUWorker::global_x);
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(elems.getBody().front().getTerminator());
        ValueRange idx = elems.getTaskIndices();
        Value flatC = flatten(b, loc, p.c.buffer);
        Value cIdx = elementOffset(b, loc, p.c, idx[0], idx[1], idx[2]);
        Value init =
            p.cInit ? p.cInit
                    : memref::LoadOp::create(b, loc, flatC, cIdx).getResult();
        Value sum = castTo(b, loc, init, b.getF32Type());
        // Slices are added in order, so the result does not depend on timing.
        for (int64_t s = 0; s < splits; ++s)
          sum = arith::AddFOp::create(
              b, loc, sum,
              memref::LoadOp::create(
                  b, loc, workspace,
                  ValueRange{cst(b, loc, s), idx[0], idx[1], idx[2]}));
        if (p.epilogue)
          p.epilogue->store(b, loc,
                            p.c.position(b, loc, idx[0], idx[1], idx[2]),
                            castTo(b, loc, sum, p.cElt));
        else
          memref::StoreOp::create(b, loc, castTo(b, loc, sum, p.cElt), flatC,
                                  cIdx);
      });
  memref::DeallocOp::create(b, loc, workspace);
}
