//===- Buffers.cpp - What fused kernels share through memory --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "mlir/Transforms/RegionUtils.h"

using namespace mlir;

SmallVector<Operation *> hidet::fusion::groupMembers(Operation *anchor,
                                                     FusionRole role) {
  auto fusion = anchor->getAttrOfType<FusionAttr>(kFusionAttrName);
  SmallVector<Operation *> ops;
  if (!fusion || fusion.getRole() != FusionRole::anchor)
    return ops;
  bool after = false;
  for (Operation &op : *anchor->getBlock()) {
    if (&op == anchor) {
      after = true;
      continue;
    }
    if (after != (role == FusionRole::epilogue))
      continue;
    auto f = op.getAttrOfType<FusionAttr>(kFusionAttrName);
    if (f && f.getGroup() == fusion.getGroup() && f.getRole() == role)
      ops.push_back(&op);
  }
  return ops;
}

void hidet::fusion::remarkNotFused(Operation *op, Operation *anchor,
                                   const Twine &why) {
  op->emitRemark("not fused into the kernel of ")
      << anchor->getName() << " (a separate kernel instead): " << why;
}

Value hidet::fusion::rootOf(Value buffer) {
  while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
    buffer = view.getViewSource();
  return buffer;
}

FailureOr<std::pair<Value, std::pair<SmallVector<int64_t>, int64_t>>>
hidet::fusion::slicedBuffer(Value v) {
  auto type = cast<MemRefType>(v.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || ShapedType::isDynamicShape(strides))
    return failure();
  Value base = v;
  while (Operation *def = base.getDefiningOp()) {
    if (auto subview = dyn_cast<memref::SubViewOp>(def))
      base = subview.getSource();
    else if (auto collapse = dyn_cast<memref::CollapseShapeOp>(def))
      base = collapse.getSrc();
    else if (auto expand = dyn_cast<memref::ExpandShapeOp>(def))
      base = expand.getSrc();
    else
      break;
  }
  auto baseType = cast<MemRefType>(base.getType());
  if (!baseType.getLayout().isIdentity() || !baseType.hasStaticShape())
    return failure();
  return std::make_pair(base, std::make_pair(strides, offset));
}

bool hidet::fusion::isReshapeOf(Value v, Value buffer) {
  while (v != buffer) {
    Operation *def = v.getDefiningOp();
    if (!isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return true;
}

/// The buffers `v` is computed from: itself, or through the ops that made
/// it (a TMA descriptor's address as an integer); failure for values that
/// come from elsewhere (function arguments other than buffers, results of
/// ops with memory effects).
static LogicalResult sourceBuffers(Value v, SmallVectorImpl<Value> &roots) {
  SmallVector<Value> worklist{v};
  llvm::SmallPtrSet<Value, 8> seen;
  while (!worklist.empty()) {
    Value x = worklist.pop_back_val();
    if (!seen.insert(x).second)
      continue;
    if (isa<BaseMemRefType>(x.getType())) {
      roots.push_back(hidet::fusion::rootOf(x));
      continue;
    }
    Operation *def = x.getDefiningOp();
    if (!def)
      return failure();
    if (!isMemoryEffectFree(def) && !isa<nvgpu::TmaCreateDescriptorOp>(def))
      return failure();
    llvm::append_range(worklist, def->getOperands());
  }
  return success();
}

/// Whether `v` is a buffer in global memory (no address space, or the
/// GPU's global one).
static bool isGlobalBuffer(Value v) {
  auto type = dyn_cast<BaseMemRefType>(v.getType());
  if (!type)
    return false;
  auto space = dyn_cast_or_null<gpu::AddressSpaceAttr>(type.getMemorySpace());
  return !type.getMemorySpace() ||
         (space && space.getValue() == gpu::AddressSpace::Global);
}

/// A kernel already built (an earlier anchor's, with its fused ops) may read
/// every buffer it uses, directly or through values made from them (TMA
/// descriptors); it writes the global buffers its ops' write effects name.
/// Ops without effects that take a global buffer or a TMA descriptor other
/// than to load from it make the kernel's effects unknown.
static LogicalResult launchRoots(gpu::LaunchOp launch,
                                 SmallVectorImpl<Value> &reads,
                                 SmallVectorImpl<Value> &writes) {
  SetVector<Value> captured;
  getUsedValuesDefinedAbove(launch.getBody(), captured);
  for (Value v : captured)
    if (failed(sourceBuffers(v, reads)))
      return failure();
  WalkResult walk = launch.getBody().walk([&](Operation *inner) {
    if (isMemoryEffectFree(inner))
      return WalkResult::advance();
    bool global = llvm::any_of(inner->getOperands(), isGlobalBuffer);
    auto iface = dyn_cast<MemoryEffectOpInterface>(inner);
    if (!iface) {
      bool descriptor = llvm::any_of(inner->getOperandTypes(), [](Type t) {
        return isa<nvgpu::TensorMapDescriptorType>(t);
      });
      if (global || (descriptor &&
                     !isa<nvgpu::TmaAsyncLoadOp, nvgpu::TmaPrefetchOp>(inner)))
        return WalkResult::interrupt();
      return WalkResult::advance();
    }
    SmallVector<MemoryEffects::EffectInstance> effects;
    iface.getEffects(effects);
    for (const MemoryEffects::EffectInstance &e : effects) {
      if (!isa<MemoryEffects::Write>(e.getEffect()))
        continue;
      Value v = e.getValue();
      if (!v) {
        if (global)
          return WalkResult::interrupt();
        continue;
      }
      // A store through a pointer into global (or generic) memory writes
      // where no buffer says.
      if (auto ptr = dyn_cast<LLVM::LLVMPointerType>(v.getType());
          ptr && ptr.getAddressSpace() != 3)
        return WalkResult::interrupt();
      if (!isGlobalBuffer(v))
        continue;
      Value root = hidet::fusion::rootOf(v);
      if (!launch.getBody().isAncestor(root.getParentRegion()))
        writes.push_back(root);
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult hidet::fusion::accessedRoots(Operation *op,
                                           SmallVectorImpl<Value> &reads,
                                           SmallVectorImpl<Value> &writes) {
  if (auto launch = dyn_cast<gpu::LaunchOp>(op))
    return launchRoots(launch, reads, writes);
  // A TMA descriptor is encoded on the host from the buffer's address and
  // shape; no element is read (the kernels that use it read them).
  if (isMemoryEffectFree(op) || isa<nvgpu::TmaCreateDescriptorOp>(op))
    return success();
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return failure();
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  for (const MemoryEffects::EffectInstance &e : effects) {
    if (isa<MemoryEffects::Allocate>(e.getEffect()))
      continue;
    Value v = e.getValue();
    if (!v || !isa<MemRefType>(v.getType()))
      return failure();
    (isa<MemoryEffects::Read>(e.getEffect()) ? reads : writes)
        .push_back(rootOf(v));
  }
  return success();
}

linalg::FillOp hidet::fusion::fillBefore(Operation *anchor, Value out,
                                         ValueRange reads) {
  auto fill = dyn_cast_if_present<linalg::FillOp>(anchor->getPrevNode());
  if (!fill || !fill.hasPureBufferSemantics() ||
      fill.getDpsInitOperand(0)->get() != out || llvm::is_contained(reads, out))
    return nullptr;
  return fill;
}

void hidet::fusion::eraseIfUnused(Value root) {
  auto alloc = root.getDefiningOp<memref::AllocOp>();
  if (!alloc)
    return;
  SmallVector<Operation *> users;
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
        if (!user->getResult(0).use_empty() &&
            llvm::any_of(user->getResult(0).getUsers(), [](Operation *u) {
              return !isa<memref::ExpandShapeOp, memref::CollapseShapeOp,
                          memref::DeallocOp>(u);
            }))
          return;
        worklist.push_back(user->getResult(0));
      } else if (!isa<memref::DeallocOp>(user)) {
        return;
      }
      users.push_back(user);
    }
  }
  // Views before what they view: erase users last-created first.
  for (Operation *user : llvm::reverse(users))
    user->erase();
  alloc->erase();
}
