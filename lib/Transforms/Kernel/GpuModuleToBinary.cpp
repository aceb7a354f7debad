//===- GpuModuleToBinary.cpp - gpu.modules to binaries in parallel --------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-gpu-module-to-binary`: upstream's
// gpu-module-to-binary with the serialization of the modules spread over
// the context's thread pool. Upstream serializes one module after another
// (mlir::gpu::transformGpuModulesToBinaries) and offers no parallel form;
// a compiled model has a module per kernel, whose back-end compilation
// (NVPTX, ptxas) is most of its compile time. Serialization only reads its
// module; the objects and gpu.binary ops are created afterwards, in order.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Threading.h"
#include "llvm/ADT/StringSwitch.h"

#include <atomic>

namespace hidet {
#define GEN_PASS_DEF_GPUMODULETOBINARY
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {
/// One serialization: a module for one of its targets.
struct Job {
  gpu::GPUModuleOp module;
  gpu::TargetAttrInterface target;
  std::optional<SmallVector<char, 0>> object;
};

struct GpuModuleToBinaryPass
    : public hidet::impl::GpuModuleToBinaryBase<GpuModuleToBinaryPass> {
  using Base::Base;

  void runOnOperation() final {
    Operation *op = getOperation();
    std::optional<gpu::CompilationTarget> format =
        llvm::StringSwitch<std::optional<gpu::CompilationTarget>>(
            compilationTarget)
            .Cases({"offloading", "llvm"}, gpu::CompilationTarget::Offload)
            .Cases({"assembly", "isa"}, gpu::CompilationTarget::Assembly)
            .Cases({"binary", "bin"}, gpu::CompilationTarget::Binary)
            .Cases({"fatbinary", "fatbin"}, gpu::CompilationTarget::Fatbin)
            .Default(std::nullopt);
    if (!format) {
      op->emitError("hidet-gpu-module-to-binary: invalid format '")
          << compilationTarget
          << "' (offloading, llvm, assembly, isa, binary, bin, fatbinary or "
             "fatbin)";
      return signalPassFailure();
    }
    SmallVector<Attribute> libraries;
    for (const std::string &path : linkFiles)
      libraries.push_back(StringAttr::get(&getContext(), path));
    // Built before the threads start: they may all ask for it.
    std::optional<SymbolTable> table;
    if (op->hasTrait<OpTrait::SymbolTable>())
      table.emplace(op);
    auto getTable = [&]() -> SymbolTable * {
      return table ? &*table : nullptr;
    };
    gpu::TargetOptions options(toolkitPath, libraries, cmdOptions, elfSection,
                               *format, getTable);

    SmallVector<gpu::GPUModuleOp> modules;
    for (Region &region : op->getRegions())
      for (Block &block : region.getBlocks())
        llvm::append_range(modules, block.getOps<gpu::GPUModuleOp>());
    std::vector<Job> jobs;
    for (gpu::GPUModuleOp module : modules) {
      if (!module.getTargetsAttr()) {
        module.emitError("the module has no target attributes");
        return signalPassFailure();
      }
      for (Attribute attr : module.getTargetsAttr()) {
        auto target = dyn_cast<gpu::TargetAttrInterface>(attr);
        if (!target) {
          module.emitError("target ")
              << attr << " does not implement TargetAttrInterface";
          return signalPassFailure();
        }
        jobs.push_back({module, target, std::nullopt});
      }
    }
    // Upstream's NVVM serialization reports some failures as errors and
    // still returns an object: without the toolkit's libdevice the PTX
    // keeps calls to functions nothing defines. Any error reported while
    // serializing fails the pass, so that no binary is built from such an
    // object. The handler passes each diagnostic on to be printed.
    std::atomic<bool> reportedError = false;
    ScopedDiagnosticHandler errors(&getContext(), [&](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        reportedError = true;
      return failure();
    });
    // Diagnostics of the threads are reported in the jobs' order.
    if (failed(failableParallelForEach(&getContext(), jobs, [&](Job &job) {
          job.object = job.target.serializeToObject(job.module, options);
          if (!job.object)
            job.module.emitError(
                "An error happened while serializing the module.");
          return success(job.object.has_value());
        })) ||
        reportedError)
      return signalPassFailure();

    OpBuilder builder(&getContext());
    size_t next = 0;
    for (gpu::GPUModuleOp module : modules) {
      SmallVector<Attribute> objects;
      for (; next < jobs.size() && jobs[next].module == module; ++next) {
        Attribute object = jobs[next].target.createObject(
            module, *jobs[next].object, options);
        if (!object) {
          module.emitError("An error happened while creating the object.");
          return signalPassFailure();
        }
        objects.push_back(object);
      }
      auto handler = dyn_cast_or_null<gpu::OffloadingLLVMTranslationAttrInterface>(
          module.getOffloadingHandlerAttr());
      builder.setInsertionPointAfter(module);
      gpu::BinaryOp::create(builder, module.getLoc(), module.getName(),
                            handler, builder.getArrayAttr(objects));
      module->erase();
    }
  }
};
} // namespace
