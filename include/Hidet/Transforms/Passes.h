//===- Passes.h - Hidet graph-to-kernel passes ------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_PASSES_H
#define HIDET_TRANSFORMS_PASSES_H

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace hidet {

#define GEN_PASS_DECL
#include "Hidet/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Hidet/Transforms/Passes.h.inc"

/// Rewrites the memref.copy ops under `root` that are outside GPU kernels as
/// linalg.copy (what `hidet-copies-to-linalg` does).
void rewriteCopiesAsLinalg(mlir::Operation *root);

} // namespace hidet

#endif // HIDET_TRANSFORMS_PASSES_H
