//===- Attention.h - The fused attention template ---------------*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// An attention after bufferization is three fusion groups' worth of ops:
// the batch matmul S = Q K^T with its elementwise epilogue (a scale, a
// bias), the six ops of a softmax over S's rows (as hidet's decomposition
// writes it: a max, exp(S - max), a sum, a division), and the batch matmul
// O = P V of the softmax's result with its own prologues and epilogue. An
// AttentionChain is all of them, read as two GEMM problems; the template
// (#hidet.attention) computes the chain in one kernel in which S and P
// never reach memory.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_ATTENTION_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_ATTENTION_H

#include "GemmProblem.h"

#include "Hidet/Dialect/Hidet/IR/Hidet.h"

namespace hidet {
namespace templates {

/// Elements in a 16-byte piece of the 16-bit operands, the unit of the
/// template's shared tiles and copies.
constexpr int64_t kAttentionPiece = 8;

struct AttentionChain {
  /// S = Q K^T: rows m (queries), columns n (keys), k the head size.
  mlir::linalg::LinalgOp scores;
  GemmProblem qk;
  fusion::Prologue qkPrologue;
  /// The elementwise ops applied to S before the softmax (may be empty).
  fusion::Epilogue scoreOps;
  /// The softmax's ops, in order.
  llvm::SmallVector<mlir::Operation *> softmax;
  /// The elementwise op after the softmax that replaces NaN probabilities
  /// by 0 (`select(isnan(p), 0, p)`, as exporters of
  /// scaled_dot_product_attention write it so that a row whose keys are all
  /// masked attends to nothing), or null. A row's probabilities are NaN
  /// together (NaN or infinite scores, or all of them -inf), so the kernel
  /// writes 0 for a row whose sum of exponentials is not positive.
  mlir::Operation *nanGuard = nullptr;
  /// O = P V: rows m, columns the value size, k the keys.
  mlir::linalg::LinalgOp values;
  GemmProblem pv;
  fusion::Prologue pvPrologue;
  fusion::Epilogue outputOps;
  mlir::linalg::FillOp qkFill, pvFill;
  /// The buffers only the chain uses (S, the softmax's temporaries, P).
  llvm::SmallVector<mlir::Value> temporaries;
};

/// Reads the batch matmul `scores` as the Q K^T of an attention on buffers,
/// with its fusion group's prologue and epilogue: the softmax over its rows
/// and the P V after it. On failure, `why` says what does not match; a
/// folded prologue that no template reads is an error of `pass`, emitted.
mlir::LogicalResult matchAttention(mlir::linalg::LinalgOp scores,
                                   AttentionChain &chain, std::string &why,
                                   llvm::StringRef pass);

/// Why `schedule` cannot compute `chain` on `target` (element types, head
/// sizes, shared memory), or an empty string.
std::string checkAttention(const AttentionChain &chain, AttentionAttr schedule,
                           TargetAttr target);

/// Elements per global load of operand `x` into a shared tile whose outer
/// dimension is `x`'s rows (`outerIsRow`) or columns: its vector width
/// along the tile's inner dimension (at most 16 bytes), or 1.
int64_t attentionPieceWidth(const GemmOperand &x, bool outerIsRow);

/// Whether every tile (Q [m][k], K [n][k], V [n][dv]) can be copied with
/// cp.async: 16-byte pieces, and no values computed on the way (an
/// elementwise prologue) or padding.
bool attentionCopiesAsync(const GemmProblem &qk, const GemmProblem &pv);

/// Replaces the chain's ops by the kernel of `schedule`, which passed
/// checkAttention.
void buildAttention(AttentionChain &chain, AttentionAttr schedule,
                    bool skipMasked = false);

/// Whether the scores' epilogue of `chain` masks: one of its ops selects a
/// constant of at most kMaskedScore. Only then does skipping masked key
/// tiles (buildAttention's `skipMasked`) apply.
bool masksScores(const AttentionChain &chain);

/// A score the epilogue gives a position at most this is masked: its
/// softmax weight exp(s - m) is 0 in f32 for any row maximum m above
/// kMaskedScore + 104.
constexpr double kMaskedScore = -1e4;

/// The schedule hidet-select-schedules gives `chain` on `target`: 64 query
/// rows and 32 keys a step, with the rows halved (down to 16) while the
/// blocks would leave more than half the SMs idle. Where those tiles do not
/// fit (checkAttention: heads of 16), the first that does of 32, 64 and 128
/// keys a step with those rows, then with half as many.
AttentionAttr defaultAttentionSchedule(const AttentionChain &chain,
                                       TargetAttr target);

/// The key of `chain` in tuning records: both matmuls' anchor signatures
/// (with their prologues and epilogues).
std::string attentionSignature(const AttentionChain &chain);

/// The tuning candidates of `chain` on `target` at `level` ("default": the
/// default schedule alone; "small" and "full": every block_q and block_kv
/// of 16, 32, 64 and 128 that fits), the default first.
llvm::SmallVector<AttentionAttr>
attentionCandidates(const AttentionChain &chain, TargetAttr target,
                    llvm::StringRef level);

/// Whether `scores`, with no schedule written on it, is fused as an
/// attention by default: it is an attention's Q K^T (`chain`), its P V has
/// no written schedule either, and the default schedule fits `target`. When
/// the chain matched but that schedule does not fit, `unfit` says why.
bool isDefaultAttention(mlir::linalg::LinalgOp scores, TargetAttr target,
                        AttentionChain &chain, std::string &unfit,
                        llvm::StringRef pass);

} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_ATTENTION_H
