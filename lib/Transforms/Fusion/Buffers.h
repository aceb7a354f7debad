//===- Buffers.h - What fused kernels share through memory ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Fusion runs after bufferization, where the ops of a group communicate
// through buffers: these helpers answer which ops of an anchor's group
// play a role, which allocation a buffer views, which buffers an op reads
// and writes, and what is left to erase once a temporary is no longer
// written; and they word the remark of an op left out.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_FUSION_BUFFERS_H
#define HIDET_LIB_TRANSFORMS_FUSION_BUFFERS_H

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Operation.h"

namespace hidet {
namespace fusion {

/// The ops of `anchor`'s fusion group (#hidet.fusion) with `role`, in block
/// order: prologues before the anchor, epilogues after it.
llvm::SmallVector<mlir::Operation *> groupMembers(mlir::Operation *anchor,
                                                  hidet::FusionRole role);

/// The remark on `op`, of `anchor`'s group, that it stays a separate kernel
/// and why.
void remarkNotFused(mlir::Operation *op, mlir::Operation *anchor,
                    const llvm::Twine &why);

/// The allocation or argument a buffer views.
mlir::Value rootOf(mlir::Value buffer);

/// For a slice of a buffer with the identity layout (a chain of static
/// subviews, and reshapes, which address the same elements): that buffer,
/// and the slice's element strides and offset in it. Failure for other
/// buffers with layouts.
mlir::FailureOr<
    std::pair<mlir::Value, std::pair<llvm::SmallVector<int64_t>, int64_t>>>
slicedBuffer(mlir::Value v);

/// Whether `v` is `buffer` or a reshape of it (identity layouts: a reshape
/// keeps every element's offset).
bool isReshapeOf(mlir::Value v, mlir::Value buffer);

/// The roots `op` reads and writes, or failure when it has effects on
/// memory it does not name.
mlir::LogicalResult accessedRoots(mlir::Operation *op,
                                  llvm::SmallVectorImpl<mlir::Value> &reads,
                                  llvm::SmallVectorImpl<mlir::Value> &writes);

/// A linalg.fill of `out` right before `anchor` (bufferized `C = 0; C +=
/// A * B`), which the anchor's kernel can take as its accumulators' start
/// instead of a kernel: null when there is none, or when `out` is also
/// among `reads` (which would miss the fill).
mlir::linalg::FillOp fillBefore(mlir::Operation *anchor, mlir::Value out,
                                mlir::ValueRange reads);

/// Erases the reshapes and deallocations of the allocation `root` and the
/// allocation itself, when nothing else uses them.
void eraseIfUnused(mlir::Value root);

} // namespace fusion
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_FUSION_BUFFERS_H
