//===- ScalarRanges.h - Integer ranges of linalg body scalars --*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Which scalars of a linalg body depend on data, and the integer ranges
// of the others and of those computed from constant operands, from
// upstream's per-op inference (InferIntRangeInterface). Upstream's
// IntegerRangeAnalysis (a dataflow solver) takes the block arguments of a
// linalg op for unknown; here they are the elements of their operands,
// known for constant operands, and linalg.index is below the extent of its
// loop.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_UTILS_SCALARRANGES_H
#define HIDET_LIB_TRANSFORMS_UTILS_SCALARRANGES_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/InferIntRangeInterface.h"

namespace hidet {
namespace kernel {

/// The scalars that the body of `op` computes (or a function's top level,
/// `op` null).
class ScalarRanges {
public:
  explicit ScalarRanges(mlir::linalg::LinalgOp op);

  /// The range of the integer or index `v` (a maximal one of bit width 0
  /// for other types).
  mlir::ConstantIntRanges get(mlir::Value v);

  /// Whether `v` depends on data: on elements of the op's operands, on
  /// tensor reads or on values of unknown origin (rather than on loop
  /// positions, shapes and constants).
  bool dependsOnData(mlir::Value v);

private:
  mlir::ConstantIntRanges compute(mlir::Value v, unsigned width);

  mlir::linalg::LinalgOp op;
  llvm::SmallVector<int64_t> loopSizes;
  llvm::DenseMap<mlir::Value, mlir::ConstantIntRanges> ranges;
};

} // namespace kernel
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_UTILS_SCALARRANGES_H
