//===- LinalgPayload.h - Linalg ops read into kernels -----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What a kernel needs to know of the linalg op it computes, and how it
// computes it: static loop extents, element types, operand indices from
// indexing maps, and the payload cloned into the kernel (on scalars or on
// vectors).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_UTILS_LINALGPAYLOAD_H
#define HIDET_LIB_TRANSFORMS_UTILS_LINALGPAYLOAD_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace hidet {
namespace kernel {

/// Static loop extents, or failure for dynamic shapes.
mlir::FailureOr<llvm::SmallVector<int64_t>>
getStaticRanges(mlir::linalg::LinalgOp op);

/// Element type of an operand (the type itself for scalars).
mlir::Type elementTypeOf(mlir::Value v);

/// Whether every op of the payload can be rebuilt on vectors.
bool hasElementwisePayload(mlir::linalg::LinalgOp op);

/// Indices of an operand for the loop indices `ivs`, by its indexing map.
llvm::SmallVector<mlir::Value> applyIndexingMap(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::AffineMap map,
                                                mlir::ValueRange ivs);

/// The position in a buffer of shape `to` of the element at `index` of a
/// buffer of shape `from` with the same row-major order (a reshape of it).
/// Dimensions are split into the smallest groups whose extents multiply to
/// the same product on both sides, and only within a group is a position
/// linearized and split again, with unsigned arithmetic (positions inside
/// a buffer are never negative): [4096, 50257] -> [32, 128, 50257] costs a
/// shift and a mask, not divisions by 50257.
llvm::SmallVector<mlir::Value> reshapedIndex(mlir::OpBuilder &b,
                                             mlir::Location loc,
                                             mlir::ValueRange index,
                                             llvm::ArrayRef<int64_t> from,
                                             llvm::ArrayRef<int64_t> to);

/// Clones the payload of `op` with its block arguments replaced by `args`
/// and `linalg.index` by `ivs`; returns the yielded values. Ops on vector
/// operands (of `width` elements, one included) are rebuilt on vectors.
llvm::SmallVector<mlir::Value>
clonePayload(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::LinalgOp op,
             mlir::ValueRange args, mlir::ValueRange ivs, int64_t width = 1);

/// The ops of `op`'s payload, terminator excluded; empty for ops that are
/// not linalg.generic.
inline llvm::SmallVector<mlir::Operation *> payloadOps(mlir::Operation *op) {
  llvm::SmallVector<mlir::Operation *> ops;
  auto generic = llvm::dyn_cast<mlir::linalg::GenericOp>(op);
  if (!generic)
    return ops;
  for (mlir::Operation &inner : generic.getBody()->without_terminator())
    ops.push_back(&inner);
  return ops;
}

/// Whether `v` is block argument `i` of `op`'s payload.
inline bool isArg(mlir::Value v, mlir::Operation *op, unsigned i) {
  auto arg = llvm::dyn_cast<mlir::BlockArgument>(v);
  return arg &&
         arg.getOwner() == llvm::cast<mlir::linalg::GenericOp>(op).getBody() &&
         arg.getArgNumber() == i;
}

/// Whether `op`'s payload is the single binary op `Bin` of its two block
/// arguments (either order when `commutative`), yielded.
template <typename... Bin>
bool isBinaryPayload(mlir::Operation *op, bool commutative) {
  llvm::SmallVector<mlir::Operation *> ops = payloadOps(op);
  if (ops.size() != 1 || !llvm::isa<Bin...>(ops[0]))
    return false;
  mlir::Value x = ops[0]->getOperand(0), y = ops[0]->getOperand(1);
  bool ordered = isArg(x, op, 0) && isArg(y, op, 1);
  bool swapped = commutative && isArg(x, op, 1) && isArg(y, op, 0);
  auto yield = llvm::cast<mlir::linalg::GenericOp>(op).getBody()->getTerminator();
  return (ordered || swapped) && yield->getOperand(0) == ops[0]->getResult(0);
}

} // namespace kernel
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_UTILS_LINALGPAYLOAD_H
