//===- Epilogue.h - Epilogue chains fused into anchor kernels ---*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// After bufferization, an anchor's fusion group (#hidet.fusion, written by
// hidet-partition on tensors) is a run of linalg ops on buffers: the anchor
// writes its output buffer and each epilogue op reads the previous op's
// output (often in place) plus side inputs such as a bias or a residual.
// An Epilogue is the longest prefix of that chain that may be applied to
// each value the anchor's kernel produces, instead of running as separate
// kernels: the kernel then stores the chain's result at the chain's final
// position, and the intermediate values never reach memory.
//
// The kernel that takes an epilogue calls `store` with the position of an
// element in the anchor's output buffer and its value (a scalar, or a
// vector of consecutive elements along the buffer's innermost dimension);
// the epilogue re-indexes it through each op's inverse index map, loads the
// side inputs, inlines the payloads and stores the result.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_FUSION_EPILOGUE_H
#define HIDET_LIB_TRANSFORMS_FUSION_EPILOGUE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace hidet {
namespace fusion {

/// One op of an epilogue chain.
struct EpilogueStep {
  mlir::linalg::LinalgOp op;
  /// The buffer the op reads the chain's value from (the previous output,
  /// or a reshaped view of it).
  mlir::Value in;
  /// The op's loop indices from the position in `in` (the inverse of the
  /// chain operand's permutation map).
  mlir::AffineMap loopsFromIn;
  /// The operands (inputs, and the init when the payload reads it in place)
  /// that carry the chain's value.
  llvm::SmallVector<mlir::OpOperand *> chainOperands;
};

class Epilogue {
public:
  /// The longest legal prefix of the epilogue chain of `anchor`, whose
  /// result is `anchorOut` (a buffer it writes, and may read element by
  /// element in the thread that stores the element). `kernelReads` are the
  /// other buffers the anchor's kernel reads. Every epilogue op of the
  /// group left out gets a remark saying why. Empty when the op has no
  /// group. An op that moves the innermost dimension elsewhere is taken
  /// only when `anchorOut` holds at most `scatterMaxBytes` bytes (the chain
  /// then stores scalars, far apart).
  static Epilogue match(mlir::Operation *anchor, mlir::Value anchorOut,
                        llvm::ArrayRef<mlir::Value> kernelReads,
                        int64_t scatterMaxBytes = 0);

  bool empty() const { return steps.empty(); }
  /// The op before which the fused kernel goes (the chain's last op): the
  /// side inputs are all defined there.
  mlir::Operation *insertionPoint() const { return steps.back().op; }
  /// The buffer the chain's result goes to, and its element type.
  mlir::Value output() const;
  mlir::Type outputElementType() const;
  /// The widest vector of consecutive elements along the anchor output's
  /// innermost dimension that `store` takes (1: scalars only).
  int64_t maxVectorWidth() const { return vectorWidth; }

  /// Applies the chain to `value`, the anchor's element at position `index`
  /// of `anchorOut` (with a vector, `index` is its first element's), and
  /// stores the result.
  /// `sideInputs`, when given, are what `loadSideInputs` returned for the
  /// same position and width.
  void store(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange index,
             mlir::Value value,
             llvm::ArrayRef<mlir::Value> sideInputs = {}) const;

  /// The chain's result for `value` at `index`, as `store` computes it,
  /// without storing it; `resultIndex`, when given, receives its position
  /// in `output()`.
  mlir::Value
  apply(mlir::OpBuilder &b, mlir::Location loc, mlir::ValueRange index,
        mlir::Value value, llvm::ArrayRef<mlir::Value> sideInputs = {},
        llvm::SmallVectorImpl<mlir::Value> *resultIndex = nullptr) const;

  /// Loads the side inputs (bias, residual, ...) that `store` applies to the
  /// `width` elements at `index`. A kernel may load them early, so that their
  /// latency overlaps other work (staging the accumulators), and pass them
  /// to `store`; `index` must then be inside the anchor's output.
  llvm::SmallVector<mlir::Value> loadSideInputs(mlir::OpBuilder &b,
                                                mlir::Location loc,
                                                mlir::ValueRange index,
                                                int64_t width) const;

  /// The chain's ops, in order.
  llvm::SmallVector<mlir::Operation *> ops() const;

  /// What the chain's ops do, sorted and without repeats, for reports
  /// (kernel::kKernelAttrName): `elementwise` (a step of the chain's value
  /// alone), `broadcast` (with a side input of fewer dimensions, such as a
  /// bias or a mask row), `binary` (with a side input of the output's
  /// shape, such as a residual), `layout` (a step that stores the value
  /// at another position, such as a transpose) and `indexed` (a step whose
  /// payload reads its position, such as a causal mask).
  llvm::SmallVector<std::string> kinds() const;

  /// Erases the chain's ops and the buffers only they used.
  void erase();

private:
  mlir::Value anchorOut;
  llvm::SmallVector<EpilogueStep> steps;
  int64_t vectorWidth = 1;
};

} // namespace fusion
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_FUSION_EPILOGUE_H
