//===- Anchor.h - An anchor op as its template sees it ----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What the selection pass, the building pass and the schedule-space printer
// share about an anchor: its GEMM reading with the prologue of its fusion
// group folded in (as the kernel will read it), its description for the
// heuristic, and the checks of a schedule against it and the target.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_ANCHOR_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_ANCHOR_H

#include "Templates.h"

namespace hidet {
namespace templates {

/// What `matchAnchor` found.
enum class AnchorMatch {
  /// A GEMM the templates take.
  Gemm,
  /// No template: the op is left to the rule-based scheduler (`why` says
  /// why).
  NoTemplate,
  /// The folded prologue's reads have no template: an error, emitted.
  Error,
};

/// The schedule written on `op`: null when there is none, failure (with an
/// error prefixed with `pass`) when `hidet.schedule` is not a schedule.
mlir::FailureOr<ScheduleAttrInterface> writtenSchedule(mlir::Operation *op,
                                                       llvm::StringRef pass);

/// Reads `op` as a GEMM. With `fuse`, the producers of its inputs in its
/// fusion group are folded into `prologue` as the kernel built from
/// `schedule` will read them: elementwise producers only when `schedule`
/// is null (the heuristic then picks register-staged loads) or stages its
/// loads through registers. `remarks` reports the prologue ops that do not
/// fold (the building pass does; the selection pass only asks); errors are
/// prefixed with `pass`. `prologue` must outlive `problem`.
AnchorMatch matchAnchor(mlir::linalg::LinalgOp op, mlir::Attribute schedule,
                        bool fuse, bool remarks, llvm::StringRef pass,
                        GemmProblem &problem, fusion::Prologue &prologue,
                        std::string &why);

/// `p` as the heuristic sees it. Without `convRowTiles` a convolution is
/// described with one tap, so that the heuristic gives it the GEMM model's
/// tiles (conv-row-tiles=0).
schedule::GemmDesc describeGemm(const GemmProblem &p, bool convRowTiles = true);

/// The schedule attribute of `s` (null for none).
ScheduleAttrInterface scheduleAttr(mlir::MLIRContext *ctx,
                                   const schedule::AnySchedule &s);

/// Checks `schedule` against `target` and `p`, the anchor `op` read as a
/// GEMM; on failure emits an error on `op`, prefixed with `pass`.
mlir::LogicalResult verifySchedule(mlir::Operation *op, llvm::StringRef pass,
                                   ScheduleAttrInterface schedule,
                                   const GemmProblem &p, TargetAttr target);

/// The anchor's signature, the key of its tuning records: what its kernel
/// computes and reads, independent of names and places. The op and its
/// attributes (but `hidet.*`), its operands' types, how each input is read
/// through a folded prologue (the buffer's type, the map, a folded zero
/// padding, the computing ops), and the ops of its fusion group's epilogue
/// with their payloads' ops. Anchors with equal signatures build the same
/// kernel for a schedule.
std::string anchorSignature(mlir::linalg::LinalgOp op,
                            const fusion::Prologue &prologue);

/// The anchors of the matmul templates in `root` that are not inside a
/// kernel yet, in program order.
llvm::SmallVector<mlir::linalg::LinalgOp> collectAnchors(mlir::Operation *root);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_ANCHOR_H
