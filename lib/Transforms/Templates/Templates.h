//===- Templates.h - Anchor-op templates ------------------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Templates that instantiate a scheduled anchor op as a GPU kernel written
// with task mappings. Each reads its schedule attribute and decides nothing
// else.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_TEMPLATES_H

#include "GemmProblem.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/IR/Builders.h"

namespace hidet {
namespace templates {

/// Emits at `b`'s insertion point the SIMT kernel(s) computing the f32
/// GEMM `p` as `schedule` says (with split-K, a second kernel of
/// `reduceBlockSize` threads per block).
void buildSimtMatmul(mlir::OpBuilder &b, mlir::Location loc,
                     const GemmProblem &p, SimtMatmulAttr schedule,
                     int64_t reduceBlockSize);

/// The templates a GEMM can take.
enum class GemmTemplate { None, Simt, Mma, Wgmma };

/// The template an anchor gets and, for the tensor-core one, its
/// instruction shape.
struct TemplateChoice {
  GemmTemplate kind = GemmTemplate::None;
  std::array<int64_t, 3> mma = {};
};

/// Decides the template from the element types (f32 x f32 -> f32: SIMT,
/// or tf32 on the tensor cores when `tf32` is set or `written`, the
/// schedule on the op, is a #hidet.mma_matmul; f16 or bf16 operands with
/// f16, bf16 or f32 results: tensor cores; anything else: none). A written
/// #hidet.wgmma_matmul selects the Hopper template. Without a written
/// schedule and with `wgmma` (an sm_90a target), a GEMM of at least 64 rows
/// that the Hopper template takes (whyNoWgmma) gets it; the mma.sync
/// template keeps the rest.
TemplateChoice chooseTemplate(const GemmProblem &p, mlir::Attribute written,
                              bool tf32, bool wgmma);

/// The heuristic's schedule for `p` under `choice` (null for none).
mlir::Attribute defaultSchedule(mlir::MLIRContext *ctx, const GemmProblem &p,
                                const TemplateChoice &choice,
                                const schedule::TargetLimits &limits);

/// Why the tensor-core template cannot copy `p`'s operands with cp.async
/// (schedules with stages >= 2), or empty.
std::string whyNoAsyncCopy(const GemmProblem &p);

/// Emits at `b`'s insertion point the tensor-core kernel(s) computing the
/// f16 or bf16 GEMM `p` (f32 accumulation) as `schedule` says.
void buildMmaMatmul(mlir::OpBuilder &b, mlir::Location loc,
                    const GemmProblem &p, MmaMatmulAttr schedule,
                    int64_t reduceBlockSize);

/// Whether `chip` has wgmma and setmaxnreg (sm_90a).
inline bool isHopper(llvm::StringRef chip) { return chip == "sm_90a"; }

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
