//===- Buffers.cpp - What fused kernels share through memory --------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#include "Buffers.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

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

bool hidet::fusion::isReshapeOf(Value v, Value buffer) {
  while (v != buffer) {
    Operation *def = v.getDefiningOp();
    if (!isa_and_present<memref::ExpandShapeOp, memref::CollapseShapeOp>(def))
      return false;
    v = def->getOperand(0);
  }
  return true;
}

LogicalResult hidet::fusion::accessedRoots(Operation *op,
                                           SmallVectorImpl<Value> &reads,
                                           SmallVectorImpl<Value> &writes) {
  if (isMemoryEffectFree(op))
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
