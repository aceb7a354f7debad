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

/// Clones the payload of `op` with its block arguments replaced by `args`
/// and `linalg.index` by `ivs`; returns the yielded values. With
/// `width` > 1, ops on vector operands are rebuilt on vectors.
llvm::SmallVector<mlir::Value>
clonePayload(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::LinalgOp op,
             mlir::ValueRange args, mlir::ValueRange ivs, int64_t width = 1);

} // namespace kernel
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_UTILS_LINALGPAYLOAD_H
