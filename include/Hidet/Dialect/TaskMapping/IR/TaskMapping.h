//===- TaskMapping.h - TaskMapping dialect ----------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The TaskMapping (`tm`) dialect: attributes denoting task mappings, the ops
// that iterate a worker's tasks, and the bridge to the plain C++ algebra.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPING_H
#define HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPING_H

#include "Hidet/Algebra/TaskMapping.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "Hidet/Dialect/TaskMapping/IR/TaskMappingOpsDialect.h.inc"
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingInterfaces.h.inc"
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingAttrs.h.inc"

#define GET_OP_CLASSES
#include "Hidet/Dialect/TaskMapping/IR/TaskMappingOps.h.inc"

namespace hidet {
namespace tm {

/// Builds the canonical attribute for an algebraic mapping: `#tm.spatial`,
/// `#tm.repeat`, `#tm.compose` or `#tm.project`, recursively.
TaskMappingAttrInterface getMappingAttr(mlir::MLIRContext *context,
                                        const algebra::TaskMapping &mapping);

/// Verifies an algebraic mapping built from untrusted parts (factor ranks
/// agree, projected dims in range). Reports through `emitError`.
mlir::LogicalResult
verifyComposition(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                  llvm::ArrayRef<TaskMappingAttrInterface> factors);

/// Exclusive upper bound of an index value that ranges over workers: the
/// inferred range of an op without operands (gpu.thread_id with a known
/// block size, gpu.lane_id, ...). Constants have none: a constant worker is
/// one worker, not a range.
std::optional<int64_t> getStaticIndexBound(mlir::Value value);

/// Parses a mapping factor written without the dialect prefix
/// (`spatial<...>`, `repeat<...>`, `compose<...>`, `project<...>`,
/// `auto_map<...>`) or any attribute implementing TaskMappingAttrInterface.
mlir::FailureOr<TaskMappingAttrInterface>
parseMappingFactor(mlir::AsmParser &parser);
/// Prints a mapping in the short form accepted by parseMappingFactor.
void printMappingFactor(mlir::AsmPrinter &printer,
                        TaskMappingAttrInterface mapping);

} // namespace tm
} // namespace hidet

#endif // HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPING_H
