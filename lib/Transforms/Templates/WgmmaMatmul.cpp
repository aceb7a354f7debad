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
//    128 threads copy 16-byte pieces to their swizzled places and arrive
//    on a step's full mbarrier as its copies land
//    (cp.async.mbarrier.arrive.noinc), so that up to S - 1 steps are in
//    flight; the consumers fence each full stage for the async proxy that
//    wgmma reads through. With wgmma-async-arrive=0 they keep S - 2 steps
//    of copies in flight and arrive once a step's copies landed and were
//    fenced. (S - 2: the consumers release a stage one step after reading
//    it, so waiting for S - 1 would deadlock.) When B alone is a 2-D
//    row-major matrix (a convolution's filter), its boxes come by TMA
//    beside A's copies, and the producer's first thread expects their
//    bytes, so that the copy threads move A's bytes only.
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
// This file holds the entry point and the launch (shared memory, barriers,
// the roles); the roles are built in WgmmaProducer.cpp, WgmmaConsumer.cpp
// and WgmmaEpilogue.cpp, which share the Kernel of Wgmma.h.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "Wgmma.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::wgmma;

static constexpr int64_t kSwizzleAlign = WgmmaMatmulSchedule::kSwizzleAlign;

/// The operand a TMA tensor map describes: the view the op reads.
static Value tmaSource(const GemmOperand &x) {
  return x.view ? x.view : x.buffer;
}

/// Whether a TMA tensor map can describe the 2-D `rows x cols` operand
/// `x`: a row-major view of `rows` rows, its elements along a row adjacent,
/// whose first element and row stride are 16-byte multiples (as a tensor
/// map's address and strides must be). The view may be a slice of a larger
/// buffer (a column slice of a weight, or a weight whose rows were padded
/// to 16 bytes at import): the map covers the slice only and reads zeros
/// past its edges.
static bool tmaDescribes(const GemmOperand &x, int64_t rows, int64_t cols) {
  auto type = dyn_cast<ShapedType>(tmaSource(x).getType());
  if (!type || type.getRank() != 2 || x.innerDim != 1 || x.broadcast ||
      type.getShape() != ArrayRef<int64_t>{rows, cols})
    return false;
  SmallVector<int64_t> strides = {cols, 1};
  int64_t offset = 0;
  if (auto memref = dyn_cast<MemRefType>(type)) {
    strides.clear();
    if (failed(memref.getStridesAndOffset(strides, offset)) ||
        ShapedType::isDynamic(offset) || ShapedType::isDynamicShape(strides))
      return false;
  }
  return strides[1] == 1 && strides[0] >= cols && strides[0] % kPiece == 0 &&
         offset % kPiece == 0;
}

/// Whether `x` is a whole contiguous buffer of rank 3 or more whose last
/// dimension has `cols` elements and whose others `rows` rows (a
/// convolution's HWCF filter as its K x F matrix): a 2-D row-major matrix
/// once its leading dimensions are collapsed.
static bool collapsesToMatrix(const GemmOperand &x, int64_t rows,
                              int64_t cols) {
  auto type = dyn_cast<MemRefType>(x.buffer.getType());
  if (x.view || x.broadcast || x.innerDim != 1 || !type || type.getRank() < 3 ||
      !type.hasStaticShape() || !type.getLayout().isIdentity())
    return false;
  return type.getShape().back() == cols &&
         type.getNumElements() == rows * cols && cols % kPiece == 0;
}

/// Whether TMA can load both operands: one GEMM of 2-D row-major A and B.
static bool tmaLoads(const GemmProblem &p) {
  return p.batch == 1 && tmaDescribes(p.a, p.m, p.k) &&
         tmaDescribes(p.b, p.k, p.n);
}

/// Whether TMA loads B while cp.async loads A (an implicit GEMM's im2col
/// rows, which no tensor map describes): one GEMM whose B is a 2-D
/// row-major matrix, or collapses to one, and whose 64 x 64 boxes of B are
/// whole (K and N multiples of 64). Clipped boxes cost more than the copy
/// threads save: on the H100, MobileNetV2 and EfficientNet-B0 in f16 at
/// batch 32 (stems of K = 72 and N = 32, pointwise convolutions such as
/// 32 -> 16 and 144 -> 24) ran 15% and 8% slower with every filter by TMA
/// than with none, while ResNet-50's layers, whose boxes are whole, gained.
static bool tmaLoadsB(const GemmProblem &p) {
  return p.wgmmaTmaB && p.batch == 1 && !tmaLoads(p) &&
         p.k % WgmmaMatmulSchedule::kBlockK == 0 && p.n % kBoxCols == 0 &&
         (tmaDescribes(p.b, p.k, p.n) || collapsesToMatrix(p.b, p.k, p.n));
}

/// B's source for its tensor map: the operand, or its buffer collapsed to
/// the K x N matrix.
static Value tmaSourceB(OpBuilder &b, Location loc, const GemmProblem &p) {
  if (!collapsesToMatrix(p.b, p.k, p.n))
    return tmaSource(p.b);
  auto type = cast<MemRefType>(p.b.buffer.getType());
  ReassociationIndices leading;
  for (int64_t d = 0; d + 1 < type.getRank(); ++d)
    leading.push_back(d);
  return memref::CollapseShapeOp::create(
      b, loc, p.b.buffer,
      ArrayRef<ReassociationIndices>{leading, {type.getRank() - 1}});
}

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

Value hidet::templates::wgmma::sharedView(OpBuilder &b, Location loc,
                                          Value smem, Value offset,
                                          ArrayRef<int64_t> shape, Type elt) {
  auto type = MemRefType::get(
      shape, elt, AffineMap(),
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup));
  return memref::ViewOp::create(b, loc, type, smem, offset, ValueRange{});
}

Value hidet::templates::wgmma::i32(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(), v);
}

Value Kernel::forEachTile(
    OpBuilder &b, Location loc,
    function_ref<void(OpBuilder &, const GemmBlock &, Value, Value)> body,
    function_ref<Value(OpBuilder &, Value)> mine) const {
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
      b, loc, first, b.createOrFold<arith::SubIOp>(loc, blk.kEnd, blk.kBegin));
  scf::YieldOp::create(b, loc, next);
  return loop.getResult(0);
}

Value Kernel::step(OpBuilder &b, Location loc, const GemmBlock &blk,
                   Value first, Value i) {
  return arith::AddIOp::create(
      b, loc, first, b.createOrFold<arith::SubIOp>(loc, i, blk.kBegin));
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
  // plus the bytes; cp.async: an arrival of each producer thread, plus B's
  // bytes when TMA loads B). empty[s]:
  // every consumer thread is done reading it.
  // A block's steps: the K tiles of its tiles, each at most K's (0, no
  // bound, if the product overflows).
  int64_t kTiles = llvm::divideCeil(k.p.k, WgmmaMatmulSchedule::kBlockK);
  int64_t tilesPerBlock = llvm::divideCeil(k.numTiles, k.numBlocks);
  int64_t maxSteps = 0;
  if (llvm::MulOverflow(tilesPerBlock, kTiles, maxSteps))
    maxSteps = 0;
  k.ring = pipelining::StageRing::create(b, loc, k.S, maxSteps);
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
  bool tmaB = tmaLoadsB(p);
  Value addressA, addressB;
  if (tma)
    addressA = asInteger(createMap(tmaSource(p.a), BM));
  if (tma || tmaB)
    addressB = asInteger(createMap(tmaSourceB(b, loc, p), BK));

  Kernel k(p, sched,
           GemmGrid(p, BM, BN, BK, sched.grid.swizzle, sched.grid.splitK));
  k.tma = tma;
  k.tmaB = tmaB;
  k.asyncArrive = !tma && p.wgmmaAsyncArrive;
  k.output = {&p, createSplitKWorkspace(b, loc, p, k.grid.splits)};
  // A counter per 16 rows of a tile, which one warp stores.
  k.output.counters = splitKCounters(k.grid.splits, p.splitKInKernel,
                                     p.batch * k.grid.tilesM *
                                         (BM / kWarpRows) * k.grid.tilesN);
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
      b, loc, kernelKind(schedule::TemplateKind::Wgmma),
      hidet::tm::SpatialAttr::get(ctx, ArrayRef<int64_t>{k.numBlocks}),
      /*workersPerBlock=*/1, sched.numThreads(),
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        {
          OpBuilder::InsertionGuard g(b);
          b.setInsertionPoint(launch);
          launch.getDynamicSharedMemorySizeMutable().assign(
              i32(b, loc, sharedBytes));
        }
        describeKernel(launch, "loads",
                       b.getStringAttr(tma    ? "tma"
                                       : tmaB ? "tma_b"
                                              : "cp_async"));
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
  finishSplitK(b, loc, p, k.output, k.grid.splits, reduceBlockSize);
}
