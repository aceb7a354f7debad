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

#include "../Fusion/Prologue.h"
#include "../Utils/KernelBuilder.h"
#include "../Utils/LinalgPayload.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace hidet {
namespace rulebased {

//===----------------------------------------------------------------------===//
// Helpers the rules share (Common.cpp)
//===----------------------------------------------------------------------===//

/// Whether the innermost stride of `type` is 1 and its offset 0.
bool isContiguous(mlir::MemRefType type);

/// Whether vectors of `width` elements along the innermost dimension of a
/// buffer of `type` stay aligned: each row (its offset and outer strides,
/// or the innermost extent of an identity layout) starts at a multiple of
/// `width` elements.
bool vectorAligned(mlir::MemRefType type, int64_t width);

/// Whether `operand` (a buffer) is indexed by loop `d` in its innermost,
/// contiguous dimension only, so that consecutive iterations of `d` read
/// consecutive elements.
bool readsAlongInnermost(mlir::linalg::LinalgOp op, mlir::OpOperand &operand,
                         unsigned d);

/// Whether every memory operand of `op` keeps vectors of `width` elements
/// aligned: each row of the buffer (its offset and outer strides, or the
/// innermost extent of an identity layout) starts at a multiple of `width`
/// elements. A padded buffer's interior (row stride 5, say) does not.
bool operandsVectorAligned(mlir::linalg::LinalgOp op, int64_t width);

/// Bytes of the widest operand element type, or 0 when one is not an
/// integer or float of at least a byte.
int64_t widestElementBytes(mlir::linalg::LinalgOp op);

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

/// Stores a reduction's result `value` at position `index` of the op's
/// output some other way than a plain store (a fused epilogue applies its
/// ops to it and stores the chain's result).
using StoreResult =
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Location,
                            mlir::ValueRange index, mlir::Value value)>;

/// Reductions: a warp (or, with `blockPerRow`, a block) per output element.
/// With `storeResult` (for an op with one output), each result goes through
/// it instead of to the op's output. With `initial` (a fill of the output
/// folded into the kernel), each result combines with that constant instead
/// of the output's value.
void scheduleWarpReduction(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                           llvm::ArrayRef<int64_t> ranges,
                           const WarpReduction &red, int64_t blockSize,
                           int64_t vectorBytes, bool blockPerRow,
                           StoreResult storeResult = {},
                           mlir::TypedAttr initial = {});
/// How a serial reduction's kernel computes its tasks.
struct SerialReduction {
  /// Consecutive outputs along the output's innermost dimension per task
  /// (chooseSerialWidth, or less).
  int64_t width = 1;
  /// Reductions of at most this many elements per output (a window) are
  /// unrolled.
  int64_t unrollMax = 64;
  /// Where the inputs are read from, with their paddings folded; null: the
  /// operands themselves.
  const fusion::Prologue *prologue = nullptr;
  /// The constant every output starts from (a fill of the output folded
  /// into the kernel); null: the output's values.
  mlir::TypedAttr initial;
};
/// The widest vector of outputs a serial reduction's task may compute:
/// `vectorBytes` of the widest element type when every operand that the
/// output's innermost dimension indexes is contiguous along it (the
/// channels of an NHWC pooling or depthwise convolution) and each output
/// reduces at most `maxSteps` elements (a window), else 1.
int64_t chooseSerialWidth(mlir::linalg::LinalgOp op,
                          llvm::ArrayRef<int64_t> ranges, int64_t vectorBytes,
                          int64_t maxSteps);
/// Other reductions: a thread per output element (or vector of them), a
/// sequential loop.
void scheduleSerialReduction(mlir::OpBuilder &b, mlir::linalg::LinalgOp op,
                             llvm::ArrayRef<int64_t> ranges, int64_t blockSize,
                             const SerialReduction &how,
                             StoreResult storeResult = {});

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
