//===- WgmmaMatmul.cpp - The Hopper (TMA + wgmma) matmul template ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The sm_90a matmul template (f16/bf16 operands, f32 accumulation) for
// row-major A (M x K) and B (K x N). A block computes a BM x BN tile of C
// with BM / 64 consumer warpgroups and one producer warpgroup (warp
// specialization):
//
//   producer (one thread):  for each K tile i:  wait empty[i % S];
//                           expect_tx full[i % S]; TMA A and B into stage
//   consumer warpgroup g:   for each K tile i:  wait full[i % S];
//                           wgmma rows [64 g, 64 g + 64) of the tile;
//                           once the wgmma of tile i - 1 retired (wait
//                           group 1), arrive on empty[(i - 1) % S]
//
// so the tensor cores never wait for a load that S - 1 earlier tiles could
// hide. The consumers' tasks are spatial(BM / 64, 1) over warpgroups times
// the wgmma accumulator layout (PTX ISA, "wgmma m64nNk16 D fragments"):
// thread t of a warpgroup holds, for j < BN / 8 and i, c < 2, element
// (16 (t / 32) + (t % 32) / 4 + 8 i, 8 j + 2 (t % 4) + c) in register
// 4 j + 2 i + c.
//
// TMA writes each stage in the 128-byte swizzle that wgmma reads (A as one
// BM x 64 box, B as BN / 64 boxes of 64 x 64 with N innermost, which wgmma
// reads transposed) and fills zeros past the operands' edges, so ragged
// shapes need no masks in the main loop. The epilogue converts the
// accumulators, stages the tile in shared memory (reusing the stages, with
// rows padded so that the fragment stores hit every bank once) and stores
// it to C in 16-byte rows.
//
// The ops are upstream's nvgpu ops (tma.async.load, mbarrier.*,
// warpgroup.generate.descriptor, warpgroup.mma); only the epilogue reads the
// accumulator registers itself, because nvgpu.warpgroup.mma.store writes
// f32 only and addresses rows by the absolute thread id.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "../RuleBased/RuleBased.h"

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::rulebased;
using namespace hidet::templates;

using schedule::WgmmaMatmulSchedule;

static constexpr int64_t kSwizzleAlign = WgmmaMatmulSchedule::kSwizzleAlign;
/// The spin hint of an mbarrier wait (in ns): the wait loops until the phase
/// completes either way; this only bounds one try.
static constexpr int64_t kWaitHintNs = 10000000;

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

std::string hidet::templates::whyNoWgmma(const GemmProblem &p) {
  bool half = (p.aElt.isF16() && p.bElt.isF16()) ||
              (p.aElt.isBF16() && p.bElt.isBF16());
  if (!half)
    return "wgmma takes f16 or bf16 operands";
  if (!p.cElt.isF16() && !p.cElt.isBF16() && !p.cElt.isF32())
    return "the wgmma template writes f16, bf16 or f32 results";
  if (p.batch != 1)
    return "the wgmma template takes one GEMM, not a batch";
  if (!isRowMajor2D(p.a, p.m, p.k))
    return "TMA loads A as a row-major M x K buffer";
  if (!isRowMajor2D(p.b, p.k, p.n))
    return "TMA loads B as a row-major K x N buffer";
  if (p.k % 8 != 0 || p.n % 8 != 0)
    return "TMA needs rows of a multiple of 16 bytes (K and N multiples of 8)";
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

/// The parity of round `i / stages` of a stage's mbarrier (flipped: of the
/// round before), as the i1 that `mbarrier.try_wait.parity` takes.
static Value parityBit(OpBuilder &b, Location loc, Value i, int64_t stages,
                       bool flip) {
  Value round = arith::DivUIOp::create(b, loc, i, cst(b, loc, stages));
  Value bit = arith::RemUIOp::create(b, loc, round, cst(b, loc, 2));
  if (flip)
    bit = arith::XOrIOp::create(b, loc, bit, cst(b, loc, 1));
  return arith::IndexCastOp::create(b, loc, b.getI1Type(), bit);
}

/// The body of the launch: shared memory, mbarriers, the producer and
/// consumer roles and the epilogue.
static void buildKernel(OpBuilder &b, Location loc, const GemmProblem &p,
                        const WgmmaMatmulSchedule &sched, gpu::LaunchOp launch,
                        Value mapA, Value mapB) {
  MLIRContext *ctx = b.getContext();
  int64_t BM = sched.block[0], BN = sched.block[1], S = sched.stages;
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  int64_t W = sched.consumers();
  int64_t wgThreads = WgmmaMatmulSchedule::kWarpgroupThreads;
  Type elt = p.aElt, f32 = b.getF32Type(), ct = p.cElt;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  GemmGrid grid(p, BM, BN, BK, sched.grid.swizzle, /*splits=*/1);
  Value tid = launch.getThreadIds().x;

  // Dynamic shared memory, from its first 1024-byte aligned byte.
  Value smem = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  Value base = arith::RemUIOp::create(
      b, loc,
      arith::SubIOp::create(
          b, loc, cst(b, loc, kSwizzleAlign),
          arith::RemUIOp::create(b, loc, address, cst(b, loc, kSwizzleAlign))),
      cst(b, loc, kSwizzleAlign));
  auto stageBase = [&](OpBuilder &b, Value stage) {
    return affine(b, loc, stage, sched.stageBytes(), base);
  };

  // full[s]: the stage's loads landed (one arrival, the producer's, plus
  // the bytes). empty[s]: every consumer thread is done reading it.
  auto barrierType = nvgpu::MBarrierGroupType::get(ctx, workgroup, S);
  Value full = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  Value empty = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  Value isThread0 = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid,
                                          cst(b, loc, 0));
  {
    auto init = scf::IfOp::create(b, loc, isThread0, /*withElse=*/false);
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(&init.getThenRegion().front());
    for (int64_t i = 0; i < S; ++i) {
      nvgpu::MBarrierInitOp::create(b, loc, full, cst(b, loc, 1),
                                    cst(b, loc, i), Value());
      nvgpu::MBarrierInitOp::create(b, loc, empty, cst(b, loc, W * wgThreads),
                                    cst(b, loc, i), Value());
    }
  }
  gpu::BarrierOp::create(b, loc);

  forEachGemmBlock(b, loc, p, grid, [&](OpBuilder &b, const GemmBlock &blk) {
    Value numK = arith::SubIOp::create(b, loc, blk.kEnd, blk.kBegin);
    Value warpgroup =
        arith::DivUIOp::create(b, loc, tid, cst(b, loc, wgThreads));
    Value isConsumer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                             warpgroup, cst(b, loc, W));
    auto roles = scf::IfOp::create(b, loc, isConsumer, /*withElse=*/true);

    // Producer: its first thread issues every load.
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&roles.getElseRegion().front());
      Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           tid, cst(b, loc, W * wgThreads));
      auto issue = scf::IfOp::create(b, loc, leader, /*withElse=*/false);
      b.setInsertionPointToStart(&issue.getThenRegion().front());
      nvgpu::TmaPrefetchOp::create(b, loc, mapA, Value());
      nvgpu::TmaPrefetchOp::create(b, loc, mapB, Value());
      auto loop =
          scf::ForOp::create(b, loc, cst(b, loc, 0), numK, cst(b, loc, 1));
      b.setInsertionPointToStart(loop.getBody());
      Value i = loop.getInductionVar();
      Value stage = arith::RemUIOp::create(b, loc, i, cst(b, loc, S));
      // Round r waits for the consumers' release of round r - 1; the
      // parity of round 0 is that of the phase before the first, which
      // counts as complete.
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, empty, parityBit(b, loc, i, S, /*flip=*/true),
          cst(b, loc, kWaitHintNs), stage);
      nvgpu::MBarrierArriveExpectTxOp::create(
          b, loc, full, cst(b, loc, sched.stageBytes()), stage, Value());
      Value k0 = arith::MulIOp::create(
          b, loc, arith::AddIOp::create(b, loc, blk.kBegin, i),
          cst(b, loc, BK));
      Value at = stageBase(b, stage);
      // Coordinates are innermost first: (k, m) for A, (n, k) for B.
      nvgpu::TmaAsyncLoadOp::create(
          b, loc, sharedView(b, loc, smem, at, {BM, BK}, elt), full, mapA,
          ValueRange{k0, blk.m0}, stage, Value(), Value());
      for (int64_t j = 0; j < BN / 64; ++j)
        nvgpu::TmaAsyncLoadOp::create(
            b, loc,
            sharedView(b, loc, smem,
                       arith::AddIOp::create(
                           b, loc, at,
                           cst(b, loc, sched.aBytes() + j * sched.boxBytes())),
                       {64, BK}, elt),
            full, mapB,
            ValueRange{
                arith::AddIOp::create(b, loc, blk.n0, cst(b, loc, j * 64)), k0},
            stage, Value(), Value());
    }

    // Consumers.
    b.setInsertionPointToStart(&roles.getThenRegion().front());
    auto accType = nvgpu::WarpgroupAccumulatorType::get(
        ctx, VectorType::get({64, BN}, f32));
    Value acc0 = nvgpu::WarpgroupMmaInitAccumulatorOp::create(b, loc, accType);
    auto loop = scf::ForOp::create(b, loc, cst(b, loc, 0), numK, cst(b, loc, 1),
                                   ValueRange{acc0});
    {
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(loop.getBody());
      Value i = loop.getInductionVar();
      Value stage = arith::RemUIOp::create(b, loc, i, cst(b, loc, S));
      nvgpu::MBarrierTryWaitParityOp::create(
          b, loc, full, parityBit(b, loc, i, S, /*flip=*/false),
          cst(b, loc, kWaitHintNs), stage);
      Value at = stageBase(b, stage);
      Value aTile = sharedView(b, loc, smem,
                               affine(b, loc, warpgroup,
                                      WgmmaMatmulSchedule::kWarpgroupRows *
                                          WgmmaMatmulSchedule::kSwizzleRowBytes,
                                      at),
                               {64, BK}, elt);
      Value bTile = sharedView(
          b, loc, smem,
          arith::AddIOp::create(b, loc, at, cst(b, loc, sched.aBytes())),
          {BK, BN}, elt);
      auto descType = [&](Value tile) {
        return nvgpu::WarpgroupMatrixDescriptorType::get(
            ctx, cast<MemRefType>(tile.getType()));
      };
      Value descA = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, descType(aTile), aTile, mapA);
      Value descB = nvgpu::WarpgroupGenerateDescriptorOp::create(
          b, loc, descType(bTile), bTile, mapB);
      // Leaves the tile's wgmma group in flight and waits for the previous
      // one, whose stage is then released.
      Value acc = nvgpu::WarpgroupMmaOp::create(
          b, loc, accType, descA, descB, /*waitGroup=*/uint64_t(1),
          /*transposeA=*/UnitAttr(), /*transposeB=*/b.getUnitAttr(),
          loop.getRegionIterArg(0));
      Value notFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                             i, cst(b, loc, 0));
      auto release = scf::IfOp::create(b, loc, notFirst, /*withElse=*/false);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&release.getThenRegion().front());
        Value previous = arith::RemUIOp::create(
            b, loc, arith::AddIOp::create(b, loc, i, cst(b, loc, S - 1)),
            cst(b, loc, S));
        nvgpu::MBarrierArriveOp::create(b, loc, empty, previous);
      }
      scf::YieldOp::create(b, loc, acc);
    }
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, uint64_t(0));

    // Epilogue. The consumers synchronize among themselves (the producer
    // does not take part): once all wgmma retired, the stages are free.
    auto consumerBarrier = [&]() {
      NVVM::BarrierOp::create(
          b, loc, Type(),
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), 1),
          arith::ConstantIntOp::create(b, loc, b.getI32Type(), W * wgThreads),
          NVVM::BarrierReductionAttr(), Value());
    };
    consumerBarrier();
    Value stagedC = sharedView(
        b, loc, smem, base, {BM, BN + WgmmaMatmulSchedule::kEpiloguePad}, ct);
    int64_t perThread = BN / 2;
    auto regsType = LLVM::LLVMStructType::getLiteral(
        ctx, {LLVM::LLVMStructType::getLiteral(
                 ctx, SmallVector<Type>(perThread, f32))});
    Value regs =
        UnrealizedConversionCastOp::create(b, loc, regsType, loop.getResult(0))
            .getResult(0);
    Value inWg = arith::RemUIOp::create(b, loc, tid, cst(b, loc, wgThreads));
    Value warp =
        arith::DivUIOp::create(b, loc, inWg, cst(b, loc, rulebased::kWarpSize));
    Value lane =
        arith::RemUIOp::create(b, loc, tid, cst(b, loc, rulebased::kWarpSize));
    // Row 64 g + 16 (warp) + lane / 4 (+ 8 i), column 2 (lane % 4) (+ 8 j).
    Value row0 =
        affine(b, loc, warpgroup, 64,
               affine(b, loc, warp, 16,
                      arith::DivUIOp::create(b, loc, lane, cst(b, loc, 4))));
    Value col0 = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, lane, cst(b, loc, 4)),
        cst(b, loc, 2));
    GemmOutput output{&p, Value()};
    auto pairType = VectorType::get({2}, f32);
    for (int64_t j = 0; j < BN / 8; ++j)
      for (int64_t i = 0; i < 2; ++i) {
        Value row = arith::AddIOp::create(b, loc, row0, cst(b, loc, 8 * i));
        Value col = arith::AddIOp::create(b, loc, col0, cst(b, loc, 8 * j));
        Value pair = arith::ConstantOp::create(b, loc, b.getZeroAttr(pairType));
        for (int64_t c = 0; c < 2; ++c) {
          Value v = LLVM::ExtractValueOp::create(
              b, loc, regs, ArrayRef<int64_t>{0, 4 * j + 2 * i + c});
          // C's start: the fill value, or C's own value (0 past the edges).
          Value init = output.loadInit(
              b, loc, blk, arith::AddIOp::create(b, loc, blk.m0, row),
              arith::AddIOp::create(
                  b, loc, blk.n0,
                  arith::AddIOp::create(b, loc, col, cst(b, loc, c))));
          v = arith::AddFOp::create(b, loc, v, init);
          pair =
              vector::InsertOp::create(b, loc, v, pair, ArrayRef<int64_t>{c});
        }
        Value converted =
            ct == f32 ? pair
                      : arith::TruncFOp::create(b, loc,
                                                VectorType::get({2}, ct), pair)
                            .getResult();
        vector::StoreOp::create(b, loc, converted, stagedC,
                                ValueRange{row, col});
      }
    consumerBarrier();

    // Shared memory -> C in rows of `width` elements (16 bytes when C's
    // rows allow), spread over the consumer threads by auto_map.
    int64_t bytes = ct.getIntOrFloatBitWidth() / 8;
    int64_t width =
        p.c.innerDim == 1 ? std::min<int64_t>(p.c.vectorWidth, 16 / bytes) : 1;
    auto pieces =
        *algebra::TaskMapping::autoMap({BM, BN / width}, W * wgThreads);
    algebra::Shape rep = pieces.getFactors()[0].getShape();
    algebra::Shape spat = pieces.getFactors()[1].getShape();
    SmallVector<Type, 2> two(2, b.getIndexType());
    auto pos = hidet::tm::SpatialOp::create(
        b, loc, two, tid, hidet::tm::SpatialAttr::get(ctx, spat));
    auto vecType = VectorType::get({width}, ct);
    fullyUnrolled(b, loc, {rep[0], rep[1]}, [&](OpBuilder &b, ValueRange r) {
      Value row = affine(b, loc, r[0], spat[0], pos.getResult(0));
      Value col = arith::MulIOp::create(
          b, loc, affine(b, loc, r[1], spat[1], pos.getResult(1)),
          cst(b, loc, width));
      Value gr = arith::AddIOp::create(b, loc, blk.m0, row);
      Value gc = arith::AddIOp::create(b, loc, blk.n0, col);
      Value inside = arith::AndIOp::create(b, loc, lessThan(b, loc, gr, p.m),
                                           lessThan(b, loc, gc, p.n));
      auto store = scf::IfOp::create(b, loc, inside, /*withElse=*/false);
      OpBuilder::InsertionGuard g(b);
      b.setInsertionPointToStart(&store.getThenRegion().front());
      Value v = vector::LoadOp::create(b, loc, vecType, stagedC,
                                       ValueRange{row, col});
      vector::StoreOp::create(b, loc, v, blk.flatC,
                              elementOffset(b, loc, p.c, blk.batch, gr, gc),
                              /*nontemporal=*/false, vectorAlign(ct, width));
    });
  });
}

void hidet::templates::buildWgmmaMatmul(OpBuilder &b, Location loc,
                                        const GemmProblem &p,
                                        WgmmaMatmulAttr s) {
  MLIRContext *ctx = b.getContext();
  WgmmaMatmulSchedule sched = s.toSchedule();
  int64_t BM = sched.block[0], BN = sched.block[1];
  int64_t BK = WgmmaMatmulSchedule::kBlockK;
  Type elt = p.aElt, ct = p.cElt;
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);

  // Host: the tensor maps of A (BM x 64 boxes) and B (64 x 64 boxes), both
  // 128-byte swizzled and zero-filled past the edges.
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
  Value addressA = asInteger(createMap(p.a.buffer, BM));
  Value addressB = asInteger(createMap(p.b.buffer, BK));

  GemmGrid grid(p, BM, BN, BK, sched.grid.swizzle, /*splits=*/1);
  int64_t sharedBytes = sched.sharedBytes(ct.getIntOrFloatBitWidth() / 8);

  createLaunch(
      b, loc, grid.mapping(ctx, p), /*workersPerBlock=*/1, sched.numThreads(),
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(launch);
          launch.getDynamicSharedMemorySizeMutable().assign(
              arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                           sharedBytes));
        }
        auto asMap = [&](Value address, int64_t rows) {
          Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrType, address);
          return UnrealizedConversionCastOp::create(b, loc, mapType(rows), ptr)
              .getResult(0);
        };
        buildKernel(b, loc, p, sched, launch, asMap(addressA, BM),
                    asMap(addressB, BK));
      });
}
