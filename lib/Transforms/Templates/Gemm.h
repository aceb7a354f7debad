//===- Gemm.h - Anchor ops seen as batched GEMMs ----------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Every anchor the matmul templates take (linalg.matmul and its transposed
// forms, batch matmuls with or without a broadcast operand, linalg.generic
// contractions, and convolutions through implicit GEMM) is the same
// problem to them: C[b, m, n] += sum_k A[b, m, k] * B[b, k, n]. What differs
// is where an element of A, B or C lives in memory. A GemmProblem carries
// the extents and, for each operand, that address function plus which
// logical dimension is contiguous in memory, so the templates are written
// once and the im2col indexing of a convolution is computed in the loads,
// never materialized.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_GEMM_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_GEMM_H

#include "../Fusion/Epilogue.h"
#include "../Fusion/Prologue.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <functional>
#include <string>

namespace hidet {
namespace templates {

/// The parts of a logical element's position: its batch, row and column.
enum class GemmPart { Batch, Row, Col };

/// One operand of a GEMM, as the logical 2-D matrix the template sees
/// (A: rows m, columns k; B: rows k, columns n; C: rows m, columns n) in
/// each batch.
struct GemmOperand {
  mlir::Value buffer;
  /// Where the logical element (batch, row, col) is: at
  /// offset(Batch, batch) + offset(Row, row) + offset(Col, col) of the
  /// buffer read as a 1-D array (`flatten`). Every anchor's addressing
  /// separates so (a convolution's im2col too), which lets the K loop
  /// compute only the k part of an address and leave the rest
  /// loop-invariant.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, GemmPart,
                            mlir::Value)>
      offset;
  /// The logical dimension (0: rows, 1: columns) whose consecutive elements
  /// are adjacent in memory, or -1 when neither is.
  int innerDim = -1;
  /// Largest number of elements along `innerDim`, starting at a multiple of
  /// it, that are contiguous and aligned to their total size (1: no
  /// vectors).
  int64_t vectorWidth = 1;
  /// Whether the operand is the same for every batch (a broadcast).
  bool broadcast = false;
  /// An elementwise prologue, applied in registers: `buffer` holds
  /// `storedElt` values, which `apply` turns into the operand's (a scalar,
  /// or a vector of consecutive elements). Null without one. Paths that
  /// copy raw bytes (cp.async, TMA) cannot take it.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value)>
      apply;
  mlir::Type storedElt;
  /// When set, element (row, col) is 0 where this is false (a padding
  /// folded into the read) and exists in `buffer` only where it is true.
  std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, mlir::Value,
                            mlir::Value)>
      valid;
  /// The position of the logical element (batch, row, col) in `buffer`'s
  /// dimensions; set for C, whose values epilogues re-index.
  std::function<llvm::SmallVector<mlir::Value>(
      mlir::OpBuilder &, mlir::Location, mlir::Value, mlir::Value, mlir::Value)>
      position;
};

/// C[b, m, n] += sum_k A[b, m, k] * B[b, k, n] for b < batch.
struct GemmProblem {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  mlir::Type aElt, bElt, cElt;
  GemmOperand a, b, c;
  /// When set, C's initial value is this scalar everywhere (the anchor's
  /// output was just filled with it): the accumulators start from it and C
  /// is never read.
  mlir::Value cInit;
  /// What the anchor is, for remarks and the space printer
  /// ("linalg.matmul", "linalg.conv_2d_nhwc_hwcf", ...).
  std::string kind;
  /// When set, the ops applied to each result of C before it is stored
  /// (to the epilogue's output instead of C).
  const fusion::Epilogue *epilogue = nullptr;
};

/// Reads `op` as a GEMM. On failure, `why` says what has no template: the
/// op is not a contraction or convolution the templates know, has dynamic
/// shapes or non-identity layouts, or (with `onBuffers`) works on tensors.
/// The address functions are meaningful only on buffers. With a
/// `prologue` (contractions only), the inputs are read where it says.
mlir::FailureOr<GemmProblem>
matchGemm(mlir::linalg::LinalgOp op, std::string &why, bool onBuffers = true,
          const fusion::Prologue *prologue = nullptr);

/// The offset function of an operand whose batch, rows and columns are
/// plain strided dimensions (`strides[part]` elements apart, 0: the part
/// does not move in memory). With a `base` offset, it is added to the batch
/// part (computed once per block).
std::function<mlir::Value(mlir::OpBuilder &, mlir::Location, GemmPart,
                          mlir::Value)>
stridedOffset(std::array<int64_t, 3> strides, int64_t base = 0);

/// Largest power of two up to 16 bytes of `elt` that divides `extent`: the
/// vector width of an operand whose contiguous extent is `extent`.
int64_t vectorWidthFor(mlir::Type elt, int64_t extent);

/// Whether `op` is an anchor of the matmul templates (a contraction or a
/// 2-D convolution), whether or not `matchGemm` accepts it.
bool isGemmAnchor(mlir::linalg::LinalgOp op);

//===----------------------------------------------------------------------===//
// Helpers shared by the templates (Gemm.cpp)
//===----------------------------------------------------------------------===//

/// Creates a tm.repeat over `shape`, fully unrolled (its indices then
/// address private arrays that live in registers), and calls `body` with
/// its indices.
void fullyUnrolled(
    mlir::OpBuilder &b, mlir::Location loc, llvm::ArrayRef<int64_t> shape,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::ValueRange)> body);

/// `cond ? load(buffer[indices()]) : 0` for a scalar or vector `type`;
/// the indices are computed only where `cond` holds. With `transform`, the
/// value loaded (of `loadType`) is transformed to `type` there.
mlir::Value
loadOrZero(mlir::OpBuilder &b, mlir::Location loc, mlir::Value cond,
           mlir::Value buffer,
           llvm::function_ref<llvm::SmallVector<mlir::Value>(mlir::OpBuilder &)>
               indices,
           mlir::Type type, llvm::MaybeAlign align = {},
           llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Value)>
               transform = {},
           mlir::Type loadType = {});

/// `x`'s element at offset `offset` of its flattened buffer `flat` (a
/// `type` value: the operand's element type, or a vector of it), through
/// its prologue if it has one; 0 where `cond` is false.
mlir::Value loadOperandOrZero(mlir::OpBuilder &b, mlir::Location loc,
                              mlir::Value cond, const GemmOperand &x,
                              mlir::Value flat, mlir::Value offset,
                              mlir::Type type);

/// `buffer` (a static memref with the identity layout) as a 1-D memref,
/// which `GemmOperand::offset` indexes.
mlir::Value flatten(mlir::OpBuilder &b, mlir::Location loc, mlir::Value buffer);

/// The offset of element (batch, row, col) of `x`.
mlir::Value elementOffset(mlir::OpBuilder &b, mlir::Location loc,
                          const GemmOperand &x, mlir::Value batch,
                          mlir::Value row, mlir::Value col);

/// Whether element (row, col) of `x` is read from memory: inside its rows
/// (`inRow`) and columns (`inCol`), and not in a folded padding.
mlir::Value insideOperand(mlir::OpBuilder &b, mlir::Location loc,
                          const GemmOperand &x, mlir::Value row,
                          mlir::Value inRow, mlir::Value col,
                          mlir::Value inCol);

/// The offset of element (batch, row, col) of `x`, with `row` (`col`)
/// replaced by 0 where `inRow` (`inCol`) is false, so that the address is
/// valid even past the edges (where nothing is read from it); with a
/// padding, 0 where the element is in it.
mlir::Value clampedOffset(mlir::OpBuilder &b, mlir::Location loc,
                          const GemmOperand &x, mlir::Value batch,
                          mlir::Value row, mlir::Value inRow, mlir::Value col,
                          mlir::Value inCol);

/// Inside a launch: a workgroup `memref.alloc` of each of `types` (static
/// shapes in the workgroup address space), the shared tiles of a template.
/// `hidet-workgroup-allocs-to-dynamic-shared` places them in dynamic shared
/// memory; until then they stay allocations, which upstream transformations
/// such as multi-buffering take.
llvm::SmallVector<mlir::Value>
allocateShared(mlir::OpBuilder &b, mlir::Location loc, mlir::TypeRange types);

/// `v < bound` (unsigned).
mlir::Value lessThan(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                     int64_t bound);

/// `x * scale + y`.
mlir::Value affine(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x,
                   int64_t scale, mlir::Value y);

/// Row and column tile of the flat tile index `tile` of a tilesM x tilesN
/// grid. With `group` > 1 the tiles are visited in groups of `group` tile
/// rows, column by column (thread-block swizzle), so that blocks running at
/// the same time share their A and B tiles in L2; the last group may be
/// shorter, which a task mapping cannot say, hence plain arithmetic.
std::pair<mlir::Value, mlir::Value>
swizzleTile(mlir::OpBuilder &b, mlir::Location loc, mlir::Value tile,
            int64_t tilesM, int64_t tilesN, int64_t group);

/// The converts between the accumulator type (f32) and `elt`.
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::Type elt);

//===----------------------------------------------------------------------===//
// The grid of a GEMM kernel (Gemm.cpp)
//===----------------------------------------------------------------------===//

/// The grid of a GEMM kernel: a block per (batch, K slice, output tile).
struct GemmGrid {
  int64_t blockM, blockN, blockK;
  int64_t tilesM, tilesN, kTiles, splits, kTilesPerSplit, swizzle;
  GemmGrid(const GemmProblem &p, int64_t blockM, int64_t blockN, int64_t blockK,
           int64_t swizzle, int64_t splits);
  /// spatial([batch, splits, tilesM * tilesN]), the mapping of blocks.
  hidet::tm::SpatialAttr mapping(mlir::MLIRContext *ctx,
                                 const GemmProblem &p) const;
};

/// What a block works on: its batch and K slice, the first row and column
/// of its C tile, and its K tiles [kBegin, kEnd); and C flattened.
struct GemmBlock {
  mlir::Value batch, split, m0, n0, kBegin, kEnd;
  mlir::Value flatC;
};

/// The block of `grid` that computes output tile `tile` (in the grid's
/// swizzled order) of `batch`, over K slice `split`.
GemmBlock gemmBlockAt(mlir::OpBuilder &b, mlir::Location loc,
                      const GemmProblem &p, const GemmGrid &grid,
                      mlir::Value batch, mlir::Value split, mlir::Value tile);

/// Inside a gpu.launch of `grid.mapping` blocks: iterates the block's task
/// with tm.foreach on block_x and calls `body` inside it.
void forEachGemmBlock(
    mlir::OpBuilder &b, mlir::Location loc, const GemmProblem &p,
    const GemmGrid &grid,
    llvm::function_ref<void(mlir::OpBuilder &, const GemmBlock &)> body);

/// Hidet's double-buffered K loop over the block's K tiles, with shared
/// memory in two stages: `load(k0)` brings the tile starting at k0 into
/// registers, `store(stage)` moves it to a stage, `compute(stage)` runs the
/// math on one. The first tile is stored to stage 0; then each step loads
/// the next tile, computes on its stage, stores the loaded tile to the
/// other stage (last read before the previous barrier) and synchronizes
/// once.
void emitDoubleBufferedKLoop(
    mlir::OpBuilder &b, mlir::Location loc, const GemmBlock &blk,
    int64_t blockK,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> load,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> store,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::Value)> compute);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_GEMM_H
