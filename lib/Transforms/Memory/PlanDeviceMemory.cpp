//===- PlanDeviceMemory.cpp - Device temporaries in one arena -------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements `hidet-plan-device-memory`: the gpu.alloc temporaries
// of a public host function become views of one workspace argument, at
// offsets chosen by the memory planner from their live ranges.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Analysis/MemoryPlan.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/MathExtras.h"

namespace hidet {
#define GEN_PASS_DEF_PLANDEVICEMEMORY
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;

namespace {

/// The name of the workspace argument's attribute and of the function's
/// summary attribute.
constexpr llvm::StringLiteral kWorkspace = "hidet.workspace";

/// Bytes of one element in memory, or nothing for types the arena does not
/// hold. i1 is a byte, as in the memref lowering.
std::optional<uint64_t> getElementBytes(Type type) {
  if (type.isIndex())
    return 8;
  if (type.isIntOrFloat())
    return (type.getIntOrFloatBitWidth() + 7) / 8;
  return std::nullopt;
}

/// A temporary that can live in the arena, with its live range.
struct Temporary {
  gpu::AllocOp alloc;
  SmallVector<gpu::DeallocOp> deallocs;
  hidet::BufferLiveRange range;
};

/// The position of `op`'s ancestor in `block`, or nothing.
std::optional<int64_t>
positionIn(Block &block, Operation *op,
           const llvm::DenseMap<Operation *, int64_t> &positions) {
  Operation *top = block.findAncestorOpInBlock(*op);
  if (!top)
    return std::nullopt;
  return positions.lookup(top);
}

/// Collects the uses of `alloc`'s buffer into its live range and its
/// deallocs. A value that an op of `block` derives from the buffer (a view,
/// a TMA descriptor, a pointer) carries it: the buffer is live wherever that
/// value is used, e.g. at the launch that reads it through the descriptor
/// only. Fails when a use is outside `block`.
LogicalResult collectUses(Block &block,
                          const llvm::DenseMap<Operation *, int64_t> &positions,
                          Temporary &t) {
  int64_t at = positions.lookup(t.alloc);
  t.range.first = t.range.last = at;
  bool used = false;
  SmallVector<Value> worklist{t.alloc.getMemref()};
  llvm::SmallPtrSet<Operation *, 8> derived;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (auto dealloc = dyn_cast<gpu::DeallocOp>(user)) {
        if (dealloc->getBlock() != &block)
          return failure();
        t.deallocs.push_back(dealloc);
        continue;
      }
      if (user->getBlock() == &block && derived.insert(user).second)
        for (Value result : user->getResults())
          worklist.push_back(result);
      std::optional<int64_t> pos = positionIn(block, user, positions);
      if (!pos)
        return failure();
      t.range.first = used ? std::min(t.range.first, *pos) : *pos;
      t.range.last = used ? std::max(t.range.last, *pos) : *pos;
      used = true;
    }
  }
  return success();
}

struct PlanDeviceMemoryPass
    : hidet::impl::PlanDeviceMemoryBase<PlanDeviceMemoryPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() || func.isPrivate() ||
        func->getParentOfType<gpu::GPUModuleOp>())
      return;
    int64_t align = alignment;
    if (align <= 0 || !llvm::isPowerOf2_64(align)) {
      func.emitError("hidet-plan-device-memory: alignment must be a positive "
                     "power of two; got ")
          << align;
      return signalPassFailure();
    }
    Block &block = func.getBody().front();
    llvm::DenseMap<Operation *, int64_t> positions;
    int64_t position = 0;
    for (Operation &op : block)
      positions[&op] = position++;

    std::vector<Temporary> temporaries;
    for (Operation &op : block) {
      auto alloc = dyn_cast<gpu::AllocOp>(op);
      if (!alloc || alloc.getAsyncToken() ||
          !alloc.getAsyncDependencies().empty() || alloc.getHostShared())
        continue;
      MemRefType type = alloc.getType();
      std::optional<uint64_t> elementBytes =
          getElementBytes(type.getElementType());
      if (!type.hasStaticShape() || !type.getLayout().isIdentity() ||
          type.getMemorySpace() || !elementBytes)
        continue;
      Temporary t;
      t.alloc = alloc;
      t.range.size = *elementBytes * type.getNumElements();
      if (failed(collectUses(block, positions, t)))
        continue;
      temporaries.push_back(std::move(t));
    }
    if (temporaries.empty())
      return;

    std::vector<hidet::BufferLiveRange> ranges;
    for (const Temporary &t : temporaries)
      ranges.push_back(t.range);
    hidet::MemoryPlan plan = hidet::planMemory(ranges, align);

    // The workspace: a new last argument.
    MLIRContext *ctx = &getContext();
    auto workspaceType =
        MemRefType::get({ShapedType::kDynamic}, IntegerType::get(ctx, 8));
    unsigned index = func.getNumArguments();
    if (failed(func.insertArgument(
            index, workspaceType,
            DictionaryAttr::get(
                ctx, {NamedAttribute(StringAttr::get(ctx, kWorkspace),
                                     UnitAttr::get(ctx))}),
            func.getLoc())))
      return signalPassFailure();
    Value workspace = func.getArgument(index);

    OpBuilder b(ctx);
    for (auto [t, offset] : llvm::zip_equal(temporaries, plan.offsets)) {
      b.setInsertionPoint(t.alloc);
      Location loc = t.alloc.getLoc();
      Value at = arith::ConstantIndexOp::create(b, loc, offset);
      Value view = memref::ViewOp::create(b, loc, t.alloc.getType(), workspace,
                                          at, ValueRange{});
      t.alloc.getMemref().replaceAllUsesWith(view);
      for (gpu::DeallocOp dealloc : t.deallocs)
        dealloc->erase();
      t.alloc->erase();
    }
    auto i64 = [&](uint64_t v) {
      return IntegerAttr::get(IntegerType::get(ctx, 64), v);
    };
    func->setAttr(
        kWorkspace,
        DictionaryAttr::get(
            ctx,
            {NamedAttribute(StringAttr::get(ctx, "size"), i64(plan.arenaSize)),
             NamedAttribute(StringAttr::get(ctx, "intermediates"),
                            i64(plan.sumOfSizes)),
             NamedAttribute(StringAttr::get(ctx, "buffers"),
                            i64(temporaries.size()))}));
  }
};

} // namespace
