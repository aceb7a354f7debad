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

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

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
