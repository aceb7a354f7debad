//===- AttentionSchedule.cpp - Schedules of the fused attention -----------===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// What hidet-select-schedules and hidet-plan-tuning decide about an
// attention: whether a #hidet.attention fits it and the target, the default
// schedule, the tuning candidates and the key of its tuning records.
//
//===----------------------------------------------------------------------===//

#include "Attention.h"

#include "Anchor.h"

#include "../Utils/KernelBuilder.h"

#include "Hidet/Algebra/TaskMapping.h"

using namespace mlir;
using namespace hidet;
using namespace hidet::templates;

/// Largest head size: the accumulators of a warp's rows live in registers.
static constexpr int64_t kMaxHead = 128;

AttentionAttr
hidet::templates::defaultAttentionSchedule(const AttentionChain &chain,
                                           TargetAttr target) {
  // 64 query rows (4 warps) and 32 keys a step, halving the rows (down to
  // 16) while the blocks would leave more than half the SMs without one.
  // On the H100 (f16, heads of 64), in whole models: BERT-base and GPT-2 at
  // batch 32 (384 x 128 x 128) took 0.034 and 0.040 ms an attention with
  // 64 rows, 0.041 and 0.048 with 32; at batch 1 (12 heads, 24 blocks of
  // 64 rows on 132 SMs) 16 rows made the models 7% and 4% faster. Alone,
  // ViT-B/16's 12 x 197 x 197 took 0.0091 ms with 32 rows against 0.0095
  // with 64 and 0.0094 with 16; at batch 32 the models measured the same
  // with 64 and 32 rows.
  int64_t rows = 64;
  while (rows > 16 &&
         2 * chain.qk.batch *
                 static_cast<int64_t>(llvm::divideCeil(chain.qk.m, rows)) <
             target.getLimits().numSMs)
    rows /= 2;
  MLIRContext *ctx = chain.scores->getContext();
  auto first = AttentionAttr::get(ctx, rows, 32);
  if (checkAttention(chain, first, target).empty())
    return first;
  // Heads of 16: a step of 32 keys has fewer 16-byte pieces than the block
  // has threads. More keys a step, then fewer rows (fewer threads).
  for (int64_t bq = rows; bq >= 16; bq /= 2)
    for (int64_t bkv : {32, 64, 128}) {
      auto s = AttentionAttr::get(ctx, bq, bkv);
      if (checkAttention(chain, s, target).empty())
        return s;
    }
  return first;
}

std::string hidet::templates::attentionSignature(const AttentionChain &chain) {
  return "attention(" + anchorSignature(chain.scores, chain.qkPrologue) + "; " +
         anchorSignature(chain.values, chain.pvPrologue) + ")";
}

SmallVector<AttentionAttr>
hidet::templates::attentionCandidates(const AttentionChain &chain,
                                      TargetAttr target, StringRef level) {
  MLIRContext *ctx = chain.scores->getContext();
  AttentionAttr first = defaultAttentionSchedule(chain, target);
  SmallVector<AttentionAttr> out;
  if (checkAttention(chain, first, target).empty())
    out.push_back(first);
  if (level == "default")
    return out;
  for (int64_t bq : {16, 32, 64, 128})
    for (int64_t bkv : {16, 32, 64, 128}) {
      auto s = AttentionAttr::get(ctx, bq, bkv);
      if (s != first && checkAttention(chain, s, target).empty())
        out.push_back(s);
    }
  return out;
}

bool hidet::templates::isDefaultAttention(linalg::LinalgOp scores,
                                          TargetAttr target,
                                          AttentionChain &chain,
                                          std::string &unfit, StringRef pass) {
  std::string why;
  if (scores->hasAttr(kScheduleAttrName) ||
      failed(matchAttention(scores, chain, why, pass)) ||
      chain.values->hasAttr(kScheduleAttrName))
    return false;
  unfit =
      checkAttention(chain, defaultAttentionSchedule(chain, target), target);
  return unfit.empty();
}

/// Whether the tile [rows][cols] of 16-byte pieces spreads evenly over
/// `threads` (auto_map).
static bool spreads(int64_t rows, int64_t cols, int64_t threads) {
  return algebra::TaskMapping::autoMap({rows, cols / kAttentionPiece}, threads)
      .has_value();
}

std::string hidet::templates::checkAttention(const AttentionChain &chain,
                                             AttentionAttr schedule,
                                             TargetAttr target) {
  const GemmProblem &qk = chain.qk, &pv = chain.pv;
  if (!(qk.aElt.isF16() || qk.aElt.isBF16()) || qk.bElt != qk.aElt ||
      pv.bElt != qk.aElt)
    return "the fused attention takes f16 or bf16 Q, K and V";
  if (qk.k % 16 != 0 || qk.k > kMaxHead || pv.n % 16 != 0 || pv.n > kMaxHead)
    return "the fused attention takes head sizes that are multiples of 16 "
           "up to " +
           std::to_string(kMaxHead) + " (Q K^T's K is " + std::to_string(qk.k) +
           ", P V's N is " + std::to_string(pv.n) + ")";
  int64_t bq = schedule.getBlockQ(), bkv = schedule.getBlockKv();
  int64_t threads = schedule.numWarps() * kernel::kWarpSize;
  if (!spreads(bq, qk.k, threads) || !spreads(bkv, qk.k, threads) ||
      !spreads(bkv, pv.n, threads))
    return "the tiles of Q, K and V do not spread over the block's " +
           std::to_string(threads) + " threads in 16-byte pieces";
  int64_t stages = attentionCopiesAsync(qk, pv) ? 2 : 1;
  int64_t bytes = 2 * (bq * qk.k + stages * bkv * (qk.k + pv.n));
  schedule::TargetLimits limits = target.getLimits();
  if (bytes > limits.maxSharedBytesPerBlock)
    return "the tiles take " + std::to_string(bytes) +
           " bytes of shared memory, more than a block has (" +
           std::to_string(limits.maxSharedBytesPerBlock) + ")";
  return "";
}
