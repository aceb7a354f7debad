//===- Common.cpp - Helpers the rules share -------------------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Helpers shared by the rules of the rule-based scheduler: the operand
// checks behind vectorization, and the warp-level reduction primitives.
//
//===----------------------------------------------------------------------===//

#include "RuleBased.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace hidet::kernel;

namespace hidet {
namespace rulebased {

/// Whether the innermost stride of `type` is 1 and its offset 0 (so that
/// aligned vector accesses stay aligned).
bool isContiguous(MemRefType type) {
  if (type.getLayout().isIdentity())
    return true;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return false;
  return offset == 0 && !strides.empty() && strides.back() == 1 &&
         type.isStrided();
}

bool vectorAligned(MemRefType type, int64_t width) {
  // Scalars and operands broadcast along the vector are read one element
  // at a time.
  if (width <= 1 || type.getRank() == 0 || type.getShape().back() == 1)
    return true;
  if (type.getLayout().isIdentity())
    return type.getRank() == 1 || type.getShape().back() % width == 0;
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset % width != 0)
    return false;
  for (int64_t stride : ArrayRef<int64_t>(strides).drop_back())
    if (ShapedType::isDynamic(stride) || stride % width != 0)
      return false;
  return true;
}

bool readsAlongInnermost(linalg::LinalgOp op, OpOperand &operand, unsigned d) {
  auto type = cast<MemRefType>(operand.get().getType());
  AffineMap map = op.getMatchingIndexingMap(&operand);
  auto last = dyn_cast_if_present<AffineDimExpr>(
      map.getNumResults() ? map.getResults().back() : AffineExpr());
  if (!last || last.getPosition() != d || !isContiguous(type))
    return false;
  return llvm::none_of(map.getResults().drop_back(),
                       [&](AffineExpr e) { return e.isFunctionOfDim(d); });
}

bool operandsVectorAligned(linalg::LinalgOp op, int64_t width) {
  for (OpOperand &operand : op->getOpOperands())
    if (auto type = dyn_cast<MemRefType>(operand.get().getType());
        type && !vectorAligned(type, width))
      return false;
  return true;
}

/// Bytes of the widest element type among the operands of `op`, or 0 when
/// one is not an integer or float of at least a byte (such ops are not
/// vectorized).
int64_t widestElementBytes(linalg::LinalgOp op) {
  int64_t maxBytes = 1;
  for (OpOperand &operand : op->getOpOperands()) {
    Type t = elementTypeOf(operand.get());
    if (!kernel::isVectorizableElement(t))
      return 0;
    maxBytes = std::max<int64_t>(maxBytes, (t.getIntOrFloatBitWidth() + 7) / 8);
  }
  return maxBytes;
}

std::optional<WarpReduction> matchWarpReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInits() != 1 || op.getNumReductionLoops() != 1)
    return std::nullopt;
  SmallVector<unsigned> dims;
  op.getReductionDims(dims);
  unsigned r = dims.front();
  for (OpOperand *input : op.getDpsInputOperands()) {
    auto type = dyn_cast<MemRefType>(input->get().getType());
    if (!type)
      continue;
    AffineMap map = op.getMatchingIndexingMap(input);
    if (!map.isFunctionOfDim(r))
      continue;
    auto lastExpr = dyn_cast<AffineDimExpr>(map.getResults().back());
    if (!lastExpr || lastExpr.getPosition() != r || !isContiguous(type))
      return std::nullopt;
  }
  SmallVector<Operation *> combiners;
  Block *block = op.getBlock();
  unsigned accPos = op.getDpsInitOperand(0)->getOperandNumber();
  // matchReduction indexes the yielded values: pass the output arguments.
  if (!matchReduction(op.getRegionOutputArgs(), 0, combiners) ||
      combiners.size() != 1)
    return std::nullopt;
  Operation *combiner = combiners.front();
  // The accumulator must feed nothing but the combiner.
  BlockArgument acc = block->getArgument(accPos);
  if (!acc.hasOneUse() || *acc.user_begin() != combiner)
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combiner);
  if (!neutral)
    return std::nullopt;
  Type t = combiner->getResult(0).getType();
  if (!t.isIntOrFloat() || t.getIntOrFloatBitWidth() > 64 ||
      (t.isInteger() && t.getIntOrFloatBitWidth() < 32))
    return std::nullopt;
  return WarpReduction{r, combiner, *neutral};
}

/// Applies the combiner op to (lhs, rhs).
Value combine(OpBuilder &b, Operation *combiner, Value lhs, Value rhs) {
  IRMapping map;
  map.map(combiner->getOperand(0), lhs);
  map.map(combiner->getOperand(1), rhs);
  return b.clone(*combiner, map)->getResult(0);
}

/// `gpu.shuffle xor` of a 16-, 32- or 64-bit float or a 32/64-bit integer;
/// 16-bit floats travel as f32, which holds them exactly.
Value shuffleXor(OpBuilder &b, Location loc, Value v, int64_t offset) {
  Type t = v.getType();
  bool widen = t.isF16() || t.isBF16();
  Value x = widen ? arith::ExtFOp::create(b, loc, b.getF32Type(), v) : v;
  auto shuffle = gpu::ShuffleOp::create(b, loc, x, offset, kWarpSize,
                                        gpu::ShuffleMode::XOR);
  Value r = shuffle.getShuffleResult();
  return widen ? arith::TruncFOp::create(b, loc, t, r).getResult() : r;
}

/// The global warp id (blocks of `warpsPerBlock` warps) and the lane id.
std::pair<Value, Value> getWarpAndLane(OpBuilder &b, Location loc,
                                       gpu::LaunchOp launch,
                                       int64_t warpsPerBlock) {
  Value tid = launch.getThreadIds().x;
  Value warp = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc, launch.getBlockIds().x,
                            cst(b, loc, warpsPerBlock)),
      arith::DivUIOp::create(b, loc, tid, cst(b, loc, kWarpSize)));
  Value lane = arith::RemUIOp::create(b, loc, tid, cst(b, loc, kWarpSize));
  return {warp, lane};
}

/// Combines `value` across the warp with an xor butterfly; every lane ends
/// with the result.
Value warpAllReduce(OpBuilder &b, Location loc, Operation *combiner,
                    Value value) {
  for (int64_t offset = kWarpSize / 2; offset >= 1; offset /= 2)
    value = combine(b, combiner, value, shuffleXor(b, loc, value, offset));
  return value;
}

/// Runs the reduction payload of `op` on each of the `width` elements of the
/// loaded operands (vectors, or scalars used as they are), in order,
/// accumulating into `accBuf`; `ivs[dim]` walks from `first` for payloads
/// that read linalg.index.
void accumulateElements(OpBuilder &b, Location loc, linalg::LinalgOp op,
                        OpOperand *init, ArrayRef<Value> loaded, Value accBuf,
                        int64_t width, SmallVector<Value> &ivs, unsigned dim,
                        Value first) {
  for (int64_t e = 0; e < width; ++e) {
    SmallVector<Value> args;
    for (auto [operand, v] : llvm::zip(op->getOpOperands(), loaded)) {
      if (&operand == init)
        args.push_back(memref::LoadOp::create(b, loc, accBuf, ValueRange{}));
      else if (isa<VectorType>(v.getType()))
        args.push_back(vector::ExtractOp::create(b, loc, v, e));
      else
        args.push_back(v);
    }
    ivs[dim] =
        e == 0
            ? first
            : arith::AddIOp::create(b, loc, first, cst(b, loc, e)).getResult();
    Value next = clonePayload(b, loc, op, args, ivs).front();
    memref::StoreOp::create(b, loc, next, accBuf, ValueRange{});
  }
}

} // namespace rulebased
} // namespace hidet
