//===- KernelBuilder.h - Helpers that build GPU kernels ---------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The pieces every scheduler of lib/Transforms writes kernels with: index
// constants and comparisons, a gpu.launch whose grid comes from a task
// mapping, and the alignment of vector accesses.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_UTILS_KERNELBUILDER_H
#define HIDET_LIB_TRANSFORMS_UTILS_KERNELBUILDER_H

#include "Hidet/Dialect/TaskMapping/IR/TaskMapping.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace hidet {
namespace kernel {

/// The warp size of every NVIDIA GPU.
constexpr int64_t kWarpSize = 32;

/// An index constant.
mlir::Value cst(mlir::OpBuilder &b, mlir::Location loc, int64_t v);

/// `v < bound` (unsigned).
mlir::Value lessThan(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v,
                     int64_t bound);

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) /
/// workersPerBlock) blocks of `blockSize` threads (the grid is computed from
/// the mapping in the IR, so it cannot drift from it), with the given
/// workgroup buffers, and calls `body` inside it.
void createLaunch(
    mlir::OpBuilder &b, mlir::Location loc,
    hidet::tm::TaskMappingAttrInterface mapping, int64_t workersPerBlock,
    int64_t blockSize,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::gpu::LaunchOp)> body,
    mlir::TypeRange workgroupBuffers = {});

/// Alignment of a vector of `width` elements of `elt`.
llvm::MaybeAlign vectorAlign(mlir::Type elt, int64_t width);

/// Whether elements of `t` may be loaded and stored as vectors: integers and
/// floats of at least a byte. LLVM packs a vector of i1 into bits (vector<8 x
/// i1> is one byte in memory), while an i1 buffer holds a byte per element.
bool isVectorizableElement(mlir::Type t);

} // namespace kernel
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_UTILS_KERNELBUILDER_H
