//===- SimtMatmul.cpp - The SIMT matmul template --------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The paper's SIMT matmul template. A block computes a BM x BN tile of C;
// its threads own the tile through the composed mapping
//
//   spatial(block_warps) * repeat(warp_outer) * spatial(warp_mid)
//                        * repeat(warp_inner)
//
// written here as tm.spatial ops for the spatial factors (warp id, lane id)
// and fully unrolled tm.repeat ops for the repeat factors, whose indices
// also address the thread's accumulators (a private array that lives in
// registers). Each K step stages BM x BK of A (k-major) and BK x BN of B in
// shared memory with auto_map loads, zero-filled past the matrix edges, so
// any M, N, K works. With `stages = 0`, shared memory has two stages: the
// global loads of the next step are issued into registers before the
// current step's FMAs and stored to the other stage after them, with one
// barrier per step. With `stages = N`, the tiles are copied by masked
// vector transfers (of 4 bytes where the operand's contiguous dimension is
// not the tile's, as for a row-major A, whose tile is k-major), which
// hidet-pipeline-shared-copies turns into N stages of cp.async.
//
//===----------------------------------------------------------------------===//

#include "Templates.h"

#include "GemmKernel.h"
#include "SplitK.h"

#include "../Pipelining/Pipelining.h"
#include "../Utils/KernelBuilder.h"

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <tuple>

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;

namespace {
/// How a thread's cp.async copies cover an operand's K tile: pieces of
/// `width` elements along the dimension that is contiguous in global
/// memory (`fast`, 0: rows, 1: columns of the logical tile), `rep` pieces
/// per thread at the spatial position (s0, s1) in (slow, fast) order, so
/// that consecutive lanes copy consecutive pieces.
struct AsyncTileCopy {
  bool isA = false;
  int fast = 1;
  int64_t width = 1;
  algebra::Shape rep, spat;
  Value s0, s1;
};

/// Elements per copy of `x` into a tile whose contiguous logical dimension
/// is `tileInner`: up to 4 (16 bytes of f32) along it where `x` is
/// contiguous there too, so that the pieces still split evenly over the
/// threads; else 1.
int64_t asyncCopyWidth(const GemmOperand &x, int tileInner, int64_t rows,
                       int64_t cols, int64_t threads) {
  if (x.innerDim != tileInner)
    return 1;
  for (int64_t w = std::min<int64_t>(x.vectorWidth, 4); w > 1; w /= 2)
    if ((tileInner == 0 ? rows : cols) % w == 0 &&
        (rows * cols / w) % threads == 0)
      return w;
  return 1;
}

/// Whether `v` is computed from `x` (in the block, through the ops that
/// define it).
bool dependsOn(Value v, Value x) {
  Operation *def = v.getDefiningOp();
  if (!def)
    return v == x;
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.inclusive = true;
  (void)getBackwardSlice(def, &slice, options);
  return llvm::any_of(slice, [&](Operation *op) {
    return llvm::is_contained(op->getOperands(), x);
  });
}

/// Stores a thread's accumulators `acc` to `output`, nothing past C's
/// edges. The thread's tasks are repeat(outer) x spatial x repeat(inner) of
/// the tile; `local(o, i)` is the tile row and column of task (o, i), whose
/// accumulator is (o[0] * inner[0] + i[0], o[1] * inner[1] + i[1]).
///
/// An epilogue's side inputs that do not depend on the row (a bias) are
/// loaded once for the thread's columns, before the first store: loaded
/// beside each element, a store in between keeps the backend from reusing
/// them (it cannot tell that C and the bias do not overlap). Those that do
/// (a residual) are loaded beside their element, so that they do not take
/// registers for the whole epilogue. On the H100, 6304 x 3072 x 768 with a
/// bias took 0.730 ms with a bias load per element, 0.700 with them loaded
/// once (0.692 without the bias). The stores stay scalar: 16-byte stores
/// want a thread's four accumulators in four consecutive registers, which
/// took 128 x 64 tiles from 127 to 167 registers (spilling under the
/// resident-blocks promise) and 6304 x 3072 x 768 from 0.695 to 0.706 ms.
void storeResults(
    OpBuilder &b, Location loc, const GemmProblem &p, const GemmOutput &output,
    const GemmBlock &blk, Value acc, ArrayRef<int64_t> outer,
    ArrayRef<int64_t> inner,
    function_ref<std::pair<Value, Value>(ArrayRef<int64_t>, ArrayRef<int64_t>)>
        local) {
  const fusion::Epilogue *epilogue = output.workspace ? nullptr : p.epilogue;
  auto positionOf = [&](ArrayRef<int64_t> o,
                        ArrayRef<int64_t> i) -> std::pair<Value, Value> {
    auto [row, col] = local(o, i);
    return {arith::AddIOp::create(b, loc, blk.m0, row),
            arith::AddIOp::create(b, loc, blk.n0, col)};
  };
  Value lastRow = cst(b, loc, p.m - 1), lastCol = cst(b, loc, p.n - 1);
  // The side inputs of element (gr, gc), loaded at a position inside C
  // (those of an element past the edges are not used); and for each,
  // whether it depends on the row.
  auto loadSideInputs = [&](Value gr, Value gc,
                            SmallVectorImpl<bool> *byRow = nullptr) {
    Value r = arith::MinUIOp::create(b, loc, gr, lastRow);
    Value c = arith::MinUIOp::create(b, loc, gc, lastCol);
    SmallVector<Value> loaded = epilogue->loadSideInputs(
        b, loc, p.c.position(b, loc, blk.batch, r, c), 1);
    if (byRow)
      for (Value v : loaded)
        byRow->push_back(dependsOn(v, r));
    return loaded;
  };
  // Column j's side inputs of the first row, and which depend on the row.
  int64_t columns = outer[1] * inner[1];
  SmallVector<SmallVector<Value>> firstRow;
  SmallVector<bool> byRow;
  if (epilogue)
    for (int64_t j = 0; j < columns; ++j) {
      auto [gr, gc] = positionOf({0, j / inner[1]}, {0, j % inner[1]});
      byRow.clear();
      firstRow.push_back(loadSideInputs(gr, gc, &byRow));
    }
  for (int64_t o0 = 0; o0 < outer[0]; ++o0)
    for (int64_t i0 = 0; i0 < inner[0]; ++i0)
      for (int64_t j = 0; j < columns; ++j) {
        OpBuilder::InsertionGuard g(b);
        int64_t o1 = j / inner[1], i1 = j % inner[1];
        auto [gr, gc] = positionOf({o0, o1}, {i0, i1});
        SmallVector<Value> sideInputs;
        if (epilogue) {
          sideInputs = firstRow[j];
          if (o0 != 0 || i0 != 0) {
            SmallVector<Value> own = loadSideInputs(gr, gc);
            for (auto [k, varies] : llvm::enumerate(byRow))
              if (varies)
                sideInputs[k] = own[k];
          }
        }
        auto ifOp = scf::IfOp::create(
            b, loc,
            arith::AndIOp::create(b, loc, lessThan(b, loc, gr, p.m),
                                  lessThan(b, loc, gc, p.n)),
            /*withElse=*/false);
        b.setInsertionPointToStart(&ifOp.getThenRegion().front());
        Value v = memref::LoadOp::create(
            b, loc, acc,
            ValueRange{cst(b, loc, o0 * inner[0] + i0), cst(b, loc, j)});
        if (epilogue) {
          epilogue->store(b, loc, p.c.position(b, loc, blk.batch, gr, gc),
                          castTo(b, loc, v, p.cElt), sideInputs);
          continue;
        }
        output.store(b, loc, blk, gr, gc, v);
      }
}
} // namespace

void hidet::templates::buildSimtMatmul(OpBuilder &b, Location loc,
                                       const GemmProblem &p, SimtMatmulAttr s,
                                       int64_t reduceBlockSize) {
  MLIRContext *ctx = b.getContext();
  Type elt = p.cElt;
  int64_t M = p.m, N = p.n, K = p.k;
  int64_t BM = s.getBlockM(), BN = s.getBlockN(), BK = s.getBlockK();
  int64_t threads = s.getNumThreads();
  ArrayRef<int64_t> outer = s.getWarpOuter(), mid = s.getWarpMid(),
                    inner = s.getWarpInner(), warps = s.getBlockWarps();

  GemmGrid grid(p, BM, BN, BK, s.getSwizzle(), s.getSplitK());
  GemmOutput output{&p, createSplitKWorkspace(b, loc, p, grid.splits)};
  int64_t numWarps = threads / kWarpSize;
  output.counters = splitKCounters(grid.splits, p.splitKInKernel,
                                   warpPartCount(p, grid, numWarps));
  auto tileA = *algebra::TaskMapping::autoMap({BM, BK}, threads);
  auto tileB = *algebra::TaskMapping::autoMap({BK, BN}, threads);
  auto workgroup =
      gpu::AddressSpaceAttr::get(ctx, gpu::AddressSpace::Workgroup);
  // A's rows may be padded (SimtMatmulSchedule::paddingA); the indices
  // below address the first BM elements of each.
  schedule::SimtMatmulSchedule sched = s.toSchedule();
  int64_t padA = sched.paddingA();
  // With cp.async, one tile each, which the pipelining multi-buffers.
  bool async = s.getStages() != 0;
  auto tileType = [&](int64_t inner) {
    SmallVector<int64_t, 3> shape;
    if (!async)
      shape.push_back(2);
    shape.append({BK, inner});
    return MemRefType::get(shape, elt, AffineMap(), workgroup);
  };
  // B's rows are padded where the cp.async copies go along K
  // (SimtMatmulSchedule::paddingB).
  int64_t padB = async && p.b.innerDim == 0 ? sched.paddingB() : 0;
  SmallVector<Type> shared = {tileType(BM + padA), tileType(BN + padB)};
  // Indices of element (k, x) of a shared tile at `stage` (none with
  // cp.async).
  auto tileAt = [async](Value stage, Value k, Value x) -> SmallVector<Value> {
    if (async)
      return {k, x};
    return {stage, k, x};
  };

  // The blocks per SM that the schedule was chosen for (its estimate of the
  // registers a thread takes), promised to ptxas where the grid has partial
  // edge tiles: their masks take registers past the estimate (on the H100,
  // ViT-B/16's 6304 x 3072 x 768 took 143 and one 256-thread block an SM;
  // promised two, 128 and 0.82 ms instead of 0.90). With whole tiles the
  // promise measured 2.5% slower (4096 x 3072 x 768 at 127 registers).
  int64_t resident = 0;
  if (M % BM != 0 || N % BN != 0)
    resident = schedule::residentBlocks(
        threads, sched.estimatedRegisters(), sched.sharedBytes(),
        TargetAttr::lookup(b.getInsertionBlock()->getParentOp()).getLimits());

  createLaunch(
      b, loc, kernelKind(schedule::TemplateKind::Simt), grid.mapping(ctx, p),
      /*workersPerBlock=*/1, threads,
      [&](OpBuilder &b, gpu::LaunchOp launch) {
        if (resident > 1)
          launch->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                          b.getI32IntegerAttr(resident));
        SmallVector<Value> buffers = allocateShared(b, loc, shared);
        Value As = buffers[0], Bs = buffers[1];
        Value flatA = flatten(b, loc, p.a.buffer);
        Value flatB = flatten(b, loc, p.b.buffer);
        forEachGemmBlock(
            b, loc, p, grid, [&](OpBuilder &b, const GemmBlock &blk) {
              Value m0 = blk.m0, n0 = blk.n0;
              Value tid = launch.getThreadIds().x;
              Value warp =
                  arith::DivUIOp::create(b, loc, tid, cst(b, loc, kWarpSize));
              Value lane =
                  arith::RemUIOp::create(b, loc, tid, cst(b, loc, kWarpSize));
              // The spatial factors: which warp tile and which lane position.
              auto warpPos = hidet::tm::SpatialOp::create(
                  b, loc, TypeRange{b.getIndexType(), b.getIndexType()}, warp,
                  hidet::tm::SpatialAttr::get(ctx, warps));
              auto lanePos = hidet::tm::SpatialOp::create(
                  b, loc, TypeRange{b.getIndexType(), b.getIndexType()}, lane,
                  hidet::tm::SpatialAttr::get(ctx, mid));
              // Local row/column of the thread's task (o, i) within the block
              // tile.
              auto localIndex = [&](OpBuilder &b, unsigned d, Value o,
                                    Value i) {
                Value w = d == 0 ? warpPos.getResult(0) : warpPos.getResult(1);
                Value l = d == 0 ? lanePos.getResult(0) : lanePos.getResult(1);
                Value x = affine(b, loc, w, outer[d], o);
                x = affine(b, loc, x, mid[d], l);
                return affine(b, loc, x, inner[d], i);
              };
              auto accType = MemRefType::get(
                  {outer[0] * inner[0], outer[1] * inner[1]}, elt);
              Value acc = memref::AllocaOp::create(b, loc, accType);
              // Visits the thread's tasks: (row, col) in the tile and the
              // accumulator slot.
              auto forTasks = [&](function_ref<void(OpBuilder &, Value, Value,
                                                    Value, Value)>
                                      body) {
                fullyUnrolled(b, loc, {outer[0], outer[1]},
                              [&](OpBuilder &b, ValueRange o) {
                                fullyUnrolled(
                                    b, loc, {inner[0], inner[1]},
                                    [&](OpBuilder &b, ValueRange i) {
                                      Value row = localIndex(b, 0, o[0], i[0]);
                                      Value col = localIndex(b, 1, o[1], i[1]);
                                      Value slotR =
                                          affine(b, loc, o[0], inner[0], i[0]);
                                      Value slotC =
                                          affine(b, loc, o[1], inner[1], i[1]);
                                      body(b, row, col, slotR, slotC);
                                    });
                              });
              };
              // C += A * B: the accumulators start from C (0 past the edges).
              forTasks([&](OpBuilder &b, Value row, Value col, Value sr,
                           Value sc) {
                Value gr = arith::AddIOp::create(b, loc, m0, row);
                Value gc = arith::AddIOp::create(b, loc, n0, col);
                memref::StoreOp::create(b, loc,
                                        output.loadInit(b, loc, blk, gr, gc),
                                        acc, ValueRange{sr, sc});
              });
              // The thread's position in the spatial factor `spat` of a tile
              // mapping.
              auto threadPosition = [&](const algebra::Shape &spat) {
                auto pos = hidet::tm::SpatialOp::create(
                    b, loc, TypeRange{b.getIndexType(), b.getIndexType()}, tid,
                    hidet::tm::SpatialAttr::get(ctx, spat));
                return std::make_pair(pos.getResult(0), pos.getResult(1));
              };
              // Tile loads go global -> registers -> shared memory. The
              // auto_map tile mapping is repeat(R) * spatial(S): the spatial
              // part is the thread's fixed position, the repeat index its
              // register slot, so the next tile can be fetched into registers
              // while the current one is computed on (Hidet's register double
              // buffering of the global loads).
              struct TileLoad {
                bool isA;
                algebra::Shape rep, spat;
                Value regs, s0, s1;
              };
              auto makeTileLoad = [&](const algebra::TaskMapping &mapping,
                                      bool isA) {
                TileLoad t;
                t.isA = isA;
                t.rep = mapping.getFactors()[0].getShape();
                t.spat = mapping.getFactors()[1].getShape();
                t.regs = memref::AllocaOp::create(
                    b, loc, MemRefType::get({t.rep[0] * t.rep[1]}, elt));
                std::tie(t.s0, t.s1) = threadPosition(t.spat);
                return t;
              };
              // Visits the thread's tasks (r, c) of a tile and their register
              // slots.
              auto forTileTasks =
                  [&](const TileLoad &t,
                      function_ref<void(OpBuilder &, Value, Value, Value)>
                          body) {
                    fullyUnrolled(
                        b, loc, {t.rep[0], t.rep[1]},
                        [&](OpBuilder &b, ValueRange p) {
                          Value r = affine(b, loc, p[0], t.spat[0], t.s0);
                          Value c = affine(b, loc, p[1], t.spat[1], t.s1);
                          Value slot = affine(b, loc, p[0], t.rep[1], p[1]);
                          body(b, r, c, slot);
                        });
                  };
              // Global -> registers for the K tile starting at k0 (zero past
              // edges, including a whole tile past K, so the last prefetch
              // reads nothing).
              auto fetch = [&](const TileLoad &t, Value k0) {
                forTileTasks(t, [&](OpBuilder &b, Value r, Value c,
                                    Value slot) {
                  Value gr = arith::AddIOp::create(b, loc, t.isA ? m0 : k0, r);
                  Value gc = arith::AddIOp::create(b, loc, t.isA ? k0 : n0, c);
                  Value inRow = lessThan(b, loc, gr, t.isA ? M : K);
                  Value inCol = lessThan(b, loc, gc, t.isA ? K : N);
                  const GemmOperand &x = t.isA ? p.a : p.b;
                  // Computed unconditionally, so that its loop-invariant
                  // part is hoisted.
                  Value off =
                      clampedOffset(b, loc, x, blk.batch, gr, inRow, gc, inCol);
                  Value v = loadOperandOrZero(
                      b, loc, insideOperand(b, loc, x, gr, inRow, gc, inCol), x,
                      t.isA ? flatA : flatB, off, elt);
                  memref::StoreOp::create(b, loc, v, t.regs, slot);
                });
              };
              // Registers -> shared memory stage `stage`: A k-major (As[k][m]),
              // B as is.
              auto stash = [&](const TileLoad &t, Value stage) {
                forTileTasks(
                    t, [&](OpBuilder &b, Value r, Value c, Value slot) {
                      Value v = memref::LoadOp::create(b, loc, t.regs, slot);
                      memref::StoreOp::create(b, loc, v, t.isA ? As : Bs,
                                              t.isA ? ValueRange{stage, c, r}
                                                    : ValueRange{stage, r, c});
                    });
              };
              auto compute = [&](OpBuilder &b, Value stage) {
                fullyUnrolled(b, loc, {BK}, [&](OpBuilder &b, ValueRange kk) {
                  forTasks([&](OpBuilder &b, Value row, Value col, Value sr,
                               Value sc) {
                    Value a = memref::LoadOp::create(b, loc, As,
                                                     tileAt(stage, kk[0], row));
                    Value bv = memref::LoadOp::create(
                        b, loc, Bs, tileAt(stage, kk[0], col));
                    Value c =
                        memref::LoadOp::create(b, loc, acc, ValueRange{sr, sc});
                    // One fused multiply-add per product, as cuBLAS does; it
                    // differs from a separate multiply and add by one rounding.
                    memref::StoreOp::create(
                        b, loc, math::FmaOp::create(b, loc, a, bv, c), acc,
                        ValueRange{sr, sc});
                  });
                });
              };
              // cp.async: the tile A (k-major, contiguous along M) or B
              // (contiguous along N) in pieces along the operand's
              // contiguous dimension.
              auto makeAsyncCopy = [&](bool isA) {
                const GemmOperand &x = isA ? p.a : p.b;
                int64_t rows = isA ? BM : BK, cols = isA ? BK : BN;
                AsyncTileCopy t;
                t.isA = isA;
                t.fast = x.innerDim == 0 ? 0 : 1;
                t.width = asyncCopyWidth(x, isA ? 0 : 1, rows, cols, threads);
                int64_t fastExtent = (t.fast == 0 ? rows : cols) / t.width;
                int64_t slowExtent = t.fast == 0 ? cols : rows;
                auto pieces = *algebra::TaskMapping::autoMap(
                    {slowExtent, fastExtent}, threads);
                t.rep = pieces.getFactors()[0].getShape();
                t.spat = pieces.getFactors()[1].getShape();
                std::tie(t.s0, t.s1) = threadPosition(t.spat);
                return t;
              };
              // The K tile starting at k0 as masked transfers, zero past the
              // edges; unrolled here (not in a tm.repeat) so that they are
              // ops of the K loop's body, which the pipelining schedules.
              auto copyAsync = [&](OpBuilder &b, const AsyncTileCopy &t,
                                   Value k0) {
                const GemmOperand &x = t.isA ? p.a : p.b;
                for (int64_t r0 = 0; r0 < t.rep[0]; ++r0)
                  for (int64_t r1 = 0; r1 < t.rep[1]; ++r1) {
                    Value slow =
                        affine(b, loc, cst(b, loc, r0), t.spat[0], t.s0);
                    Value fast = arith::MulIOp::create(
                        b, loc,
                        affine(b, loc, cst(b, loc, r1), t.spat[1], t.s1),
                        cst(b, loc, t.width));
                    Value r = t.fast == 0 ? fast : slow;
                    Value c = t.fast == 0 ? slow : fast;
                    Value gr =
                        arith::AddIOp::create(b, loc, t.isA ? m0 : k0, r);
                    Value gc =
                        arith::AddIOp::create(b, loc, t.isA ? k0 : n0, c);
                    Value inRow = lessThan(b, loc, gr, t.isA ? M : K);
                    Value inCol = lessThan(b, loc, gc, t.isA ? K : N);
                    Value src = clampedOffset(b, loc, x, blk.batch, gr, inRow,
                                              gc, inCol);
                    emitMaskedCopy(
                        b, loc, insideOperand(b, loc, x, gr, inRow, gc, inCol),
                        t.isA ? flatA : flatB, src, t.width, elt,
                        t.isA ? As : Bs,
                        t.isA ? ValueRange{c, r} : ValueRange{r, c});
                  }
              };
              if (async) {
                AsyncTileCopy copyA = makeAsyncCopy(/*isA=*/true);
                AsyncTileCopy copyB = makeAsyncCopy(/*isA=*/false);
                pipelining::emitStagedCopyKLoop(
                    b, loc, blk.kBegin, blk.kEnd, BK, s.getStages(),
                    [&](OpBuilder &b, Value k0) {
                      copyAsync(b, copyA, k0);
                      copyAsync(b, copyB, k0);
                    },
                    [&](OpBuilder &b) { compute(b, Value()); });
              } else {
                TileLoad loadA = makeTileLoad(tileA, /*isA=*/true);
                TileLoad loadB = makeTileLoad(tileB, /*isA=*/false);
                pipelining::emitDoubleBufferedKLoop(
                    b, loc, blk.kBegin, blk.kEnd, BK,
                    [&](OpBuilder &b, Value k0) {
                      fetch(loadA, k0);
                      fetch(loadB, k0);
                    },
                    [&](OpBuilder &b, Value stage) {
                      stash(loadA, stage);
                      stash(loadB, stage);
                    },
                    compute);
              }
              storeResults(
                  b, loc, p, output, blk, acc, outer, inner,
                  [&](ArrayRef<int64_t> o, ArrayRef<int64_t> i) {
                    return std::make_pair(
                        localIndex(b, 0, cst(b, loc, o[0]), cst(b, loc, i[0])),
                        localIndex(b, 1, cst(b, loc, o[1]), cst(b, loc, i[1])));
                  });
              // Split-K in the kernel: the warp's rectangle of the tile
              // (outer x mid x inner tasks each way) is a part.
              if (output.counters) {
                int64_t rows = outer[0] * mid[0] * inner[0];
                int64_t cols = outer[1] * mid[1] * inner[1];
                emitSplitKFixup(
                    b, loc, output, grid.splits,
                    warpPartCounter(b, loc, grid, blk, warp, numWarps),
                    blk.batch, affine(b, loc, warpPos.getResult(0), rows, m0),
                    rows, affine(b, loc, warpPos.getResult(1), cols, n0), cols,
                    lane, blk.flatC);
              }
            });
      },
      /*workgroupBuffers=*/{});
  finishSplitK(b, loc, p, output, grid.splits, reduceBlockSize);
}
