//===- Passes.h - TaskMapping passes ----------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_H
#define HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"

namespace hidet {
namespace tm {

#define GEN_PASS_DECL
#include "Hidet/Dialect/TaskMapping/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hidet/Dialect/TaskMapping/Transforms/Passes.h.inc"

} // namespace tm
} // namespace hidet

#endif // HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_H
