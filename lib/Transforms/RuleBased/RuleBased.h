//===- RuleBased.h - Rules of the rule-based scheduler ----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Internal interface between the rules of `hidet-rule-based-schedule`
// (injective and permuted ops, reductions, row groups) and the helpers they
// share. Every rule turns linalg ops on buffers into one gpu.launch whose
// body iterates tasks with tm.foreach.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_RULEBASED_RULEBASED_H
#define HIDET_LIB_TRANSFORMS_RULEBASED_RULEBASED_H

#include "../Fusion/Epilogue.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace hidet {
namespace rulebased {

/// The warp size of every NVIDIA GPU.
constexpr int64_t kWarpSize = 32;

//===----------------------------------------------------------------------===//
// Kernel-building helpers (KernelBuilder.cpp)
//===----------------------------------------------------------------------===//

/// An index constant.
mlir::Value cst(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) /
/// workersPerBlock) blocks of `blockSize` threads (the grid is computed from
/// the mapping in the IR, so it cannot drift from it), with the given
/// workgroup buffers, and calls `body` inside it.
void createLaunch(
    mlir::OpBuilder &b, mlir::Location loc,
    hidet::tm::TaskMappingAttrInterface mapping, int64_t workersPerBlock,
    int64_t blockSize,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::gpu::LaunchOp)> body,
    mlir::TypeRange workgroupBuffers = {});

/// Indices of an operand for the loop indices `ivs`, by its indexing map.
llvm::SmallVector<mlir::Value> applyIndexingMap(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::AffineMap map,
                                                mlir::ValueRange ivs);

/// Whether the innermost stride of `type` is 1 and its offset 0.
bool isContiguous(mlir::MemRefType type);

/// Clones the payload of `op` with its block arguments replaced by `args`
/// and `linalg.index` by `ivs`; returns the yielded values. With
/// `width` > 1, ops on vector operands are rebuilt on vectors.
llvm::SmallVector<mlir::Value>
clonePayload(mlir::OpBuilder &b, mlir::Location loc, mlir::linalg::LinalgOp op,
             mlir::ValueRange args, mlir::ValueRange ivs, int64_t width = 1);

/// Static loop extents, or failure for dynamic shapes.
mlir::FailureOr<llvm::SmallVector<int64_t>>
getStaticRanges(mlir::linalg::LinalgOp op);

/// Element type of an operand (the type itself for scalars).
mlir::Type elementTypeOf(mlir::Value v);

/// Bytes of the widest operand element type, or 0 when one is not an
/// integer or float.
int64_t widestElementBytes(mlir::linalg::LinalgOp op);

/// Whether every op of the payload can be rebuilt on vectors.
bool hasElementwisePayload(mlir::linalg::LinalgOp op);

/// Alignment of a vector of `width` elements of `elt`.
llvm::MaybeAlign vectorAlign(mlir::Type elt, int64_t width);

/// A reduction the warp rule can split: one output, one reduction dimension
/// that is the innermost dimension of every input that uses it, and a
/// payload `acc = combiner(f(inputs), acc)` with a neutral element.
struct WarpReduction {
  unsigned reductionDim;
  mlir::Operation *combiner;
  mlir::TypedAttr neutral;
};
std::optional<WarpReduction> matchWarpReduction(mlir::linalg::LinalgOp op);

/// Applies the combiner op to (lhs, rhs).
mlir::Value combine(mlir::OpBuilder &b, mlir::Operation *combiner,
                    mlir::Value lhs, mlir::Value rhs);
/// `gpu.shuffle xor` (16-bit floats travel as f32).
mlir::Value shuffleXor(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                       int64_t offset);
/// The global warp id (blocks of `warpsPerBlock` warps) and the lane id.
std::pair<mlir::Value, mlir::Value> getWarpAndLane(mlir::OpBuilder &b,
                                                   mlir::Location loc,
                                                   mlir::gpu::LaunchOp launch,
                                                   int64_t warpsPerBlock);
/// Combines `value` across the warp with an xor butterfly; every lane ends
/// with the result.
mlir::Value warpAllReduce(mlir::OpBuilder &b, mlir::Location loc,
                          mlir::Operation *combiner, mlir::Value value);
/// Runs the reduction payload on each of the `width` elements of the loaded
/// operands, in order, accumulating into `accBuf`.
void accumulateElements(mlir::OpBuilder &b, mlir::Location loc,
                        mlir::linalg::LinalgOp op, mlir::OpOperand *init,
                        llvm::ArrayRef<mlir::Value> loaded, mlir::Value accBuf,
                        int64_t width, llvm::SmallVector<mlir::Value> &ivs,
                        unsigned dim, mlir::Value first);

//===----------------------------------------------------------------------===//
// Rules
//===----------------------------------------------------------------------===//

/// Injective ops: a task (or 16-byte vector) per output element.
void scheduleInjective(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                       llvm::ArrayRef<int64_t> ranges, int64_t blockSize,
                       int64_t vectorBytes);

/// Inputs of an all-parallel op that are contiguous along a loop dimension
/// `p` other than the output's innermost one (a transpose); they are staged
/// through a shared-memory tile.
struct PermutedInputs {
  unsigned p;                                    ///< contiguous loop dim
  llvm::SmallVector<mlir::OpOperand *> operands; ///< staged inputs
};
std::optional<PermutedInputs> matchPermutedInputs(mlir::linalg::LinalgOp op);
void schedulePermuted(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                      llvm::ArrayRef<int64_t> ranges,
                      const PermutedInputs &perm, int64_t tile,
                      int64_t blockSize, int64_t vectorBytes);

/// Reductions: a warp (or, with `blockPerRow`, a block) per output element.
/// With an `epilogue` (of an op with one output), each result goes through
/// it instead of to the op's output.
void scheduleWarpReduction(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                           llvm::ArrayRef<int64_t> ranges,
                           const WarpReduction &red, int64_t blockSize,
                           int64_t vectorBytes, bool blockPerRow,
                           const fusion::Epilogue *epilogue = nullptr);
/// Other reductions: a thread per output element, a sequential loop.
void scheduleSerialReduction(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                             llvm::ArrayRef<int64_t> ranges, int64_t blockSize,
                             const fusion::Epilogue *epilogue = nullptr);

/// A row-group op: its loops are the row dims followed, for 2-D ops, by the
/// column dim.
struct RowOp {
  mlir::linalg::LinalgOp op;
  bool hasColumn;
  std::optional<WarpReduction> reduction; ///< for reductions over columns
};
/// Maximal runs of row ops on the same rows and columns that contain a
/// reduction and at least two ops.
llvm::SmallVector<llvm::SmallVector<RowOp>> findRowGroups(mlir::Block &block);
/// Schedules a row group as one kernel; returns the temporaries that now
/// live in registers (their allocations are dead). A temporary stays in
/// registers when each lane holds at most `maxRegisterElements` of it.
llvm::SmallVector<mlir::memref::AllocOp>
scheduleRowGroup(mlir::OpBuilder &b, llvm::ArrayRef<RowOp> group,
                 int64_t blockSize, int64_t vectorBytes,
                 int64_t maxRegisterElements);

} // namespace rulebased
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_RULEBASED_RULEBASED_H
