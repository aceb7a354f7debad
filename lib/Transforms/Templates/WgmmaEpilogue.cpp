//===- WgmmaEpilogue.cpp - The epilogue of the Hopper template ------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The epilogue of a consumer warpgroup of the wgmma template: its
// accumulators, converted, go through its shared chunk to C (or the split-K
// workspace) in coalesced 16-byte rows, or through a fused epilogue chain.
//
//===----------------------------------------------------------------------===//

#include "Wgmma.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::wgmma;

/// A consumer warpgroup's main loop, which `accumulate` builds, and its
/// epilogue for the block `blk`: its 64 rows of C from the accumulators,
/// through its shared chunk. Warp w of the warpgroup holds rows
/// [16 w, 16 w + 16) of them and stores them itself, so only the warp's own
/// lanes synchronize around its 16 rows of the chunk.
void hidet::templates::wgmma::buildEpilogue(OpBuilder &b, Location loc,
                                            const Kernel &k,
                                            const GemmBlock &blk,
                                            function_ref<Value()> accumulate) {
  MLIRContext *ctx = b.getContext();
  const GemmProblem &p = k.p;
  const WgmmaMatmulSchedule &sched = k.sched;
  int64_t wgThreads = WgmmaMatmulSchedule::kWarpgroupThreads;
  int64_t rows = WgmmaMatmulSchedule::kWarpgroupRows;
  int64_t warpRows = kWarpRows;
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
  // of them measured 5% and 10% slower in the pingpong sweep).
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
    // The chunk's pieces, each checked against C's edges when `guarded`.
    auto storePieces = [&](bool guarded) {
      for (auto [index, q] : llvm::enumerate(ps)) {
        OpBuilder::InsertionGuard g(b);
        if (guarded) {
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
        vector::StoreOp::create(
            b, loc, v, flatOut,
            elementOffset(b, loc, out, outBatch, q.gr, q.gc),
            /*nontemporal=*/false, vectorAlign(ct, width));
      }
    };
    if (tilesInside) {
      storePieces(/*guarded=*/false);
    } else {
      // Only the blocks on C's edges need the checks: a warp whose rows
      // and chunk lie inside C stores its pieces unchecked, as one
      // straight-line block (a branch per piece serializes each piece's
      // shared load and store; GPT-2's 50257-column logits, stored an
      // element at a time, spent most of the GEMM's time there).
      Value lastRow = arith::AddIOp::create(
          b, loc, m0,
          arith::AddIOp::create(b, loc, warpRow0, cst(b, loc, warpRows - 1)));
      Value lastCol = arith::AddIOp::create(
          b, loc, blk.n0, cst(b, loc, (c + 1) * chunkCols - 1));
      Value whole =
          arith::AndIOp::create(b, loc, lessThan(b, loc, lastRow, p.m),
                                lessThan(b, loc, lastCol, p.n));
      auto split = scf::IfOp::create(b, loc, whole, /*withElse=*/true);
      {
        OpBuilder::InsertionGuard g(b);
        b.setInsertionPointToStart(&split.getThenRegion().front());
        storePieces(/*guarded=*/false);
        b.setInsertionPointToStart(&split.getElseRegion().front());
        storePieces(/*guarded=*/true);
      }
    }
    warpBarrier();
    sideInputs = std::move(nextSideInputs);
  }
  // Split-K in the kernel: the warp's rows of the tile are a part with a
  // counter of their own (batch, 16-row strip of C, tile column).
  if (output.counters) {
    Value rowStart = arith::AddIOp::create(b, loc, m0, warpRow0);
    int64_t strips = k.grid.tilesM * (k.BM / warpRows);
    Value strip = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, blk.batch, cst(b, loc, strips)),
        arith::DivUIOp::create(b, loc, rowStart, cst(b, loc, warpRows)));
    Value counter =
        affine(b, loc, strip, k.grid.tilesN,
               arith::DivUIOp::create(b, loc, blk.n0, cst(b, loc, k.BN)));
    emitSplitKFixup(b, loc, output, k.grid.splits, counter, blk.batch, rowStart,
                    warpRows, blk.n0, k.BN, lane, blk.flatC);
  }
}
