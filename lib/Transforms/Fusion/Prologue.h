//===- Prologue.h - Index-only prologues folded into anchor reads -*- C++
//-*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Before an anchor, its fusion group may hold producers of its inputs
// (#hidet.fusion role prologue). On buffers such a producer writes a
// temporary that only the anchor reads. When the producer only moves
// elements (a transpose, a broadcast, a copy: its payload yields one input
// unchanged), the anchor can read the producer's source directly through
// the composed index map, so the async copies of the templates stay raw
// byte copies and the temporary is never written. Hidet's tensor-core
// templates refuse such prologues; here they become address remapping.
//
// A producer that computes each element from one element of one input
// (a cast, a scale by a constant, an activation) folds the same way, plus
// its payload, which the kernel applies to each value it loads in
// registers; raw byte copies (cp.async, TMA) cannot take those.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_FUSION_PROLOGUE_H
#define HIDET_LIB_TRANSFORMS_FUSION_PROLOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace hidet {
namespace fusion {

/// Where an anchor reads one of its inputs from.
struct PrologueRead {
  /// The buffer read (the operand itself, or the source of the producers
  /// folded into the read).
  mlir::Value buffer;
  /// The anchor's loops to the indices of `buffer`.
  mlir::AffineMap map;
  /// The producers folded into the read, nearest to the anchor first.
  llvm::SmallVector<mlir::linalg::LinalgOp> ops;
  /// Those of `ops` that compute values (elementwise), nearest first.
  llvm::SmallVector<mlir::linalg::LinalgOp> computes;
  /// A constant padding folded into the read (a convolution's or a
  /// pooling's input): the operand is `buffer` with `padLow[d]` elements
  /// of `padValue` before it along dimension d (and more after it up to
  /// the operand's shape); the ops that built the padded copy (the fill,
  /// the subview and the copy into it).
  llvm::SmallVector<int64_t> padLow;
  mlir::TypedAttr padValue;
  llvm::SmallVector<mlir::Operation *> padOps;

  /// Loads the operand's element (or `width` consecutive elements along its
  /// innermost dimension, which is never padded) at `index`, an index of
  /// the operand, from `buffer`: past the source's edges it is `padValue`.
  /// Only for reads whose folded ops are a padding alone.
  mlir::Value loadPadded(mlir::OpBuilder &b, mlir::Location loc,
                         mlir::ValueRange index, int64_t width) const;

  /// Applies the payloads of `computes` to `v`, a value (scalar or vector
  /// of consecutive elements) loaded from `buffer`, giving the anchor's
  /// operand value.
  mlir::Value apply(mlir::OpBuilder &b, mlir::Location loc,
                    mlir::Value v) const;
};

class Prologue {
public:
  /// Folds the index-only producers of `anchor`'s inputs that are in its
  /// fusion group. `kernelWrites` are the buffers the anchor's kernel
  /// writes, which it cannot also read. Elementwise producers fold when
  /// `computeWhyNot` is empty (the kernel loads through registers);
  /// otherwise it is the reason they do not. For a convolution (`im2col`),
  /// only the zero padding of its input folds (bufferized tensor.pad: a
  /// zero fill of a temporary and a copy of the source into its interior).
  /// With `remarks`, every prologue op of the group left out (but fills of
  /// the anchor's output) gets a remark saying why.
  static Prologue match(mlir::linalg::LinalgOp anchor,
                        llvm::ArrayRef<mlir::Value> kernelWrites,
                        llvm::StringRef computeWhyNot, bool im2col = false,
                        bool remarks = true);

  /// Folds the constant paddings of `anchor`'s inputs only (a pooling or a
  /// depthwise convolution that a rule-based kernel computes, testing each
  /// position it reads against the source's edges). `unpadded(i)` are the
  /// dimensions of input `i` that may not be padded (one read as vectors).
  static Prologue matchPaddings(
      mlir::linalg::LinalgOp anchor, llvm::ArrayRef<mlir::Value> kernelWrites,
      llvm::function_ref<llvm::SmallVector<int64_t>(unsigned)> unpadded);

  bool empty() const;
  /// How the anchor's input `i` (in operand order) is read.
  const PrologueRead &read(unsigned i) const { return reads[i]; }
  /// The folded ops (paddings included), in no particular order.
  llvm::SmallVector<mlir::Operation *> ops() const;
  /// What the folded ops do, sorted and without repeats, for reports
  /// (kernel::kKernelAttrName): `pad` (a constant padding), `layout` (ops
  /// that only move elements: a transpose, a broadcast, a copy) and
  /// `elementwise` (ops that compute each element from one loaded value).
  llvm::SmallVector<std::string> kinds() const;
  /// Erases the folded ops and the temporaries only they used. Call after
  /// the anchor, the last reader of the temporaries, is gone.
  void erase();

private:
  llvm::SmallVector<PrologueRead, 2> reads;
};

} // namespace fusion
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_FUSION_PROLOGUE_H
