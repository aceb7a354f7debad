//===- MaterializePersistentCounters.cpp - Counters as module globals -----===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-materialize-persistent-counters`: each
// hidet.persistent_counters becomes a zero-initialized memref.global of the
// module and a memref.get_global where it was.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace hidet {
#define GEN_PASS_DEF_MATERIALIZEPERSISTENTCOUNTERS
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

namespace {
struct MaterializePersistentCountersPass
    : public hidet::impl::MaterializePersistentCountersBase<
          MaterializePersistentCountersPass> {
  using Base::Base;

  void runOnOperation() final {
    ModuleOp module = getOperation();
    SmallVector<PersistentCountersOp> ops;
    module.walk([&](PersistentCountersOp op) { ops.push_back(op); });
    if (ops.empty())
      return;
    SymbolTable symbols(module);
    for (PersistentCountersOp op : ops) {
      // Named after the kernel the launch becomes, where it has a name.
      std::string name = "kernel";
      if (auto launch = op->getParentOfType<gpu::LaunchOp>()) {
        if (std::optional<StringRef> fn = launch.getFunction())
          name = fn->str();
      } else if (auto fn = op->getParentOfType<gpu::GPUFuncOp>()) {
        name = fn.getName().str();
      }
      MemRefType type = op.getType();
      auto zeros = DenseElementsAttr::get(
          RankedTensorType::get(type.getShape(), type.getElementType()),
          ArrayRef<Attribute>{IntegerAttr::get(type.getElementType(), 0)});
      OpBuilder b(&getContext());
      // Not constant: the kernel counts in it.
      auto global = memref::GlobalOp::create(
          b, op.getLoc(), name + "_counters", b.getStringAttr("private"), type,
          zeros, /*constant=*/false,
          b.getI64IntegerAttr(type.getElementTypeBitWidth() / 8));
      symbols.insert(global, module.getBody()->begin());
      b.setInsertionPoint(op);
      op.replaceAllUsesWith(
          memref::GetGlobalOp::create(b, op.getLoc(), type, global.getSymName())
              .getResult());
      op.erase();
    }
  }
};
} // namespace
