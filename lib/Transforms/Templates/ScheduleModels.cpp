//===- ScheduleModels.cpp - ScheduleAttrInterface of the templates --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Each schedule attribute's side of ScheduleAttrInterface: its checks
// against a target and a problem, its space, and the template that builds
// it. The dialect promises the interface; these models keep the dialect
// free of the templates.
//
//===----------------------------------------------------------------------===//

#include "Anchor.h"

#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

namespace {

/// `p`'s element types for messages: "f16 x f16 -> f32".
std::string typesOf(const GemmProblem &p) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << p.aElt << " x " << p.bElt << " -> " << p.cElt;
  return s;
}

std::string toString(int64_t v) { return std::to_string(v); }

/// The schedules of `space` as attributes.
template <typename Attr, typename Schedule>
SmallVector<Attribute> attrsOf(MLIRContext *ctx,
                               const std::vector<Schedule> &space) {
  SmallVector<Attribute> attrs;
  attrs.reserve(space.size());
  for (const Schedule &s : space)
    attrs.push_back(Attr::get(ctx, s));
  return attrs;
}

struct SimtMatmulModel
    : public ScheduleAttrInterface::ExternalModel<SimtMatmulModel,
                                                  SimtMatmulAttr> {
  StringRef getTemplateName(Attribute) const { return "simt_matmul"; }
  schedule::TemplateKind getTemplateKind(Attribute) const {
    return schedule::TemplateKind::Simt;
  }
  std::string checkTarget(Attribute attr, TargetAttr target) const {
    schedule::TargetLimits limits = target.getLimits();
    return schedule::checkSimtSchedule(
        cast<SimtMatmulAttr>(attr).toSchedule(), &limits);
  }
  std::string checkProblem(Attribute attr, const GemmProblem &p) const {
    if (!schedule::isF32Gemm(describeGemm(p)))
      return "a #hidet.simt_matmul computes f32 x f32 -> f32, but this " +
             p.kind + " is " + typesOf(p) +
             " (16-bit operands take #hidet.mma_matmul or "
             "#hidet.wgmma_matmul)";
    int64_t stages = cast<SimtMatmulAttr>(attr).getStages();
    if (stages != 0)
      if (std::string why = whyNoAsyncCopy(p); !why.empty())
        return llvm::formatv("stages = {0} needs cp.async: {1}", stages, why)
            .str();
    return "";
  }
  SmallVector<Attribute> getSpace(Attribute attr, TargetAttr target) const {
    return attrsOf<SimtMatmulAttr>(
        attr.getContext(), schedule::enumerateSimtSpace(target.getLimits()));
  }
  void buildKernel(Attribute attr, OpBuilder &b, Location loc,
                   const GemmProblem &p, TargetAttr,
                   int64_t reduceBlockSize) const {
    buildSimtMatmul(b, loc, p, cast<SimtMatmulAttr>(attr), reduceBlockSize);
  }
};

struct MmaMatmulModel
    : public ScheduleAttrInterface::ExternalModel<MmaMatmulModel,
                                                  MmaMatmulAttr> {
  StringRef getTemplateName(Attribute) const { return "mma_matmul"; }
  schedule::TemplateKind getTemplateKind(Attribute) const {
    return schedule::TemplateKind::Mma;
  }
  std::string checkTarget(Attribute attr, TargetAttr target) const {
    schedule::TargetLimits limits = target.getLimits();
    auto s = cast<MmaMatmulAttr>(attr);
    if (s.getStages() != 0 && !limits.hasAsyncCopy)
      return llvm::formatv("stages = {0} needs cp.async, which {1} lacks",
                           s.getStages(), limits.chip)
          .str();
    return schedule::checkMmaSchedule(s.toSchedule(), &limits);
  }
  std::string checkProblem(Attribute attr, const GemmProblem &p) const {
    auto s = cast<MmaMatmulAttr>(attr);
    schedule::GemmDesc g = describeGemm(p);
    if (!schedule::isF32Gemm(g) && !schedule::isHalfGemm(g))
      return "a #hidet.mma_matmul takes f16 x f16 or bf16 x bf16 operands "
             "(f16, bf16 or f32 results), or f32 x f32 -> f32 in tf32, but "
             "this " +
             p.kind + " is " + typesOf(p);
    std::array<int64_t, 3> need = schedule::mmaShapeFor(g);
    if (s.toSchedule().mma != need) {
      std::string msg;
      llvm::raw_string_ostream os(msg);
      os << "mma = [" << llvm::join(llvm::map_range(s.getMma(), toString), ", ")
         << "] does not match the " << p.aElt << " operands of this " << p.kind
         << "; they need [" << llvm::join(llvm::map_range(need, toString), ", ")
         << "]";
      return msg;
    }
    if (s.getStages() != 0)
      if (std::string why = whyNoAsyncCopy(p); !why.empty())
        return llvm::formatv("stages = {0} needs cp.async: {1}",
                             s.getStages(), why)
            .str();
    return "";
  }
  SmallVector<Attribute> getSpace(Attribute attr, TargetAttr target) const {
    return attrsOf<MmaMatmulAttr>(
        attr.getContext(),
        schedule::enumerateMmaSpace(target.getLimits(),
                                    cast<MmaMatmulAttr>(attr).toSchedule().mma));
  }
  void buildKernel(Attribute attr, OpBuilder &b, Location loc,
                   const GemmProblem &p, TargetAttr,
                   int64_t reduceBlockSize) const {
    buildMmaMatmul(b, loc, p, cast<MmaMatmulAttr>(attr), reduceBlockSize);
  }
};

struct WgmmaMatmulModel
    : public ScheduleAttrInterface::ExternalModel<WgmmaMatmulModel,
                                                  WgmmaMatmulAttr> {
  StringRef getTemplateName(Attribute) const { return "wgmma_matmul"; }
  schedule::TemplateKind getTemplateKind(Attribute) const {
    return schedule::TemplateKind::Wgmma;
  }
  std::string checkTarget(Attribute attr, TargetAttr target) const {
    schedule::TargetLimits limits = target.getLimits();
    if (!limits.hasWgmma)
      return "a #hidet.wgmma_matmul schedule needs wgmma (sm_90a), which " +
             limits.chip + " lacks";
    return schedule::checkWgmmaSchedule(
        cast<WgmmaMatmulAttr>(attr).toSchedule(), &limits);
  }
  std::string checkProblem(Attribute, const GemmProblem &p) const {
    if (std::string why = whyNoWgmma(p); !why.empty())
      return "this " + p.kind +
             " cannot take a #hidet.wgmma_matmul schedule: " + why;
    return "";
  }
  SmallVector<Attribute> getSpace(Attribute attr, TargetAttr target) const {
    return attrsOf<WgmmaMatmulAttr>(
        attr.getContext(), schedule::enumerateWgmmaSpace(target.getLimits()));
  }
  void buildKernel(Attribute attr, OpBuilder &b, Location loc,
                   const GemmProblem &p, TargetAttr target,
                   int64_t reduceBlockSize) const {
    buildWgmmaMatmul(b, loc, p, cast<WgmmaMatmulAttr>(attr),
                     target.getLimits(), reduceBlockSize);
  }
};

} // namespace

void hidet::registerScheduleAttrInterfaceModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, HidetDialect *) {
    SimtMatmulAttr::attachInterface<SimtMatmulModel>(*ctx);
    MmaMatmulAttr::attachInterface<MmaMatmulModel>(*ctx);
    WgmmaMatmulAttr::attachInterface<WgmmaMatmulModel>(*ctx);
  });
}
