//===- GemmKernel.h - The skeleton of the matmul templates ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What the SIMT, mma.sync and wgmma templates share: a grid of blocks that
// each compute a tile of C over a slice of K (GemmGrid, GemmBlock), the
// addressing of the operands' elements through their GemmOperand, masked
// loads that read 0 past the edges, fully unrolled loops over private
// arrays, and the converts between the f32 accumulators and C.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMKERNEL_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMKERNEL_H

#include "GemmProblem.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/IR/Builders.h"

namespace hidet {
namespace templates {

//===----------------------------------------------------------------------===//
// Loads, addresses and register arrays
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

/// Copies `width` elements of `flat` (1-D) from `offset` to `dst` at
/// `indices` as a masked vector transfer pair, which
/// hidet-pipeline-shared-copies turns into a cp.async: where `inside` is
/// false nothing is read and zeros are written.
void emitMaskedCopy(mlir::OpBuilder &b, mlir::Location loc, mlir::Value inside,
                    mlir::Value flat, mlir::Value offset, int64_t width,
                    mlir::Type elt, mlir::Value dst, mlir::ValueRange indices);

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

/// The converts between the accumulator type (f32) and `elt`, of a scalar
/// or a vector.
mlir::Value castTo(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                   mlir::Type elt);

//===----------------------------------------------------------------------===//
// The grid of a GEMM kernel
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

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMKERNEL_H
