//===- Partition.cpp - Fusion groups around anchor ops --------------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// This file implements Hidet's partition (its fuse_operator pass, ASPLOS'23
// section 3.3) over FusibleOpInterface, and `hidet-partition`, which writes
// the groups on the ops as #hidet.fusion attributes.
//
//===----------------------------------------------------------------------===//

#include "Hidet/Transforms/Partition.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"
#include "Hidet/Interfaces/FusibleOpInterface.h"
#include "Hidet/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"

namespace hidet {
#define GEN_PASS_DEF_PARTITION
#include "Hidet/Transforms/Passes.h.inc"
} // namespace hidet

using namespace mlir;
using namespace hidet;

Operation *FusionGroup::last() const {
  Operation *last = anchor;
  for (Operation *op : llvm::concat<Operation *const>(prologue, epilogue))
    if (last->isBeforeInBlock(op))
      last = op;
  return last;
}

namespace {
/// The partition's state: which group each op is in, and each group's
/// members.
class Partitioner {
public:
  Partitioner(Block &block, bool prologueTransposes)
      : prologueTransposes(prologueTransposes) {
    // Ops on buffers communicate through memory, not SSA values, which
    // the rules follow: they belong to no group.
    auto onBuffers = [](Operation &op) {
      return llvm::any_of(op.getOperandTypes(), llvm::IsaPred<MemRefType>);
    };
    for (Operation &op : block)
      if (isa<FusibleOpInterface>(op) && !onBuffers(op))
        ops.push_back(&op);
  }

  SmallVector<FusionGroup> run() {
    // Anchors: the non-injective ops.
    for (Operation *op : ops)
      if (!cast<FusibleOpInterface>(op).isInjective())
        newGroup(op);
    size_t anchors = groups.size();
    for (size_t g = 0; g < anchors; ++g)
      growEpilogue(g);
    for (size_t g = 0; g < anchors; ++g)
      growPrologue(g);
    // Leftover injective ops, last first: each anchors a group that pulls
    // in its producers.
    for (Operation *op : llvm::reverse(ops))
      if (!groupOf.count(op))
        growPrologue(newGroup(op));
    for (FusionGroup &g : groups) {
      auto inBlockOrder = [](Operation *a, Operation *b) {
        return a->isBeforeInBlock(b);
      };
      llvm::sort(g.prologue, inBlockOrder);
      llvm::sort(g.epilogue, inBlockOrder);
    }
    // Distinct groups end at distinct ops: the order is strict.
    llvm::sort(groups, [](const FusionGroup &a, const FusionGroup &b) {
      return a.last()->isBeforeInBlock(b.last());
    });
    return std::move(groups);
  }

private:
  size_t newGroup(Operation *anchor) {
    groups.push_back(FusionGroup{anchor, {}, {}});
    groupOf[anchor] = groups.size() - 1;
    return groups.size() - 1;
  }

  bool assigned(Operation *op) const { return groupOf.count(op); }
  bool inGroup(Operation *op, size_t g) const {
    auto it = groupOf.find(op);
    return it != groupOf.end() && it->second == g;
  }

  /// Whether `op` is a transpose that `prologueTransposes` leaves to its
  /// consumer: it moves the innermost dimension, into an output whose rows
  /// are not a multiple of 16 bytes (the widest copy, cp.async's and TMA's
  /// alignment), and its one use is an input of a contraction. As an
  /// epilogue its stores would scatter (or, for a large output, it would
  /// become a transpose kernel whose rows have an unaligned pitch, which the
  /// contraction then reads element by element); as the contraction's
  /// prologue it is read in place, along the source's contiguous dimension.
  bool leftToConsumer(Operation *op) const {
    static constexpr int64_t kCopyBytes = 16;
    auto transpose = dyn_cast<linalg::TransposeOp>(op);
    if (!prologueTransposes || !transpose)
      return false;
    ArrayRef<int64_t> perm = transpose.getPermutation();
    auto out = cast<ShapedType>(transpose->getResult(0).getType());
    if (perm.empty() || perm.back() == static_cast<int64_t>(perm.size()) - 1 ||
        !out.hasStaticShape() || !out.getElementType().isIntOrFloat())
      return false;
    int64_t rowBits = out.getShape().back() * out.getElementTypeBitWidth();
    if (rowBits % (8 * kCopyBytes) == 0)
      return false;
    Value result = transpose->getResult(0);
    if (!result.hasOneUse())
      return false;
    auto consumer = dyn_cast<linalg::LinalgOp>(*result.getUsers().begin());
    return consumer && linalg::isaContractionOpInterface(consumer) &&
           consumer.isDpsInput(&*result.getUses().begin());
  }

  /// Hidet's epilogue rule: a group output with one use, by an unassigned
  /// op bijective with respect to it that reads no other group output.
  void growEpilogue(size_t g) {
    llvm::SetVector<Value> outputs;
    for (Value v : groups[g].anchor->getResults())
      outputs.insert(v);
    bool changed = true;
    while (changed) {
      changed = false;
      for (Value out : outputs) {
        if (!out.hasOneUse())
          continue;
        OpOperand &use = *out.getUses().begin();
        Operation *user = use.getOwner();
        auto fusible = dyn_cast<FusibleOpInterface>(user);
        if (!fusible || assigned(user) || !fusible.isInjective() ||
            failed(fusible.getInverseIndexMap(use)) || leftToConsumer(user))
          continue;
        if (llvm::any_of(user->getOpOperands(), [&](OpOperand &other) {
              return &other != &use && outputs.contains(other.get());
            }))
          continue;
        groups[g].epilogue.push_back(user);
        groupOf[user] = g;
        outputs.remove(out);
        for (Value r : user->getResults())
          outputs.insert(r);
        changed = true;
        break;
      }
    }
  }

  /// Hidet's prologue rule: a group input produced by an unassigned
  /// injective op all of whose results are used only inside the group.
  void growPrologue(size_t g) {
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<Operation *> members = {groups[g].anchor};
      llvm::append_range(members, groups[g].prologue);
      llvm::append_range(members, groups[g].epilogue);
      for (Operation *member : members) {
        for (Value in : member->getOperands()) {
          Operation *producer = in.getDefiningOp();
          auto fusible = dyn_cast_or_null<FusibleOpInterface>(producer);
          if (!fusible || assigned(producer) || !fusible.isInjective())
            continue;
          bool usedInside =
              llvm::all_of(producer->getUsers(),
                           [&](Operation *u) { return inGroup(u, g); });
          if (!usedInside)
            continue;
          groups[g].prologue.push_back(producer);
          groupOf[producer] = g;
          changed = true;
        }
      }
    }
  }

  bool prologueTransposes;
  SmallVector<Operation *> ops;
  SmallVector<FusionGroup> groups;
  llvm::DenseMap<Operation *, size_t> groupOf;
};
} // namespace

SmallVector<FusionGroup> hidet::partitionFusionGroups(Block &block,
                                                      bool prologueTransposes) {
  return Partitioner(block, prologueTransposes).run();
}

namespace {
struct PartitionPass : public hidet::impl::PartitionBase<PartitionPass> {
  using PartitionBase::PartitionBase;

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    MLIRContext *ctx = &getContext();
    SmallVector<FusionGroup> groups =
        partitionFusionGroups(func.front(), prologueTransposes);
    for (int64_t id = 0, e = groups.size(); id < e; ++id) {
      const FusionGroup &g = groups[id];
      auto mark = [&](Operation *op, FusionRole role) {
        op->setAttr(kFusionAttrName, FusionAttr::get(ctx, id, role));
      };
      mark(g.anchor, FusionRole::anchor);
      for (Operation *op : g.prologue)
        mark(op, FusionRole::prologue);
      for (Operation *op : g.epilogue)
        mark(op, FusionRole::epilogue);
      if (remarks)
        g.anchor->emitRemark()
            << "fusion group " << id << ": " << g.prologue.size()
            << " prologue op(s), " << g.epilogue.size() << " epilogue op(s)";
    }
  }
};
} // namespace
