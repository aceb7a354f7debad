//===- KLoops.cpp - K loops that pipeline through shared memory -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The K loop with register double buffering, and the synchronous K loop
// that hidet-pipeline-shared-copies turns into a cp.async pipeline.
//
//===----------------------------------------------------------------------===//

#include "Pipelining.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace hidet;
using hidet::kernel::cst;

void hidet::pipelining::emitDoubleBufferedKLoop(
    OpBuilder &b, Location loc, Value kBegin, Value kEnd, int64_t blockK,
    function_ref<void(OpBuilder &, Value)> load,
    function_ref<void(OpBuilder &, Value)> store,
    function_ref<void(OpBuilder &, Value)> compute) {
  load(b, arith::MulIOp::create(b, loc, kBegin, cst(b, loc, blockK)));
  store(b, cst(b, loc, 0));
  gpu::BarrierOp::create(b, loc);
  auto kLoop = scf::ForOp::create(b, loc, kBegin, kEnd, cst(b, loc, 1));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(kLoop.getBody());
  Value t = kLoop.getInductionVar();
  Value stage = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, t, kBegin), cst(b, loc, 2));
  // The load past the last tile reads nothing (zero-filled past K).
  load(b, arith::MulIOp::create(
              b, loc, arith::AddIOp::create(b, loc, t, cst(b, loc, 1)),
              cst(b, loc, blockK)));
  compute(b, stage);
  store(b, arith::SubIOp::create(b, loc, cst(b, loc, 1), stage));
  gpu::BarrierOp::create(b, loc);
}

void hidet::pipelining::emitStagedCopyKLoop(
    OpBuilder &b, Location loc, Value kBegin, Value kEnd, int64_t blockK,
    int64_t stages, function_ref<void(OpBuilder &, Value)> copy,
    function_ref<void(OpBuilder &)> compute) {
  auto kLoop = scf::ForOp::create(b, loc, kBegin, kEnd, cst(b, loc, 1));
  kLoop->setAttr(hidet::kPipelineStagesAttrName, b.getI64IntegerAttr(stages));
  OpBuilder::InsertionGuard g(b);
  b.setInsertionPointToStart(kLoop.getBody());
  gpu::BarrierOp::create(b, loc);
  Value k0 = arith::MulIOp::create(b, loc, kLoop.getInductionVar(),
                                   cst(b, loc, blockK));
  copy(b, k0);
  gpu::BarrierOp::create(b, loc);
  compute(b);
}
