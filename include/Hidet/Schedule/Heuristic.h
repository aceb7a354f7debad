//===- Heuristic.h - The default schedule of a GEMM anchor ------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The heuristic that picks an anchor's template and schedule when no user
// or tuner wrote one: plain C++ over a description of the GEMM (sizes,
// element types, what its operands allow), so that the selection pass,
// the schedule-space printer, a tuner and the unit tests ask the same
// function.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_SCHEDULE_HEURISTIC_H
#define HIDET_SCHEDULE_HEURISTIC_H

#include "Hidet/Schedule/MmaMatmulSpace.h"
#include "Hidet/Schedule/SimtMatmulSpace.h"
#include "Hidet/Schedule/Target.h"
#include "Hidet/Schedule/WgmmaMatmulSpace.h"

#include <variant>

namespace hidet {
namespace schedule {

/// Element types as far as the templates distinguish them.
enum class ElementKind { F32, F16, BF16, Other };

/// The templates a GEMM can take.
enum class TemplateKind { None, Simt, Mma, Wgmma };

/// A batched GEMM `C[b, m, n] += A[b, m, k] * B[b, k, n]` as the heuristic
/// sees it.
struct GemmDesc {
  int64_t batch = 1, m = 0, n = 0, k = 0;
  ElementKind a = ElementKind::Other, b = ElementKind::Other,
              c = ElementKind::Other;
  /// Whether the operands can be copied with cp.async (raw 4-, 8- or
  /// 16-byte pieces, nothing applied to them in registers).
  bool asyncCopy = false;
  /// Whether the Hopper template can read the operands (K-major A, N-major
  /// B in 16-byte pieces, nothing applied in registers).
  bool wgmma = false;
  /// The taps of a convolution's window (kh * kw; 1 for contractions), whose
  /// A rows the templates gather from the image.
  int64_t windowTaps = 1;
};

/// A schedule of any template (monostate: none).
using AnySchedule = std::variant<std::monostate, SimtMatmulSchedule,
                                 MmaMatmulSchedule, WgmmaMatmulSchedule>;

/// Whether the SIMT template computes `g`: f32 x f32 -> f32 (which the
/// tensor-core template also takes, in tf32).
bool isF32Gemm(const GemmDesc &g);

/// Whether the tensor cores take `g` in 16 bits: f16 x f16 or bf16 x bf16
/// operands with f16, bf16 or f32 results.
bool isHalfGemm(const GemmDesc &g);

/// The mma.sync instruction shape for `g`'s operands: m16n8k8 (tf32) for
/// f32, m16n8k16 for 16-bit ones.
std::array<int64_t, 3> mmaShapeFor(const GemmDesc &g);

/// The template the heuristic gives `g` on `target`: f32 x f32 -> f32 is
/// SIMT (or the tensor cores in tf32 with `tf32`); f16 x f16 or bf16 x bf16
/// operands with f16, bf16 or f32 results are tensor-core, on a chip with
/// wgmma the Hopper template when the operands allow it and the output has
/// at least one warpgroup tile of rows; anything else has none.
TemplateKind defaultTemplate(const GemmDesc &g, const TargetLimits &target,
                             bool tf32);

/// The heuristic's schedule for `g` within template `kind` (monostate for
/// TemplateKind::None).
AnySchedule defaultSchedule(const GemmDesc &g, TemplateKind kind,
                            const TargetLimits &target);

/// Gives `s` `terms` tf32 products per f32 product
/// (MmaMatmulSchedule::tf32Terms) when it is a tf32 mma.sync schedule; any
/// other schedule stays as it is.
void setTF32Terms(AnySchedule &s, int64_t terms);

} // namespace schedule
} // namespace hidet

#endif // HIDET_SCHEDULE_HEURISTIC_H
