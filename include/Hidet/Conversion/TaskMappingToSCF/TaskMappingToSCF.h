//===- TaskMappingToSCF.h - Lower tm ops to scf/arith -----------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_CONVERSION_TASKMAPPINGTOSCF_TASKMAPPINGTOSCF_H
#define HIDET_CONVERSION_TASKMAPPINGTOSCF_TASKMAPPINGTOSCF_H

#include "mlir/IR/Builders.h"
#include "mlir/Pass/Pass.h"

#include <functional>

namespace mlir {
class RewritePatternSet;
} // namespace mlir

namespace hidet {
namespace algebra {
class TaskMapping;
} // namespace algebra

#define GEN_PASS_DECL_CONVERTTASKMAPPINGTOSCF
#include "Hidet/Conversion/Passes.h.inc"

/// Emits, at the builder's insertion point, the loops and index arithmetic
/// that visit the tasks of `worker` under `mapping`, and calls `body` with
/// the task indices once per emitted task position. `workerBound` is an
/// exclusive bound of `worker` known to hold (0 if none); see
/// algebra::emitTasks. Emits no guard: workers beyond the mapping's
/// num_workers follow the wrap-around semantics of spatial mappings.
///
/// Templates that build kernels with task mappings call this directly.
void emitTaskLoops(mlir::OpBuilder &builder, mlir::Location loc,
                   const algebra::TaskMapping &mapping, mlir::Value worker,
                   int64_t workerBound,
                   llvm::function_ref<void(mlir::OpBuilder &, mlir::ValueRange)>
                       body);

/// Adds the patterns that lower tm ops to scf/arith/gpu. A mapping whose full
/// unrolling would emit more than `maxUnrolledBodies` copies of a body fails
/// to lower with an error.
void populateTaskMappingToSCFPatterns(mlir::RewritePatternSet &patterns,
                                      int64_t maxUnrolledBodies = 4096);

} // namespace hidet

#endif // HIDET_CONVERSION_TASKMAPPINGTOSCF_TASKMAPPINGTOSCF_H
