//===- Partition.h - Fusion groups around anchor ops ------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Hidet's partition of a tensor graph into fusion groups (its fuse_operator
// pass), over the ops that implement FusibleOpInterface. `hidet-partition`
// writes the result on the ops; a compiler that embeds the project can call
// the function directly.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_PARTITION_H
#define HIDET_TRANSFORMS_PARTITION_H

#include "mlir/IR/Block.h"
#include "llvm/ADT/SmallVector.h"

namespace hidet {

/// One fusion group: an anchor, the prologue ops that feed it and the
/// epilogue chain after it (each in the order of the block).
struct FusionGroup {
  mlir::Operation *anchor = nullptr;
  llvm::SmallVector<mlir::Operation *> prologue;
  llvm::SmallVector<mlir::Operation *> epilogue;
  /// The group's op that comes last in the block, where its kernel runs.
  mlir::Operation *last() const;
};

/// Partitions the ops of `block` that implement FusibleOpInterface (see
/// the `hidet-partition` pass for the rules). Groups are returned in the
/// order of their last op. With `prologueTransposes`, a transpose that
/// moves the innermost dimension into rows that are not a multiple of 16
/// bytes and feeds a contraction is left to that contraction's prologue
/// (the pass's option of that name).
llvm::SmallVector<FusionGroup>
partitionFusionGroups(mlir::Block &block, bool prologueTransposes = false);

} // namespace hidet

#endif // HIDET_TRANSFORMS_PARTITION_H
