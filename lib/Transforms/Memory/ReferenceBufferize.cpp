//===- ReferenceBufferize.cpp - Upstream bufferization for the reference --===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-reference-bufferize`, which the CPU reference
// pipeline runs instead of the GPU path's stage 1. It holds no rewrite of
// its own: it applies a fixed script of upstream transform ops with
// upstream's transform interpreter. A script, not passes, because the two
// steps it takes exist upstream only as transform ops: the decomposition of
// aggregated ops (linalg.softmax) has no pass, and one-shot bufferization
// writes its copies as linalg.copy (which lowers to loops) instead of
// memref.copy (whose strided form calls the C runner library) only when
// run as `transform.bufferization.one_shot_bufferize`.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/TransformOps/BufferizationTransformOps.h"
#include "mlir/Dialect/Linalg/TransformOps/DialectExtension.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/ErrorHandling.h"

#include <memory>

namespace hidet {
#define GEN_PASS_DEF_REFERENCEBUFFERIZE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

/// The name of the script's buffer, which locates its diagnostics.
static constexpr llvm::StringLiteral kScriptName = "hidet-reference-bufferize";

/// The script: every linalg.softmax (the only op of upstream's
/// AggregatedOpInterface) decomposed into the structured ops it stands for,
/// then the whole module bufferized, function boundaries included, with
/// identity layouts there (the libraries' memref descriptors) and copies as
/// linalg.copy.
static constexpr llvm::StringLiteral kScript = R"mlir(
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(
      %module: !transform.any_op {transform.consumed}) {
    %aggregates = transform.structured.match ops{["linalg.softmax"]}
        in %module : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %aggregates
        : (!transform.any_op) -> !transform.any_op
    %bufferized = transform.bufferization.one_shot_bufferize
        layout{IdentityLayoutMap} %module
        {bufferize_function_boundaries = true, memcpy_op = "linalg.copy"}
        : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
)mlir";

namespace {
struct ReferenceBufferizePass
    : public hidet::impl::ReferenceBufferizeBase<ReferenceBufferizePass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    ReferenceBufferizeBase::getDependentDialects(registry);
    linalg::registerTransformDialectExtension(registry);
    bufferization::registerTransformDialectExtension(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    OwningOpRef<ModuleOp> parsed =
        parseSourceString<ModuleOp>(kScript, context, kScriptName);
    // The script is fixed by this file: a parse failure is a bug of the
    // project, not of the input.
    if (!parsed)
      llvm::report_fatal_error("hidet-reference-bufferize: malformed script");
    script = std::make_shared<OwningOpRef<ModuleOp>>(std::move(parsed));
    return success();
  }

  void runOnOperation() final {
    ModuleOp module = script->get();
    Operation *entry = transform::detail::findTransformEntryPoint(
        module, ModuleOp(),
        transform::TransformDialect::kTransformEntryPointSymbolName);
    if (!entry)
      llvm::report_fatal_error("hidet-reference-bufferize: no entry point");
    // The handle checks guard scripts that may use a handle after its ops
    // were rewritten; this one's three steps are fixed and tested, and the
    // checks walk the whole payload after each step.
    transform::TransformOptions options;
    options.enableExpensiveChecks(false);
    // The payload's errors (an op that cannot be bufferized) pass through;
    // those of the script's steps ("bufferization failed") are reported at
    // the module, not at a line of a string of this file.
    SmallVector<std::string> stepErrors;
    LogicalResult applied = failure();
    {
      ScopedDiagnosticHandler handler(&getContext(), [&](Diagnostic &diag) {
        auto loc = dyn_cast<FileLineColLoc>(diag.getLocation());
        if (!loc || loc.getFilename() != kScriptName)
          return failure();
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          stepErrors.push_back(diag.str());
        return success();
      });
      applied = transform::applyTransformNamedSequence(getOperation(), entry,
                                                       module, options);
    }
    // At the module's location, without the module printed after it.
    for (const std::string &error : stepErrors)
      emitError(getOperation().getLoc(), "hidet-reference-bufferize: ")
          << error;
    if (failed(applied))
      signalPassFailure();
  }

  /// Shared by the clones of this pass, which only read it.
  std::shared_ptr<OwningOpRef<ModuleOp>> script;
};
} // namespace
