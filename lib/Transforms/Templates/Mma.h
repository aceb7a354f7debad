//===- Mma.h - The parts of the tensor-core matmul template -----*- C++ -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//
//
// The interface between the parts of the mma.sync template, whose kernel
// MmaMatmul.cpp describes: the operands' tiles in shared memory and their
// copies from global memory (MmaCopies.cpp), and the builder of the kernel,
// whose steps are the block's skeleton (MmaMatmul.cpp), the copies
// (MmaCopies.cpp) and the fragments and mma.sync instructions
// (MmaFragments.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_LIB_TRANSFORMS_TEMPLATES_MMA_H
#define HIDET_LIB_TRANSFORMS_TEMPLATES_MMA_H

#include "GemmKernel.h"
#include "SplitK.h"

#include "Hidet/Algebra/TaskMapping.h"
#include "Hidet/Dialect/Hidet/IR/Hidet.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace hidet {
namespace templates {
namespace mma {

/// 16-byte pieces (a row of an ldmatrix 8x8 matrix of 16-bit values) in a
/// 128-byte line of shared-memory banks.
constexpr int64_t kPiecesPerLine = 8;

/// One operand's tile in shared memory. Logically `rows x cols` (A: BM x BK,
/// B: BK x BN); stored as [outer][inner] where `innerDim` is the logical
/// dimension that is contiguous in global memory, with a leading [stage]
/// dimension when the template holds `stages` K tiles itself (register
/// staging: 2), none when `stages` is 0 (a pass multi-buffers it).
struct SharedTile {
  int64_t rows, cols;
  int innerDim;
  int64_t piece;  ///< elements in 16 bytes
  int64_t stages; ///< K tiles held at once, or 0
  mlir::Value buffer;

  int64_t outer() const { return innerDim == 1 ? rows : cols; }
  int64_t inner() const { return innerDim == 1 ? cols : rows; }
  mlir::MemRefType type(mlir::MLIRContext *ctx, mlir::Type elt) const;
  /// Indices of (outer o, inner i) in `stage` (null when unstaged).
  llvm::SmallVector<mlir::Value> at(mlir::Value stage, mlir::Value o,
                                    mlir::Value i) const;
  /// The stored column of the piece that starts at inner index `i` (a
  /// multiple of `piece`) of row `o`: piece j moves to j ^ f(o), where f
  /// gives each of 8 consecutive rows a different bank group. With W
  /// pieces per row, W * 16 bytes per row: rows that share banks (8 / W
  /// of them when W < 8) get the same f.
  mlir::Value storedInner(mlir::OpBuilder &b, mlir::Location loc, mlir::Value o,
                          mlir::Value i) const;
  /// Indices of the logical element (r, c) of `stage`.
  llvm::SmallVector<mlir::Value> element(mlir::OpBuilder &b, mlir::Location loc,
                                         mlir::Value stage, mlir::Value r,
                                         mlir::Value c) const;
};

/// The thread's share of moving one operand's tile from global memory to
/// shared memory: pieces [outer][inner / 8] spread over the threads by
/// auto_map = repeat(R) * spatial(S); the spatial part is the thread's
/// fixed position and the repeat index its register slot.
struct TileCopy {
  const GemmOperand *operand;
  mlir::Value flat; ///< the operand's buffer as a 1-D memref
  bool isA;
  SharedTile tile;
  algebra::Shape rep, spat;
  mlir::Value regs, s0, s1;
  mlir::Type elt;
  int64_t width; ///< elements per global load
};

/// Copies the pieces of the K tile starting at `k0` into `t`'s unstaged
/// tile, `t.width` elements per masked vector transfer: past the operand's
/// edges the mask is empty (zero-fill) and the source address is clamped,
/// so that `nvgpu::createAsyncGroups` can make each an async copy with
/// that many source elements.
void copyTile(mlir::OpBuilder &b, mlir::Location loc, const GemmProblem &p,
              const GemmBlock &blk, const TileCopy &t, mlir::Value k0);

/// ldmatrix.x4 of the 16 x 16 block at (p0, q0) of `tile` (p its non-k
/// dimension: m of A, n of B; q its k dimension), as the A fragment of an
/// m16n8k16 (`isA`) or the B fragments of two n8 tiles; `matrix` and
/// `matrixRow` are the lane's place in spatial(4, 8) (the row of the
/// matrix whose address it gives), `elt` the tile's element type.
mlir::Value ldmatrixX4(mlir::OpBuilder &b, mlir::Location loc,
                       const SharedTile &tile, mlir::Value stage, bool isA,
                       mlir::Value p0, mlir::Value q0, mlir::Value matrix,
                       mlir::Value matrixRow, mlir::Type elt);

/// A lane's place in the mma.sync layouts: (groupID, threadID_in_group) of
/// the C fragment, spatial(8, 4) over the lanes; and the ldmatrix matrix and
/// row whose address it gives, spatial(4, 8) (lane l: row l % 8 of matrix
/// l / 8).
struct LanePlace {
  mlir::Value group, inGroup, matrix, matrixRow;
};
LanePlace placeLane(mlir::OpBuilder &b, mlir::Location loc, mlir::Value lane);

/// mma.sync on one 16 x 8 tile, d = a * b + c, of `elt` operands (f16 and
/// bf16: m16n8k16; f32: tf32, m16n8k8), f32 accumulators (vector<2x2xf32>).
mlir::Value mmaSync(mlir::OpBuilder &b, mlir::Location loc, mlir::Value a,
                    mlir::Value bv, mlir::Value c, mlir::Type elt);

/// Builds the kernel(s) of one GEMM, step by step: the launch and its
/// blocks (build), then in each block the thread's place in the tile
/// (placeThread), the accumulators (initAccumulators), the copies of the
/// operands' tiles into shared memory (makeCopy, fetch, stash), the K loop
/// (mainLoop) whose steps load fragments and run mma.sync on them
/// (compute), and the stores of the results (storeResults).
class MatmulBuilder {
public:
  MatmulBuilder(mlir::OpBuilder &b, mlir::Location loc, const GemmProblem &p,
                const schedule::MmaMatmulSchedule &sched);

  /// Emits the kernel, and with split-K the reduction kernel of
  /// `reduceBlockSize` threads per block.
  void build(int64_t reduceBlockSize);

private:
  // The block's skeleton (MmaMatmul.cpp).

  /// The body of block `block`, run by thread `threadId`.
  void buildBlock(const GemmBlock &block, mlir::Value threadId);
  void placeThread();
  /// Visits the thread's accumulators: (row, col) in C, the m tile and the
  /// slot of the accumulator array.
  void forAccumulators(
      llvm::function_ref<void(mlir::OpBuilder &, mlir::Value, mlir::Value,
                              mlir::Value, mlir::Value)>
          body);
  void initAccumulators();
  void mainLoop();
  void storeResults();

  // Global memory -> shared memory (MmaCopies.cpp).

  TileCopy makeCopy(const GemmOperand &x, bool isA, const SharedTile &tile);
  void fetch(const TileCopy &t, mlir::Value k0);
  void stash(const TileCopy &t, mlir::Value stage);

  // Shared memory -> fragments -> mma.sync (MmaFragments.cpp).

  mlir::Value ldmatrix(const SharedTile &tile, mlir::Value stage, bool isA,
                       mlir::Value p0, mlir::Value q0);
  void storeRows(mlir::Value v, mlir::Value buffer, mlir::Value index,
                 mlir::Value offset);
  mlir::Value loadRows(int64_t rows, int64_t w, mlir::Type t,
                       mlir::Value buffer, mlir::Value index,
                       mlir::Value offset);
  void scalarFragments(const SharedTile &tile, mlir::Value stage, bool isA,
                       mlir::Value p0, mlir::Value q0, mlir::Value frag,
                       mlir::Value index);
  bool useLdmatrix(const SharedTile &tile, bool isA) const;
  void splitTF32(mlir::Value frag, mlir::Value rest, mlir::Value slot,
                 int64_t regs);
  mlir::Value mma(mlir::Value a, mlir::Value bv, mlir::Value c);
  void loadFragments(mlir::Value stage, int64_t kk);
  void mmaStep(int64_t kk);
  void compute(mlir::Value stage);

  mlir::OpBuilder &b;
  mlir::Location loc;
  mlir::MLIRContext *ctx;
  const GemmProblem &p;
  const schedule::MmaMatmulSchedule &sched;
  int64_t BM, BN, BK, WM, WN, MT, NT, threads;
  mlir::Type elt, f32;
  bool isBF16;
  // f32 operands run m16n8k8 in tf32; 16-bit ones m16n8k16. A register of
  // a fragment holds `perReg` elements; a 16-byte piece `kPiece`.
  bool isTF32;
  int64_t mmaK, perReg, kPiece;
  /// tf32 products per f32 product (MmaMatmulSchedule::tf32Terms).
  int64_t tf32Terms;
  GemmGrid grid;
  GemmOutput output{};
  SharedTile tileA, tileB;

  // The block being built and the thread's place in it.
  const GemmBlock *blk = nullptr;
  mlir::Value tid;
  /// The first row and column of the warp's tile.
  mlir::Value wm0, wn0;
  /// (groupID, threadID_in_group) of the C fragment.
  mlir::Value group, inGroup;
  /// The ldmatrix matrix and row this lane addresses.
  mlir::Value matrix, matrixRow;
  mlir::Value accFlat, aFrag, bFrag;
  /// With three tf32 terms: the rests of the fragments' values (the
  /// fragments hold their tf32 roundings), indexed as aFrag and bFrag.
  mlir::Value aRest, bRest;
  /// The warps' epilogue chunks in shared memory: [warps][16][WN + pad] f32.
  mlir::Value chunks;
  TileCopy copyA, copyB;
};

} // namespace mma
} // namespace templates
} // namespace hidet

#endif // HIDET_LIB_TRANSFORMS_TEMPLATES_MMA_H
