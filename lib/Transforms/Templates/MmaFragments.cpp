//===- MmaFragments.cpp - Fragments of the tensor-core template -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The math of the mma.sync template: the A and B fragments of each K step,
// loaded from the shared tiles with ldmatrix (or element by element for tf32
// tiles that are not k-inner) into register arrays double-buffered across K
// steps, and the mma.sync instructions on them (nvvm.mma.sync for bf16).
//
//===----------------------------------------------------------------------===//

#include "Mma.h"

#include "../Utils/KernelBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::kernel;
using namespace hidet::templates;
using namespace hidet::templates::mma;

/// ldmatrix.x4 of the 16 x 16 block at (p0, q0) of a tile, p the block's
/// non-k dimension (m of A, n of B) and q its k dimension. Matrix i of A
/// covers (p, q) offsets ((i % 2) * 8, (i / 2) * 8), giving the a0..a7
/// registers of the mma.m16n8k16 A fragment; for B it is ((i / 2) * 8,
/// (i % 2) * 8), the b0..b3 registers of two n8 fragments.
Value mma::ldmatrixX4(OpBuilder &b, Location loc, const SharedTile &tile,
                      Value stage, bool isA, Value p0, Value q0, Value matrix,
                      Value matrixRow, Type elt) {
  int64_t perReg = elt.isF32() ? 1 : 2;
  Value half = arith::RemUIOp::create(b, loc, matrix, cst(b, loc, 2));
  Value pair = arith::DivUIOp::create(b, loc, matrix, cst(b, loc, 2));
  Value pOff = arith::MulIOp::create(b, loc, isA ? half : pair, cst(b, loc, 8));
  Value qOff =
      arith::MulIOp::create(b, loc, isA ? pair : half, cst(b, loc, tile.piece));
  Value pp = arith::AddIOp::create(b, loc, p0, pOff);
  Value qq = arith::AddIOp::create(b, loc, q0, qOff);
  // The row this lane addresses runs along the stored inner dimension: k
  // when the tile is k-inner, else the p dimension.
  int kDim = isA ? 1 : 0;
  bool kInner = tile.innerDim == kDim;
  Value o = arith::AddIOp::create(b, loc, kInner ? pp : qq, matrixRow);
  Value i = kInner ? qq : pp;
  Value stored = tile.storedInner(b, loc, o, i);
  return nvgpu::LdMatrixOp::create(b, loc, VectorType::get({4, perReg}, elt),
                                   tile.buffer, tile.at(stage, o, stored),
                                   b.getBoolAttr(!kInner),
                                   b.getI32IntegerAttr(4));
}

LanePlace mma::placeLane(OpBuilder &b, Location loc, Value lane) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type, 2> two(2, b.getIndexType());
  auto quad = hidet::tm::SpatialOp::create(
      b, loc, two, lane, hidet::tm::SpatialAttr::get(ctx, {8, 4}));
  auto ldPos = hidet::tm::SpatialOp::create(
      b, loc, two, lane, hidet::tm::SpatialAttr::get(ctx, {4, 8}));
  return {quad.getResult(0), quad.getResult(1), ldPos.getResult(0),
          ldPos.getResult(1)};
}

Value MatmulBuilder::ldmatrix(const SharedTile &tile, Value stage, bool isA,
                              Value p0, Value q0) {
  return ldmatrixX4(b, loc, tile, stage, isA, p0, q0, matrix, matrixRow, elt);
}

// Fragments are R x W vectors (R registers of W elements); they move to and
// from the private arrays a register at a time, since only rank-1 vector
// loads, stores, inserts and extracts lower to NVVM directly.

void MatmulBuilder::storeRows(Value v, Value buffer, Value index,
                              Value offset) {
  auto type = cast<VectorType>(v.getType());
  int64_t w = type.getDimSize(1);
  for (int64_t r = 0; r < type.getDimSize(0); ++r)
    vector::StoreOp::create(
        b, loc, vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{r}),
        buffer, ValueRange{index, affine(b, loc, cst(b, loc, r), w, offset)});
}

Value MatmulBuilder::loadRows(int64_t rows, int64_t w, Type t, Value buffer,
                              Value index, Value offset) {
  auto type = VectorType::get({rows, w}, t);
  Value v = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (int64_t r = 0; r < rows; ++r)
    v = vector::InsertOp::create(
        b, loc,
        vector::LoadOp::create(
            b, loc, VectorType::get({w}, t), buffer,
            ValueRange{index, affine(b, loc, cst(b, loc, r), w, offset)}),
        v, ArrayRef<int64_t>{r});
  return v;
}

/// tf32 fragments of a tile that is not k-inner cannot come from ldmatrix
/// (it transposes 16-bit elements only): they are read an element at a
/// time, at the fragment positions of the PTX ISA (A: row g + 8 (j % 2),
/// column t + 4 (j / 2); B: row t + 4 j, column g, for lane = 4 g + t).
void MatmulBuilder::scalarFragments(const SharedTile &tile, Value stage,
                                    bool isA, Value p0, Value q0, Value frag,
                                    Value index) {
  Value g = group, tg = inGroup;
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
    Value v = memref::LoadOp::create(b, loc, tile.buffer,
                                     tile.element(b, loc, stage, r, c));
    memref::StoreOp::create(b, loc, v, frag, ValueRange{index, cst(b, loc, j)});
  }
}

bool MatmulBuilder::useLdmatrix(const SharedTile &tile, bool isA) const {
  return !isTF32 || tile.innerDim == (isA ? 1 : 0);
}

/// Splits the `regs` f32 values of fragment `slot` for three tf32 terms:
/// each becomes its tf32 rounding (to nearest, ties away: cvt.rna.tf32),
/// and `rest` gets the remainder, exact in f32, which the mma rounds to
/// tf32 in turn.
void MatmulBuilder::splitTF32(Value frag, Value rest, Value slot,
                              int64_t regs) {
  auto rna = NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RNA);
  for (int64_t j = 0; j < regs; ++j) {
    SmallVector<Value> at = {slot, cst(b, loc, j)};
    Value x = memref::LoadOp::create(b, loc, frag, at);
    Value bits =
        NVVM::ConvertFloatToTF32Op::create(b, loc, b.getI32Type(), x, rna);
    Value high = arith::BitcastOp::create(b, loc, f32, bits);
    memref::StoreOp::create(b, loc, high, frag, at);
    memref::StoreOp::create(b, loc, arith::SubFOp::create(b, loc, x, high),
                            rest, at);
  }
}

/// mma.sync on one 16 x 8 tile: d = a * b + c, of `elt` operands (f32 runs
/// in tf32, m16n8k8).
Value mma::mmaSync(OpBuilder &b, Location loc, Value a, Value bv, Value c,
                   Type elt) {
  MLIRContext *ctx = b.getContext();
  Type f32 = b.getF32Type();
  if (elt.isF32())
    return nvgpu::MmaSyncOp::create(b, loc, a, bv, c,
                                    ArrayRef<int64_t>{16, 8, 8},
                                    /*tf32Enabled=*/true);
  if (!elt.isBF16())
    return nvgpu::MmaSyncOp::create(b, loc, a, bv, c,
                                    ArrayRef<int64_t>{16, 8, 16});
  // nvgpu.mma.sync cannot lower bf16 in MLIR 22 (its NVVM conversion does
  // not deduce bf16 PTX types), so bf16 goes to nvvm.mma.sync, which takes
  // the fragments as packed 32-bit registers.
  auto regs = [&](Value v, int64_t n) {
    SmallVector<Value> out;
    for (int64_t j = 0; j < n; ++j) {
      Value row = vector::ExtractOp::create(b, loc, v, ArrayRef<int64_t>{j});
      Value packed = vector::BitCastOp::create(
          b, loc, VectorType::get({1}, b.getI32Type()), row);
      out.push_back(
          vector::ExtractOp::create(b, loc, packed, ArrayRef<int64_t>{0}));
    }
    return out;
  };
  SmallVector<Value> cs;
  for (int64_t j = 0; j < 4; ++j)
    cs.push_back(
        vector::ExtractOp::create(b, loc, c, ArrayRef<int64_t>{j / 2, j % 2}));
  auto resType =
      LLVM::LLVMStructType::getLiteral(ctx, SmallVector<Type>(4, f32));
  Value d = NVVM::MmaOp::create(
      b, loc, resType, regs(a, 4), regs(bv, 2), cs,
      ArrayRef<int64_t>{16, 8, 16}, std::nullopt, std::nullopt,
      std::array<NVVM::MMATypes, 2>{NVVM::MMATypes::bf16, NVVM::MMATypes::bf16},
      std::array<NVVM::MMALayout, 2>{NVVM::MMALayout::row,
                                     NVVM::MMALayout::col});
  auto type = VectorType::get({2, 2}, f32);
  Value out = arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
  for (int64_t j = 0; j < 4; ++j)
    out = vector::InsertOp::create(b, loc,
                                   LLVM::ExtractValueOp::create(b, loc, d, j),
                                   out, ArrayRef<int64_t>{j / 2, j % 2});
  return out;
}

Value MatmulBuilder::mma(Value a, Value bv, Value c) {
  return mmaSync(b, loc, a, bv, c, elt);
}

/// The A and B fragments of K step `kk` of the tile in `stage`, into half
/// kk % 2 of the fragment arrays.
void MatmulBuilder::loadFragments(Value stage, int64_t kk) {
  Value zero = cst(b, loc, 0);
  Value q0 = cst(b, loc, kk * mmaK);
  Value aHalf = cst(b, loc, kk % 2 * MT);
  Value bHalf = cst(b, loc, kk % 2 * (NT / 2));
  fullyUnrolled(b, loc, {MT}, [&](OpBuilder &b, ValueRange mi) {
    Value p0 = affine(b, loc, mi[0], 16, wm0);
    Value slot = arith::AddIOp::create(b, loc, aHalf, mi[0]);
    if (!useLdmatrix(tileA, /*isA=*/true))
      return scalarFragments(tileA, stage, /*isA=*/true, p0, q0, aFrag, slot);
    storeRows(ldmatrix(tileA, stage, /*isA=*/true, p0, q0), aFrag, slot, zero);
  });
  fullyUnrolled(b, loc, {NT / 2}, [&](OpBuilder &b, ValueRange nj) {
    Value p0 = affine(b, loc, nj[0], 16, wn0);
    Value slot = arith::AddIOp::create(b, loc, bHalf, nj[0]);
    if (!useLdmatrix(tileB, /*isA=*/false))
      return scalarFragments(tileB, stage, /*isA=*/false, p0, q0, bFrag, slot);
    storeRows(ldmatrix(tileB, stage, /*isA=*/false, p0, q0), bFrag, slot, zero);
  });
  if (tf32Terms != 3)
    return;
  fullyUnrolled(b, loc, {MT}, [&](OpBuilder &b, ValueRange mi) {
    splitTF32(aFrag, aRest, arith::AddIOp::create(b, loc, aHalf, mi[0]), 4);
  });
  fullyUnrolled(b, loc, {NT / 2}, [&](OpBuilder &b, ValueRange nj) {
    splitTF32(bFrag, bRest, arith::AddIOp::create(b, loc, bHalf, nj[0]), 4);
  });
}

/// The MT x NT mma instructions of K step `kk`, on the fragments in half
/// kk % 2.
void MatmulBuilder::mmaStep(int64_t kk) {
  Value zero = cst(b, loc, 0);
  Value aHalf = cst(b, loc, kk % 2 * MT);
  Value bHalf = cst(b, loc, kk % 2 * (NT / 2));
  fullyUnrolled(b, loc, {MT, NT}, [&](OpBuilder &b, ValueRange t) {
    Value a = loadRows(4, perReg, elt, aFrag,
                       arith::AddIOp::create(b, loc, aHalf, t[0]), zero);
    // Fragment ni is registers 2 * (ni % 2) + {0, 1} of pair ni / 2.
    Value nj = arith::AddIOp::create(
        b, loc, bHalf, arith::DivUIOp::create(b, loc, t[1], cst(b, loc, 2)));
    Value off = arith::MulIOp::create(
        b, loc, arith::RemUIOp::create(b, loc, t[1], cst(b, loc, 2)),
        cst(b, loc, 2 * perReg));
    Value bv = loadRows(2, perReg, elt, bFrag, nj, off);
    Value accOff = arith::MulIOp::create(b, loc, t[1], cst(b, loc, 4));
    Value c = loadRows(2, 2, f32, accFlat, t[0], accOff);
    if (tf32Terms == 3) {
      // The small terms first, then the large one onto their sum, all on
      // the accumulators. The tensor cores' accumulation truncates, an
      // error that grows with K; summing each step's three products from
      // zero and adding that in f32 (round to nearest) brought BERT-base's
      // b32 f32 output from 8.6e-5 to 2.3e-5 relative L2 of the SIMT
      // template's, but made the model 28% slower (16.6 -> 21.3 ms on the
      // H100, beyond SIMT's 20.4).
      Value aSlot = arith::AddIOp::create(b, loc, aHalf, t[0]);
      c = mma(loadRows(4, perReg, elt, aRest, aSlot, zero), bv, c);
      c = mma(a, loadRows(2, perReg, elt, bRest, nj, off), c);
    }
    storeRows(mma(a, bv, c), accFlat, t[0], accOff);
  });
}

/// One K tile in shared memory, BK / 16 K steps. The fragments are
/// double-buffered in registers: step kk + 1's ldmatrix instructions are
/// issued before step kk's MT x NT mma instructions, into the other half
/// of the fragment arrays, so that the shared-memory latency hides behind
/// the mma. (Loading the next tile's first step ahead too, across the
/// barrier, was measured slower on the H100 with 8 warps: 0.80 vs 0.51 ms
/// at 4096^3.)
void MatmulBuilder::compute(Value stage) {
  int64_t kSteps = BK / mmaK;
  loadFragments(stage, 0);
  for (int64_t kk = 0; kk < kSteps; ++kk) {
    if (kk + 1 < kSteps)
      loadFragments(stage, kk + 1);
    mmaStep(kk);
  }
}
