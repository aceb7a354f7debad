//===- Templates.h - Anchor-op templates ------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Templates that instantiate a scheduled anchor op as a GPU kernel written
// with task mappings. Each reads its schedule attribute and decides nothing
// else; ScheduleAttrInterface (ScheduleModels.cpp) says which builds which.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H

#include "GemmProblem.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/IR/Builders.h"

namespace hidet {
namespace templates {

/// The kind that names the kernels a template builds (`<kind>_<node>`,
/// kernel::kernelName), by which profiles and tuning plans find them.
llvm::StringRef kernelKind(schedule::TemplateKind kind);
/// The kind of a split-K reduction's kernel.
constexpr llvm::StringLiteral kSplitKReduceKind = "splitk_reduce";

/// Emits at `b`'s insertion point the SIMT kernel(s) computing the f32
/// GEMM `p` as `schedule` says (with split-K, a second kernel of
/// `reduceBlockSize` threads per block).
void buildSimtMatmul(mlir::OpBuilder &b, mlir::Location loc,
                     const GemmProblem &p, SimtMatmulAttr schedule,
                     int64_t reduceBlockSize);

/// Why the tensor-core template cannot copy `p`'s operands with cp.async
/// (schedules with stages >= 2), or empty.
std::string whyNoAsyncCopy(const GemmProblem &p);

/// Emits at `b`'s insertion point the tensor-core kernel(s) computing the
/// f16 or bf16 GEMM `p` (f32 accumulation) as `schedule` says.
void buildMmaMatmul(mlir::OpBuilder &b, mlir::Location loc,
                    const GemmProblem &p, MmaMatmulAttr schedule,
                    int64_t reduceBlockSize);

/// Why the Hopper template cannot compute `p` (it takes f16 or bf16 GEMMs
/// whose A has K and whose B has N contiguous in 16-byte pieces), or empty.
std::string whyNoWgmma(const GemmProblem &p);

/// Emits at `b`'s insertion point the Hopper (wgmma, sm_90a) kernel
/// computing `p` as `schedule` says: TMA loads, with the tensor maps
/// created on the host before it, when both operands are row-major 2-D
/// buffers, cp.async otherwise. A persistent schedule launches as many
/// blocks as the SMs of `limits` hold at once. With split-K, the kernel
/// writes its slices to an f32 workspace and a second kernel of
/// `reduceBlockSize` threads per block adds them to C.
void buildWgmmaMatmul(mlir::OpBuilder &b, mlir::Location loc,
                      const GemmProblem &p, WgmmaMatmulAttr schedule,
                      const schedule::TargetLimits &limits,
                      int64_t reduceBlockSize);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H
