//===- ScheduleAttrInterface.td - Schedules of templates ---*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_HIDET_IR_SCHEDULEATTRINTERFACE_TD
#define HIDET_DIALECT_HIDET_IR_SCHEDULEATTRINTERFACE_TD

include "mlir/IR/OpBase.td"

def Hidet_ScheduleAttrInterface : AttrInterface<"ScheduleAttrInterface"> {
  let cppNamespace = "::hidet";
  let description = [{
    A schedule of an anchor-op template, as `hidet.schedule` carries it:
    which template builds the anchor's kernel, the checks that say whether
    this schedule can run on a target and compute a given problem, the
    template's schedule space it is one point of, and the building itself.
    `hidet-select-schedules` writes one on every anchor that has a template
    (or checks the one a user or tuner wrote), `hidet-schedule-anchors`
    builds it, `hidet-print-schedule-space` lists its space; none of them
    asks which kind of schedule it holds.

    `#hidet.simt_matmul`, `#hidet.mma_matmul` and `#hidet.wgmma_matmul`
    implement it through external models registered with the templates
    (`hidet::registerScheduleAttrInterfaceModels`, part of
    `hidet::registerHidetDialects`): the templates build kernels, which
    the dialect itself does not depend on.
  }];
  let methods = [
    InterfaceMethod<
      "The name of the template that builds this schedule.",
      "::llvm::StringRef", "getTemplateName">,
    InterfaceMethod<
      "The template kind, as the heuristic (Hidet/Schedule/Heuristic.h) "
      "names it.",
      "::hidet::schedule::TemplateKind", "getTemplateKind">,
    InterfaceMethod<
      "Why this schedule cannot run on `target` (a limit it exceeds, an "
      "instruction the chip lacks), or an empty string.",
      "std::string", "checkTarget", (ins "::hidet::TargetAttr":$target)>,
    InterfaceMethod<
      "Why this schedule's template cannot compute `problem` (its element "
      "types, operand layouts or folded prologues), or an empty string.",
      "std::string", "checkProblem",
      (ins "const ::hidet::templates::GemmProblem &":$problem)>,
    InterfaceMethod<
      "The schedules of this template (for a tensor-core schedule: of the "
      "same instruction shape) that are valid on `target`, in a fixed "
      "order.",
      "::llvm::SmallVector<::mlir::Attribute>", "getSpace",
      (ins "::hidet::TargetAttr":$target)>,
    InterfaceMethod<
      "Emits at `b`'s insertion point the kernel(s) computing `problem` "
      "as this schedule says (a split-K reduction with `reduceBlockSize` "
      "threads per block). The schedule passed checkTarget and "
      "checkProblem.",
      "void", "buildKernel",
      (ins "::mlir::OpBuilder &":$b, "::mlir::Location":$loc,
           "const ::hidet::templates::GemmProblem &":$problem,
           "::hidet::TargetAttr":$target, "int64_t":$reduceBlockSize)>,
  ];
}

#endif // HIDET_DIALECT_HIDET_IR_SCHEDULEATTRINTERFACE_TD
