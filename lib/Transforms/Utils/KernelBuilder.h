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

/// The first name `loc` carries (an ONNX node's): its own, or one of the
/// locations it fuses or calls through; empty if none.
llvm::StringRef locationName(mlir::Location loc);

/// The name of a kernel of `kind` (the template or rule that builds it, e.g.
/// "wgmma" or "injective") built at `loc` in the function `parent`:
/// `<kind>_<name>` where `loc` carries a name (an ONNX node's), else
/// `<parent>_<kind>`; letters, digits and '_' only, at most 96 characters.
/// Kernels are outlined, and profiled, under it.
std::string kernelName(mlir::Location loc, llvm::StringRef kind,
                       llvm::StringRef parent);

/// Creates a 1-D `gpu.launch` of ceil(num_workers(mapping) /
/// workersPerBlock) blocks of `blockSize` threads (the grid is computed from
/// the mapping in the IR, so it cannot drift from it), with the given
/// workgroup buffers, and calls `body` inside it. The launch's `function` is
/// kernelName(loc, kind, <the enclosing function>).
void createLaunch(
    mlir::OpBuilder &b, mlir::Location loc, llvm::StringRef kind,
    hidet::tm::TaskMappingAttrInterface mapping, int64_t workersPerBlock,
    int64_t blockSize,
    llvm::function_ref<void(mlir::OpBuilder &, mlir::gpu::LaunchOp)> body,
    mlir::TypeRange workgroupBuffers = {});

/// Sets `name` = `value` on the first gpu.launch between `before` (or the
/// start of `at`'s block when null) and `at`: a template's decision recorded
/// on the kernel it built there.
void recordOnFirstLaunch(mlir::Operation *before, mlir::Operation *at,
                         llvm::StringRef name, mlir::Attribute value);

/// The dictionary on every gpu.launch that says what its kernel is
/// (hidet::kKernelAttrName, whose keys the dialect verifies): `kind`
/// (createLaunch's) and, where they apply, `anchor` (the op a template
/// computes), `gemm` (its batch, M, N, K and window taps), `prologue`,
/// `epilogue` and `scores` (the kinds of fused ops:
/// fusion::Prologue::kinds, fusion::Epilogue::kinds; `scores` are an
/// attention's ops between Q K^T and its softmax) and `loads` (how a
/// Hopper kernel loads its operands).
using hidet::kKernelAttrName;

/// Sets `key` = `value` in `launch`'s kKernelAttrName dictionary.
void describeKernel(mlir::Operation *launch, llvm::StringRef key,
                    mlir::Attribute value);

/// describeKernel on the first gpu.launch between `before` and `at`, as
/// recordOnFirstLaunch finds it.
void describeFirstLaunch(mlir::Operation *before, mlir::Operation *at,
                         llvm::StringRef key, mlir::Attribute value);

/// An array of the strings `items`, for describeKernel.
mlir::ArrayAttr stringArray(mlir::MLIRContext *ctx,
                            llvm::ArrayRef<std::string> items);

/// Alignment of a vector of `width` elements of `elt`.
llvm::MaybeAlign vectorAlign(mlir::Type elt, int64_t width);

/// Whether elements of `t` may be loaded and stored as vectors: integers and
/// floats of at least a byte. LLVM packs a vector of i1 into bits (vector<8 x
/// i1> is one byte in memory), while an i1 buffer holds a byte per element.
bool isVectorizableElement(mlir::Type t);

} // namespace kernel
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_UTILS_KERNELBUILDER_H
