//===- OutlineKernels.cpp - Outlining that keeps the kernels' NVVM hints --===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-outline-kernels`: upstream's
// gpu-kernel-outlining, run as a nested pipeline, and then the `nvvm.*`
// attributes of each outlined gpu.launch set on its gpu.func. Upstream's
// outlining builds the kernel from the launch's body and sizes only, and it
// is a pass rather than a utility whose result could be amended, hence the
// wrapper. The launch_func that replaces a launch takes its place, so the
// launches and the launch_funcs that are new after outlining pair up in
// walk order.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"

namespace hidet {
#define GEN_PASS_DEF_OUTLINEKERNELS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

struct OutlineKernels : hidet::impl::OutlineKernelsBase<OutlineKernels> {
  LogicalResult initialize(MLIRContext *) override {
    outlining = OpPassManager(ModuleOp::getOperationName());
    outlining.addPass(createGpuKernelOutliningPass());
    return success();
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    createGpuKernelOutliningPass()->getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    StringRef nvvm = NVVM::NVVMDialect::getDialectNamespace();
    // The launches' NVVM attributes, in walk order, and the launch_funcs
    // that are there before outlining (an input may have some).
    SmallVector<SmallVector<NamedAttribute>> hints;
    bool anyHint = false;
    module.walk([&](gpu::LaunchOp launch) {
      SmallVector<NamedAttribute> &attrs = hints.emplace_back();
      for (NamedAttribute attr : launch->getDiscardableAttrs())
        if (attr.getName().strref().starts_with((nvvm + ".").str()))
          attrs.push_back(attr);
      anyHint |= !attrs.empty();
    });
    llvm::SmallPtrSet<Operation *, 8> before;
    if (anyHint)
      module.walk([&](gpu::LaunchFuncOp op) { before.insert(op); });

    if (failed(runPipeline(outlining, module)))
      return signalPassFailure();
    if (!anyHint)
      return;

    SymbolTableCollection symbols;
    size_t next = 0;
    WalkResult result = module.walk([&](gpu::LaunchFuncOp op) {
      if (before.contains(op))
        return WalkResult::advance();
      if (next == hints.size()) {
        op.emitError("hidet-outline-kernels: more kernel launches after "
                     "outlining than gpu.launch ops before");
        return WalkResult::interrupt();
      }
      ArrayRef<NamedAttribute> attrs = hints[next++];
      if (attrs.empty())
        return WalkResult::advance();
      auto kernel =
          symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(op, op.getKernel());
      if (!kernel) {
        op.emitError("hidet-outline-kernels: no gpu.func ")
            << op.getKernel() << " for the outlined launch";
        return WalkResult::interrupt();
      }
      for (NamedAttribute attr : attrs)
        kernel->setAttr(attr.getName(), attr.getValue());
      return WalkResult::advance();
    });
    if (result.wasInterrupted() || next != hints.size()) {
      if (!result.wasInterrupted())
        module.emitError("hidet-outline-kernels: fewer kernel launches after "
                         "outlining than gpu.launch ops before");
      signalPassFailure();
    }
  }

  OpPassManager outlining;
};

} // namespace
