//===- HostBuffersToDevice.cpp - Temporary buffers in device memory -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-host-buffers-to-device`: after scheduling, the
// host function only allocates buffers and launches kernels, and every
// kernel works on device memory. Allocations become gpu.alloc (released
// before the end of their block), and constants held in host globals are
// copied to device buffers.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace hidet {
#define GEN_PASS_DEF_HOSTBUFFERSTODEVICE
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

/// Creates a device buffer of `type` before `op` and releases it before the
/// terminator of `op`'s block.
static Value createDeviceBuffer(OpBuilder &b, Operation *op, MemRefType type,
                                ValueRange dynamicSizes) {
  b.setInsertionPoint(op);
  auto alloc = gpu::AllocOp::create(b, op->getLoc(), type, /*asyncToken=*/Type(),
                                    ValueRange{}, dynamicSizes, ValueRange{});
  b.setInsertionPoint(op->getBlock()->getTerminator());
  gpu::DeallocOp::create(b, op->getLoc(), /*asyncToken=*/Type(), ValueRange{},
                         alloc.getMemref());
  return alloc.getMemref();
}

namespace {
struct HostBuffersToDevicePass
    : public hidet::impl::HostBuffersToDeviceBase<HostBuffersToDevicePass> {
  void runOnOperation() final {
    OpBuilder b(&getContext());
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (op->getParentOfType<gpu::LaunchOp>() ||
          op->getParentOfType<gpu::GPUModuleOp>())
        return;
      if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
        if (!alloc.getType().getLayout().isIdentity()) {
          alloc.emitError("hidet-host-buffers-to-device: only identity "
                          "layouts are supported");
          failed = true;
          return;
        }
        // Buffers the function returns would outlive the dealloc.
        if (llvm::any_of(alloc->getUsers(), [](Operation *user) {
              return user->hasTrait<OpTrait::ReturnLike>();
            })) {
          alloc.emitError("hidet-host-buffers-to-device: a returned buffer "
                          "cannot be placed on the device; run "
                          "buffer-results-to-out-params first");
          failed = true;
          return;
        }
        Value dev = createDeviceBuffer(b, alloc, alloc.getType(),
                                       alloc.getDynamicSizes());
        alloc.getResult().replaceAllUsesWith(dev);
        alloc->erase();
        return;
      }
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        // Device buffers are released where they were created.
        dealloc->erase();
        return;
      }
      if (auto global = dyn_cast<memref::GetGlobalOp>(op)) {
        Value dev = createDeviceBuffer(b, global, global.getType(), {});
        b.setInsertionPointAfter(global);
        global.getResult().replaceAllUsesWith(dev);
        gpu::MemcpyOp::create(b, global.getLoc(), /*asyncToken=*/Type(),
                              ValueRange{}, dev, global.getResult());
        return;
      }
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
