//===- GraphPasses.td - Graph passes before scheduling -----*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_GRAPH_PASSES_TD
#define HIDET_TRANSFORMS_GRAPH_PASSES_TD

include "mlir/Pass/PassBase.td"

def FastMath : Pass<"hidet-fast-math", "::mlir::func::FuncOp"> {
  let summary = "Lets kernels use approximate division and math functions.";
  let description = [{
    Adds the fast-math flags `arcp` (division may use a reciprocal), `afn`
    (math functions may be approximated) and `contract` (multiply-add may
    fuse) to every floating-point arith and math op inside a `gpu.launch`,
    the counterpart of nvcc's `--use_fast_math` for division and math
    functions. It never adds `nnan`, `ninf`, `nsz` or `reassoc`: results
    change by a few ulps, never by reordering or by assuming finite values.
    (16-bit `math.tanh` is left to `hidet-narrow-math`, which approximates
    it with or without this pass.)
    Off by default in `hidet-gpu-pipeline` (`fast-math=1` turns it on); host
    code and the CPU reference are not touched.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def NarrowMath : Pass<"hidet-narrow-math", "::mlir::func::FuncOp"> {
  let summary = "Computes 16-bit math functions and divisions in kernels "
                "only as accurately as a 16-bit result needs.";
  let description = [{
    Upstream lowers a `math.tanh` on f16 or bf16 by extending it to f32 and
    calling libdevice's `__nv_tanhf`, accurate to 2 f32 ulps at about 22
    instructions per element; in a GEMM epilogue such as GELU they cost as
    much as the main loop's tail. Inside a `gpu.launch` the pass replaces the
    op (scalar or vector) by `llvm.intr.tanh` with `afn`, which the NVPTX
    backend lowers to `tanh.approx.f32` between the conversions: one
    special-function instruction per element. Checked on the H100 against
    libm on every finite input (`tanh-every-input.mlir` of the GPU tests):
    bf16 results are all equal, f16 results within 1 ulp, 70 of 63,488 of
    them 1 ulp off.

    A 16-bit `arith.divf` in a kernel, which upstream computes in f32 with
    the IEEE division (`div.rn.f32`, a dozen instructions and a branch to a
    slow path), is computed with the hardware's full-range approximate one,
    `div.full.f32` (at most 2 f32 ulps off; Triton's default division),
    between the conversions. On an H200, a 4096x3072x768 f16 GEMM with
    BERT's bias and erf-GELU epilogue (`x / 1.414` inside) took 0.048 ms
    with it against 0.063 ms with the IEEE division (bias alone: 0.032 ms).
    The result is the correctly rounded one but where the
    quotient lies within 2 f32 ulps of a midpoint between 16-bit values
    (`divide-every-input.mlir` of the GPU tests bounds it by 1 ulp).

    With `exp2-tanh` the op is expanded instead, in f32, as
    `1 - 2 / (1 + exp2(2 log2(e) x))` with `ex2.approx.ftz` and
    `rcp.approx.ftz`, and `x` itself for |x| < 2^-7: about 8 instructions
    and two special-function ones per element, 15 f16 inputs 1 ulp off (bf16:
    none). Large |x| saturate to exactly +-1, NaN and -0 are kept in both
    forms. f32 math and host code are not touched. Part of
    `hidet-gpu-pipeline` (its `exp2-tanh` option is this one).
  }];
  let options = [
    Option<"exp2Tanh", "exp2-tanh", "bool", /*default=*/"false",
           "Expand 16-bit tanh with exp2 and a reciprocal (fewer inputs 1 ulp "
           "off for f16, two special-function instructions instead of one)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def MergeProjections : Pass<"hidet-merge-projections", "::mlir::func::FuncOp"> {
  let summary = "Merges the matmuls of one input by constant weights into one.";
  let description = [{
    The `linalg.matmul` ops on tensors of a function that start from zeros
    and read the same left operand and a float constant as the right one,
    with the same K and element types (attention's query, key and value
    projections; a gated MLP's gate and up projections), become one matmul
    of the constants side by side (`[K, N_1 + N_2 + ...]`, a new
    `dense_resource`), and each old result a `tensor.extract_slice` of its
    columns: one GEMM launch instead of several, each reading `x` again.
    Where every member's result is read only by the addition of a constant
    bias along its last dimension (through the same `tensor.expand_shape`,
    or directly), the biases are merged too and the slices are taken after
    the one addition, which then joins the GEMM's epilogue. Projections
    whose values an elementwise computation combines (a gated MLP's
    `silu(gate) * up`) stay apart: the second GEMM takes the combination
    as its epilogue, reading the first's result, where merged they would
    need a kernel of their own reading two column ranges back.

    The weights must be constants: a function argument cannot be
    concatenated once for all calls. `hidet-compile` runs this pass before
    constants become weights (`hidet-constants-to-weights`), also when the
    weights go to a file of their own; where slices of the merged GEMM are
    large enough to fill the GPU alone, `hidet-slice-producers` computes it
    slice by slice again.

    Example: Llama's `q_proj`, `k_proj` and `v_proj` of the normalized
    hidden states, `[64, 64] x [64, 64]`, `[64, 32]` and `[64, 32]`, become
    one `[64, 64] x [64, 128]` and three slices; its `gate_proj` and
    `up_proj` stay two GEMMs.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FoldOperandScales : Pass<"hidet-fold-operand-scales",
                              "::mlir::func::FuncOp"> {
  let summary = "Moves constant scalar scales of matmul operands to the "
                "result.";
  let description = [{
    Attention scales its queries and keys by `1 / sqrt(sqrt(d))` each
    before their product (PyTorch's `scaled_dot_product_attention` as the
    ONNX exporter writes it). Each scale is an elementwise op between a
    head transpose and the batch matmul: a kernel of its own, which the
    GEMM templates could only take as a prologue applied in registers (no
    async copies), and which keeps the transpose before it from folding
    into the matmul's reads.

    A `linalg.matmul` or `linalg.batch_matmul` on tensors that starts from
    a `+0.0` fill and reads an operand that is `c * x` (or `x / c`), with
    `c` a constant scalar, through a chain of static `tensor.collapse_shape`
    and `tensor.expand_shape` ops that nothing else reads, reads `x`
    through the same reshapes instead (a reshape that undoes the previous
    one folds away), accumulates into f32, and its result is multiplied by
    the product of the operands' constants, in f32, then rounded to its
    type: an elementwise op that `hidet-partition` takes as an epilogue.
    Scaling the f32 sums once is also more accurate than scaling each f16
    operand. The multiplication is not moved where the contraction starts
    from anything but zeros (its init would be scaled too).

    Example: `batch_matmul(collapse(mul(expand(q), 0.35)),
    collapse(mul(k_t, 0.35)))` over f16 becomes `truncf(0.125 *
    batch_matmul(q, collapse(k_t)))`, the matmul into f32.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PropagateTransposes : Pass<"hidet-propagate-transposes",
                                "::mlir::func::FuncOp"> {
  let summary = "Moves linalg.transpose ops on tensors down to their inverses.";
  let description = [{
    A layout change written as transposes around an op (the ONNX importer's
    channels-last convolutions, `--conv-layout=nhwc`) costs a kernel and a
    round trip through memory per transpose unless the transposes between
    two such ops cancel. This pass moves each transpose down through the ops
    that can take its input in the other layout, until it meets its inverse:

    - a transpose of a transpose is one transpose, or none;
    - a `linalg.generic` reads a transpose's input directly, through its
      indexing map composed with the transpose's (a generic with reductions
      only when the same loop still walks the operand's contiguous dim: a
      global average pool of an NHWC tensor keeps reducing contiguous rows
      of an NCHW one);
    - an all-parallel `linalg.generic` with one result that it does not read,
      whose full-rank inputs are all read through one permutation (and none
      in loop order), computes in that permutation's order: it reads those
      inputs in their own order, writes its result in that order, and a
      transpose back follows it (and moves on);
    - a `tensor.pad` with a constant value pads the transpose's input;
    - `linalg.pooling_nchw_max` and `linalg.pooling_nchw_sum` of an NHWC
      tensor's transpose become the NHWC poolings;
    - a transpose of a `linalg.fill` is a fill;
    - a transpose that a `linalg.matmul` or `linalg.batch_matmul` reads is
      read through the contraction's indexing map instead, when the
      transpose's rows are not a multiple of 16 bytes and its input's are
      (attention's K^T over 197 tokens): the GEMM templates then load the
      input with aligned vectors. Aligned transposes stay, for the
      templates that read one layout only (wgmma's N-major B).

    A transpose that meets no inverse (a graph output, a reduction, a
    contraction's operand) then moves up through a pad or a collapse_shape
    that only it reads and joins its producer when that is an all-parallel
    generic whose only use it is: the generic writes its result transposed,
    one kernel instead of two.

    Example: `conv_nhwc -> transpose(NCHW) -> relu -> transpose(NHWC) ->
    conv_nhwc` becomes `conv_nhwc -> relu -> conv_nhwc`, all NHWC.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SliceProducers : Pass<"hidet-slice-producers", "::mlir::func::FuncOp"> {
  let summary = "Computes a value read only through disjoint slices slice "
                "by slice.";
  let description = [{
    A model may compute several values as one op and split its result: GPT-2
    computes the query, key and value projections as one `linalg.matmul`
    (and one bias add) and slices the result in three. Each slice then
    reaches its consumers (a head transpose) through a copy, and the
    transposes cannot fuse into the GEMM, whose result has three readers.

    When every use of a value on tensors is a static, unit-stride
    `tensor.extract_slice` that keeps the rank, and no two slices share an
    element, this pass computes each slice by a clone of the value's
    producer on slices of its operands (through the tiling interface): a
    GEMM on a column slice of its weight, a bias add on a slice of its bias,
    a fill of a smaller tensor. Slices of a `tensor.expand_shape` or
    `tensor.collapse_shape` of such a producer move above the reshape first.
    No element is computed twice, and every slice's consumers can fuse into
    the anchor that produces it.

    Producers are structured linalg ops on tensors with one result. A value
    that is also read whole, or through overlapping or dynamic slices, or
    through a slice smaller than `min-elements`, is left alone: small
    GEMMs take about the same time whatever their width, so three of them
    cost more than one and the transposes (GPT-2 small at batch 1, slices of
    128 x 768: 0.823 ms split against 0.749 ms whole on the H200; at batch
    32, 4096 x 768: 3.155 against 3.57 ms).

    Example: `%c = matmul(%a, %w : 768x2304)`, read by three
    `extract_slice %c[0, 768 i] [4096, 768]`, becomes three
    `matmul(%a, extract_slice %w[0, 768 i] [768, 768])`.
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"1 << 20",
           "Smallest slice, in elements, that is computed on its own">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def DistinctResults : Pass<"hidet-distinct-results", "::mlir::func::FuncOp"> {
  let summary = "Gives every result of a function on tensors a value of its "
                "own.";
  let description = [{
    A function may return one value at several positions: two graph outputs
    bound to the same tensor, or two that fold to the same value (a sum over
    a dimension of extent 1 scaled by 1, returned before and after the
    scaling). Bufferized, that is one buffer returned twice, while the
    compiled library's calling convention gives each output a buffer of its
    own (`buffer-results-to-out-params`, which crashes on a buffer returned
    twice).

    This pass returns a copy (`linalg.copy` into a new `tensor.empty`) at
    every position of a value after its first.

    Example: `return %r, %r` becomes `return %r, %c` with
    `%c = linalg.copy ins(%r) outs(tensor.empty())`.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def UnshareInits : Pass<"hidet-unshare-inits", "::mlir::func::FuncOp"> {
  let summary = "Gives every use of a linalg.fill or tensor.empty on tensors "
                "one of its own.";
  let description = [{
    CSE merges identical destinations: the zero fills that start several
    contractions' accumulators become one `linalg.fill` with several uses,
    and the `tensor.empty` ops that the elementwise ops write into become
    one. Bufferized, the shared fill is a kernel of its own and each
    contraction gets a copy of its buffer; the shared `tensor.empty` is one
    allocation that every op whose value is dead by then writes in place,
    so that unrelated values share a buffer and a later reader of one of
    them keeps the fusion of another from dropping its store.

    This pass clones a fill (and the `tensor.empty` it fills) right before
    each of its users but the first, so that each contraction starts from
    its own fill, which the anchor templates fold into the accumulators'
    start; then it does the same for each `tensor.empty`, so that every
    value gets a buffer of its own. The device memory plan
    (`hidet-plan-device-memory`) shares memory between buffers by liveness
    afterwards. Fills on buffers are left alone.

    Example: one `linalg.fill` read by three `linalg.matmul`s becomes three
    fills, one before each matmul; one `tensor.empty` that two
    `linalg.generic`s write becomes two.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FoldSliceConcats : Pass<"hidet-fold-slice-concats",
                             "::mlir::func::FuncOp"> {
  let summary = "Makes a concatenation of slices one elementwise op.";
  let description = [{
    A concatenation, a chain of `tensor.insert_slice` ops with unit strides
    that tiles a `tensor.empty` along one dimension, whose every piece is a
    `tensor.extract_slice` of a tensor along that dimension alone (the other
    dimensions whole), optionally through a one-input elementwise
    `linalg.generic` (a negation), becomes one `linalg.generic` over the
    result: at each position it reads the element its piece takes
    (`tensor.extract` at the position shifted into the source, clamped into
    the piece so that no read is out of bounds; one read where all pieces
    come from one tensor), applies the piece's op, and selects the piece the
    position is in; a slice of a `linalg.transpose` is read from the
    transpose's input, so that the transpose is not written out for it.
    `hidet-fuse-elementwise` then joins it with its elementwise readers.

    Example: the rotary embedding's `rotate_half(x) = cat(-x[..., 8:],
    x[..., :8])`, as the ONNX exporters write it (two slices, a `Neg`, a
    `Concat`), becomes one op computing `x[..., d < 8 ? d + 8 : d - 8]`,
    negated where `d < 8`, which joins `x * cos + rotate_half(x) * sin`:
    one kernel for the embedding of Q or K where there were five.

    Concatenations of values that are not slices are left alone: each piece
    is then computed into its place of the result.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseElementwise : Pass<"hidet-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Fuses chains and DAGs of elementwise linalg.generic ops.";
  let description = [{
    Upstream's elementwise fusion (`populateElementwiseOpsFusionPatterns`),
    restricted to a producer and a consumer that are both `linalg.generic`
    ops on tensors with only parallel loops: the consumer then computes the
    producer's value itself. A producer that several elementwise ops read
    (the `x` of `x * 0.5 * (1 + erf(x / sqrt(2)))`) is recomputed in each,
    which is cheap beside the memory traffic of a kernel per op. A producer
    that anything else also reads (a normalization, a contraction) is not
    fused: it would stay for that reader and be computed again in each
    fused consumer, and in a chain of residual adds
    (`x_k+1 = x_k + f(LayerNorm(x_k))`) each add would recompute the chain
    before it. A reduction `linalg.generic` absorbs an elementwise producer
    that nothing else reads (RMSNorm's `x * x` under its sum), before the
    elementwise ops fuse: a norm's input that an elementwise op computes
    (the embedding lookup before Llama's first norm) then has the reduction
    among its readers and stays one op, not computed again in the norm's
    last op. A reduction is not fused into anything. Named ops (contractions, convolutions) are neither
    fused nor absorbed: `hidet-partition` groups them afterwards, and an
    elementwise DAG after an anchor has become one bijective op that joins
    its epilogue chain.

    First, the unit dimensions of elementwise generics are dropped
    (upstream's `dropUnitDims`, on those ops only): statistics kept as
    `[rows, 1]` (ONNX's `keepdims`) and computed on there become ops on
    `[rows]` that fuse with the rest of their normalization.

    Example: the five generics of BERT's GELU (divide, erf, add, multiply,
    multiply) become one, the epilogue of the matmul before it; Llama's
    RMSNorm (square, mean, + eps, sqrt, reciprocal, two products) becomes a
    sum of squares and one elementwise op, which `hidet-partition` makes
    one row group.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def Partition : Pass<"hidet-partition", "::mlir::func::FuncOp"> {
  let summary = "Groups a tensor graph into fusion groups around anchor ops.";
  let description = [{
    Hidet's post-scheduling fusion, the decision: partitions the ops of a
    function on tensors that implement `FusibleOpInterface` into fusion
    groups, each to become one kernel, and writes each op's group and role
    as `hidet.fusion = #hidet.fusion<group = N, role = R>`. Other ops
    (`tensor.empty`, constants, calls, and ops on buffers, which
    communicate through memory rather than SSA values) belong to no group.

    1. Every non-injective op (a contraction, a convolution, a reduction)
       anchors a group.
    2. Epilogues, for each anchor in order: while a value the group
       produces has exactly one use, by an unassigned op that is bijective
       with respect to it (`getInverseIndexMap`) and takes no other value
       of the group, that op joins as an epilogue and its result replaces
       the value.
    3. Prologues, for each anchor in order: while a value the group reads
       is produced by an unassigned injective op whose results are used
       only inside the group, that op joins as a prologue.
    4. Leftovers, from the last op back: an unassigned op anchors a new
       group and takes its prologues (so an island of elementwise ops is
       one group, anchored at its last op).

    Groups are numbered in the order of their last op. A value with more
    than one use ends an epilogue chain (it is kept, not recomputed), an op
    that reads a group value through a broadcast is not an epilogue, and a
    reduction is never a prologue: it anchors its own group. With
    `remarks`, each group is reported on its anchor.

    With `prologue-transposes`, rule 2 skips a `linalg.transpose` that moves
    the innermost dimension into an output whose rows are not a multiple of
    16 bytes (the widest copy) and whose one use is an input of a contraction:
    rule 3 then makes it that contraction's prologue, which reads the
    transpose's source in place. As an epilogue its stores would scatter,
    or (a large output) it would be a transpose kernel of its own writing
    rows of an unaligned pitch that the contraction reads without vector
    copies (ViT-B/16's K^T: 197 keys).

    Example: `gelu(x @ w + b)` as a matmul (its `linalg.fill` a prologue)
    and one generic for the bias and GELU (the epilogue): one group.
  }];
  let options = [
    Option<"remarks", "remarks", "bool", /*default=*/"false",
           "Emit a remark on each group's anchor listing its ops">,
    Option<"prologueTransposes", "prologue-transposes", "bool",
           /*default=*/"false",
           "Leave a linalg.transpose that moves the innermost dimension into "
           "rows that are not a multiple of 16 bytes, and whose one use is a "
           "contraction's input, to that contraction's prologue rather than "
           "its producer's epilogue (ViT's K^T, 197 keys)">,
  ];
  let dependentDialects = ["::hidet::HidetDialect"];
}

def DecomposeAggregates : Pass<"hidet-decompose-aggregates",
                               "::mlir::func::FuncOp"> {
  let summary = "Decomposes aggregated linalg ops (softmax) into generics.";
  let description = [{
    Calls `AggregatedOpInterface::decomposeOperation` on ops such as
    `linalg.softmax`, so that the schedulers see only structured ops.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def CheckIndices : Pass<"hidet-check-indices", "::mlir::ModuleOp"> {
  let summary = "Checks at run time the tensor indices that come from data.";
  let description = [{
    A `tensor.extract` whose index is computed from data (the indices of a
    gather or an embedding lookup, read from an input) reads outside its
    tensor when the data holds an index out of range: a fault, or a wrong
    value that nothing reports. For each such index this pass

    - clamps the index of the read into `[0, extent)`, so that no access
      ever leaves the tensor, whatever the data;
    - computes, beside the op that holds the read (a linalg op, or the
      function's top level), an `i64` status of the unclamped indices: 0
      when every index was in range, else `~p` (`-1 - p`) for the first
      position `p` (row-major, over the loops the indices depend on) whose
      index was not. The index computations are cloned into a
      `linalg.generic` that gives each position the code `~p` where an
      index is out of range and 0 elsewhere, and reduces the codes with
      `arith.maxui`: one reduction over the index operand, collapsed to
      rows, when it is the only operand read and is read in loop order (a
      gather's indices), else an elementwise op that writes the codes and
      a reduction of them;
    - returns each status as one more result of the function, after its
      results, annotated `hidet.check = {node, input, extent}`: the name of
      the ONNX node that read (its location's name), the function argument
      whose elements the positions are (when the index tensor is an argument
      seen through reshapes and elementwise casts, and not a weight: an
      index array the exporter computed, passed as `hidet.weight`, is no
      input of the caller's), and the extent of the
      indexed dimension (when one index is checked and its extent is
      static). hidet-compile lists these results as `check` statements of
      the library's manifest, and the model runtime turns a non-zero status
      into an error naming the input (runtime/include/hidet/Model.h).

    Only pure linalg, tensor and arith ops are added, so the check runs
    wherever the function runs, on the GPU and on the CPU alike. An index is
    not checked when it does not depend on data (computed from `linalg.index`
    and constants: slices, pads, resizes) or when its range, inferred with
    upstream's `InferIntRangeInterface` from the elements of constant
    operands and the extents of the loops, is inside the dimension.

    Only public functions that nothing calls get status results; a
    data-dependent index elsewhere (a called function, a region nested
    inside a linalg body) is an error. hidet-compile runs this pass unless
    `--check-indices=0`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def SinkScalarReads : Pass<"hidet-sink-scalar-reads", "::mlir::func::FuncOp"> {
  let summary = "Reads the scalars that only linalg bodies use inside them.";
  let description = [{
    A `tensor.extract` at a function's top level (outside any linalg op)
    is a read of a buffer by the host code once the function is
    bufferized, and on the GPU that buffer is device memory, which the host
    cannot read. When the scalar (and the scalar arithmetic computed from
    it at the top level) is used only inside the bodies of linalg ops, this
    pass clones the read and that arithmetic into each of those bodies, so
    that every kernel reads the scalar itself. A scalar that has any other
    use stays (`hidet-host-buffers-to-device` then rejects the host read).
    Upstream sinks into regions only through `RegionBranchOpInterface`
    (`control-flow-sink`) or into `gpu.launch`, neither of which covers
    linalg ops on tensors.

    Example: `%s = tensor.extract %scale[]` used by a `linalg.generic` that
    multiplies by `%s` becomes a `tensor.extract %scale[]` in the body of
    that generic.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // HIDET_TRANSFORMS_GRAPH_PASSES_TD
