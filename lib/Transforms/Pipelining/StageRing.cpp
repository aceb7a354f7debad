//===- StageRing.cpp - Producer/consumer stages on mbarriers --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The full and empty mbarriers of a ring of shared-memory stages, their
// initialization, the waits and arrivals of its producer and consumers,
// and the fence that hands a stage's generic-proxy writes to the async
// proxy.
//
//===----------------------------------------------------------------------===//

#include "Pipelining.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"

#include <cstdint>

using namespace mlir;
using namespace hidet;
using namespace hidet::pipelining;
using hidet::kernel::cst;

/// `step` as the integer the ring computes in: i32 when narrow, else the
/// index itself.
static Value stepValue(OpBuilder &b, Location loc, Value step, bool narrow) {
  if (!narrow)
    return step;
  return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), step);
}

/// A constant of `like`'s type.
static Value constantLike(OpBuilder &b, Location loc, Value like, int64_t v) {
  if (like.getType().isIndex())
    return cst(b, loc, v);
  return arith::ConstantIntOp::create(b, loc, like.getType(), v);
}

/// `step % stages`, as an index.
static Value stageIndex(OpBuilder &b, Location loc, Value step, int64_t stages,
                        bool narrow) {
  Value s = stepValue(b, loc, step, narrow);
  Value r = arith::RemUIOp::create(b, loc, s, constantLike(b, loc, s, stages));
  if (!narrow)
    return r;
  return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), r);
}

/// The parity of round `g / stages` of a stage's mbarrier (flipped: of the
/// round before), as the i1 that `mbarrier.try_wait.parity` takes.
static Value parityBit(OpBuilder &b, Location loc, Value g, int64_t stages,
                       bool narrow, bool flip) {
  Value s = stepValue(b, loc, g, narrow);
  Value round =
      arith::DivUIOp::create(b, loc, s, constantLike(b, loc, s, stages));
  Value bit = arith::AndIOp::create(b, loc, round, constantLike(b, loc, s, 1));
  if (flip)
    bit = arith::XOrIOp::create(b, loc, bit, constantLike(b, loc, s, 1));
  if (narrow)
    return arith::TruncIOp::create(b, loc, b.getI1Type(), bit);
  return arith::IndexCastOp::create(b, loc, b.getI1Type(), bit);
}

/// Waits on `barriers[stage]` for the round of `step` (flipped: the round
/// before).
static void waitParity(OpBuilder &b, Location loc, Value barriers, Value step,
                       int64_t stages, bool narrow, Value stage, bool flip) {
  nvgpu::MBarrierTryWaitParityOp::create(
      b, loc, barriers, parityBit(b, loc, step, stages, narrow, flip),
      cst(b, loc, kMBarrierWaitHintNs), stage);
}

StageRing StageRing::create(OpBuilder &b, Location loc, int64_t stages,
                            int64_t maxSteps) {
  MLIRContext *ctx = b.getContext();
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  auto barrierType = nvgpu::MBarrierGroupType::get(ctx, workgroup, stages);
  StageRing ring;
  ring.stages = stages;
  // The previous stage's step + stages - 1 stays below 2^31 too.
  ring.narrow = maxSteps > 0 && maxSteps + stages <= INT32_MAX;
  ring.full = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  ring.empty = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  return ring;
}

void StageRing::init(OpBuilder &b, Location loc, int64_t fullArrivals,
                     int64_t emptyArrivals) const {
  for (int64_t i = 0; i < stages; ++i) {
    nvgpu::MBarrierInitOp::create(b, loc, full, cst(b, loc, fullArrivals),
                                  cst(b, loc, i), Value());
    nvgpu::MBarrierInitOp::create(b, loc, empty, cst(b, loc, emptyArrivals),
                                  cst(b, loc, i), Value());
  }
}

Value StageRing::stageOf(OpBuilder &b, Location loc, Value step) const {
  return stageIndex(b, loc, step, stages, narrow);
}

Value StageRing::previousStage(OpBuilder &b, Location loc, Value step) const {
  return stageIndex(
      b, loc, arith::AddIOp::create(b, loc, step, cst(b, loc, stages - 1)),
      stages, narrow);
}

void StageRing::waitEmpty(OpBuilder &b, Location loc, Value step,
                          Value stage) const {
  // Round r waits for the consumers' release of round r - 1; the parity of
  // round 0 is that of the phase before the first, which counts as
  // complete.
  waitParity(b, loc, empty, step, stages, narrow, stage, /*flip=*/true);
}

void StageRing::arriveFull(OpBuilder &b, Location loc, Value stage) const {
  nvgpu::MBarrierArriveOp::create(b, loc, full, stage);
}

void StageRing::arriveFullExpectingBytes(OpBuilder &b, Location loc,
                                         Value stage, int64_t bytes) const {
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, cst(b, loc, bytes),
                                          stage, Value());
}

void StageRing::waitFull(OpBuilder &b, Location loc, Value step,
                         Value stage) const {
  waitParity(b, loc, full, step, stages, narrow, stage, /*flip=*/false);
}

void StageRing::arriveEmpty(OpBuilder &b, Location loc, Value stage) const {
  nvgpu::MBarrierArriveOp::create(b, loc, empty, stage);
}

Value StageRing::fullPointer(OpBuilder &b, Location loc, Value stage) const {
  Value address =
      nvgpu::MBarrierGetOp::create(b, loc, b.getI32Type(), full, stage);
  return LLVM::IntToPtrOp::create(
      b, loc,
      LLVM::LLVMPointerType::get(
          b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared)),
      address);
}

void hidet::pipelining::fenceSharedForAsyncProxy(OpBuilder &b, Location loc) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
}
