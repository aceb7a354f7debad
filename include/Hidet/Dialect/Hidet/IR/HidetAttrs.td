//===- HidetAttrs.td - Hidet schedule attributes -----------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD
#define HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Hidet_Dialect : Dialect {
  let name = "hidet";
  let cppNamespace = "::hidet";
  let summary = "Schedules of Hidet's anchor-op templates, as data.";
  let description = [{
    The `hidet` dialect holds the schedule attributes of the anchor-op
    templates (matmul, convolution, reduction). A schedule is chosen once
    (by a heuristic, a tuner or a user writing it in the IR) and attached to
    the anchor op as `hidet.schedule`; the passes that instantiate templates
    only read it.

    The dialect verifies its discardable attributes wherever they are:

    - `hidet.pipeline_stages = N` (an integer in [2, 8]) marks a loop whose
      global-to-shared copies `hidet-pipeline-shared-copies` turns into an
      N-stage pipeline; the templates write it from the schedule's `stages`.
    - `hidet.fusion` (a `#hidet.fusion` of a non-negative group) marks the
      ops of a fusion group; `hidet.target` (a `#hidet.target`) the target
      of what it is on; `hidet.attention` (a `#hidet.attention`) an
      attention's Q K^T or the `gpu.launch` of its fused kernel.
    - `hidet.kernel` on a `gpu.launch` says what its kernel is, for
      reports (`hidet-summarize-kernels`) and read by no lowering: a
      dictionary of `kind` (a string, always), `anchor` and `loads`
      (strings), `gemm` (`array<i64: batch, M, N, K, taps>`, non-negative)
      and `prologue`, `epilogue` and `scores` (arrays of strings: the kinds
      of fused ops), and no other key.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
}

/// A list of integers written `[a, b]`.
def Hidet_IntList : ArrayRefParameter<"int64_t", "list of integers"> {
  let parser = "::hidet::parseIntList($_parser)";
  let printer = "::hidet::printIntList($_printer, $_self)";
}

/// A grid-level schedule field, 1 (off) when not written.
def Hidet_GridField : DefaultValuedParameter<"int64_t", "1",
                                             "grid-level schedule field">;

def Hidet_SimtMatmulAttr : AttrDef<Hidet_Dialect, "SimtMatmul"> {
  let mnemonic = "simt_matmul";
  let summary = "Schedule of the SIMT (CUDA-core) matmul template.";
  let description = [{
    The paper's SIMT matmul template: the block's tile is the composed task
    mapping

    ```
    spatial(block_warps) * repeat(warp_outer) * spatial(warp_mid) * repeat(warp_inner)
    ```

    (`warp_mid` is a 32-lane spatial shape), so the block tile is
    `block_warps * warp_outer * warp_mid * warp_inner` in each dimension and
    each thread accumulates `warp_outer * warp_inner` outputs in registers.
    Each step of the K loop stages a `BM x block_k` tile of A (k-major) and
    a `block_k x BN` tile of B in shared memory (zero-filled past the
    edges). `stages` picks how the tiles get there: 0 (the default) loads
    them into registers and stores them to two stages (Hidet's double
    buffering); N >= 2 copies them with cp.async into N stages, N - 1 K
    tiles ahead of the math: 4-byte copies where the operand's contiguous
    dimension is not the tile's (A as it usually is), up to 16 bytes where
    it is. Not with a prologue, which needs the values in registers.
    The grid fields `swizzle` (tile rows per group of the grouped tile
    order; 1, the default, is row-major order) and `split_k` (K slices
    computed by separate blocks and summed by a second kernel; 1, the
    default, is none) are shared with `#hidet.mma_matmul`.

    Example (the default: 128 x 128 tiles, 256 threads, 64 outputs each):

    ```mlir
    #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2],
                       warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>
    ```
  }];
  let parameters = (ins Hidet_IntList:$block_warps, Hidet_IntList:$warp_outer,
                        Hidet_IntList:$warp_mid, Hidet_IntList:$warp_inner,
                        "int64_t":$block_k,
                        Hidet_GridField:$swizzle, Hidet_GridField:$split_k,
                        DefaultValuedParameter<"int64_t", "0",
                          "shared-memory pipeline stages">:$stages);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::hidet::schedule::SimtMatmulSchedule &":$s)>
  ];
  let extraClassDeclaration = [{
    /// The schedule as plain data (Hidet/Schedule/SimtMatmulSpace.h).
    ::hidet::schedule::SimtMatmulSchedule toSchedule() const;
    /// Threads per block.
    int64_t getNumThreads() const;
    /// Block tile extents (rows, columns).
    int64_t getBlockM() const;
    int64_t getBlockN() const;
  }];
}

def Hidet_MmaMatmulAttr : AttrDef<Hidet_Dialect, "MmaMatmul"> {
  let mnemonic = "mma_matmul";
  let summary = "Schedule of the tensor-core (mma.sync) matmul template.";
  let description = [{
    The tensor-core matmul template for f16 and bf16 operands (f32
    accumulation; f16, bf16 or f32 results). A block computes a
    `block[0] x block[1]` tile of C with `(block[0] / warp[0]) *
    (block[1] / warp[1])` warps; a warp owns a `warp[0] x warp[1]` tile,
    which it covers with `mma` instructions (`m16n8k16`, the only shape so
    far), so its task mapping is

    ```
    spatial(block / warp) * repeat(warp / mma) * <mma fragment layout>
    ```

    where the fragment layout of C is `repeat(2, 1) * spatial(8, 4) *
    repeat(1, 2)` over the 32 lanes. Each step of the K loop stages
    `block[0] x block[2]` of A and `block[2] x block[1]` of B in shared
    memory in 16-byte pieces whose position in a row is XOR-swizzled with
    the row, so that the `ldmatrix` loads of the fragments hit every bank
    once. Operands keep the memory order they have in global memory
    (`ldmatrix` transposes where needed), so transposed operands are as
    fast as plain ones. `stages` picks how tiles reach shared memory: 0
    (the default) loads them into registers and stores them to two stages
    (Hidet's double buffering); N >= 2 copies them with cp.async into N
    stages, N - 1 tiles ahead of the math. The grid fields `swizzle` and
    `split_k` are those of `#hidet.simt_matmul`. With f32 operands (`mma =
    [16, 8, 8]`, tf32), `tf32_terms = 3` splits each operand value into its
    tf32 rounding and the tf32 of the rest and adds three products per
    step (all but the product of the rests) onto the accumulators: f32
    products for three times the mma instructions, summed by the tensor
    cores' accumulation, which truncates (an error that grows with K:
    `docs/AnchorTemplates.md`); 1 (the default) rounds the operands to
    tf32.

    Example (128 x 128 block tiles, 8 warps of 64 x 32, tiles in groups of
    8 rows):

    ```mlir
    #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32],
                      mma = [16, 8, 16], swizzle = 8>
    ```
  }];
  let parameters = (ins Hidet_IntList:$block, Hidet_IntList:$warp,
                        Hidet_IntList:$mma,
                        DefaultValuedParameter<"int64_t", "0",
                          "shared-memory pipeline stages">:$stages,
                        Hidet_GridField:$swizzle, Hidet_GridField:$split_k,
                        DefaultValuedParameter<"int64_t", "1",
                          "tf32 products per f32 product">:$tf32_terms);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::hidet::schedule::MmaMatmulSchedule &":$s)>
  ];
  let extraClassDeclaration = [{
    /// The schedule as plain data (Hidet/Schedule/MmaMatmulSpace.h).
    ::hidet::schedule::MmaMatmulSchedule toSchedule() const;
  }];
}

def Hidet_WgmmaMatmulAttr : AttrDef<Hidet_Dialect, "WgmmaMatmul"> {
  let mnemonic = "wgmma_matmul";
  let summary = "Schedule of the Hopper (wgmma) matmul template.";
  let description = [{
    The sm_90a matmul template for f16 and bf16 operands (f32 accumulation;
    f16, bf16 or f32 results) whose A has K and whose B has N contiguous:
    plain and batched matmuls, and convolutions as implicit GEMMs. A block
    computes a `block[0] x block[1]` tile of C with warp specialization:
    `block[0] / 64` consumer warpgroups each own 64 rows of the tile, whose
    accumulators one `wgmma.m64nNk16` per 16 of K updates (N = `block[1]`),
    and one producer warpgroup issues the loads. Its task mapping is

    ```
    spatial(block[0] / 64, 1) * <wgmma m64nN accumulator layout>
    ```

    Each K step of 64 elements (one 128-byte swizzle span) brings a
    `block[0] x 64` tile of A and a `64 x block[1]` tile of B into one of
    `stages` shared-memory stages, 128-byte swizzled (the layout wgmma
    reads), completing on the stage's "full" mbarrier; the consumers release
    a stage on its "empty" mbarrier once the wgmma that read it has retired.
    The loads are TMA boxes when both operands are row-major 2-D buffers
    (one thread issues them), and 16-byte `cp.async` copies otherwise (the
    producer's 128 threads compute the addresses, an im2col's too). Past the
    edges the loads fill zeros. Each consumer stores its rows through its
    own shared-memory chunk of 64 rows x 64 bytes, in coalesced rows.

    With `persistent = true` the grid has as many blocks as the SMs hold at
    once (at most one per tile), and each block walks the tiles `block_x + i * grid_x`: its
    producer fills the stages of the next tile while the consumers store the
    last; with one consumer warpgroup (`block[0] = 64`) the persistent grid
    has one block per SM. The grid fields are those of
    `#hidet.mma_matmul`: with `split_k = S` each output tile's K steps are
    cut into S slices, computed by separate tiles of the grid into an f32
    workspace, and a second kernel adds the slices to C in order.

    With `pingpong = true` (block M = 64, persistent) the two consumer
    warpgroups take the block's tiles in turns, each computing a whole
    64-row tile: while one converts and stores its tile (and applies a fused
    epilogue) the other runs its main loop, so the tensor cores do not wait
    for epilogues. An mbarrier orders their main loops: tile i's starts once
    tile i - 1's consumer has waited for all its stages.

    Example (128 x 256 tiles, 2 consumer warpgroups and a producer, 4
    stages of 48 KiB, persistent):

    ```mlir
    #hidet.wgmma_matmul<block = [128, 256], stages = 4, swizzle = 8,
                        persistent = true>
    ```
  }];
  let parameters = (ins Hidet_IntList:$block,
                        DefaultValuedParameter<"int64_t", "4",
                          "shared-memory stages">:$stages,
                        Hidet_GridField:$swizzle, Hidet_GridField:$split_k,
                        DefaultValuedParameter<"bool", "false",
                          "as many blocks as the SMs hold, walking the tiles">:$persistent,
                        DefaultValuedParameter<"bool", "false",
                          "two consumer warpgroups taking 64-row tiles in turns">:$pingpong);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "const ::hidet::schedule::WgmmaMatmulSchedule &":$s)>
  ];
  let extraClassDeclaration = [{
    /// The schedule as plain data (Hidet/Schedule/WgmmaMatmulSpace.h).
    ::hidet::schedule::WgmmaMatmulSchedule toSchedule() const;
  }];
}

//===----------------------------------------------------------------------===//
// Target
//===----------------------------------------------------------------------===//

def Hidet_TargetAttr : AttrDef<Hidet_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "The GPU the schedules are chosen and checked for.";
  let description = [{
    The one description of the target GPU. A pipeline writes it once, from
    its `chip` option, on the module as `hidet.target`
    (`hidet-set-target`); every pass that needs a limit (SM count, shared
    memory per block and per SM, registers, threads) or asks whether an
    instruction exists (cp.async, TMA, wgmma) reads it from the nearest
    enclosing op that carries one. Without one, passes use the default
    chip, sm_90a.

    The limits come from a table keyed by chip (`sm_80`, `sm_86`, `sm_89`,
    `sm_90`, `sm_90a`; Hidet/Schedule/Target.h); `num_sms` overrides the
    table's SM count (0, the default, keeps it), for parts of a chip with
    fewer multiprocessors (an H100 PCIe has 114).

    ```mlir
    module attributes {hidet.target = #hidet.target<chip = "sm_80">} { ... }
    module attributes {hidet.target = #hidet.target<chip = "sm_90a", num_sms = 114>} { ... }
    ```
  }];
  let parameters = (ins StringRefParameter<"chip name, as NVPTX spells it">:$chip,
                        DefaultValuedParameter<"int64_t", "0",
                          "multiprocessors (0: the chip's)">:$num_sms);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The chip's description, with `num_sms` applied.
    ::hidet::schedule::TargetLimits getLimits() const;
    /// The target of `op`: the `hidet.target` of `op` or of its nearest
    /// ancestor that has one, else the default chip's.
    static TargetAttr lookup(::mlir::Operation *op);
  }];
}

def Hidet_AttentionAttr : AttrDef<Hidet_Dialect, "Attention"> {
  let mnemonic = "attention";
  let summary = "Schedule of the fused attention template.";
  let description = [{
    Written by `hidet-select-schedules` as `hidet.attention` on the first
    batch matmul of an attention, `S = Q K^T` (with its fusion group's
    elementwise epilogue: a scale, a bias), when the ops after it are a
    softmax over the rows of `S` and a batch matmul `O = P V` of its result
    `P`: `hidet-schedule-anchors` then builds the three as one kernel
    (FlashAttention's), and neither `S` nor `P` reaches memory. A block
    owns `block_q` query rows of one batch, a warp 16 of them; it walks the
    keys `block_kv` at a time: `S` of that tile with mma.sync from `Q`'s
    fragments (held in registers) and the tile of `K` in shared memory,
    the running row maximum and sum of the softmax (rescaling the partial
    output when the maximum grows), then `O += P V` with `P`'s fragments
    taken from `S`'s accumulators. The operands' prologues (transposes,
    converts) and the second matmul's epilogue fold in as in the GEMM
    templates. f16 or bf16 operands, f32 accumulation; head sizes are
    multiples of 16 up to 128.

    ```mlir
    linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>, ...}
    ```
  }];
  let parameters = (ins "int64_t":$block_q, "int64_t":$block_kv);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Warps of a block: one per 16 query rows.
    int64_t numWarps() const { return getBlockQ() / 16; }
  }];
}

//===----------------------------------------------------------------------===//
// Fusion groups
//===----------------------------------------------------------------------===//

def Hidet_FusionRole : I32EnumAttr<"FusionRole",
    "The part an op plays in its fusion group", [
      I32EnumAttrCase<"anchor", 0>, I32EnumAttrCase<"prologue", 1>,
      I32EnumAttrCase<"epilogue", 2>]> {
  let cppNamespace = "::hidet";
  let genSpecializedAttr = 0;
}

def Hidet_FusionAttr : AttrDef<Hidet_Dialect, "Fusion"> {
  let mnemonic = "fusion";
  let summary = "An op's fusion group and its role in it";
  let description = [{
    Written by `hidet-partition` on every op of a fusion group, as
    `hidet.fusion`: the group's number (groups are numbered in the order
    their results are computed) and the op's role. A group has one
    *anchor* (a non-injective op, or an injective op that no other group
    took), *prologue* ops (injective producers whose every use is inside
    the group) and *epilogue* ops (a chain after the anchor, each bijective
    with respect to the value it takes from the group). The group is
    compiled into the anchor's kernel.

    Example (the bias and GELU after a matmul):

    ```mlir
    %mm = linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ...
    %y = linalg.generic {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>, ...} ...
    ```
  }];
  let parameters = (ins "int64_t":$group,
                        EnumParameter<Hidet_FusionRole>:$role);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // HIDET_DIALECT_HIDET_IR_HIDETATTRS_TD
