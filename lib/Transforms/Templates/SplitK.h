//===- SplitK.h - Split-K workspaces of the matmul templates ----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// With split-K, the blocks of a GEMM kernel each sum one slice of K, and
// their partial results go to an f32 workspace [splits][batch][m][n]
// instead of C; a second kernel adds the slices, in order, to C. The
// templates write their results through a GemmOutput, which is C without
// split-K and the workspace with it, so that a template's code is the
// same either way.
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

/// The second kernel of split-K: C = C + sum of the slices, a thread per
/// element of C, `blockSize` threads per block; the problem's epilogue, if
/// any, applies to each sum.
void emitSplitKReduction(mlir::OpBuilder &b, mlir::Location loc,
                         const GemmProblem &p, mlir::Value workspace,
                         int64_t splits, int64_t blockSize);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_SPLITK_H
