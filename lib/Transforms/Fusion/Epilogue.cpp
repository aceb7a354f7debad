//===- Epilogue.cpp - Epilogue chains fused into anchor kernels -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The partition decided on tensors which ops may fuse; on buffers the
// values live in memory, so each op of the chain is checked again against
// what now shares memory with it: the fused kernel runs where the chain's
// last op was, reads the anchor's operands and the side inputs there, and
// writes only the chain's final buffer. An op is taken when that computes
// what the separate kernels would have:
//
// - it reads the previous value at one position through a permutation
//   (an inverse index map exists) and writes through a permutation;
// - no op between the anchor and it touches the buffers the chain writes
//   or skips, or writes a buffer the fused kernel reads;
// - the buffers whose values are no longer written (the anchor's, and the
//   intermediate ones) are temporaries nothing else reads;
// - it does not write a buffer the kernel reads, except the element it
//   reads in place;
// - it keeps the innermost dimension innermost: a chain that transposes it
//   would store element by element, far apart.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "Buffers.h"

#include "../Utils/KernelBuilder.h"
#include "../Utils/LinalgPayload.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

#include <numeric>
#include <set>

using namespace mlir;
using namespace hidet;
using namespace hidet::fusion;
using hidet::kernel::cst;

/// Whether the payload of `op` reads the block argument of `operand`.
static bool readsOperand(linalg::LinalgOp op, OpOperand &operand) {
  return op.payloadUsesValueFromOperand(&operand);
}

/// Largest power of two up to 16 that divides the innermost extent of
/// `buffer`.
static int64_t innermostPow2(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  if (type.getRank() == 0)
    return 1;
  int64_t extent = type.getShape().back();
  int64_t w = 16;
  while (w > 1 && extent % w != 0)
    w /= 2;
  return w;
}

Epilogue Epilogue::match(Operation *anchor, Value anchorOut,
                         ArrayRef<Value> kernelReads,
                         int64_t scatterMaxBytes) {
  Epilogue e;
  e.anchorOut = anchorOut;
  SmallVector<Operation *> candidates =
      groupMembers(anchor, FusionRole::epilogue);
  llvm::SmallPtrSet<Operation *, 8> inChain;
  SmallVector<Value> anchorReads; // roots the anchor reads
  for (Value v : kernelReads)
    anchorReads.push_back(rootOf(v));
  // Roots the fused kernel reads: the anchor's and the side inputs taken,
  // each with the op that read it.
  SmallVector<Value> reads(anchorReads);
  SmallVector<std::pair<Operation *, Value>> stepReads;
  Value cur = anchorOut;
  bool preserving = true;
  int64_t width = innermostPow2(anchorOut);
  auto outType = cast<MemRefType>(anchorOut.getType());
  bool smallOut =
      outType.hasStaticShape() &&
      outType.getNumElements() *
              ((outType.getElementTypeBitWidth() + 7) / 8) <=
          scatterMaxBytes;
  // Whether a step moves the innermost dimension: the chain then stores
  // scalars.
  bool scattered = false;
  // Buffers whose chain values are computed but, past the last op taken,
  // no longer stored.
  SmallVector<Value> chainBuffers{rootOf(anchorOut)};

  auto reject = [&](Operation *op, const Twine &why) {
    remarkNotFused(op, anchor, why);
  };

  for (auto [pos, candidate] : llvm::enumerate(candidates)) {
    auto op = dyn_cast<linalg::LinalgOp>(candidate);
    std::string why;
    auto fail = [&](const Twine &w) {
      why = w.str();
      return false;
    };
    EpilogueStep step;
    SmallVector<Value> sideReads;
    auto check = [&]() -> bool {
      if (!op)
        return fail("it is not a linalg op");
      if (!op.hasPureBufferSemantics())
        return fail("it works on tensors");
      if (op.getNumDpsInits() != 1 ||
          op.getNumLoops() != op.getNumParallelLoops())
        return fail("it is not an all-parallel op with one output");
      if (failed(kernel::getStaticRanges(op)))
        return fail("its shape is dynamic");
      OpOperand *init = op.getDpsInitOperand(0);
      AffineMap outMap = op.getMatchingIndexingMap(init);
      if (!outMap.isPermutation())
        return fail("its output is not indexed by a permutation of its loops");
      AffineMap chainMap;
      for (OpOperand *in : op.getDpsInputOperands()) {
        if (!isReshapeOf(in->get(), cur))
          continue;
        AffineMap map = op.getMatchingIndexingMap(in);
        if (chainMap && map != chainMap)
          return fail("it reads the previous value at two positions");
        if (!map.isPermutation())
          return fail("it reads the previous value through a map that is "
                      "not a permutation (no inverse index map)");
        chainMap = map;
        step.in = in->get();
        step.chainOperands.push_back(in);
      }
      if (!chainMap)
        return fail("it does not read the previous op's value in full");
      if (readsOperand(op, *init)) {
        if (init->get() == step.in && outMap == chainMap)
          step.chainOperands.push_back(init);
        else if (isReshapeOf(init->get(), cur))
          return fail("it reads the previous value at two positions");
      }
      // A step that moves the innermost dimension elsewhere makes the
      // kernel store C's rows element by element, far apart (a K^T of
      // attention); unless C is small, a transpose kernel of its own
      // writes them coalesced.
      auto in = cast<MemRefType>(step.in.getType());
      auto stepOut = cast<MemRefType>(init->get().getType());
      if (in.getRank() > 0 && stepOut.getRank() > 0 &&
          in.getShape().back() > 1 && stepOut.getShape().back() > 1 &&
          chainMap.getResults().back() != outMap.getResults().back()) {
        if (!smallOut)
          return fail("it moves the innermost dimension (a separate "
                      "transpose stores it coalesced)");
        scattered = true;
      }
      step.op = op;
      step.loopsFromIn = inversePermutation(chainMap);
      Value out = rootOf(init->get());
      // Side inputs: not a buffer of the chain (their values are not in
      // memory any more) nor the output (other threads write it), except an
      // in-place read of the element being written.
      for (OpOperand &operand : op->getOpOperands()) {
        if (llvm::is_contained(step.chainOperands, &operand) ||
            (&operand == init && !readsOperand(op, operand)))
          continue;
        Value root = rootOf(operand.get());
        // The output itself, or an input that is the output's buffer read
        // at the element being written (bufferized in place).
        bool inPlace =
            &operand == init || (operand.get() == init->get() &&
                                 op.getMatchingIndexingMap(&operand) == outMap);
        if (llvm::is_contained(chainBuffers, root) && !inPlace)
          return fail("a side input is a buffer of the chain");
        if (root == out && !inPlace)
          return fail("it reads the buffer it writes at another position");
        sideReads.push_back(root);
      }
      // The kernel's own operands: the fused kernel writes `out` while
      // other blocks read them.
      if (llvm::is_contained(reads, out))
        return fail("it writes a buffer the anchor's kernel reads");
      // The same map in and out: the output has the input's shape, and
      // every element keeps its offset.
      if (chainMap != outMap)
        preserving = false;
      // The kernel may read the anchor's output (its initial value), each
      // element in the thread that stores it: a write in place must go to
      // the same element.
      if (out == rootOf(anchorOut) && !preserving)
        return fail("it writes the anchor's output at other positions");
      return true;
    };
    bool ok = check();
    // The buffers left unwritten once this op writes the chain's value.
    Value out = ok ? rootOf(op.getDpsInitOperand(0)->get()) : Value();
    if (ok) {
      for (Value root : chainBuffers) {
        if (root == out)
          continue;
        if (!root.getDefiningOp<memref::AllocOp>()) {
          ok = fail("the value before it is stored to a buffer the function "
                    "does not own");
          break;
        }
        SmallVector<Value> worklist{root};
        while (ok && !worklist.empty()) {
          Value v = worklist.pop_back_val();
          for (Operation *user : v.getUsers()) {
            if (isa<memref::ExpandShapeOp, memref::CollapseShapeOp>(user)) {
              worklist.push_back(user->getResult(0));
              continue;
            }
            // Users before the anchor (its initial value's producers, maybe
            // already kernels) are done with it when the kernel runs.
            Operation *top = anchor->getBlock()->findAncestorOpInBlock(*user);
            bool before = top && top->isBeforeInBlock(anchor);
            if (before || user == anchor || user == candidate ||
                inChain.contains(user) || isa<memref::DeallocOp>(user))
              continue;
            ok = fail("the value before it is also read by '" +
                      user->getName().getStringRef() + "'");
            break;
          }
        }
        if (!ok)
          break;
      }
    }
    // Ops between the anchor and this one, now run before the fused kernel.
    if (ok) {
      SmallVector<Value> written(chainBuffers);
      written.push_back(out);
      for (Operation *x = anchor->getNextNode(); x != candidate;
           x = x->getNextNode()) {
        if (inChain.contains(x))
          continue;
        SmallVector<Value> xr, xw;
        if (failed(accessedRoots(x, xr, xw))) {
          ok = fail("'" + x->getName().getStringRef() +
                    "' between the anchor and it has unknown memory effects");
          break;
        }
        auto touches = [&](ArrayRef<Value> roots, ArrayRef<Value> set) {
          return llvm::any_of(
              roots, [&](Value r) { return llvm::is_contained(set, r); });
        };
        // The anchor's operands are now read after `x`, and so are the
        // side inputs of the ops taken before `x` (those of later ops
        // already were).
        bool writesLaterRead = llvm::any_of(stepReads, [&](auto &read) {
          return read.first->isBeforeInBlock(x) &&
                 llvm::is_contained(xw, read.second);
        });
        if (touches(xr, written) || touches(xw, written) ||
            touches(xw, anchorReads) || writesLaterRead) {
          ok = fail("'" + x->getName().getStringRef() +
                    "' between the anchor and it accesses the same buffers");
          break;
        }
      }
    }
    if (!ok) {
      reject(candidate, why);
      for (Operation *rest :
           ArrayRef<Operation *>(candidates).drop_front(pos + 1))
        reject(rest, "an earlier op of its chain is not fused");
      break;
    }
    // Vectors of consecutive elements stay consecutive through the chain:
    // every op keeps the innermost dimension innermost (checked above), and
    // every buffer's rows hold whole vectors, so that a vector starting at
    // a multiple of its width never crosses a row of a reshape.
    width = std::min({width, innermostPow2(step.in),
                      innermostPow2(op.getDpsInitOperand(0)->get())});
    // Side inputs of booleans (a causal mask) are loaded element by element
    // into vectors (a vector of i1 is not bytes in memory); the chain's
    // values and the output must be vectorizable.
    if (!kernel::hasElementwisePayload(op) ||
        !op.getBlock()->getOps<linalg::IndexOp>().empty() ||
        !llvm::all_of(op->getOpOperands(), [&](OpOperand &operand) {
          Type t = getElementTypeOrSelf(operand.get().getType());
          return kernel::isVectorizableElement(t) ||
                 (t.isInteger(1) && op.isDpsInput(&operand) &&
                  !llvm::is_contained(step.chainOperands, &operand));
        }))
      width = 1;
    inChain.insert(candidate);
    for (Value r : sideReads) {
      reads.push_back(r);
      stepReads.push_back({candidate, r});
    }
    e.steps.push_back(step);
    cur = op.getDpsInitOperand(0)->get();
    if (!llvm::is_contained(chainBuffers, out))
      chainBuffers.push_back(out);
  }
  e.vectorWidth = scattered ? 1 : width;
  return e;
}

SmallVector<Operation *> Epilogue::ops() const {
  SmallVector<Operation *> ops;
  for (const EpilogueStep &s : steps)
    ops.push_back(linalg::LinalgOp(s.op).getOperation());
  return ops;
}

Value Epilogue::output() const {
  linalg::LinalgOp last = steps.back().op;
  return last.getDpsInitOperand(0)->get();
}

Type Epilogue::outputElementType() const {
  return cast<MemRefType>(output().getType()).getElementType();
}

/// The loop indices of each step of `steps` for the element at `index` of
/// `anchorOut`, and the position of the chain's result in the last step's
/// output.
static SmallVector<SmallVector<Value>>
stepLoops(OpBuilder &b, Location loc, Value anchorOut,
          ArrayRef<EpilogueStep> steps, ValueRange index,
          SmallVectorImpl<Value> &resultIndex) {
  SmallVector<SmallVector<Value>> all;
  SmallVector<Value> idx(index);
  Value at = anchorOut;
  for (const EpilogueStep &s : steps) {
    linalg::LinalgOp op = s.op;
    idx = kernel::reshapedIndex(b, loc, idx,
                                cast<MemRefType>(at.getType()).getShape(),
                                cast<MemRefType>(s.in.getType()).getShape());
    all.push_back(kernel::applyIndexingMap(b, loc, s.loopsFromIn, idx));
    at = op.getDpsInitOperand(0)->get();
    idx = kernel::applyIndexingMap(
        b, loc, op.getMatchingIndexingMap(op.getDpsInitOperand(0)), all.back());
  }
  resultIndex.assign(idx);
  return all;
}

/// The loop that runs along consecutive elements of a vector in `s`.
static unsigned innerLoop(const EpilogueStep &s) {
  linalg::LinalgOp op = s.op;
  return cast<AffineDimExpr>(op.getMatchingIndexingMap(s.chainOperands.front())
                                 .getResults()
                                 .back())
      .getPosition();
}

/// Whether `operand` of the step `s` is a side input that `store` loads.
static bool isSideInput(const EpilogueStep &s, OpOperand &operand) {
  linalg::LinalgOp op = s.op;
  return !llvm::is_contained(s.chainOperands, &operand) &&
         !(op.isDpsInit(&operand) && !readsOperand(op, operand));
}

/// `elt`, or a vector of `w` of them when `w` > 1.
static Type ofWidth(int64_t w, Type elt) {
  return w == 1 ? elt : VectorType::get({w}, elt);
}

SmallVector<Value> Epilogue::loadSideInputs(OpBuilder &b, Location loc,
                                            ValueRange index, int64_t w) const {
  SmallVector<Value> resultIndex, loaded;
  SmallVector<SmallVector<Value>> all =
      stepLoops(b, loc, anchorOut, steps, index, resultIndex);
  for (auto [s, loops] : llvm::zip_equal(steps, all)) {
    linalg::LinalgOp op = s.op;
    unsigned inner = innerLoop(s);
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isSideInput(s, operand))
        continue;
      Type elt = kernel::elementTypeOf(operand.get());
      AffineMap map = op.getMatchingIndexingMap(&operand);
      auto load = [&](ValueRange ls) -> Value {
        return memref::LoadOp::create(
            b, loc, operand.get(), kernel::applyIndexingMap(b, loc, map, ls));
      };
      if (w == 1) {
        loaded.push_back(load(loops));
        continue;
      }
      auto dim = getAffineDimExpr(inner, b.getContext());
      if (!map.isFunctionOfDim(inner)) {
        loaded.push_back(
            vector::BroadcastOp::create(b, loc, ofWidth(w, elt), load(loops)));
      } else if (map.getResults().back() == dim &&
                 innermostPow2(operand.get()) % w == 0 &&
                 kernel::isVectorizableElement(elt)) {
        loaded.push_back(vector::LoadOp::create(
            b, loc, cast<VectorType>(ofWidth(w, elt)), operand.get(),
            kernel::applyIndexingMap(b, loc, map, loops),
            /*nontemporal=*/false, kernel::vectorAlign(elt, w)));
      } else {
        SmallVector<Value> elems;
        for (int64_t i = 0; i < w; ++i) {
          SmallVector<Value> ls(loops);
          ls[inner] = arith::AddIOp::create(b, loc, ls[inner], cst(b, loc, i));
          elems.push_back(load(ls));
        }
        loaded.push_back(vector::FromElementsOp::create(
            b, loc, cast<VectorType>(ofWidth(w, elt)), elems));
      }
    }
  }
  return loaded;
}

Value Epilogue::apply(OpBuilder &b, Location loc, ValueRange index, Value value,
                      ArrayRef<Value> sideInputs,
                      SmallVectorImpl<Value> *resultIndex) const {
  auto vecType = dyn_cast<VectorType>(value.getType());
  int64_t w = vecType ? vecType.getNumElements() : 1;
  SmallVector<Value> loaded(sideInputs);
  if (loaded.empty())
    loaded = loadSideInputs(b, loc, index, w);
  const Value *next = loaded.begin();
  SmallVector<Value> at;
  SmallVector<SmallVector<Value>> all =
      stepLoops(b, loc, anchorOut, steps, index, at);
  for (auto [s, loops] : llvm::zip_equal(steps, all)) {
    linalg::LinalgOp op = s.op;
    SmallVector<Value> args;
    for (OpOperand &operand : op->getOpOperands()) {
      if (llvm::is_contained(s.chainOperands, &operand)) {
        args.push_back(value);
      } else if (isSideInput(s, operand)) {
        assert(next != loaded.end() && "too few side inputs");
        args.push_back(*next++);
      } else {
        Type elt = kernel::elementTypeOf(operand.get());
        args.push_back(arith::ConstantOp::create(
            b, loc, cast<TypedAttr>(b.getZeroAttr(ofWidth(w, elt)))));
      }
    }
    value = kernel::clonePayload(b, loc, op, args, loops, w).front();
    Type outElt = kernel::elementTypeOf(op.getDpsInitOperand(0)->get());
    if (value.getType() != ofWidth(w, outElt))
      value = vector::BroadcastOp::create(b, loc, ofWidth(w, outElt), value);
  }
  assert(next == loaded.end() && "too many side inputs");
  if (resultIndex)
    resultIndex->assign(at.begin(), at.end());
  return value;
}

void Epilogue::store(OpBuilder &b, Location loc, ValueRange index, Value value,
                     ArrayRef<Value> sideInputs) const {
  SmallVector<Value> resultIndex;
  value = apply(b, loc, index, value, sideInputs, &resultIndex);
  Value at = output();
  if (!isa<VectorType>(value.getType())) {
    memref::StoreOp::create(b, loc, value, at, resultIndex);
    return;
  }
  int64_t w = cast<VectorType>(value.getType()).getNumElements();
  vector::StoreOp::create(b, loc, value, at, resultIndex,
                          /*nontemporal=*/false,
                          kernel::vectorAlign(outputElementType(), w));
}

void Epilogue::erase() {
  llvm::SetVector<Value> roots;
  roots.insert(rootOf(anchorOut));
  for (EpilogueStep &s : steps)
    roots.insert(rootOf(s.op.getDpsInitOperand(0)->get()));
  Value out = rootOf(output());
  for (const EpilogueStep &s : llvm::reverse(steps))
    s.op->erase();
  steps.clear();
  for (Value root : roots)
    if (root != out)
      eraseIfUnused(root);
}

SmallVector<std::string> Epilogue::kinds() const {
  std::set<std::string> kinds;
  for (const EpilogueStep &s : steps) {
    linalg::LinalgOp op = s.op;
    if (op.getMatchingIndexingMap(s.chainOperands.front()) !=
        op.getMatchingIndexingMap(op.getDpsInitOperand(0)))
      kinds.insert("layout");
    bool side = false;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isSideInput(s, operand) || op.isDpsInit(&operand))
        continue;
      side = true;
      AffineMap map = op.getMatchingIndexingMap(&operand);
      kinds.insert(map.getNumResults() < op.getNumLoops() ? "broadcast"
                                                          : "binary");
    }
    if (!side)
      kinds.insert("elementwise");
    // A value that depends on its position (a causal or padding mask).
    if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
      kinds.insert("indexed");
  }
  return {kinds.begin(), kinds.end()};
}
