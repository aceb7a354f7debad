//===- Anchor.cpp - An anchor op as its template sees it ------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Anchor.h"

#include "../Fusion/Buffers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

FailureOr<ScheduleAttrInterface>
hidet::templates::writtenSchedule(Operation *op, StringRef pass) {
  Attribute attr = op->getAttr(kScheduleAttrName);
  if (!attr)
    return ScheduleAttrInterface();
  if (auto schedule = dyn_cast<ScheduleAttrInterface>(attr))
    return schedule;
  return op->emitError(pass)
         << ": '" << kScheduleAttrName
         << "' must be a schedule (#hidet.simt_matmul, #hidet.mma_matmul or "
            "#hidet.wgmma_matmul), got "
         << attr;
}

AnchorMatch hidet::templates::matchAnchor(linalg::LinalgOp op,
                                          Attribute schedule, bool fuse,
                                          bool remarks, StringRef pass,
                                          GemmProblem &problem,
                                          fusion::Prologue &prologue,
                                          std::string &why) {
  FailureOr<GemmProblem> p = matchGemm(op, why);
  if (failed(p))
    return AnchorMatch::NoTemplate;
  problem = *p;
  if (!fuse)
    return AnchorMatch::Gemm;
  // The producers of A and B in the anchor's group (a convolution's: the
  // zero padding of its input) fold into the kernel's reads. Elementwise
  // producers are applied to loaded values in registers, which a schedule
  // with raw byte copies does not have.
  bool conv = isa<linalg::Conv2DNhwcHwcfOp, linalg::Conv2DNchwFchwOp>(op);
  auto mma = dyn_cast_if_present<MmaMatmulAttr>(schedule);
  StringRef computeWhyNot =
      isa_and_present<WgmmaMatmulAttr>(schedule) ||
              (mma && mma.getStages() != 0)
          ? "the written schedule's raw byte copies (TMA or cp.async) "
            "cannot apply"
          : "";
  prologue = fusion::Prologue::match(op, {problem.c.buffer}, computeWhyNot,
                                     conv, remarks);
  if (prologue.empty())
    return AnchorMatch::Gemm;
  p = matchGemm(op, why, /*onBuffers=*/true, &prologue);
  if (failed(p)) {
    op->emitError(pass) << ": the reads of the folded prologue have no "
                           "template: "
                        << why;
    return AnchorMatch::Error;
  }
  problem = *p;
  return AnchorMatch::Gemm;
}

static schedule::ElementKind elementKind(Type t) {
  if (t.isF32())
    return schedule::ElementKind::F32;
  if (t.isF16())
    return schedule::ElementKind::F16;
  if (t.isBF16())
    return schedule::ElementKind::BF16;
  return schedule::ElementKind::Other;
}

schedule::GemmDesc hidet::templates::describeGemm(const GemmProblem &p,
                                                  bool convRowTiles) {
  schedule::GemmDesc g;
  g.batch = p.batch;
  g.m = p.m;
  g.n = p.n;
  g.k = p.k;
  g.a = elementKind(p.aElt);
  g.b = elementKind(p.bElt);
  g.c = elementKind(p.cElt);
  g.asyncCopy = whyNoAsyncCopy(p).empty();
  g.wgmma = whyNoWgmma(p).empty();
  g.windowTaps = convRowTiles ? p.windowTaps : 1;
  return g;
}

namespace {
/// Wraps each kind of plain schedule in its attribute.
struct ToAttr {
  MLIRContext *ctx;
  Attribute operator()(std::monostate) const { return {}; }
  Attribute operator()(const schedule::SimtMatmulSchedule &s) const {
    return SimtMatmulAttr::get(ctx, s);
  }
  Attribute operator()(const schedule::MmaMatmulSchedule &s) const {
    return MmaMatmulAttr::get(ctx, s);
  }
  Attribute operator()(const schedule::WgmmaMatmulSchedule &s) const {
    return WgmmaMatmulAttr::get(ctx, s);
  }
};
} // namespace

ScheduleAttrInterface
hidet::templates::scheduleAttr(MLIRContext *ctx,
                               const schedule::AnySchedule &s) {
  return dyn_cast_if_present<ScheduleAttrInterface>(std::visit(ToAttr{ctx}, s));
}

LogicalResult hidet::templates::verifySchedule(Operation *op, StringRef pass,
                                               ScheduleAttrInterface schedule,
                                               const GemmProblem &p,
                                               TargetAttr target) {
  if (std::string why = schedule.checkTarget(target); !why.empty())
    return op->emitError(pass)
           << ": the schedule does not fit the target (" << target.getChip()
           << "): " << why;
  if (std::string why = schedule.checkProblem(p); !why.empty())
    return op->emitError(pass) << ": " << why;
  return success();
}

StringRef hidet::templates::kernelKind(schedule::TemplateKind kind) {
  switch (kind) {
  case schedule::TemplateKind::Simt:
    return "simt";
  case schedule::TemplateKind::Mma:
    return "mma";
  case schedule::TemplateKind::Wgmma:
    return "wgmma";
  case schedule::TemplateKind::None:
    break;
  }
  return "";
}

/// `op`'s name and the names of the ops of its regions, in order.
static void printOpKinds(llvm::raw_ostream &os, Operation *op) {
  os << op->getName();
  SmallVector<StringRef> inner;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *nested) {
      if (!nested->hasTrait<OpTrait::IsTerminator>())
        inner.push_back(nested->getName().getStringRef());
    });
  if (!inner.empty())
    os << "[" << llvm::join(inner, ",") << "]";
}

std::string
hidet::templates::anchorSignature(linalg::LinalgOp op,
                                  const fusion::Prologue &prologue) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << op->getName() << "(";
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << ")";
  SmallVector<NamedAttribute> attrs;
  for (NamedAttribute a : op->getAttrs())
    if (!a.getName().getValue().starts_with("hidet."))
      attrs.push_back(a);
  if (!attrs.empty())
    os << " " << DictionaryAttr::get(op->getContext(), attrs);
  if (!prologue.empty())
    for (unsigned i = 0; i < op.getNumDpsInputs(); ++i) {
      const fusion::PrologueRead &read = prologue.read(i);
      if (!read.buffer || read.buffer == op.getDpsInputOperand(i)->get())
        continue;
      os << " in" << i << "=" << read.buffer.getType() << " " << read.map;
      if (!read.padLow.empty()) {
        os << " pad[";
        llvm::interleaveComma(read.padLow, os);
        os << "]";
      }
      for (linalg::LinalgOp c : read.computes) {
        os << " ";
        printOpKinds(os, c);
      }
    }
  SmallVector<Operation *> epilogue =
      fusion::groupMembers(op, FusionRole::epilogue);
  if (!epilogue.empty()) {
    os << " epilogue(";
    llvm::interleave(
        epilogue, os, [&](Operation *e) { printOpKinds(os, e); }, ";");
    os << ")";
  }
  return text;
}

SmallVector<linalg::LinalgOp>
hidet::templates::collectAnchors(Operation *root) {
  SmallVector<linalg::LinalgOp> anchors;
  root->walk([&](linalg::LinalgOp op) {
    if (!op->getParentOfType<gpu::LaunchOp>() && isGemmAnchor(op))
      anchors.push_back(op);
  });
  return anchors;
}
