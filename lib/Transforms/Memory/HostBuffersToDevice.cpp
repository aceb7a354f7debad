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
// copied to device buffers. What the host code still reads or writes of a
// device buffer (a scalar read of an argument, a store into an output, an
// op no kernel was built for) is an error at the op: the host cannot
// dereference device pointers.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

/// Whether the host-side memref `v` is device memory: an argument (the
/// calling convention's buffers, or a value the host code does not know),
/// a gpu.alloc that is not host-shared, or a view of one. Host globals and
/// stack buffers are host memory.
static bool isDeviceBuffer(Value v) {
  while (Operation *def = v.getDefiningOp()) {
    if (auto alloc = dyn_cast<gpu::AllocOp>(def))
      return !alloc.getHostShared();
    auto view = dyn_cast<ViewLikeOpInterface>(def);
    if (!view)
      return false;
    v = view.getViewSource();
  }
  return true;
}

/// Reports each op of the host code of `func` that reads or writes a device
/// buffer; returns whether there was none.
static bool checkHostAccesses(func::FuncOp func) {
  bool ok = true;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::LaunchOp, gpu::GPUModuleOp>(op))
      return WalkResult::skip();
    if (isa_and_nonnull<gpu::GPUDialect>(op->getDialect()) ||
        isa<CallOpInterface>(op))
      return WalkResult::advance();
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return WalkResult::advance();
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const MemoryEffects::EffectInstance &effect : instances) {
      Value value = effect.getValue();
      bool access =
          isa<MemoryEffects::Read, MemoryEffects::Write>(effect.getEffect());
      if (!access || !value || !isa<BaseMemRefType>(value.getType()) ||
          !isDeviceBuffer(value))
        continue;
      bool write = isa<MemoryEffects::Write>(effect.getEffect());
      InFlightDiagnostic diag =
          op->emitError("hidet-host-buffers-to-device: the host code would ")
          << (write ? "write" : "read")
          << " device memory here, which it cannot; ";
      if (isa<linalg::LinalgOp>(op))
        diag << "no kernel was built for this op";
      else
        diag << "compute the value in a kernel (a scalar read that only "
                "linalg bodies use moves into them: hidet-sink-scalar-reads)";
      ok = false;
      break;
    }
    return WalkResult::advance();
  });
  return ok;
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
    if (failed || !checkHostAccesses(getOperation()))
      signalPassFailure();
  }
};
} // namespace
