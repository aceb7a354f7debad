//===- Prologue.cpp - Index-only prologues folded into anchor reads -------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// A producer P of input X is folded when reading its source S through
//   (S's map in P) o (X's map in P)^-1 o (X's map in the anchor)
// gives what the anchor would have read from X, at the time it reads:
//
// - P writes all of X through a permutation and yields one of its inputs
//   unchanged, read through a projected permutation (a transpose,
//   broadcast or copy; the composed map is then one too, which is all the
//   GEMM matcher needs);
// - X is a temporary that only P, the anchor (or the next producer folded)
//   and deallocations use;
// - nothing between P and the anchor writes S, and the anchor's kernel
//   does not write it either.
//
// Chains fold from the anchor outwards: S may itself be the temporary of
// another producer of the group.
//
// An elementwise producer folds on the same conditions when its payload
// reads one input only (the value at the mapped position): the kernel then
// applies the payload to what it loads.
//
//===----------------------------------------------------------------------===//

#include "Prologue.h"
#include "Buffers.h"

#include "../Utils/KernelBuilder.h"
#include "../Utils/LinalgPayload.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

#include <set>

using namespace mlir;
using namespace hidet;
using namespace hidet::fusion;

/// The input whose element `op`'s payload yields unchanged, if that is all
/// the payload does.
static OpOperand *movedInput(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || !llvm::hasSingleElement(*body))
    return nullptr;
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getNumOperands() != 1)
    return nullptr;
  auto arg = dyn_cast<BlockArgument>(yield.getOperand(0));
  if (!arg || arg.getOwner() != body)
    return nullptr;
  OpOperand *operand = op.getMatchingOpOperand(arg);
  return op.isDpsInput(operand) ? operand : nullptr;
}

/// The one input whose element `op`'s elementwise payload computes from,
/// if the payload reads no other operand.
static OpOperand *computedInput(linalg::LinalgOp op) {
  if (!kernel::hasElementwisePayload(op) ||
      !op.getBlock()->getOps<linalg::IndexOp>().empty())
    return nullptr;
  OpOperand *read = nullptr;
  for (OpOperand &operand : op->getOpOperands()) {
    if (!op.payloadUsesValueFromOperand(&operand))
      continue;
    if (read || !op.isDpsInput(&operand))
      return nullptr;
    read = &operand;
  }
  return read;
}

/// Why the anchor, reading `root` where it runs, would not read what the
/// ops after `from` saw there: an op between them writes it or has unknown
/// effects (`skip`: ops known to write elsewhere). Empty when none does.
static std::string whyWrittenBetween(Operation *from, linalg::LinalgOp anchor,
                                     Value root,
                                     ArrayRef<linalg::LinalgOp> skip) {
  for (Operation *op = from->getNextNode(); op != anchor.getOperation();
       op = op->getNextNode()) {
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (linalgOp && llvm::is_contained(skip, linalgOp))
      continue;
    SmallVector<Value> reads, writes;
    if (failed(accessedRoots(op, reads, writes)))
      return "'" + op->getName().getStringRef().str() +
             "' between it and the anchor has unknown memory effects";
    if (llvm::is_contained(writes, root))
      return "'" + op->getName().getStringRef().str() +
             "' between it and the anchor writes its source";
  }
  return "";
}

/// `map`, which indexes the result of `reshape`, as an index of its source,
/// when every group of the reshape merges at most one dimension of more
/// than one element: that one takes the group's index, the others 0.
static FailureOr<AffineMap> throughUnitCollapse(memref::CollapseShapeOp reshape,
                                                AffineMap map) {
  ArrayRef<int64_t> shape = reshape.getSrcType().getShape();
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> exprs;
  for (auto [group, e] :
       llvm::zip_equal(reshape.getReassociationIndices(), map.getResults())) {
    int64_t wide = -1;
    for (int64_t d : group)
      if (shape[d] != 1) {
        if (wide >= 0)
          return failure();
        wide = d;
      }
    for (int64_t d : group)
      exprs.push_back(d == wide ? e : getAffineConstantExpr(0, ctx));
  }
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), exprs, ctx);
}

namespace {
/// Folds the producers of one input, recording why one is not folded.
struct ReadFolder {
  linalg::LinalgOp anchor;
  StringRef computeWhyNot;
  const llvm::SmallPtrSetImpl<Operation *> &group;
  ArrayRef<Value> writtenRoots;
  llvm::MapVector<Operation *, std::string> &refused;

  /// Folds the producer of `read.buffer`, if there is one to fold; false
  /// when there is none or it cannot be folded.
  bool foldOne(PrologueRead &read) {
    Value x = read.buffer;
    AffineMap map = read.map;
    // A reshape that only drops or adds unit dimensions (a head transpose
    // collapsed to the batch matmul's rank at batch 1) keeps every index:
    // the anchor reads X at 0 along them.
    auto reshape = x.getDefiningOp<memref::CollapseShapeOp>();
    if (reshape && reshape.getSrc().getDefiningOp<memref::AllocOp>()) {
      FailureOr<AffineMap> through = throughUnitCollapse(reshape, map);
      if (failed(through)) {
        for (Operation *user : reshape.getSrc().getUsers())
          if (group.contains(user) && user != reshape)
            refused[user] = "the anchor reads its result through a "
                            "'memref.collapse_shape' that merges "
                            "dimensions of more than one element";
        return false;
      }
      x = reshape.getSrc();
      map = *through;
    }
    if (!x.getDefiningOp<memref::AllocOp>())
      return false;
    Operation *consumer = read.ops.empty() ? anchor.getOperation()
                                           : read.ops.back().getOperation();
    // The producer: the one op of the group that writes X.
    linalg::LinalgOp producer;
    for (Operation *user : x.getUsers())
      if (group.contains(user))
        producer = cast<linalg::LinalgOp>(user);
    if (!producer)
      return false;
    auto refuse = [&](const Twine &why) {
      refused[producer] = why.str();
      return false;
    };
    // The anchor (or the last op folded) reads X, or the reshape of it that
    // it alone reads.
    Operation *reader =
        reshape && x != read.buffer ? reshape.getOperation() : consumer;
    if (reader != consumer)
      for (Operation *user : reshape->getUsers())
        if (user != consumer && !isa<memref::DeallocOp>(user))
          return refuse("its result is also used by '" +
                        user->getName().getStringRef() + "'");
    for (Operation *user : x.getUsers()) {
      if (user == producer || user == reader || isa<memref::DeallocOp>(user))
        continue;
      return refuse("its result is also used by '" +
                    user->getName().getStringRef() + "'");
    }
    if (producer->getBlock() != anchor->getBlock())
      return refuse("it is not in the anchor's block");
    if (producer.getNumDpsInits() != 1 ||
        producer.getDpsInitOperand(0)->get() != x ||
        producer.getNumLoops() != producer.getNumParallelLoops())
      return refuse("it is not an all-parallel op writing the whole input");
    AffineMap outMap =
        producer.getMatchingIndexingMap(producer.getDpsInitOperand(0));
    if (!outMap.isPermutation())
      return refuse("its output is not indexed by a permutation of its loops");
    OpOperand *moved = movedInput(producer);
    bool computes = !moved;
    if (computes) {
      moved = computedInput(producer);
      if (!moved)
        return refuse("it computes each element from more than one input "
                      "element, or not elementwise");
      if (!computeWhyNot.empty())
        return refuse("it computes new values, which " + computeWhyNot);
    }
    AffineMap inMap = producer.getMatchingIndexingMap(moved);
    if (!inMap.isProjectedPermutation(/*allowZeroInResults=*/false))
      return refuse("it reads its source through a map that is not a "
                    "projected permutation");
    Value source = moved->get();
    // The source may be a static slice of a buffer (a third of a fused
    // QKV projection's output): the kernel addresses that buffer.
    auto type = dyn_cast<MemRefType>(source.getType());
    if (!type || !type.hasStaticShape() ||
        !type.getElementType().isIntOrFloat() ||
        (!type.getLayout().isIdentity() && failed(slicedBuffer(source))))
      return refuse("its source is not a static buffer of numbers with the "
                    "identity layout, or a static slice of one");
    Value root = rootOf(source);
    if (llvm::is_contained(writtenRoots, root))
      return refuse("the anchor's kernel writes its source");
    // The anchor now reads the source where it runs, after every op between
    // (but the producers already folded, which write temporaries).
    if (std::string w = whyWrittenBetween(producer, anchor, root, read.ops);
        !w.empty())
      return refuse(w);
    read.map = inMap.compose(inversePermutation(outMap)).compose(map);
    read.buffer = source;
    read.ops.push_back(producer);
    if (computes)
      read.computes.push_back(producer);
    return true;
  }
};
} // namespace

Value PrologueRead::apply(OpBuilder &b, Location loc, Value v) const {
  auto vec = dyn_cast<VectorType>(v.getType());
  int64_t width = vec ? vec.getNumElements() : 1;
  for (linalg::LinalgOp op : llvm::reverse(computes)) {
    // The payload reads one input; the other arguments are never used, so
    // any value stands for them.
    SmallVector<Value> args(op->getNumOperands(), v);
    v = kernel::clonePayload(b, loc, op, args, /*ivs=*/{}, width).front();
  }
  return v;
}

/// The constant `op` writes to all of its output (a fill, or a map of no
/// inputs yielding it), or null.
static TypedAttr filledConstant(Operation *op) {
  Value v;
  if (auto fill = dyn_cast<linalg::FillOp>(op))
    v = fill.getDpsInputOperand(0)->get();
  else if (auto map = dyn_cast<linalg::MapOp>(op);
           map && map.getDpsInputs().empty())
    v = map.getBlock()->getTerminator()->getOperand(0);
  TypedAttr value;
  if (!v || !matchPattern(v, m_Constant(&value)))
    return nullptr;
  return value;
}

/// Bufferization reuses a dead buffer for the next result: after the copy
/// into the padded temporary, `source` (an allocation) is often refilled
/// as the convolution's own output, which then cannot read it. When the
/// first op after `copy` that touches it overwrites it whole (a fill) and
/// nothing deallocates it, its uses from there on get a new allocation
/// instead, and `source` keeps its value.
static bool renameAfter(Operation *copy, Value source) {
  auto alloc = source.getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc->getBlock() != copy->getBlock())
    return false;
  Block *block = copy->getBlock();
  SmallVector<OpOperand *> later;
  Operation *first = nullptr;
  for (OpOperand &use : source.getUses()) {
    Operation *top = block->findAncestorOpInBlock(*use.getOwner());
    if (!top || isa<memref::DeallocOp>(use.getOwner()))
      return false;
    if (!copy->isBeforeInBlock(top))
      continue;
    later.push_back(&use);
    if (!first || top->isBeforeInBlock(first))
      first = top;
  }
  auto fill = dyn_cast_if_present<linalg::FillOp>(first);
  if (!fill || fill.getDpsInitOperand(0)->get() != source)
    return false;
  OpBuilder b(fill);
  Value fresh = cast<memref::AllocOp>(b.clone(*alloc)).getResult();
  for (OpOperand *use : later)
    use->set(fresh);
  return true;
}

/// Folds the constant padding of `read.buffer` into the read: on buffers a
/// tensor.pad is a fill of a temporary X and a copy of the source into a
/// subview of X's interior. The dimensions in `unpadded` may not be padded,
/// and with `zeroOnly` the padding value must be +0.0. Returns false when
/// X is not built that way (nothing to fold), or when it cannot be folded,
/// with `why` set.
static bool foldPad(linalg::LinalgOp anchor, PrologueRead &read,
                    ArrayRef<Value> writtenRoots, ArrayRef<int64_t> unpadded,
                    StringRef unpaddedWhy, bool zeroOnly, std::string &why) {
  Value x = read.buffer;
  if (!x.getDefiningOp<memref::AllocOp>())
    return false;
  Operation *fill = nullptr;
  memref::SubViewOp interior;
  for (Operation *user : x.getUsers()) {
    if (user == anchor.getOperation() || isa<memref::DeallocOp>(user))
      continue;
    if (auto sv = dyn_cast<memref::SubViewOp>(user); sv && !interior)
      interior = sv;
    else if (isa<linalg::FillOp, linalg::MapOp>(user) && !fill)
      fill = user;
    else
      return false;
  }
  if (!fill || !interior || !interior.getResult().hasOneUse())
    return false;
  auto copy = dyn_cast<linalg::LinalgOp>(*interior->getUsers().begin());
  if (!copy || copy.getNumDpsInputs() != 1 || copy.getNumDpsInits() != 1 ||
      !movedInput(copy) || !copy.hasPureBufferSemantics() ||
      llvm::any_of(copy.getIndexingMapsArray(),
                   [](AffineMap m) { return !m.isIdentity(); }))
    return false;
  Block *block = anchor->getBlock();
  if (fill->getBlock() != block || copy->getBlock() != block ||
      !fill->isBeforeInBlock(copy) || !copy->isBeforeInBlock(anchor))
    return false;
  // From here on the ops are a pad: say why one does not fold.
  auto refuse = [&](const Twine &w) {
    why = w.str();
    return false;
  };
  TypedAttr value = filledConstant(fill);
  if (!value)
    return refuse("its padding value is not a constant");
  if (zeroOnly && !matchPattern(value, m_PosZeroFloat()))
    return refuse("its padding value is not +0.0 (the template fills zeros "
                  "past the input's edges)");
  Value source = copy.getDpsInputOperand(0)->get();
  auto type = dyn_cast<MemRefType>(source.getType());
  if (!type || !type.hasStaticShape() || !type.getLayout().isIdentity())
    return refuse("its source is not a static buffer with the identity "
                  "layout");
  if (!interior.hasUnitStride() ||
      ShapedType::isDynamicShape(interior.getStaticOffsets()) ||
      interior.getStaticSizes() != type.getShape())
    return refuse("the source is not copied whole to a static window");
  SmallVector<int64_t> low(interior.getStaticOffsets());
  auto xType = cast<MemRefType>(x.getType());
  for (int64_t d : unpadded)
    if (low[d] != 0 || xType.getDimSize(d) != type.getDimSize(d))
      return refuse(unpaddedWhy);
  Value root = rootOf(source);
  if (llvm::is_contained(writtenRoots, root) && !renameAfter(copy, source))
    return refuse("the anchor's kernel writes its source");
  if (std::string w = whyWrittenBetween(copy, anchor, root, {}); !w.empty())
    return refuse(w);
  read.buffer = source;
  read.padLow = low;
  read.padValue = value;
  read.padOps = {copy, interior, fill};
  return true;
}

Prologue Prologue::match(linalg::LinalgOp anchor, ArrayRef<Value> kernelWrites,
                         StringRef computeWhyNot, bool im2col, bool remarks) {
  StringRef refuse =
      im2col ? "the convolution template reads its input through im2col "
               "addressing, which only a zero padding folds into yet"
             : "";
  Prologue p;
  SmallVector<Operation *> candidates =
      groupMembers(anchor, FusionRole::prologue);
  llvm::SmallPtrSet<Operation *, 8> group;
  for (Operation *op : candidates)
    if (isa<linalg::LinalgOp>(op) &&
        cast<linalg::LinalgOp>(op).hasPureBufferSemantics())
      group.insert(op);
  SmallVector<Value> writtenRoots;
  for (Value v : kernelWrites)
    writtenRoots.push_back(rootOf(v));
  llvm::MapVector<Operation *, std::string> refused;
  ReadFolder folder{anchor, computeWhyNot, group, writtenRoots, refused};
  for (OpOperand *in : anchor.getDpsInputOperands()) {
    PrologueRead read{
        in->get(), anchor.getMatchingIndexingMap(in), {}, {}, {}, {}, {}};
    if (!im2col) {
      while (folder.foldOne(read)) {
      }
    } else if (in->getOperandNumber() == 0) {
      // NHWC or NCHW: the channels are the last or second dimension.
      int64_t channelDim = isa<linalg::Conv2DNhwcHwcfOp>(anchor) ? 3 : 1;
      std::string why;
      if (!foldPad(anchor, read, writtenRoots, {0, channelDim},
                   "it pads the images or channels, not only rows and "
                   "columns",
                   /*zeroOnly=*/true, why) &&
          !why.empty() && remarks)
        anchor->emitRemark("the zero padding of the input stays a separate "
                           "copy: ")
            << why;
    }
    p.reads.push_back(std::move(read));
  }
  // Remarks for the rest of the group, but the fills of the anchor's
  // output (its initial value, which the templates fold or read).
  if (!remarks)
    return p;
  llvm::SmallPtrSet<Operation *, 8> folded;
  for (Operation *op : p.ops())
    folded.insert(op);
  SmallVector<Value> outRoots;
  for (OpOperand &init : anchor.getDpsInitsMutable())
    outRoots.push_back(rootOf(init.get()));
  for (Operation *op : candidates) {
    if (folded.contains(op))
      continue;
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.hasPureBufferSemantics() &&
        llvm::is_contained(outRoots, rootOf(fill.getDpsInitOperand(0)->get())))
      continue;
    std::string why = !refuse.empty() ? refuse.str()
                      : refused.count(op)
                          ? refused[op]
                          : std::string("it does not produce an input of the "
                                        "anchor through folded ops only");
    remarkNotFused(op, anchor, why);
  }
  return p;
}

Prologue
Prologue::matchPaddings(linalg::LinalgOp anchor, ArrayRef<Value> kernelWrites,
                        function_ref<SmallVector<int64_t>(unsigned)> unpadded) {
  Prologue p;
  SmallVector<Value> writtenRoots;
  for (Value v : kernelWrites)
    writtenRoots.push_back(rootOf(v));
  for (OpOperand *in : anchor.getDpsInputOperands()) {
    PrologueRead read{
        in->get(), anchor.getMatchingIndexingMap(in), {}, {}, {}, {}, {}};
    std::string why;
    if (isa<MemRefType>(in->get().getType()) &&
        !foldPad(anchor, read, writtenRoots, unpadded(in->getOperandNumber()),
                 "it pads the dimension the kernel reads as vectors",
                 /*zeroOnly=*/false, why) &&
        !why.empty())
      anchor->emitRemark("the padding of input ")
          << in->getOperandNumber() << " stays a separate copy: " << why;
    p.reads.push_back(std::move(read));
  }
  return p;
}

Value PrologueRead::loadPadded(OpBuilder &b, Location loc, ValueRange index,
                               int64_t width) const {
  auto type = cast<MemRefType>(buffer.getType());
  Type elt = type.getElementType();
  Type result = width > 1 ? Type(VectorType::get({width}, elt)) : elt;
  auto load = [&](ValueRange at) -> Value {
    if (width == 1)
      return memref::LoadOp::create(b, loc, buffer, at);
    return vector::LoadOp::create(b, loc, cast<VectorType>(result), buffer, at,
                                  /*nontemporal=*/false,
                                  kernel::vectorAlign(elt, width));
  };
  if (padLow.empty())
    return load(index);
  // Positions past the edges read element 0 of the dimension (a load that
  // is always in bounds) and take the padding value instead.
  auto padded = cast<MemRefType>(
      cast<memref::SubViewOp>(padOps[1]).getSource().getType());
  Value inside;
  SmallVector<Value> at;
  Value zero = kernel::cst(b, loc, 0);
  for (auto [d, i] : llvm::enumerate(index)) {
    if (padLow[d] == 0 && type.getDimSize(d) == padded.getDimSize(d)) {
      at.push_back(i);
      continue;
    }
    Value shifted =
        arith::SubIOp::create(b, loc, i, kernel::cst(b, loc, padLow[d]));
    // Unsigned: a position before the source wraps past its end.
    Value ok = kernel::lessThan(b, loc, shifted, type.getDimSize(d));
    inside =
        inside ? arith::AndIOp::create(b, loc, inside, ok).getResult() : ok;
    at.push_back(arith::SelectOp::create(b, loc, ok, shifted, zero));
  }
  Value v = load(at);
  if (!inside)
    return v;
  Value pad = arith::ConstantOp::create(b, loc, padValue);
  if (width > 1)
    pad = vector::BroadcastOp::create(b, loc, result, pad);
  return arith::SelectOp::create(b, loc, inside, v, pad);
}

bool Prologue::empty() const {
  return llvm::all_of(reads, [](const PrologueRead &r) {
    return r.ops.empty() && r.padOps.empty();
  });
}

SmallVector<Operation *> Prologue::ops() const {
  // A producer read as both A and B is folded into both reads.
  llvm::SetVector<Operation *> ops;
  for (const PrologueRead &r : reads) {
    for (linalg::LinalgOp op : r.ops)
      ops.insert(op.getOperation());
    ops.insert(r.padOps.begin(), r.padOps.end());
  }
  return ops.takeVector();
}

SmallVector<std::string> Prologue::kinds() const {
  std::set<std::string> kinds;
  for (const PrologueRead &r : reads) {
    if (!r.padOps.empty())
      kinds.insert("pad");
    for (linalg::LinalgOp op : r.ops)
      kinds.insert(llvm::is_contained(r.computes, op) ? "elementwise"
                                                       : "layout");
  }
  return {kinds.begin(), kinds.end()};
}

void Prologue::erase() {
  llvm::SetVector<Value> temporaries;
  llvm::SetVector<Operation *> erased;
  for (PrologueRead &r : reads) {
    for (linalg::LinalgOp op : r.ops) {
      temporaries.insert(op.getDpsInitOperand(0)->get());
      erased.insert(op.getOperation());
    }
    r.ops.clear();
    r.computes.clear();
    if (!r.padOps.empty())
      temporaries.insert(
          cast<DestinationStyleOpInterface>(r.padOps.back()).getDpsInits()[0]);
    erased.insert(r.padOps.begin(), r.padOps.end());
    r.padOps.clear();
  }
  // On buffers the ops define no values: any order will do.
  for (Operation *op : erased)
    op->erase();
  for (Value t : temporaries)
    eraseIfUnused(t);
}
