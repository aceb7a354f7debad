//===- SplitK.h - Split-K workspaces of the matmul templates ----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// With split-K, the blocks of a GEMM kernel each sum one slice of K, and
// their partial results go to an f32 workspace [splits][batch][m][n]
// instead of C. The slices are added, in order, to C either by a second
// kernel or in the GEMM kernel itself: each warp that stored its part of a
// tile for its slice counts itself in a per-part counter (the kernel's
// hidet.persistent_counters, zero between launches), and the warp that
// counts last adds the slices of that part, applies the epilogue and
// resets the counter. The sums are the same either way. The templates
// write their results through a GemmOutput, which is C without split-K and
// the workspace with it, so that a template's code is the same either way.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_SPLITK_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_SPLITK_H

#include "GemmKernel.h"

namespace hidet {
namespace templates {

/// With `splits` > 1: allocates the f32 workspace before the kernel and
/// returns it; null otherwise.
mlir::Value createSplitKWorkspace(mlir::OpBuilder &b, mlir::Location loc,
                                  const GemmProblem &p, int64_t splits);

/// The split-K `workspace` of `p` as the C operand of a GEMM of
/// splits x batch batches: slice s of batch b is its batch s * batch + b,
/// row-major m x n.
GemmOperand splitKWorkspaceOperand(const GemmProblem &p, mlir::Value workspace);

/// Where a kernel's results go: C, or with split-K an f32 workspace
/// [splits][batch][m][n] that a second kernel sums into C.
struct GemmOutput {
  const GemmProblem *problem;
  mlir::Value workspace; ///< null without split-K
  /// With split-K in the kernel: how many part counters the kernel has
  /// (a hidet.persistent_counters); 0 with a second kernel.
  int64_t counters = 0;
  /// The f32 accumulator's start for C[batch, row, col]: C's value, or 0
  /// past the edges and with split-K (the second kernel adds C).
  mlir::Value loadInit(mlir::OpBuilder &b, mlir::Location loc,
                       const GemmBlock &blk, mlir::Value row,
                       mlir::Value col) const;
  /// Stores the f32 result `v` of C[batch, row, col] (through the
  /// problem's epilogue, when it has one and without split-K); nothing past
  /// the edges.
  void store(mlir::OpBuilder &b, mlir::Location loc, const GemmBlock &blk,
             mlir::Value row, mlir::Value col, mlir::Value v) const;
  /// For kernels that address the results themselves (vector stores): the
  /// operand they go to (C, or the workspace as splitKWorkspaceOperand
  /// describes it), its element type, and the batch of that operand that
  /// block `blk` writes (with split-K: split * batch + batch).
  GemmOperand target() const;
  mlir::Type targetElt() const;
  mlir::Value targetBatch(mlir::OpBuilder &b, mlir::Location loc,
                          const GemmBlock &blk) const;
};

/// With `splits` > 1 and `inKernel`: the number of part counters a kernel
/// needs (`count`); 0 otherwise (a second kernel adds the slices).
int64_t splitKCounters(int64_t splits, bool inKernel, int64_t count);

/// In a kernel with part counters, after a warp (`lane` the caller's lane)
/// stored rows [row0, row0 + rows) and columns [col0, col0 + cols) of batch
/// `batch` for its K slice into the workspace: counts the warp in counter
/// `counter`; the warp that counts last adds the `splits` slices of those
/// elements in order to C's start and stores them to C (through the
/// problem's epilogue). Every lane of the warp calls this. `flatC` is C
/// flattened.
void emitSplitKFixup(mlir::OpBuilder &b, mlir::Location loc,
                     const GemmOutput &output, int64_t splits,
                     mlir::Value counter, mlir::Value batch, mlir::Value row0,
                     int64_t rows, mlir::Value col0, int64_t cols,
                     mlir::Value lane, mlir::Value flatC);

/// For templates whose warps each store a rectangle of their block's tile:
/// the counter of warp `warp` (of `warps` per block) of block `blk`, one
/// per (batch, tile row, tile column, warp) of `grid`; and how many there
/// are.
mlir::Value warpPartCounter(mlir::OpBuilder &b, mlir::Location loc,
                            const GemmGrid &grid, const GemmBlock &blk,
                            mlir::Value warp, int64_t warps);
int64_t warpPartCount(const GemmProblem &p, const GemmGrid &grid,
                      int64_t warps);

/// After a GEMM kernel with split-K: its second kernel, without part
/// counters (emitSplitKReduction); then the workspace is freed.
void finishSplitK(mlir::OpBuilder &b, mlir::Location loc, const GemmProblem &p,
                  const GemmOutput &output, int64_t splits,
                  int64_t reduceBlockSize);

/// The second kernel of split-K: C = C + sum of the slices, a thread per
/// element of C, `blockSize` threads per block; the problem's epilogue, if
/// any, applies to each sum.
void emitSplitKReduction(mlir::OpBuilder &b, mlir::Location loc,
                         const GemmProblem &p, mlir::Value workspace,
                         int64_t splits, int64_t blockSize);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_SPLITK_H
