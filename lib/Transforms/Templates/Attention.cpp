//===- Attention.cpp - The fused attention template -----------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// O = softmax(f(Q K^T)) V in one kernel, f the scores' elementwise
// epilogue (FlashAttention-2's loop; Dao, 2023). A block owns BQ query rows
// of one batch, a warp 16 of them:
//
//   spatial(batch, ceil(m / BQ)) blocks * spatial(BQ / 16) warps *
//   <mma.m16n8k16 fragment layouts> lanes
//
// The block stages its Q tile [BQ][D] in shared memory once, and each warp
// keeps its rows as A fragments in registers. Then, for each tile of BKV
// keys: the block stages K [BKV][D] and V [BKV][DV] (16-byte pieces,
// XOR-swizzled by row like the mma.sync template's tiles); each warp
// computes its 16 x BKV scores with mma.sync (K's fragments by ldmatrix),
// applies f and masks keys past the end to -inf, updates each row's
// running maximum m and sum l (a quad of lanes shares a row: two xor
// shuffles), rescales its 16 x DV output accumulators by exp(m_old -
// m_new), and adds P V, P's A fragments taken straight from the score
// accumulators (the C layout of two n8 tiles is the A layout of one k16
// step) and V's B fragments by ldmatrix.trans. At the end, O / l goes out
// through the second matmul's epilogue (0 for a row whose l is not
// positive when the chain zeroes the NaN rows of its softmax). The operands are read through
// their GemmOperands, so transposed or converted Q, K and V (prologues)
// cost nothing extra.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"

#include "Mma.h"

#include "../Fusion/Buffers.h"
#include "../Utils/KernelBuilder.h"

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <limits>

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::mma;

/// Elements per global load of `x` into a tile whose outer dimension is
/// `x`'s rows (`outerIsRow`) or columns: its vector width along the tile's
/// inner dimension, or 1.
int64_t hidet::templates::attentionPieceWidth(const GemmOperand &x,
                                              bool outerIsRow) {
  int tileInner = outerIsRow ? 1 : 0;
  return x.innerDim == tileInner
             ? std::min<int64_t>(x.vectorWidth, kAttentionPiece)
             : 1;
}

/// Whether every tile can be copied with cp.async: 16-byte pieces, no
/// values computed on the way (an elementwise prologue) or padding.
bool hidet::templates::attentionCopiesAsync(const GemmProblem &qk,
                                            const GemmProblem &pv) {
  const std::pair<const GemmOperand *, bool> operands[] = {
      {&qk.a, true}, {&qk.b, false}, {&pv.b, true}};
  for (auto [x, outerIsRow] : operands)
    if (x->apply || x->valid ||
        attentionPieceWidth(*x, outerIsRow) != kAttentionPiece)
      return false;
  return true;
}

namespace {
/// Builds the kernel of one AttentionChain.
class AttentionBuilder {
public:
  AttentionBuilder(OpBuilder &b, Location loc, const AttentionChain &chain,
                   AttentionAttr schedule, bool skipMasked)
      : b(b), loc(loc), qk(chain.qk), pv(chain.pv),
        scoreOps(chain.scoreOps.empty() ? nullptr : &chain.scoreOps),
        skipMasked(skipMasked && masksScores(chain)),
        zeroNaNRows(chain.nanGuard != nullptr), BQ(schedule.getBlockQ()),
        BKV(schedule.getBlockKv()), D(qk.k), DV(pv.n),
        threads(schedule.numWarps() * kernel::kWarpSize), elt(qk.aElt),
        f32(b.getF32Type()) {
    async = attentionCopiesAsync(qk, pv);
    int64_t stages = async ? 2 : 0;
    qTile = {BQ, D, /*innerDim=*/1, kAttentionPiece, 0, Value()};
    kTile = {D, BKV, /*innerDim=*/0, kAttentionPiece, stages, Value()};
    vTile = {BKV, DV, /*innerDim=*/1, kAttentionPiece, stages, Value()};
  }

  void build();

private:
  void body(gpu::LaunchOp launch, const GemmBlock &blk);
  void copyTile(const SharedTile &tile, const GemmOperand &x, Value flat,
                bool outerIsRow, Value base, int64_t limit, Value stage,
                SmallVectorImpl<Value> &tokens);
  Value asyncGroup(ArrayRef<Value> tokens) {
    return nvgpu::DeviceAsyncCreateGroupOp::create(
        b, loc, nvgpu::DeviceAsyncTokenType::get(b.getContext()), tokens);
  }
  Value tileLive(Value kv0);
  void scores(Value stage);
  void softmaxStep(Value kv0);
  void accumulate(Value stage);
  void finish(const GemmBlock &blk);

  Value f32Const(double v) {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(v));
  }
  Value negInf() {
    return arith::ConstantOp::create(
        b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  }
  Value load(Value array, ArrayRef<int64_t> at) {
    SmallVector<Value> idx;
    for (int64_t i : at)
      idx.push_back(cst(b, loc, i));
    return memref::LoadOp::create(b, loc, array, idx);
  }
  void store(Value v, Value array, ArrayRef<int64_t> at) {
    SmallVector<Value> idx;
    for (int64_t i : at)
      idx.push_back(cst(b, loc, i));
    memref::StoreOp::create(b, loc, v, array, idx);
  }
  /// The 2 x 2 accumulators [tile][4] of n tile `t` as an mma C operand.
  Value accumulators(Value array, int64_t t) {
    auto type = VectorType::get({2, 2}, f32);
    Value v = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    for (int64_t r = 0; r < 4; ++r)
      v = vector::InsertOp::create(b, loc, load(array, {t, r}), v,
                                   ArrayRef<int64_t>{r / 2, r % 2});
    return v;
  }
  void storeAccumulators(Value v, Value array, int64_t t) {
    for (int64_t r = 0; r < 4; ++r)
      store(
          vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r / 2, r % 2}),
          array, {t, r});
  }
  /// Register `r` (a vector of 2) of an ldmatrix result.
  Value reg(Value v, int64_t r) {
    return vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r});
  }
  /// Rows `rows` of an ldmatrix result as a vector<Nx2>.
  Value regs(Value v, ArrayRef<int64_t> rows) {
    auto type = VectorType::get({static_cast<int64_t>(rows.size()), 2}, elt);
    Value out = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
    for (auto [i, r] : llvm::enumerate(rows))
      out = vector::InsertOp::create(
          b, loc, reg(v, r), out, ArrayRef<int64_t>{static_cast<int64_t>(i)});
    return out;
  }
  /// The two m16n8k16 of A fragment `a` and n tiles 2 nj, 2 nj + 1 of k
  /// step kk of the B operand `tile` (one ldmatrix.x4), onto the
  /// accumulators `array`.
  void mmaPair(Value a, const SharedTile &tile, Value stage, int64_t nj,
               int64_t kk, Value array) {
    Value v =
        ldmatrixX4(b, loc, tile, stage, /*isA=*/false, cst(b, loc, nj * 16),
                   cst(b, loc, kk * 16), matrix, matrixRow, elt);
    for (int64_t h = 0; h < 2; ++h) {
      int64_t t = 2 * nj + h;
      Value c = accumulators(array, t);
      storeAccumulators(mmaSync(b, loc, a, regs(v, {2 * h, 2 * h + 1}), c, elt),
                        array, t);
    }
  }
  Value shuffleXor(Value v, int64_t offset) {
    return gpu::ShuffleOp::create(b, loc, v, offset, kernel::kWarpSize,
                                  gpu::ShuffleMode::XOR)
        .getShuffleResult();
  }

  OpBuilder &b;
  Location loc;
  const GemmProblem &qk, &pv;
  const fusion::Epilogue *scoreOps;
  /// Whether a warp skips the key tiles that the scores' mask hides.
  bool skipMasked;
  /// Rows whose softmax is NaN (AttentionChain::nanGuard) are written as 0.
  bool zeroNaNRows;
  int64_t BQ, BKV, D, DV, threads;
  Type elt, f32;
  SharedTile qTile, kTile, vTile;
  /// Whether the tiles are copied with cp.async, K and V double-buffered.
  bool async;

  // The thread's place.
  Value tid, batch, row0, group, inGroup, matrix, matrixRow;
  Value flatQ, flatK, flatV;
  // Registers: Q's A fragments [D / 16][4 registers] (vector<2> each), the
  // scores [BKV / 8][4], the output [DV / 8][4], the running maximum and
  // sum of the thread's two rows [2].
  Value qFrag, acc, out, rowMax, rowSum;
};
} // namespace

void AttentionBuilder::build() {
  MLIRContext *ctx = b.getContext();
  // Blocks as the second matmul's grid, a block per BQ rows of a batch.
  GemmGrid grid(pv, BQ, DV, BKV, /*swizzle=*/1, /*splits=*/1);
  SmallVector<Type> shared = {qTile.type(ctx, elt), kTile.type(ctx, elt),
                              vTile.type(ctx, elt)};
  createLaunch(b, loc, "attention", grid.mapping(ctx, pv),
               /*workersPerBlock=*/1, threads,
               [&](OpBuilder &b, gpu::LaunchOp launch) {
                 SmallVector<Value> buffers = allocateShared(b, loc, shared);
                 qTile.buffer = buffers[0];
                 kTile.buffer = buffers[1];
                 vTile.buffer = buffers[2];
                 forEachGemmBlock(b, loc, pv, grid,
                                  [&](OpBuilder &, const GemmBlock &blk) {
                                    body(launch, blk);
                                  });
               },
               /*workgroupBuffers=*/{});
}

/// Copies rows [base, base + outer) of an operand into `tile` ([outer]
/// [inner], 16-byte pieces, swizzled; in `stage` when it has stages):
/// element (o, i) of the tile is `x`'s (base + o, i) when `outerIsRow`, else
/// (i, base + o); rows past `limit` are zeros. With cp.async, the copies'
/// tokens go to `tokens`.
void AttentionBuilder::copyTile(const SharedTile &tile, const GemmOperand &x,
                                Value flat, bool outerIsRow, Value base,
                                int64_t limit, Value stage,
                                SmallVectorImpl<Value> &tokens) {
  int64_t width = attentionPieceWidth(x, outerIsRow);
  auto pieces = *algebra::TaskMapping::autoMap(
      {tile.outer(), tile.inner() / kAttentionPiece}, threads);
  algebra::Shape rep = pieces.getFactors()[0].getShape();
  algebra::Shape spat = pieces.getFactors()[1].getShape();
  SmallVector<Type, 2> two(2, b.getIndexType());
  auto pos = hidet::tm::SpatialOp::create(
      b, loc, two, tid, hidet::tm::SpatialAttr::get(b.getContext(), spat));
  auto pieceType = VectorType::get({kAttentionPiece}, elt);
  auto partType = width == 1 ? elt : Type(VectorType::get({width}, elt));
  for (int64_t r0 = 0; r0 < rep[0]; ++r0)
    for (int64_t r1 = 0; r1 < rep[1]; ++r1) {
      Value o = affine(b, loc, cst(b, loc, r0), spat[0], pos.getResult(0));
      Value i = arith::MulIOp::create(
          b, loc, affine(b, loc, cst(b, loc, r1), spat[1], pos.getResult(1)),
          cst(b, loc, kAttentionPiece));
      Value g = arith::AddIOp::create(b, loc, base, o);
      Value inOuter = lessThan(b, loc, g, limit);
      Value yes = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1);
      SmallVector<Value> dst =
          tile.at(stage, o, tile.storedInner(b, loc, o, i));
      auto element = [&](int64_t e, Value &row, Value &col, Value &inRow,
                         Value &inCol) {
        Value in = arith::AddIOp::create(b, loc, i, cst(b, loc, e));
        row = outerIsRow ? g : in;
        col = outerIsRow ? in : g;
        inRow = outerIsRow ? inOuter : yes;
        inCol = outerIsRow ? yes : inOuter;
      };
      if (async) {
        // 16 bytes, or none (zero fill) past the edge.
        Value row, col, inRow, inCol;
        element(0, row, col, inRow, inCol);
        Value src = clampedOffset(b, loc, x, batch, row, inRow, col, inCol);
        Value count = arith::SelectOp::create(
            b, loc, insideOperand(b, loc, x, row, inRow, col, inCol),
            cst(b, loc, kAttentionPiece), cst(b, loc, 0));
        tokens.push_back(nvgpu::DeviceAsyncCopyOp::create(
            b, loc, tile.buffer, dst, flat, ValueRange{src},
            b.getIndexAttr(kAttentionPiece), count,
            /*bypassL1=*/b.getUnitAttr()));
        continue;
      }
      Value piece = arith::ConstantOp::create(b, loc, b.getZeroAttr(pieceType));
      for (int64_t e = 0; e < kAttentionPiece; e += width) {
        Value row, col, inRow, inCol;
        element(e, row, col, inRow, inCol);
        Value off = clampedOffset(b, loc, x, batch, row, inRow, col, inCol);
        Value part = loadOperandOrZero(
            b, loc, insideOperand(b, loc, x, row, inRow, col, inCol), x, flat,
            off, partType);
        if (width == kAttentionPiece) {
          piece = part;
          continue;
        }
        for (int64_t j = 0; j < width; ++j) {
          Value v = width == 1 ? part
                               : vector::ExtractOp::create(
                                     b, loc, part, ArrayRef<int64_t>{j});
          piece = vector::InsertOp::create(b, loc, v, piece,
                                           ArrayRef<int64_t>{e + j});
        }
      }
      vector::StoreOp::create(b, loc, piece, tile.buffer, dst,
                              /*nontemporal=*/false,
                              vectorAlign(elt, kAttentionPiece));
    }
}

void AttentionBuilder::body(gpu::LaunchOp launch, const GemmBlock &blk) {
  MLIRContext *ctx = b.getContext();
  // The register arrays first: allocas past the first branch (the copies'
  // bounds checks) would not be promoted to registers.
  qFrag =
      memref::AllocaOp::create(b, loc, MemRefType::get({D / 16, 4, 2}, elt));
  acc = memref::AllocaOp::create(b, loc, MemRefType::get({BKV / 8, 4}, f32));
  out = memref::AllocaOp::create(b, loc, MemRefType::get({DV / 8, 4}, f32));
  rowMax = memref::AllocaOp::create(b, loc, MemRefType::get({2}, f32));
  rowSum = memref::AllocaOp::create(b, loc, MemRefType::get({2}, f32));
  tid = launch.getThreadIds().x;
  batch = blk.batch;
  Value warp =
      arith::DivUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  Value lane =
      arith::RemUIOp::create(b, loc, tid, cst(b, loc, kernel::kWarpSize));
  // spatial(BQ / 16): the warp's 16 rows; spatial(8, 4) of the C fragment:
  // (groupID, threadID_in_group); spatial(4, 8) of ldmatrix.
  auto warpPos =
      hidet::tm::SpatialOp::create(b, loc, TypeRange{b.getIndexType()}, warp,
                                   hidet::tm::SpatialAttr::get(ctx, {BQ / 16}));
  Value warpRow =
      arith::MulIOp::create(b, loc, warpPos.getResult(0), cst(b, loc, 16));
  row0 = arith::AddIOp::create(b, loc, blk.m0, warpRow);
  LanePlace place = placeLane(b, loc, lane);
  group = place.group;
  inGroup = place.inGroup;
  matrix = place.matrix;
  matrixRow = place.matrixRow;
  flatQ = flatten(b, loc, qk.a.buffer);
  flatK = flatten(b, loc, qk.b.buffer);
  flatV = flatten(b, loc, pv.b.buffer);

  // Q's tile (and with cp.async the first tiles of K and V), then the
  // warp's A fragments of Q.
  SmallVector<Value> tokens;
  Value zero = cst(b, loc, 0);
  copyTile(qTile, qk.a, flatQ, /*outerIsRow=*/true, blk.m0, qk.m, Value(),
           tokens);
  if (async) {
    copyTile(kTile, qk.b, flatK, /*outerIsRow=*/false, zero, qk.n, zero,
             tokens);
    copyTile(vTile, pv.b, flatV, /*outerIsRow=*/true, zero, pv.k, zero, tokens);
    nvgpu::DeviceAsyncWaitOp::create(b, loc, asyncGroup(tokens),
                                     b.getI32IntegerAttr(0));
  }
  gpu::BarrierOp::create(b, loc);
  for (int64_t kk = 0; kk < D / 16; ++kk) {
    Value v = ldmatrixX4(b, loc, qTile, Value(), /*isA=*/true, warpRow,
                         cst(b, loc, kk * 16), matrix, matrixRow, elt);
    for (int64_t r = 0; r < 4; ++r)
      vector::StoreOp::create(
          b, loc, reg(v, r), qFrag,
          ValueRange{cst(b, loc, kk), cst(b, loc, r), cst(b, loc, 0)});
  }
  for (int64_t t = 0; t < DV / 8; ++t)
    for (int64_t r = 0; r < 4; ++r)
      store(f32Const(0), out, {t, r});
  for (int64_t i = 0; i < 2; ++i) {
    store(negInf(), rowMax, {i});
    store(f32Const(0), rowSum, {i});
  }

  // The key tiles. With cp.async, step j computes on stage j % 2 while
  // the copies of tile j + 1 (zeros past the end) fill the other one.
  auto loop =
      scf::ForOp::create(b, loc, zero, cst(b, loc, qk.n), cst(b, loc, BKV));
  {
    OpBuilder::InsertionGuard g(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kv0 = loop.getInductionVar();
    Value stage;
    if (async) {
      Value step = arith::DivUIOp::create(b, loc, kv0, cst(b, loc, BKV));
      stage = arith::RemUIOp::create(b, loc, step, cst(b, loc, 2));
      Value other = arith::SubIOp::create(b, loc, cst(b, loc, 1), stage);
      Value next = arith::AddIOp::create(b, loc, kv0, cst(b, loc, BKV));
      SmallVector<Value> ahead;
      copyTile(kTile, qk.b, flatK, /*outerIsRow=*/false, next, qk.n, other,
               ahead);
      copyTile(vTile, pv.b, flatV, /*outerIsRow=*/true, next, pv.k, other,
               ahead);
      // All but the group just issued have landed.
      nvgpu::DeviceAsyncWaitOp::create(b, loc, asyncGroup(ahead),
                                       b.getI32IntegerAttr(1));
    } else {
      // The previous step's reads of K and V are done.
      gpu::BarrierOp::create(b, loc);
      copyTile(kTile, qk.b, flatK, /*outerIsRow=*/false, kv0, qk.n, Value(),
               tokens);
      copyTile(vTile, pv.b, flatV, /*outerIsRow=*/true, kv0, pv.k, Value(),
               tokens);
    }
    gpu::BarrierOp::create(b, loc);
    {
      // No barrier inside: a warp may skip it all.
      OpBuilder::InsertionGuard math(b);
      if (skipMasked) {
        auto live = scf::IfOp::create(b, loc, tileLive(kv0),
                                      /*withElseRegion=*/false);
        b.setInsertionPoint(live.thenBlock()->getTerminator());
      }
      scores(stage);
      softmaxStep(kv0);
      accumulate(stage);
    }
    // The next step's copies overwrite this step's stage.
    if (async)
      gpu::BarrierOp::create(b, loc);
  }
  // The copies issued past the last tile land before the block ends.
  if (async)
    nvgpu::DeviceAsyncWaitOp::create(b, loc, asyncGroup({}),
                                     b.getI32IntegerAttr(0));
  finish(blk);
}

/// Whether some score of the warp's 16 x BKV positions of the key tile at
/// `kv0` may have a softmax weight: a position inside S where the scores'
/// epilogue maps a zero score above kMaskedScore (a mask selects its
/// constant whatever the score). The same for every lane of the warp.
Value AttentionBuilder::tileLive(Value kv0) {
  Value zero = castTo(b, loc, f32Const(0), qk.cElt);
  Value bound = f32Const(kMaskedScore);
  Value any = arith::ConstantIntOp::create(b, loc, b.getI1Type(), 0);
  for (int64_t i = 0; i < 2; ++i) {
    Value row = affine(b, loc, cst(b, loc, i), 8,
                       arith::AddIOp::create(b, loc, row0, group));
    Value rowIn = lessThan(b, loc, row, qk.m);
    Value safeRow = arith::MinUIOp::create(b, loc, row, cst(b, loc, qk.m - 1));
    for (int64_t t = 0; t < BKV / 8; ++t)
      for (int64_t j = 0; j < 2; ++j) {
        Value col = arith::AddIOp::create(
            b, loc, kv0, affine(b, loc, inGroup, 2, cst(b, loc, t * 8 + j)));
        Value safeCol =
            arith::MinUIOp::create(b, loc, col, cst(b, loc, qk.n - 1));
        SmallVector<Value> at = qk.c.position(b, loc, batch, safeRow, safeCol);
        Value v = castTo(b, loc, scoreOps->apply(b, loc, at, zero), f32);
        Value live =
            arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, v, bound);
        live = arith::AndIOp::create(b, loc, live, rowIn);
        live = arith::AndIOp::create(b, loc, live, lessThan(b, loc, col, qk.n));
        any = arith::OrIOp::create(b, loc, any, live);
      }
  }
  Value x = arith::ExtUIOp::create(b, loc, b.getI32Type(), any);
  for (int64_t offset = 1; offset < kernel::kWarpSize; offset *= 2)
    x = arith::OrIOp::create(b, loc, x, shuffleXor(x, offset));
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, x,
      arith::ConstantIntOp::create(b, loc, x.getType(), 0));
}

/// The warp's 16 x BKV scores of the key tile, into `acc`.
void AttentionBuilder::scores(Value stage) {
  for (int64_t t = 0; t < BKV / 8; ++t)
    for (int64_t r = 0; r < 4; ++r)
      store(f32Const(0), acc, {t, r});
  for (int64_t kk = 0; kk < D / 16; ++kk) {
    Value a = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(VectorType::get({4, 2}, elt)));
    for (int64_t r = 0; r < 4; ++r)
      a = vector::InsertOp::create(
          b, loc,
          vector::LoadOp::create(
              b, loc, VectorType::get({2}, elt), qFrag,
              ValueRange{cst(b, loc, kk), cst(b, loc, r), cst(b, loc, 0)}),
          a, ArrayRef<int64_t>{r});
    // K's tile is [key][d]: for S = Q K^T it is B = K^T stored k-inner.
    for (int64_t nj = 0; nj < BKV / 16; ++nj)
      mmaPair(a, kTile, stage, nj, kk, acc);
  }
}

/// Applies the scores' epilogue, masks the keys past the end, and turns
/// the tile's scores into P = exp(s - m) with the running maximum m and
/// sum l of each row; rescales the output accumulators.
void AttentionBuilder::softmaxStep(Value kv0) {
  Value ninf = negInf();
  for (int64_t i = 0; i < 2; ++i) {
    Value row = affine(b, loc, cst(b, loc, i), 8,
                       arith::AddIOp::create(b, loc, row0, group));
    // The epilogue's side inputs are read at a position inside S.
    Value safeRow = arith::MinUIOp::create(b, loc, row, cst(b, loc, qk.m - 1));
    Value mx = ninf;
    for (int64_t t = 0; t < BKV / 8; ++t)
      for (int64_t j = 0; j < 2; ++j) {
        Value col = arith::AddIOp::create(
            b, loc, kv0, affine(b, loc, inGroup, 2, cst(b, loc, t * 8 + j)));
        Value s = load(acc, {t, 2 * i + j});
        if (scoreOps) {
          Value safeCol =
              arith::MinUIOp::create(b, loc, col, cst(b, loc, qk.n - 1));
          SmallVector<Value> at =
              qk.c.position(b, loc, batch, safeRow, safeCol);
          s = castTo(b, loc,
                     scoreOps->apply(b, loc, at, castTo(b, loc, s, qk.cElt)),
                     f32);
        }
        s = arith::SelectOp::create(b, loc, lessThan(b, loc, col, qk.n), s,
                                    ninf);
        store(s, acc, {t, 2 * i + j});
        mx = arith::MaximumFOp::create(b, loc, mx, s);
      }
    // A row's 4 lanes are consecutive: xor 1 and 2 reach them all.
    mx = arith::MaximumFOp::create(b, loc, mx, shuffleXor(mx, 1));
    mx = arith::MaximumFOp::create(b, loc, mx, shuffleXor(mx, 2));
    Value old = load(rowMax, {i});
    Value m = arith::MaximumFOp::create(b, loc, old, mx);
    // A row with no key yet (all -inf) subtracts 0 instead of -inf.
    Value isInf =
        arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, m, ninf);
    Value mUse = arith::SelectOp::create(b, loc, isInf, f32Const(0), m);
    Value scale =
        math::ExpOp::create(b, loc, arith::SubFOp::create(b, loc, old, mUse));
    Value sum = f32Const(0);
    for (int64_t t = 0; t < BKV / 8; ++t)
      for (int64_t j = 0; j < 2; ++j) {
        Value p = math::ExpOp::create(
            b, loc,
            arith::SubFOp::create(b, loc, load(acc, {t, 2 * i + j}), mUse));
        store(p, acc, {t, 2 * i + j});
        sum = arith::AddFOp::create(b, loc, sum, p);
      }
    store(arith::AddFOp::create(
              b, loc, arith::MulFOp::create(b, loc, load(rowSum, {i}), scale),
              sum),
          rowSum, {i});
    store(m, rowMax, {i});
    for (int64_t t = 0; t < DV / 8; ++t)
      for (int64_t j = 0; j < 2; ++j)
        store(arith::MulFOp::create(b, loc, load(out, {t, 2 * i + j}), scale),
              out, {t, 2 * i + j});
  }
}

/// out += P V for the key tile: k step kk of P is score tiles 2 kk and
/// 2 kk + 1, whose C registers (row g, g + 8) x (2 t, 2 t + 1) are the A
/// registers a0..a7 of m16n8k16.
void AttentionBuilder::accumulate(Value stage) {
  for (int64_t kk = 0; kk < BKV / 16; ++kk) {
    Value a = arith::ConstantOp::create(
        b, loc, b.getZeroAttr(VectorType::get({4, 2}, elt)));
    for (int64_t r = 0; r < 4; ++r) {
      int64_t t = 2 * kk + r / 2, i = r % 2;
      Value pair = vector::FromElementsOp::create(
          b, loc, VectorType::get({2}, f32),
          ValueRange{load(acc, {t, 2 * i}), load(acc, {t, 2 * i + 1})});
      a = vector::InsertOp::create(b, loc, castTo(b, loc, pair, elt), a,
                                   ArrayRef<int64_t>{r});
    }
    // V's tile is [key][dv]: B stored n-inner, read transposed.
    for (int64_t nj = 0; nj < DV / 16; ++nj)
      mmaPair(a, vTile, stage, nj, kk, out);
  }
}

/// O = out / l, through the second matmul's epilogue.
void AttentionBuilder::finish(const GemmBlock &blk) {
  GemmOutput output{&pv, Value()};
  for (int64_t i = 0; i < 2; ++i) {
    Value l = load(rowSum, {i});
    l = arith::AddFOp::create(b, loc, l, shuffleXor(l, 1));
    l = arith::AddFOp::create(b, loc, l, shuffleXor(l, 2));
    Value inv = arith::DivFOp::create(b, loc, f32Const(1), l);
    // The sum is positive for a row of finite scores with one key or more
    // unmasked; 0 (all masked) and NaN (NaN or infinite scores) are the rows
    // whose probabilities are all NaN.
    Value live = zeroNaNRows ? arith::CmpFOp::create(
                                   b, loc, arith::CmpFPredicate::OGT, l,
                                   f32Const(0))
                                   .getResult()
                             : Value();
    Value row = affine(b, loc, cst(b, loc, i), 8,
                       arith::AddIOp::create(b, loc, row0, group));
    for (int64_t t = 0; t < DV / 8; ++t)
      for (int64_t j = 0; j < 2; ++j) {
        Value col = affine(b, loc, inGroup, 2, cst(b, loc, t * 8 + j));
        Value o =
            arith::MulFOp::create(b, loc, load(out, {t, 2 * i + j}), inv);
        if (live)
          o = arith::SelectOp::create(b, loc, live, o, f32Const(0));
        output.store(b, loc, blk, row, col, o);
      }
  }
}

void hidet::templates::buildAttention(AttentionChain &chain,
                                      AttentionAttr schedule, bool skipMasked) {
  GemmProblem &pv = chain.pv;
  if (!chain.outputOps.empty())
    pv.epilogue = &chain.outputOps;
  Operation *at = chain.outputOps.empty() ? chain.values.getOperation()
                                          : chain.outputOps.insertionPoint();
  Location loc = chain.scores.getLoc();
  OpBuilder b(at);
  Operation *before = at->getPrevNode();
  AttentionBuilder(b, loc, chain, schedule, skipMasked).build();
  recordOnFirstLaunch(before, at, kAttentionAttrName, schedule);
  MLIRContext *ctx = b.getContext();
  if (!chain.scoreOps.empty())
    describeFirstLaunch(before, at, "scores",
                        stringArray(ctx, chain.scoreOps.kinds()));
  if (!chain.outputOps.empty())
    describeFirstLaunch(before, at, "epilogue",
                        stringArray(ctx, chain.outputOps.kinds()));
  if (chain.nanGuard) {
    std::string guard[] = {"zero_nan_rows"};
    describeFirstLaunch(before, at, "softmax", stringArray(ctx, guard));
  }
  // The chain's ops, last first, then what only they used.
  chain.values->erase();
  chain.pvFill->erase();
  if (!chain.outputOps.empty())
    chain.outputOps.erase();
  if (chain.nanGuard)
    chain.nanGuard->erase();
  for (Operation *op : llvm::reverse(chain.softmax))
    op->erase();
  if (!chain.scoreOps.empty())
    chain.scoreOps.erase();
  chain.scores->erase();
  chain.qkFill->erase();
  chain.pvPrologue.erase();
  chain.qkPrologue.erase();
  for (Value t : chain.temporaries)
    fusion::eraseIfUnused(t);
}
