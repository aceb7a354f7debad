//===- WgmmaConsumer.cpp - The consumers of the Hopper template -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The consumer warpgroups of the wgmma template: for each of the block's
// tiles, the main loop waits for each K step's stage, runs wgmma on it and
// releases the stage of the step before; the accumulators then go to the
// epilogue (WgmmaEpilogue.cpp).
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

LLVM::LLVMStructType
hidet::templates::wgmma::accumulatorStruct(MLIRContext *ctx,
                                           int64_t perThread) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, {LLVM::LLVMStructType::getLiteral(
               ctx, SmallVector<Type>(perThread, Float32Type::get(ctx)))});
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

void hidet::templates::wgmma::buildConsumer(OpBuilder &b, Location loc,
                                            const Kernel &k) {
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
        // Copies that arrived by themselves were not fenced by the
        // producer: their generic-proxy writes, acquired through the
        // mbarrier, are ordered before wgmma's async-proxy reads here.
        if (k.asyncArrive)
          pipelining::fenceSharedForAsyncProxy(b, loc);
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
