//===- ExternDynamicShared.cpp - Dynamic shared memory after static -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-extern-dynamic-shared`. Upstream's
// gpu.dynamic_shared_memory lowering (GPUOpsLowering.cpp) creates its
// symbol with internal linkage, and the NVPTX backend prints an internal
// zero-sized shared array as a one-byte static variable, which ptxas places
// among (before) the kernel's other static shared variables instead of after
// them. The lowering reuses a zero-sized i8 array of the shared address
// space and its alignment when the module has one, so declaring that array
// external beforehand is enough to get PTX's `.extern .shared` form.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

namespace hidet {
#define GEN_PASS_DEF_EXTERNDYNAMICSHARED
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// The symbol's name, and the alignment (bytes) that the NVVM lowering asks
/// of the i8 memrefs it gives `gpu.dynamic_shared_memory` (128 bits).
constexpr llvm::StringLiteral kSymbol = "__hidet_dynamic_shared";
constexpr int64_t kAlignment = 16;

struct ExternDynamicShared
    : hidet::impl::ExternDynamicSharedBase<ExternDynamicShared> {
  void runOnOperation() override {
    gpu::GPUModuleOp module = getOperation();
    if (!module
             .walk([](gpu::DynamicSharedMemoryOp) {
               return WalkResult::interrupt();
             })
             .wasInterrupted())
      return;
    auto shared = static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared);
    auto type = LLVM::LLVMArrayType::get(IntegerType::get(&getContext(), 8),
                                         /*numElements=*/0);
    for (auto global : module.getOps<LLVM::GlobalOp>()) {
      if (global.getAddrSpace() != shared || global.getType() != type ||
          global.getAlignment().value_or(0) != kAlignment)
        continue;
      // An existing candidate would be reused by the lowering: it must be
      // external too.
      global.setLinkage(LLVM::Linkage::External);
      return;
    }
    if (SymbolTable::lookupSymbolIn(module, kSymbol)) {
      module.emitError() << "'" << kSymbol
                         << "' is already defined and is not a zero-sized "
                            "shared i8 array aligned to "
                         << kAlignment << " bytes";
      return signalPassFailure();
    }
    OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
    LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/false,
                           LLVM::Linkage::External, kSymbol,
                           /*value=*/Attribute(), kAlignment, shared);
  }
};

} // namespace
