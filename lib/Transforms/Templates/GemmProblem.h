//===- GemmProblem.h - Anchor ops seen as batched GEMMs ---------*- C++ -*-===//
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

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMPROBLEM_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMPROBLEM_H

#include "../Fusion/Epilogue.h"
#include "../Fusion/Prologue.h"

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
  /// The operand as the op reads it: `buffer`, or a slice of it (null for
  /// operands the templates build, such as a split-K workspace).
  mlir::Value view;
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
  /// The offset, in elements, of the operand's first element in `buffer`
  /// when the operand is a slice of it (0 otherwise).
  int64_t sliceOffset = 0;
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
  /// The taps of a convolution's window (kh * kw; 1 for contractions).
  int64_t windowTaps = 1;
  /// When set, the ops applied to each result of C before it is stored
  /// (to the epilogue's output instead of C).
  const fusion::Epilogue *epilogue = nullptr;
  /// With split-K: the slices are added in the GEMM kernel (part
  /// counters), not by a second kernel.
  bool splitKInKernel = false;
  /// The wgmma template may load B by TMA while cp.async loads A.
  bool wgmmaTmaB = true;
  /// The wgmma template's cp.async producer arrives as its copies land.
  bool wgmmaAsyncArrive = true;
};

//===----------------------------------------------------------------------===//
// Reading anchors as GEMMs (GemmMatch.cpp)
//===----------------------------------------------------------------------===//

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

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_GEMMPROBLEM_H
