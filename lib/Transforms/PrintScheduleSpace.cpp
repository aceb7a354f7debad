//===- PrintScheduleSpace.cpp - Print anchor schedule spaces --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-print-schedule-space`: for each anchor op with
// a template, the size of its schedule space, the heuristic's pick and,
// optionally, every schedule, spelled as the attribute that selects it.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Schedule/SimtMatmulSpace.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "llvm/Support/raw_ostream.h"

namespace hidet {
#define GEN_PASS_DEF_PRINTSCHEDULESPACE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

namespace {
struct PrintScheduleSpacePass
    : public hidet::impl::PrintScheduleSpaceBase<PrintScheduleSpacePass> {
  using Base::Base;

  void runOnOperation() final {
    schedule::TargetLimits limits;
    limits.numSMs = numSMs;
    std::vector<schedule::SimtMatmulSchedule> space =
        schedule::enumerateSimtSpace(limits);
    llvm::raw_ostream &os = llvm::outs();
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](linalg::MatmulOp op) {
      auto a = dyn_cast<ShapedType>(op.getDpsInputOperand(0)->get().getType());
      auto b = dyn_cast<ShapedType>(op.getDpsInputOperand(1)->get().getType());
      if (!a || !b || !a.hasStaticShape() || !b.hasStaticShape() ||
          !a.getElementType().isF32())
        return;
      int64_t m = a.getDimSize(0), k = a.getDimSize(1), n = b.getDimSize(1);
      os << "anchor linalg.matmul " << m << "x" << n << "x" << k
         << " f32: template simt_matmul, " << space.size() << " schedules\n";
      os << "  default: "
         << Attribute(SimtMatmulAttr::get(
                ctx, schedule::defaultSimtSchedule(m, n, limits)))
         << "\n";
      if (Attribute chosen = op->getAttr(kScheduleAttrName))
        os << "  written on the op: " << chosen << "\n";
      if (list)
        for (const schedule::SimtMatmulSchedule &s : space)
          os << "  " << Attribute(SimtMatmulAttr::get(ctx, s)) << "\n";
    });
    os.flush();
    markAllAnalysesPreserved();
  }
};
} // namespace
