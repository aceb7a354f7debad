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
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "GemmKernel.h"
#include "SplitK.h"

#include "../Pipelining/Pipelining.h"
#include "../Utils/KernelBuilder.h"

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
using namespace hidet::kernel;
using namespace hidet::templates;

namespace {

/// 16-byte pieces (a row of an ldmatrix 8x8 matrix of 16-bit values) in a
/// 128-byte line of shared-memory banks.
constexpr int64_t kPiecesPerLine = 8;

/// One operand's tile in shared memory. Logically `rows x cols` (A: BM x BK,
/// B: BK x BN); stored as [outer][inner] where `innerDim` is the logical
/// dimension that is contiguous in global memory, with a leading [stage]
/// dimension when the template holds `stages` K tiles itself (register
/// staging: 2), none when `stages` is 0 (a pass multi-buffers it).
struct SharedTile {
  int64_t rows, cols;
  int innerDim;
  int64_t piece;  ///< elements in 16 bytes
  int64_t stages; ///< K tiles held at once, or 0
  Value buffer;

  int64_t outer() const { return innerDim == 1 ? rows : cols; }
  int64_t inner() const { return innerDim == 1 ? cols : rows; }
  MemRefType type(MLIRContext *ctx, Type elt) const {
    SmallVector<int64_t, 3> shape;
    if (stages)
      shape.push_back(stages);
    shape.append({outer(), inner()});
    return MemRefType::get(
        shape, elt, AffineMap(),
        gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup));
  }
  /// Indices of (outer o, inner i) in `stage` (null when unstaged).
  SmallVector<Value> at(Value stage, Value o, Value i) const {
    if (stage)
      return {stage, o, i};
    return {o, i};
  }
  /// The stored column of the piece that starts at inner index `i` (a
  /// multiple of `piece`) of row `o`: piece j moves to j ^ f(o), where f
  /// gives each of 8 consecutive rows a different bank group. With W
  /// pieces per row, W * 16 bytes per row: rows that share banks (8 / W
  /// of them when W < 8) get the same f.
  Value storedInner(OpBuilder &b, Location loc, Value o, Value i) const {
    int64_t pieces = inner() / piece;
    int64_t rowsPerLine = std::max<int64_t>(1, kPiecesPerLine / pieces);
    int64_t period = std::min<int64_t>(pieces, kPiecesPerLine);
    Value f = arith::RemUIOp::create(
        b, loc, arith::DivUIOp::create(b, loc, o, cst(b, loc, rowsPerLine)),
        cst(b, loc, period));
    Value j = arith::DivUIOp::create(b, loc, i, cst(b, loc, piece));
    Value swizzled = arith::XOrIOp::create(b, loc, j, f);
    return arith::MulIOp::create(b, loc, swizzled, cst(b, loc, piece));
  }
  /// Indices of the logical element (r, c) of `stage`.
  SmallVector<Value> element(OpBuilder &b, Location loc, Value stage, Value r,
                             Value c) const {
    Value o = innerDim == 1 ? r : c, i = innerDim == 1 ? c : r;
    Value within = arith::RemUIOp::create(b, loc, i, cst(b, loc, piece));
    Value start = arith::SubIOp::create(b, loc, i, within);
    return at(
        stage, o,
        arith::AddIOp::create(b, loc, storedInner(b, loc, o, start), within));
  }
};

/// The thread's share of moving one operand's tile from global memory to
/// shared memory: pieces [outer][inner / 8] spread over the threads by
/// auto_map = repeat(R) * spatial(S); the spatial part is the thread's
/// fixed position and the repeat index its register slot.
struct TileCopy {
  const GemmOperand *operand;
  Value flat; ///< the operand's buffer as a 1-D memref
  bool isA;
  SharedTile tile;
  algebra::Shape rep, spat;
  Value regs, s0, s1;
  Type elt;
  int64_t width; ///< elements per global load
};

} // namespace

/// Visits the thread's pieces: (outer, inner start) in the tile and the
/// register slot.
static void
forPieces(OpBuilder &b, Location loc, const TileCopy &t,
          function_ref<void(OpBuilder &, Value, Value, Value)> body) {
  fullyUnrolled(b, loc, {t.rep[0], t.rep[1]}, [&](OpBuilder &b, ValueRange p) {
    Value o = affine(b, loc, p[0], t.spat[0], t.s0);
    Value piece = affine(b, loc, p[1], t.spat[1], t.s1);
    Value i = arith::MulIOp::create(b, loc, piece, cst(b, loc, t.tile.piece));
    body(b, o, i, affine(b, loc, p[0], t.rep[1], p[1]));
  });
}

namespace {
/// Element `e` of a piece, in the operand: global row and column, whether
/// each lies inside the operand, and whether both do.
struct PieceElement {
  Value row, col, inRow, inCol, inside;
};
} // namespace

/// Element `e` of the piece that starts at (`o`, `i`) of `t`'s tile, for the
/// K tile starting at `k0`.
static PieceElement pieceElement(OpBuilder &b, Location loc,
                                 const GemmProblem &p, const GemmBlock &blk,
                                 const TileCopy &t, Value k0, Value o, Value i,
                                 int64_t e) {
  Value ie = arith::AddIOp::create(b, loc, i, cst(b, loc, e));
  Value r = t.tile.innerDim == 1 ? o : ie;
  Value c = t.tile.innerDim == 1 ? ie : o;
  Value gr = arith::AddIOp::create(b, loc, t.isA ? blk.m0 : k0, r);
  Value gc = arith::AddIOp::create(b, loc, t.isA ? k0 : blk.n0, c);
  Value inRow = lessThan(b, loc, gr, t.isA ? p.m : p.k);
  Value inCol = lessThan(b, loc, gc, t.isA ? p.k : p.n);
  return {gr, gc, inRow, inCol,
          insideOperand(b, loc, *t.operand, gr, inRow, gc, inCol)};
}

/// The offset of `at` in `t`'s flattened operand, valid past the edges too.
/// Only its k part changes from one K tile to the next.
static Value pieceOffset(OpBuilder &b, Location loc, const GemmBlock &blk,
                         const TileCopy &t, const PieceElement &at) {
  return clampedOffset(b, loc, *t.operand, blk.batch, at.row, at.inRow, at.col,
                       at.inCol);
}

/// Copies the pieces of the K tile starting at `k0` into `t`'s unstaged
/// tile, `t.width` elements per masked vector transfer: past the operand's
/// edges the mask is empty (zero-fill) and the source address is clamped,
/// so that `nvgpu::createAsyncGroups` can make each an async copy with
/// that many source elements.
static void copyTile(OpBuilder &b, Location loc, const GemmProblem &p,
                     const GemmBlock &blk, const TileCopy &t, Value k0) {
  auto type = VectorType::get({t.width}, t.elt);
  auto maskType = VectorType::get({t.width}, b.getI1Type());
  Value zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(t.elt));
  // The repeat factor is unrolled here, not in a tm.repeat, so that the
  // copies are ops of the K loop's body, which the pipelining schedules.
  for (int64_t r0 = 0; r0 < t.rep[0]; ++r0)
    for (int64_t r1 = 0; r1 < t.rep[1]; ++r1) {
      Value o = affine(b, loc, cst(b, loc, r0), t.spat[0], t.s0);
      Value i = arith::MulIOp::create(
          b, loc, affine(b, loc, cst(b, loc, r1), t.spat[1], t.s1),
          cst(b, loc, t.tile.piece));
      Value stored = t.tile.storedInner(b, loc, o, i);
      for (int64_t e = 0; e < t.tile.piece; e += t.width) {
        PieceElement at = pieceElement(b, loc, p, blk, t, k0, o, i, e);
        Value src = pieceOffset(b, loc, blk, t, at);
        Value srcElements = arith::SelectOp::create(
            b, loc, at.inside, cst(b, loc, t.width), cst(b, loc, 0));
        Value mask =
            vector::CreateMaskOp::create(b, loc, maskType, srcElements);
        Value v = vector::TransferReadOp::create(
            b, loc, type, t.flat, ValueRange{src},
            AffineMapAttr::get(b.getDimIdentityMap()), zero, mask,
            b.getBoolArrayAttr({true}));
        vector::TransferWriteOp::create(
            b, loc, v, t.tile.buffer,
            t.tile.at(Value(), o,
                      arith::AddIOp::create(b, loc, stored, cst(b, loc, e))),
            /*inBounds=*/ArrayRef<bool>{true});
      }
    }
}

/// Elements per global load of an operand: its vector width along the
/// tile's stored inner dimension, or 1.
static int64_t copyWidth(const GemmOperand &x, int tileInnerDim,
                         int64_t piece) {
  return x.innerDim == tileInnerDim ? std::min<int64_t>(x.vectorWidth, piece)
                                    : 1;
}

std::string hidet::templates::whyNoAsyncCopy(const GemmProblem &p) {
  if (p.a.apply || p.b.apply)
    return "an elementwise prologue is applied to the loaded values in "
           "registers, and cp.async copies raw bytes";
  int64_t bytes = p.aElt.getIntOrFloatBitWidth() / 8;
  int64_t piece = 16 / bytes;
  const std::pair<const GemmOperand *, int> operands[] = {{&p.a, 1}, {&p.b, 0}};
  for (auto [x, kDim] : operands) {
    int inner = x->innerDim >= 0 ? x->innerDim : kDim;
    if (copyWidth(*x, inner, piece) * bytes < 4)
      return std::string("cp.async copies 4, 8 or 16 bytes, but ") +
             (x == &p.a ? "A" : "B") +
             "'s rows allow only 2-byte pieces (an odd contiguous extent)";
  }
  return "";
}

void hidet::templates::buildMmaMatmul(OpBuilder &b, Location loc,
                                      const GemmProblem &p, MmaMatmulAttr s,
                                      int64_t reduceBlockSize) {
  MLIRContext *ctx = b.getContext();
  schedule::MmaMatmulSchedule sched = s.toSchedule();
  int64_t BM = sched.block[0], BN = sched.block[1], BK = sched.block[2];
  int64_t WM = sched.warp[0], WN = sched.warp[1];
  int64_t MT = WM / 16, NT = WN / 8;
  int64_t threads = sched.numThreads();
  Type elt = p.aElt;
  Type f32 = b.getF32Type();
  bool isBF16 = elt.isBF16();
  // f32 operands run m16n8k8 in tf32; 16-bit ones m16n8k16. A register of
  // a fragment holds `perReg` elements; a 16-byte piece `kPiece`.
  bool isTF32 = elt.isF32();
  int64_t mmaK = sched.mma[2];
  int64_t perReg = isTF32 ? 1 : 2;
  int64_t kPiece = 16 / (isTF32 ? 4 : 2);

  GemmGrid grid(p, BM, BN, BK, sched.grid.swizzle, sched.grid.splitK);
  GemmOutput output{&p, createSplitKWorkspace(b, loc, p, grid.splits)};
  // Tiles keep the operand's contiguous dimension innermost (k when the
  // operand has none).
  auto innerOf = [](const GemmOperand &x, int kDim) {
    return x.innerDim >= 0 ? x.innerDim : kDim;
  };
  // Register staging holds two stages itself; a pipelined schedule's tiles
  // are multi-buffered by hidet-pipeline-shared-copies.
  int64_t stages = sched.stages == 0 ? 2 : 0;
  SharedTile tileA{BM, BK, innerOf(p.a, 1), kPiece, stages, Value()};
  SharedTile tileB{BK, BN, innerOf(p.b, 0), kPiece, stages, Value()};
  SmallVector<Type> shared = {tileA.type(ctx, elt), tileB.type(ctx, elt)};

  createLaunch(
      b, loc, grid.mapping(ctx, p), /*workersPerBlock=*/1, threads,
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        SmallVector<Value> buffers = allocateShared(b, loc, shared);
        tileA.buffer = buffers[0];
        tileB.buffer = buffers[1];
        forEachGemmBlock(
            b, loc, p, grid, [&](OpBuilder &b, const GemmBlock &blk) {
              Value tid = launch.getThreadIds().x;
              Value warp = arith::DivUIOp::create(
                  b, loc, tid, cst(b, loc, kernel::kWarpSize));
              Value lane = arith::RemUIOp::create(
                  b, loc, tid, cst(b, loc, kernel::kWarpSize));
              SmallVector<Type, 2> two(2, b.getIndexType());
              // spatial(BM/WM, BN/WN): the warp's tile.
              auto warpPos = hidet::tm::SpatialOp::create(
                  b, loc, two, warp,
                  hidet::tm::SpatialAttr::get(ctx, {BM / WM, BN / WN}));
              Value wm0 = arith::MulIOp::create(b, loc, warpPos.getResult(0),
                                                cst(b, loc, WM));
              Value wn0 = arith::MulIOp::create(b, loc, warpPos.getResult(1),
                                                cst(b, loc, WN));
              // spatial(8, 4) of the C fragment: (groupID, threadID_in_group).
              auto quad = hidet::tm::SpatialOp::create(
                  b, loc, two, lane, hidet::tm::SpatialAttr::get(ctx, {8, 4}));
              // spatial(4, 8) of ldmatrix: lane l gives the address of row l %
              // 8 of matrix l / 8.
              auto ldPos = hidet::tm::SpatialOp::create(
                  b, loc, two, lane, hidet::tm::SpatialAttr::get(ctx, {4, 8}));
              Value matrix = ldPos.getResult(0), matrixRow = ldPos.getResult(1);

              // Accumulators [MT][NT * 4] (f32), for the repeat(MT, NT) *
              // repeat(2, 1) * spatial(8, 4) * repeat(1, 2) tasks of the
              // thread: [mi][ni * 4 + i * 2 + j] is element (i, j) of the mma C
              // fragment.
              Value accFlat = memref::AllocaOp::create(
                  b, loc, MemRefType::get({MT, NT * 4}, f32));
              auto forAccumulators = [&](function_ref<void(OpBuilder &, Value,
                                                           Value, Value, Value)>
                                             body) {
                fullyUnrolled(
                    b, loc, {MT, NT, 2, 2}, [&](OpBuilder &b, ValueRange r) {
                      Value row = affine(b, loc, r[0], 16, wm0);
                      row = affine(b, loc, r[2], 8,
                                   arith::AddIOp::create(b, loc, row,
                                                         quad.getResult(0)));
                      Value col = affine(b, loc, r[1], 8, wn0);
                      col = affine(b, loc, quad.getResult(1), 2,
                                   arith::AddIOp::create(b, loc, col, r[3]));
                      Value gr = arith::AddIOp::create(b, loc, blk.m0, row);
                      Value gc = arith::AddIOp::create(b, loc, blk.n0, col);
                      Value slot = affine(b, loc, r[2], 2, r[3]);
                      body(b, gr, gc, r[0], affine(b, loc, r[1], 4, slot));
                    });
              };
              forAccumulators([&](OpBuilder &b, Value gr, Value gc, Value mi,
                                  Value slot) {
                memref::StoreOp::create(b, loc,
                                        output.loadInit(b, loc, blk, gr, gc),
                                        accFlat, ValueRange{mi, slot});
              });

              // Global -> registers -> shared memory.
              auto makeCopy = [&](const GemmOperand &x, bool isA,
                                  const SharedTile &tile) {
                TileCopy t;
                t.operand = &x;
                t.flat = flatten(b, loc, x.buffer);
                t.isA = isA;
                t.tile = tile;
                t.elt = elt;
                t.width = copyWidth(x, tile.innerDim, kPiece);
                auto pieces = *algebra::TaskMapping::autoMap(
                    {tile.outer(), tile.inner() / kPiece}, threads);
                t.rep = pieces.getFactors()[0].getShape();
                t.spat = pieces.getFactors()[1].getShape();
                if (sched.stages == 0)
                  t.regs = memref::AllocaOp::create(
                      b, loc,
                      MemRefType::get({t.rep[0] * t.rep[1], kPiece}, elt));
                auto pos = hidet::tm::SpatialOp::create(
                    b, loc, two, tid, hidet::tm::SpatialAttr::get(ctx, t.spat));
                t.s0 = pos.getResult(0);
                t.s1 = pos.getResult(1);
                return t;
              };
              TileCopy copyA = makeCopy(p.a, /*isA=*/true, tileA);
              TileCopy copyB = makeCopy(p.b, /*isA=*/false, tileB);
              auto pieceType = VectorType::get({kPiece}, elt);
              // Loads the pieces of the K tile starting at k0 into registers,
              // in loads of `width` elements, each zero past the edges
              // (including a whole tile past K, so the prefetch after the last
              // step reads nothing).
              auto fetch = [&](const TileCopy &t, Value k0) {
                forPieces(
                    b, loc, t, [&](OpBuilder &b, Value o, Value i, Value slot) {
                      auto partType = VectorType::get({t.width}, elt);
                      Value piece = arith::ConstantOp::create(
                          b, loc, b.getZeroAttr(pieceType));
                      for (int64_t e = 0; e < kPiece; e += t.width) {
                        PieceElement at =
                            pieceElement(b, loc, p, blk, t, k0, o, i, e);
                        // Computed unconditionally, so that its
                        // loop-invariant part is hoisted.
                        Value off = pieceOffset(b, loc, blk, t, at);
                        Value part =
                            loadOperandOrZero(b, loc, at.inside, *t.operand,
                                              t.flat, off, partType);
                        if (t.width == kPiece) {
                          piece = part;
                          continue;
                        }
                        // Element by element: the NVVM lowering has no pattern
                        // for vector.insert_strided_slice.
                        for (int64_t j = 0; j < t.width; ++j)
                          piece = vector::InsertOp::create(
                              b, loc,
                              vector::ExtractOp::create(b, loc, part,
                                                        ArrayRef<int64_t>{j}),
                              piece, ArrayRef<int64_t>{e + j});
                      }
                      vector::StoreOp::create(b, loc, piece, t.regs,
                                              ValueRange{slot, cst(b, loc, 0)});
                    });
              };
              auto stash = [&](const TileCopy &t, Value stage) {
                forPieces(
                    b, loc, t, [&](OpBuilder &b, Value o, Value i, Value slot) {
                      Value v = vector::LoadOp::create(
                          b, loc, pieceType, t.regs,
                          ValueRange{slot, cst(b, loc, 0)});
                      vector::StoreOp::create(
                          b, loc, v, t.tile.buffer,
                          t.tile.at(stage, o, t.tile.storedInner(b, loc, o, i)),
                          /*nontemporal=*/false, vectorAlign(elt, kPiece));
                    });
              };

              // ldmatrix.x4 of the 16 x 16 block at (p0, q0) of a tile, p the
              // block's non-k dimension (m of A, n of B) and q its k dimension.
              // Matrix i of A covers (p, q) offsets ((i % 2) * 8, (i / 2) * 8),
              // giving the a0..a7 registers of the mma.m16n8k16 A fragment; for
              // B it is ((i / 2) * 8, (i % 2) * 8), the b0..b3 registers of two
              // n8 fragments.
              auto ldmatrix = [&](OpBuilder &b, const SharedTile &tile,
                                  Value stage, bool isA, Value p0, Value q0) {
                Value half =
                    arith::RemUIOp::create(b, loc, matrix, cst(b, loc, 2));
                Value pair =
                    arith::DivUIOp::create(b, loc, matrix, cst(b, loc, 2));
                Value pOff = arith::MulIOp::create(b, loc, isA ? half : pair,
                                                   cst(b, loc, 8));
                Value qOff = arith::MulIOp::create(b, loc, isA ? pair : half,
                                                   cst(b, loc, kPiece));
                Value pp = arith::AddIOp::create(b, loc, p0, pOff);
                Value qq = arith::AddIOp::create(b, loc, q0, qOff);
                // The row this lane addresses runs along the stored inner
                // dimension: k when the tile is k-inner, else the p dimension.
                int kDim = isA ? 1 : 0;
                bool kInner = tile.innerDim == kDim;
                Value o =
                    arith::AddIOp::create(b, loc, kInner ? pp : qq, matrixRow);
                Value i = kInner ? qq : pp;
                Value stored = tile.storedInner(b, loc, o, i);
                return nvgpu::LdMatrixOp::create(
                    b, loc, VectorType::get({4, perReg}, elt), tile.buffer,
                    tile.at(stage, o, stored), b.getBoolAttr(!kInner),
                    b.getI32IntegerAttr(4));
              };
              // Four registers of A per m tile, four of B per pair of n tiles,
              // twice: the fragments of K step kk live in half kk % 2.
              Value aFrag = memref::AllocaOp::create(
                  b, loc, MemRefType::get({2 * MT, 4 * perReg}, elt));
              Value bFrag = memref::AllocaOp::create(
                  b, loc, MemRefType::get({NT, 4 * perReg}, elt));
              // Fragments are R x W vectors (R registers of W elements); they
              // move to and from the private arrays a register at a time, since
              // only rank-1 vector loads, stores, inserts and extracts lower to
              // NVVM directly.
              auto storeRows = [&](OpBuilder &b, Value v, Value buffer,
                                   Value index, Value offset) {
                auto type = cast<VectorType>(v.getType());
                int64_t w = type.getDimSize(1);
                for (int64_t r = 0; r < type.getDimSize(0); ++r)
                  vector::StoreOp::create(
                      b, loc,
                      vector::ExtractOp::create(b, loc, v,
                                                ArrayRef<int64_t>{r}),
                      buffer,
                      ValueRange{index,
                                 affine(b, loc, cst(b, loc, r), w, offset)});
              };
              auto loadRows = [&](OpBuilder &b, int64_t rows, int64_t w, Type t,
                                  Value buffer, Value index, Value offset) {
                auto type = VectorType::get({rows, w}, t);
                Value v =
                    arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
                for (int64_t r = 0; r < rows; ++r)
                  v = vector::InsertOp::create(
                      b, loc,
                      vector::LoadOp::create(
                          b, loc, VectorType::get({w}, t), buffer,
                          ValueRange{index, affine(b, loc, cst(b, loc, r), w,
                                                   offset)}),
                      v, ArrayRef<int64_t>{r});
                return v;
              };
              // tf32 fragments of a tile that is not k-inner cannot come from
              // ldmatrix (it transposes 16-bit elements only): they are read an
              // element at a time, at the fragment positions of the PTX ISA
              // (A: row g + 8 (j % 2), column t + 4 (j / 2); B: row t + 4 j,
              // column g, for lane = 4 g + t).
              auto scalarFragments = [&](OpBuilder &b, const SharedTile &tile,
                                         Value stage, bool isA, Value p0,
                                         Value q0, Value frag, Value index) {
                Value g = quad.getResult(0), tg = quad.getResult(1);
                for (int64_t j = 0; j < 4; ++j) {
                  Value r, c;
                  if (isA) {
                    r = affine(b, loc, cst(b, loc, j % 2), 8,
                               arith::AddIOp::create(b, loc, p0, g));
                    c = affine(b, loc, cst(b, loc, j / 2), 4,
                               arith::AddIOp::create(b, loc, q0, tg));
                  } else {
                    // Registers j of the pair: n tile j / 2, register j % 2.
                    r = affine(b, loc, cst(b, loc, j % 2), 4,
                               arith::AddIOp::create(b, loc, q0, tg));
                    c = affine(b, loc, cst(b, loc, j / 2), 8,
                               arith::AddIOp::create(b, loc, p0, g));
                  }
                  Value v = memref::LoadOp::create(
                      b, loc, tile.buffer, tile.element(b, loc, stage, r, c));
                  memref::StoreOp::create(b, loc, v, frag,
                                          ValueRange{index, cst(b, loc, j)});
                }
              };
              auto useLdmatrix = [&](const SharedTile &tile, bool isA) {
                return !isTF32 || tile.innerDim == (isA ? 1 : 0);
              };
              // mma.sync on one 16 x 8 tile: d = a * b + c.
              auto mma = [&](OpBuilder &b, Value a, Value bv,
                             Value c) -> Value {
                if (isTF32)
                  return nvgpu::MmaSyncOp::create(b, loc, a, bv, c,
                                                  ArrayRef<int64_t>{16, 8, 8},
                                                  /*tf32Enabled=*/true);
                if (!isBF16)
                  return nvgpu::MmaSyncOp::create(b, loc, a, bv, c,
                                                  ArrayRef<int64_t>{16, 8, 16});
                // nvgpu.mma.sync cannot lower bf16 in MLIR 22 (its NVVM
                // conversion does not deduce bf16 PTX types), so bf16 goes to
                // nvvm.mma.sync, which takes the fragments as packed 32-bit
                // registers.
                auto regs = [&](Value v, int64_t n) {
                  SmallVector<Value> out;
                  for (int64_t j = 0; j < n; ++j) {
                    Value row = vector::ExtractOp::create(b, loc, v,
                                                          ArrayRef<int64_t>{j});
                    Value packed = vector::BitCastOp::create(
                        b, loc, VectorType::get({1}, b.getI32Type()), row);
                    out.push_back(vector::ExtractOp::create(
                        b, loc, packed, ArrayRef<int64_t>{0}));
                  }
                  return out;
                };
                SmallVector<Value> cs;
                for (int64_t j = 0; j < 4; ++j)
                  cs.push_back(vector::ExtractOp::create(
                      b, loc, c, ArrayRef<int64_t>{j / 2, j % 2}));
                auto resType = LLVM::LLVMStructType::getLiteral(
                    ctx, SmallVector<Type>(4, f32));
                Value d = NVVM::MmaOp::create(
                    b, loc, resType, regs(a, 4), regs(bv, 2), cs,
                    ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
                    std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16,
                                                  NVVM::MMATypes::bf16},
                    std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                                   NVVM::MMALayout::col});
                auto type = VectorType::get({2, 2}, f32);
                Value out =
                    arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
                for (int64_t j = 0; j < 4; ++j)
                  out = vector::InsertOp::create(
                      b, loc, LLVM::ExtractValueOp::create(b, loc, d, j), out,
                      ArrayRef<int64_t>{j / 2, j % 2});
                return out;
              };
              // One K tile in shared memory, BK / 16 K steps. The fragments
              // are double-buffered in registers: step kk + 1's ldmatrix
              // instructions are issued before step kk's MT x NT mma
              // instructions, into the other half of the fragment arrays,
              // so that the shared-memory latency hides behind the mma.
              // (Loading the next tile's first step ahead too, across the
              // barrier, was measured slower on the H100 with 8 warps: 0.80
              // vs 0.51 ms at 4096^3.)
              int64_t kSteps = BK / mmaK;
              auto loadFragments = [&](OpBuilder &b, Value stage, int64_t kk) {
                Value zero = cst(b, loc, 0);
                Value q0 = cst(b, loc, kk * mmaK);
                Value aHalf = cst(b, loc, kk % 2 * MT);
                Value bHalf = cst(b, loc, kk % 2 * (NT / 2));
                fullyUnrolled(b, loc, {MT}, [&](OpBuilder &b, ValueRange mi) {
                  Value p0 = affine(b, loc, mi[0], 16, wm0);
                  Value slot = arith::AddIOp::create(b, loc, aHalf, mi[0]);
                  if (!useLdmatrix(tileA, /*isA=*/true))
                    return scalarFragments(b, tileA, stage, /*isA=*/true, p0,
                                           q0, aFrag, slot);
                  storeRows(b, ldmatrix(b, tileA, stage, /*isA=*/true, p0, q0),
                            aFrag, slot, zero);
                });
                fullyUnrolled(
                    b, loc, {NT / 2}, [&](OpBuilder &b, ValueRange nj) {
                      Value p0 = affine(b, loc, nj[0], 16, wn0);
                      Value slot = arith::AddIOp::create(b, loc, bHalf, nj[0]);
                      if (!useLdmatrix(tileB, /*isA=*/false))
                        return scalarFragments(b, tileB, stage, /*isA=*/false,
                                               p0, q0, bFrag, slot);
                      storeRows(
                          b, ldmatrix(b, tileB, stage, /*isA=*/false, p0, q0),
                          bFrag, slot, zero);
                    });
              };
              auto mmaStep = [&](OpBuilder &b, int64_t kk) {
                Value zero = cst(b, loc, 0);
                Value aHalf = cst(b, loc, kk % 2 * MT);
                Value bHalf = cst(b, loc, kk % 2 * (NT / 2));
                fullyUnrolled(
                    b, loc, {MT, NT}, [&](OpBuilder &b, ValueRange t) {
                      Value a = loadRows(
                          b, 4, perReg, elt, aFrag,
                          arith::AddIOp::create(b, loc, aHalf, t[0]), zero);
                      // Fragment ni is registers 2 * (ni % 2) + {0, 1} of
                      // pair ni / 2.
                      Value nj = arith::AddIOp::create(
                          b, loc, bHalf,
                          arith::DivUIOp::create(b, loc, t[1], cst(b, loc, 2)));
                      Value off = arith::MulIOp::create(
                          b, loc,
                          arith::RemUIOp::create(b, loc, t[1], cst(b, loc, 2)),
                          cst(b, loc, 2 * perReg));
                      Value bv = loadRows(b, 2, perReg, elt, bFrag, nj, off);
                      Value accOff =
                          arith::MulIOp::create(b, loc, t[1], cst(b, loc, 4));
                      Value c = loadRows(b, 2, 2, f32, accFlat, t[0], accOff);
                      storeRows(b, mma(b, a, bv, c), accFlat, t[0], accOff);
                    });
              };
              auto compute = [&](OpBuilder &b, Value stage) {
                loadFragments(b, stage, 0);
                for (int64_t kk = 0; kk < kSteps; ++kk) {
                  if (kk + 1 < kSteps)
                    loadFragments(b, stage, kk + 1);
                  mmaStep(b, kk);
                }
              };

              if (sched.stages == 0)
                pipelining::emitDoubleBufferedKLoop(
                    b, loc, blk.kBegin, blk.kEnd, BK,
                    [&](OpBuilder &b, Value k0) {
                      fetch(copyA, k0);
                      fetch(copyB, k0);
                    },
                    [&](OpBuilder &b, Value stage) {
                      stash(copyA, stage);
                      stash(copyB, stage);
                    },
                    compute);
              else
                pipelining::emitStagedCopyKLoop(
                    b, loc, blk.kBegin, blk.kEnd, BK, sched.stages,
                    [&](OpBuilder &b, Value k0) {
                      copyTile(b, loc, p, blk, copyA, k0);
                      copyTile(b, loc, p, blk, copyB, k0);
                    },
                    [&](OpBuilder &b) { compute(b, Value()); });
              forAccumulators(
                  [&](OpBuilder &b, Value gr, Value gc, Value mi, Value slot) {
                    output.store(b, loc, blk, gr, gc,
                                 memref::LoadOp::create(b, loc, accFlat,
                                                        ValueRange{mi, slot}));
                  });
            });
      },
      /*workgroupBuffers=*/{});
  if (output.workspace)
    emitSplitKReduction(b, loc, p, output.workspace, grid.splits,
                        reduceBlockSize);
}
