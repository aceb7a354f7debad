//===- WorkgroupAllocsToDynamicShared.cpp - Shared tiles as views ---------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-workgroup-allocs-to-dynamic-shared`. Upstream
// lowers a workgroup `memref.alloc` only as a gpu.func attribution (static
// shared memory, at most 48 KiB per block), and its transformations
// (multi-buffering) work on allocations, not on attributions; hence
// allocations in the templates and this pass to place them.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace hidet {
#define GEN_PASS_DEF_WORKGROUPALLOCSTODYNAMICSHARED
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

bool isWorkgroup(MemRefType type) {
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return space && space.getValue() == gpu::AddressSpace::Workgroup;
}

/// Places the workgroup allocations of `launch`; fails with an error on the
/// first that cannot be placed.
LogicalResult placeAllocations(gpu::LaunchOp launch, int64_t alignment) {
  SmallVector<memref::AllocOp> allocs;
  launch.getBody().walk([&](memref::AllocOp alloc) {
    if (isWorkgroup(alloc.getType()))
      allocs.push_back(alloc);
  });
  if (allocs.empty())
    return success();
  int64_t offset = 0;
  if (Value size = launch.getDynamicSharedMemorySize()) {
    APInt value;
    if (!matchPattern(size, m_ConstantInt(&value)))
      return launch.emitError("the dynamic shared memory size of a launch "
                              "with workgroup allocations must be a "
                              "constant");
    offset = value.getSExtValue();
  }
  OpBuilder b(launch.getContext());
  b.setInsertionPointToStart(&launch.getBody().front());
  Location loc = launch.getLoc();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value all = gpu::DynamicSharedMemoryOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(), AffineMap(),
                      workgroup));
  for (memref::AllocOp alloc : allocs) {
    MemRefType type = alloc.getType();
    if (!type.hasStaticShape() || !type.getLayout().isIdentity())
      return alloc.emitError("a workgroup allocation needs a static shape "
                             "and the identity layout to be placed in "
                             "dynamic shared memory");
    offset = llvm::alignTo(offset, alignment);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(alloc);
    Value start = arith::ConstantIndexOp::create(b, alloc.getLoc(), offset);
    Value view = memref::ViewOp::create(b, alloc.getLoc(), type, all, start,
                                        ValueRange{});
    for (Operation *user : llvm::make_early_inc_range(alloc->getUsers()))
      if (isa<memref::DeallocOp>(user))
        user->erase();
    alloc.replaceAllUsesWith(view);
    alloc.erase();
    offset += type.getNumElements() * type.getElementTypeBitWidth() / 8;
  }
  b.setInsertionPoint(launch);
  launch.getDynamicSharedMemorySizeMutable().assign(
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), offset));
  return success();
}

struct WorkgroupAllocsToDynamicSharedPass
    : public hidet::impl::WorkgroupAllocsToDynamicSharedBase<
          WorkgroupAllocsToDynamicSharedPass> {
  using Base::Base;
  void runOnOperation() final {
    if (alignment < 16 || !llvm::isPowerOf2_64(alignment)) {
      getOperation().emitError("hidet-workgroup-allocs-to-dynamic-shared: "
                               "alignment must be a power of two of at "
                               "least 16, got ")
          << static_cast<int64_t>(alignment);
      return signalPassFailure();
    }
    WalkResult result = getOperation().walk([&](gpu::LaunchOp launch) {
      return failed(placeAllocations(launch, alignment))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
