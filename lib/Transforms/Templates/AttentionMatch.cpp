//===- AttentionMatch.cpp - Reading an attention on buffers ---------------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// Finds, after a batch matmul S = Q K^T and its fusion group's epilogue,
// the softmax over S's rows as hidet-decompose-aggregates writes it
//
//   fill(max0) -> M;  M = max over the row of S;  E = exp(S - M)
//   fill(0) -> L;     L = sum over the row of E;  P = E / L
//
// (with, optionally, the elementwise select(isnan(P), 0, P) after it) and
// the batch matmul O = P V that reads P, and checks that nothing else
// reads the temporaries or writes memory in between, so that one kernel
// can take the place of them all.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"

#include "Anchor.h"

#include "../Fusion/Buffers.h"
#include "../Utils/LinalgPayload.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;
using hidet::kernel::isArg;
using hidet::kernel::isBinaryPayload;
using hidet::kernel::payloadOps;

/// Whether `op` is a generic over rank-r buffers whose inputs and output
/// are indexed by `maps`, where `true` stands for the identity and `false`
/// for the rows (every dimension but the last), with the last loop a
/// reduction when `reduces`.
static bool hasRowMaps(Operation *op, ArrayRef<bool> maps, bool reduces) {
  auto generic = dyn_cast<linalg::GenericOp>(op);
  if (!generic || generic->getNumOperands() != maps.size())
    return false;
  unsigned rank = generic.getNumLoops();
  if (rank < 2)
    return false;
  for (auto [i, it] : llvm::enumerate(generic.getIteratorTypesArray()))
    if ((it == utils::IteratorType::reduction) != (reduces && i + 1 == rank))
      return false;
  MLIRContext *ctx = op->getContext();
  AffineMap full = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap rows = full.getMajorSubMap(rank - 1);
  for (auto [map, identity] :
       llvm::zip_equal(generic.getIndexingMapsArray(), maps))
    if (map != (identity ? full : rows))
      return false;
  return true;
}

static bool isFillOf(Operation *op, function_ref<bool(APFloat)> value) {
  auto fill = dyn_cast<linalg::FillOp>(op);
  if (!fill)
    return false;
  auto cst =
      fill.getDpsInputOperand(0)->get().getDefiningOp<arith::ConstantOp>();
  auto f = cst ? dyn_cast<FloatAttr>(cst.getValue()) : FloatAttr();
  return f && value(f.getValue());
}

static Value rootIn(Operation *op, unsigned i) {
  return fusion::rootOf(op->getOperand(i));
}

/// Whether every use of the allocation `root` (through views) is by one of
/// `ops`, a view or a deallocation.
static bool onlyUsedBy(Value root,
                       const llvm::SmallPtrSetImpl<Operation *> &ops) {
  SmallVector<Value> worklist{root};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (ops.contains(user) || isa<memref::DeallocOp>(user))
        continue;
      if (isa<ViewLikeOpInterface>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      return false;
    }
  }
  return true;
}

/// The next linalg op after `op` in its block, skipping allocations and
/// views.
static Operation *nextLinalgOp(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    if (isa<linalg::LinalgOp>(next))
      return next;
    if (!isa<memref::AllocOp, ViewLikeOpInterface>(next))
      return nullptr;
  }
  return nullptr;
}

/// Matches the six ops of a softmax over the rows of `scores` after
/// `after`; fills `softmax` and returns P, or null.
static Value matchSoftmax(Operation *after, Value scores,
                          SmallVectorImpl<Operation *> &softmax,
                          std::string &why) {
  Operation *ops[6];
  Operation *at = after;
  for (Operation *&op : ops) {
    op = at = at ? nextLinalgOp(at) : nullptr;
    if (!op) {
      why = "the scores are not followed by the six ops of a softmax";
      return {};
    }
  }
  Value sRoot = fusion::rootOf(scores);
  // M = max over the row, from the identity of the max.
  bool maxNum = isBinaryPayload<arith::MaxNumFOp>(ops[1], true);
  bool maxAny = maxNum || isBinaryPayload<arith::MaximumFOp>(ops[1], true);
  if (!isFillOf(ops[0],
                [&](APFloat v) {
                  return (v.isInfinity() && v.isNegative()) ||
                         (maxNum && v.isNaN());
                }) ||
      !maxAny || !hasRowMaps(ops[1], {true, false}, /*reduces=*/true) ||
      !fusion::isReshapeOf(ops[1]->getOperand(0), scores) ||
      rootIn(ops[1], 1) != rootIn(ops[0], 1)) {
    why = "the scores' reader is not the row maximum of a softmax";
    return {};
  }
  Value m = rootIn(ops[1], 1);
  // E = exp(S - M).
  SmallVector<Operation *> expOps = payloadOps(ops[2]);
  if (!hasRowMaps(ops[2], {true, false, true}, /*reduces=*/false) ||
      expOps.size() != 2 || !isa<arith::SubFOp>(expOps[0]) ||
      !isa<math::ExpOp>(expOps[1]) ||
      !isArg(expOps[0]->getOperand(0), ops[2], 0) ||
      !isArg(expOps[0]->getOperand(1), ops[2], 1) ||
      expOps[1]->getOperand(0) != expOps[0]->getResult(0) ||
      !fusion::isReshapeOf(ops[2]->getOperand(0), scores) ||
      rootIn(ops[2], 1) != m) {
    why = "no exp(S - max) after the row maximum";
    return {};
  }
  Value e = rootIn(ops[2], 2);
  // L = sum over the row of E, from 0.
  if (!isFillOf(ops[3], [](APFloat v) { return v.isZero(); }) ||
      !isBinaryPayload<arith::AddFOp>(ops[4], true) ||
      !hasRowMaps(ops[4], {true, false}, /*reduces=*/true) ||
      rootIn(ops[4], 0) != e || rootIn(ops[4], 1) != rootIn(ops[3], 1)) {
    why = "no row sum of the exponentials";
    return {};
  }
  Value l = rootIn(ops[4], 1);
  // P = E / L.
  if (!isBinaryPayload<arith::DivFOp>(ops[5], false) ||
      !hasRowMaps(ops[5], {true, false, true}, /*reduces=*/false) ||
      rootIn(ops[5], 0) != e || rootIn(ops[5], 1) != l) {
    why = "no division by the row sum";
    return {};
  }
  // The rows are those of S: the last dimension is S's columns.
  if (rootIn(ops[1], 0) != sRoot) {
    why = "the softmax does not read the scores";
    return {};
  }
  softmax.assign(std::begin(ops), std::end(ops));
  return ops[5]->getOperand(2);
}

/// Whether `op` is an elementwise generic over P (read through identity
/// maps, once or twice) that yields `select(isnan(p), 0, p)`, or the same
/// with the ordered predicate and the select's arms swapped.
static bool isNaNGuardOf(Operation *op, Value p) {
  auto generic = dyn_cast_if_present<linalg::GenericOp>(op);
  if (!generic || generic.getNumDpsInits() != 1 ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      !llvm::all_of(generic.getIndexingMapsArray(),
                    [](AffineMap m) { return m.isIdentity(); }) ||
      !llvm::all_of(generic.getDpsInputs(),
                    [&](Value in) { return fusion::isReshapeOf(in, p); }))
    return false;
  SmallVector<Operation *> ops = payloadOps(op);
  auto isInput = [&](Value v) {
    auto arg = dyn_cast<BlockArgument>(v);
    return arg && arg.getOwner() == generic.getBody() &&
           arg.getArgNumber() < generic.getNumDpsInputs();
  };
  if (ops.size() != 2)
    return false;
  auto cmp = dyn_cast<arith::CmpFOp>(ops[0]);
  auto select = dyn_cast<arith::SelectOp>(ops[1]);
  if (!cmp || !select || select.getCondition() != cmp.getResult() ||
      !isInput(cmp.getLhs()) || !isInput(cmp.getRhs()) ||
      generic.getBody()->getTerminator()->getOperand(0) != select.getResult())
    return false;
  bool unordered = cmp.getPredicate() == arith::CmpFPredicate::UNO;
  if (!unordered && cmp.getPredicate() != arith::CmpFPredicate::ORD)
    return false;
  Value zero = unordered ? select.getTrueValue() : select.getFalseValue();
  Value kept = unordered ? select.getFalseValue() : select.getTrueValue();
  FloatAttr c;
  return isInput(kept) && matchPattern(zero, m_Constant(&c)) &&
         c.getValue().isZero();
}

/// Whether a batch matmul's maps put C at (b, m, n) and, when `plainA`,
/// read A at (b, m, k).
static bool hasPlainMaps(linalg::LinalgOp op, bool plainA) {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MLIRContext *ctx = op->getContext();
  AffineExpr b, m, n, k;
  bindDims(ctx, b, m, n, k);
  if (maps[2] != AffineMap::get(4, 0, {b, m, n}, ctx))
    return false;
  return !plainA || maps[0] == AffineMap::get(4, 0, {b, m, k}, ctx);
}

/// The linalg.fill of zero that starts `op`'s output, or null.
static linalg::FillOp zeroFillBefore(linalg::LinalgOp op, ValueRange reads) {
  linalg::FillOp fill =
      fusion::fillBefore(op, op.getDpsInitOperand(0)->get(), reads);
  return fill && isFillOf(fill, [](APFloat v) { return v.isZero(); })
             ? fill
             : linalg::FillOp();
}

LogicalResult hidet::templates::matchAttention(linalg::LinalgOp scores,
                                               AttentionChain &chain,
                                               std::string &why,
                                               StringRef pass) {
  if (!isa<linalg::BatchMatmulOp>(scores) ||
      !hasPlainMaps(scores, /*plainA=*/false)) {
    why = "not a batch matmul";
    return failure();
  }
  chain.scores = scores;
  if (matchAnchor(scores, {}, /*fuse=*/true, /*remarks=*/false, pass, chain.qk,
                  chain.qkPrologue, why) != AnchorMatch::Gemm)
    return failure();
  Value s = scores.getDpsInitOperand(0)->get();
  chain.qkFill = zeroFillBefore(scores, {chain.qk.a.buffer, chain.qk.b.buffer});
  if (!chain.qkFill) {
    why = "Q K^T does not start from zero";
    return failure();
  }
  chain.scoreOps = fusion::Epilogue::match(
      scores, chain.qk.c.buffer, {chain.qk.a.buffer, chain.qk.b.buffer});
  // The epilogue must be the group's whole chain: the softmax reads its end.
  if (chain.scoreOps.ops().size() !=
      fusion::groupMembers(scores, FusionRole::epilogue).size()) {
    why = "part of the scores' epilogue cannot be fused";
    return failure();
  }
  Value scored = chain.scoreOps.empty() ? s : chain.scoreOps.output();
  Operation *last = chain.scoreOps.empty() ? scores.getOperation()
                                           : chain.scoreOps.insertionPoint();
  Value p = matchSoftmax(last, scored, chain.softmax, why);
  if (!p)
    return failure();

  Operation *next = nextLinalgOp(chain.softmax.back());
  chain.nanGuard = nullptr;
  if (isNaNGuardOf(next, p)) {
    chain.nanGuard = next;
    p = next->getOperand(next->getNumOperands() - 1);
    next = nextLinalgOp(next);
  }
  if (next && isa<linalg::FillOp>(next))
    next = nextLinalgOp(next);
  auto values = dyn_cast_if_present<linalg::BatchMatmulOp>(next);
  if (!values || !hasPlainMaps(values, /*plainA=*/true) ||
      !fusion::isReshapeOf(values.getDpsInputOperand(0)->get(), p)) {
    why = "the softmax's result is not the first operand of a batch matmul";
    return failure();
  }
  chain.values = values;
  if (matchAnchor(values, {}, /*fuse=*/true, /*remarks=*/false, pass, chain.pv,
                  chain.pvPrologue, why) != AnchorMatch::Gemm)
    return failure();
  if (!chain.pvPrologue.empty() && chain.pvPrologue.read(0).buffer &&
      chain.pvPrologue.read(0).buffer != values.getDpsInputOperand(0)->get()) {
    why = "P V reads P through a prologue";
    return failure();
  }
  chain.pvFill = zeroFillBefore(values, {chain.pv.b.buffer});
  if (!chain.pvFill) {
    why = "P V does not start from zero";
    return failure();
  }
  const GemmProblem &qk = chain.qk, &pv = chain.pv;
  if (qk.batch != pv.batch || qk.m != pv.m || qk.n != pv.k) {
    why = "the extents of Q K^T and P V do not chain";
    return failure();
  }
  chain.outputOps = fusion::Epilogue::match(
      values, chain.pv.c.buffer,
      {chain.qk.a.buffer, chain.qk.b.buffer, chain.pv.b.buffer});

  // Nothing but the chain reads S, the softmax's temporaries or P, and
  // nothing between the two matmuls writes memory (the kernel reads Q and
  // K after it).
  llvm::SmallPtrSet<Operation *, 16> members;
  members.insert(scores);
  members.insert(chain.qkFill);
  for (Operation *op : chain.scoreOps.ops())
    members.insert(op);
  for (Operation *op : chain.softmax)
    members.insert(op);
  if (chain.nanGuard)
    members.insert(chain.nanGuard);
  members.insert(values);
  members.insert(chain.pvFill);
  llvm::SmallPtrSet<Operation *, 16> prologues;
  for (Operation *op : chain.qkPrologue.ops())
    prologues.insert(op);
  for (Operation *op : chain.pvPrologue.ops())
    prologues.insert(op);
  // The kernel takes the place of P V: an op between the two matmuls that
  // is not the chain's runs before all of it then. That keeps its order
  // with the chain's ops after it, and is allowed when none of the chain's
  // ops before it (Q K^T, and the prologues, epilogue and softmax ops that
  // precede it) writes what it reads or touches what it writes: a mask
  // computed after Q K^T and read by the scores' epilogue stays valid.
  SmallVector<Operation *> chainOps(members.begin(), members.end());
  chainOps.append(prologues.begin(), prologues.end());
  for (Operation *op = scores->getNextNode(); op && op != values.getOperation();
       op = op->getNextNode()) {
    if (members.contains(op) || prologues.contains(op) ||
        isa<memref::AllocOp, ViewLikeOpInterface>(op))
      continue;
    SmallVector<Value> reads, writes;
    bool independent = succeeded(fusion::accessedRoots(op, reads, writes));
    for (Operation *member : chainOps) {
      if (!independent || !member->isBeforeInBlock(op))
        continue;
      SmallVector<Value> memberReads, memberWrites;
      if (failed(fusion::accessedRoots(member, memberReads, memberWrites))) {
        independent = false;
        break;
      }
      for (Value r : reads)
        independent &= !llvm::is_contained(memberWrites, r);
      for (Value w : writes)
        independent &= !llvm::is_contained(memberWrites, w) &&
                       !llvm::is_contained(memberReads, w);
    }
    if (!independent) {
      why = "an op between Q K^T and P V writes memory that the chain uses "
            "before it";
      return failure();
    }
  }
  SmallVector<Value> temporaries = {fusion::rootOf(s), fusion::rootOf(scored)};
  for (Operation *op : chain.softmax)
    temporaries.push_back(
        fusion::rootOf(op->getOperand(op->getNumOperands() - 1)));
  if (chain.nanGuard)
    temporaries.push_back(fusion::rootOf(p));
  chain.temporaries.clear();
  for (Value t : temporaries) {
    if (llvm::is_contained(chain.temporaries, t))
      continue;
    if (!t.getDefiningOp<memref::AllocOp>() || !onlyUsedBy(t, members)) {
      why = "the scores or the softmax's temporaries have other readers";
      return failure();
    }
    chain.temporaries.push_back(t);
  }
  return success();
}

bool hidet::templates::masksScores(const AttentionChain &chain) {
  bool masks = false;
  for (Operation *op : chain.scoreOps.ops())
    op->walk([&](arith::SelectOp select) {
      for (Value v : {select.getTrueValue(), select.getFalseValue()}) {
        FloatAttr c;
        masks |= matchPattern(v, m_Constant(&c)) &&
                 c.getValueAsDouble() <= kMaskedScore;
      }
    });
  return masks;
}
