//===- Hidet.h - Hidet schedule dialect -------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_HIDET_IR_HIDET_H
#define HIDET_DIALECT_HIDET_IR_HIDET_H

#include "Hidet/Schedule/Heuristic.h"

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

namespace hidet {
/// `[a, b, ...]` for ODS parameters.
mlir::FailureOr<llvm::SmallVector<int64_t>> parseIntList(mlir::AsmParser &p);
void printIntList(mlir::AsmPrinter &p, llvm::ArrayRef<int64_t> values);
/// Name of the discardable attribute that carries an op's schedule.
inline constexpr llvm::StringLiteral kScheduleAttrName = "hidet.schedule";
/// Name of the discardable attribute of an scf.for whose global-to-shared
/// copies `hidet-pipeline-shared-copies` pipelines: the number of stages.
inline constexpr llvm::StringLiteral kPipelineStagesAttrName =
    "hidet.pipeline_stages";
/// Name of the discardable attribute (a #hidet.attention) that
/// `hidet-select-schedules` writes on the first batch matmul of an attention
/// that `hidet-schedule-anchors` builds as one fused kernel.
inline constexpr llvm::StringLiteral kAttentionAttrName = "hidet.attention";
/// Name of the discardable attribute (a #hidet.fusion) that
/// `hidet-partition` writes on the ops of a fusion group.
inline constexpr llvm::StringLiteral kFusionAttrName = "hidet.fusion";
/// Name of the discardable attribute (a #hidet.target) that describes the
/// target GPU of the ops it is on (a pipeline puts it on the module).
inline constexpr llvm::StringLiteral kTargetAttrName = "hidet.target";
/// Name of the dictionary on a gpu.launch that says what its kernel is,
/// for reports (hidet-summarize-kernels) and read by no lowering: `kind`
/// (a string, always), `anchor` and `loads` (strings), `gemm` (batch, M,
/// N, K and window taps: five non-negative integers), `prologue`,
/// `epilogue`, `scores` and `softmax` (arrays of strings: the kinds of
/// fused ops).
inline constexpr llvm::StringLiteral kKernelAttrName = "hidet.kernel";

namespace templates {
/// An anchor read as a batched GEMM, which the templates build kernels for
/// (lib/Transforms/Templates).
struct GemmProblem;
} // namespace templates
} // namespace hidet

#include "Hidet/Dialect/Hidet/IR/HidetDialect.h.inc"
#include "Hidet/Dialect/Hidet/IR/HidetEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Hidet/Dialect/Hidet/IR/HidetAttrs.h.inc"

#include "Hidet/Dialect/Hidet/IR/ScheduleAttrInterface.h.inc"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Hidet/Dialect/Hidet/IR/HidetOps.h.inc"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hidet {
/// Attaches ScheduleAttrInterface to the schedule attributes (the models
/// live with the templates that build them).
void registerScheduleAttrInterfaceModels(mlir::DialectRegistry &registry);
} // namespace hidet

#endif // HIDET_DIALECT_HIDET_IR_HIDET_H
