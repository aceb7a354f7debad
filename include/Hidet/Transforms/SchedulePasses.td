//===- SchedulePasses.td - Scheduling passes ---------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_SCHEDULE_PASSES_TD
#define HIDET_TRANSFORMS_SCHEDULE_PASSES_TD

include "mlir/Pass/PassBase.td"

def SetTarget : Pass<"hidet-set-target"> {
  let summary = "Writes the target GPU's description on the op.";
  let description = [{
    Writes `hidet.target = #hidet.target<chip = ..., num_sms = ...>` on the
    op it runs on (a pipeline runs it on the module, from its `chip`
    option). Every pass that needs a limit of the GPU or asks whether an
    instruction exists reads it from there (`TargetAttr::lookup`): the
    schedule selection, the template building and the schedule-space
    printer. An unknown chip is an error that lists the known ones.

    ```mlir
    // hidet-opt --hidet-set-target="chip=sm_80"
    module attributes {hidet.target = #hidet.target<chip = "sm_80">} { ... }
    ```
  }];
  let options = [
    Option<"chip", "chip", "std::string",
           /*default=*/"::hidet::schedule::kDefaultChip",
           "Target GPU (sm_80, sm_86, sm_89, sm_90, sm_90a)">,
    Option<"numSMs", "num-sms", "int64_t", /*default=*/"0",
           "Multiprocessors of the target GPU (0: the chip's; 132 on an H100 "
           "SXM, 114 on an H100 PCIe)">,
  ];
  let dependentDialects = ["::hidet::HidetDialect"];
}

def SelectSchedules : Pass<"hidet-select-schedules", "::mlir::func::FuncOp"> {
  let summary = "Chooses the schedule of every anchor op.";
  let description = [{
    The one place where schedules are chosen. For every anchor op on
    buffers that a template takes, and that has no `hidet.schedule`, writes
    the heuristic's schedule for the target (`#hidet.target`, see
    `hidet-set-target`) as `hidet.schedule`; a schedule already on the op
    (a user's or a tuner's) is kept and checked against the target's limits
    and instructions and against the op (element types, operand layouts,
    folded prologues), with an error naming the problem. Ops without a
    template get a remark saying why; the rule-based scheduler takes them.
    `hidet-schedule-anchors` then builds what is written, so the IR between
    the two passes is where a schedule can be inspected or edited.

    The anchor is read as its kernel will read it: with `fuse`, the
    producers of its inputs in its `#hidet.fusion` group are folded in
    first (as `hidet-schedule-anchors` does), so an elementwise prologue,
    which is applied to loaded values in registers, leads to a
    register-staged schedule.

    Attentions come first (option `attention`, with `fuse`): a
    `linalg.batch_matmul` S = Q K^T whose result, through its group's
    elementwise epilogue, is read only by the ops of a softmax over its
    rows, whose result is the first operand of a batch matmul O = P V,
    gets `hidet.attention = #hidet.attention<...>` (64 query rows and 64
    keys a step) when its operands are f16 or bf16 with head sizes that
    are multiples of 16 up to 128; neither matmul gets a `hidet.schedule`,
    and `hidet-schedule-anchors` builds the three as one kernel. A
    schedule written on either matmul keeps them apart. With tuning records,
    a record keyed by the attention's signature (`attention(<Q K^T's
    signature>; <P V's signature>)`) gives its #hidet.attention; records of
    the single matmuls do not keep the fusion from happening. Each attention
    gets a remark.

    Templates by element types:

    - f32 x f32 -> f32: the paper's SIMT template (`#hidet.simt_matmul`),
      or with option `tf32` the tensor-core template in tf32 (m16n8k8);
    - f16 x f16 or bf16 x bf16 -> f16, bf16 or f32: on a chip with wgmma
      (sm_90a), the Hopper template (`#hidet.wgmma_matmul`) when its
      operands allow it (K-major A, N-major B in 16-byte pieces, no
      elementwise prologue) and the output has at least 64 rows; the
      tensor-core template (`#hidet.mma_matmul`, mma.sync m16n8k16)
      otherwise.

    With `tuning-records=FILE`, an anchor without a written schedule whose
    signature (what its kernel computes and reads, its fused ops) and chip
    have a record takes the record's schedule instead of the heuristic's.
    A file that cannot be read or is not a records file of a known version
    is an error; a malformed record is reported (a warning naming its
    index) and skipped; a record whose schedule does not parse or does not
    verify against the anchor and the target is reported on the anchor and
    the heuristic's schedule is taken.

    Hopper heuristic: of nine tiles from 128x256 to 64x64, each split
    along K into 1 to 16 slices of at least 4 K steps, the one with the
    least estimated time (waves of one block per SM times the tile's area
    over its measured efficiency, plus a split's reduction), 4 stages,
    groups of 8 tile rows;
    a persistent 128x256 pick (at most 16 K steps) becomes pingpong 64x256
    tiles, epilogue or not (measured faster there, slower with longer K
    loops). Two consumers of 64x256 accumulators take the
    producer's registers (setmaxnreg). A convolution whose window has
    several taps of at least 64 channels each (3x3 layers) takes 64-row
    tiles instead: pingpong 64x256 from 256 output channels, one 64-row
    tile of all N below, when there are at least a quarter as many tiles
    as SMs (option `conv-row-tiles`).

    Heuristic of the other templates: the largest of four tile shapes that
    is not mostly padding and gives at least 90% of the target's SMs a
    block (SIMT: 128x128, 64x64, 32x64, 16x32; tensor core:
    128x128, 128x64, 64x64, and 16x64 for outputs of at most 128 rows),
    else the last; the fallback tile, or one that leaves an SM idle, is
    split along K until the SMs hold two blocks each, as many as fit, or
    4 K steps per slice remain. Tiles go in groups of 8 rows. The
    tensor-core template copies with a 3-stage cp.async pipeline when the
    operands' rows allow 4-byte copies, and stages through registers
    otherwise (convolutions, elementwise prologues).

    Example: after `hidet-select-schedules` on sm_80,

    ```mlir
    linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32],
        warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
        ins(%a, %b : ...) outs(%c : ...)
    ```
  }];
  let options = [
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Run f32 anchors without a written schedule on the tensor cores "
           "in tf32 (m16n8k8: inputs rounded to 10-bit mantissas, f32 "
           "accumulation) instead of the SIMT template">,
    Option<"tf32Terms", "tf32-terms", "int64_t", /*default=*/"1",
           "With tf32: the tf32 products per f32 product of the schedules "
           "chosen, 1 or 3 (each operand split into its tf32 rounding and "
           "the rest: exact products for three times the mma work, summed "
           "by the tensor cores' truncating accumulation; "
           "#hidet.mma_matmul's tf32_terms)">,
    Option<"convRowTiles", "conv-row-tiles", "bool", /*default=*/"true",
           "Give convolutions whose window has several taps of at least 64 "
           "channels (3x3 layers) 64-row wgmma tiles; off: the GEMM "
           "model's tiles">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Read each anchor with its fusion group's prologue folded in, as "
           "hidet-schedule-anchors{fuse=1} builds it">,
    Option<"tuningRecords", "tuning-records", "std::string", [{""}],
           "A tuning records file (docs/Tuning.md): an anchor without a "
           "written schedule whose signature and chip have a record takes "
           "the record's schedule, once it verifies">,
    Option<"signatures", "signatures", "bool", /*default=*/"false",
           "Emit a remark with each anchor's signature, the key of its "
           "tuning records">,
    Option<"attention", "attention", "bool", /*default=*/"true",
           "With fuse: give each attention (a batch matmul Q K^T whose "
           "scores, through its epilogue, feed a softmax over their rows "
           "and then the batch matmul P V) the fused attention template "
           "(#hidet.attention on Q K^T) instead of three kernels">,
  ];
  let dependentDialects = ["::hidet::HidetDialect"];
}

def PlanTuning : Pass<"hidet-plan-tuning", "::mlir::ModuleOp"> {
  let summary = "Writes the tuning plan of the module's anchors.";
  let description = [{
    The first step of tuning (docs/Tuning.md): for every anchor without a
    written schedule, reads it as `hidet-select-schedules` does (with its
    fusion group's prologue, on the target of `#hidet.target`), and
    enumerates its candidate schedules at the level `space` (`default`:
    the heuristic's; `small`: tens around it; `full`: the template's
    space), keeping those that fit the anchor and the target, the
    heuristic's first. Anchors with equal signatures share their
    candidates. Writes, to the directory `dir`:

    - `plan.json`: the chip, the level and, for each signature, its
      candidates and the names of the kernels that its anchors become
      (`<template>_<node>` and `splitk_reduce_<node>`), by which a profile
      (`hidet-run --profile`) times them;
    - `round-<i>.json` for i from 0: a tuning records file that gives every
      signature its i-th candidate (round 0: the heuristic's schedules).

    A library compiled with `--tuning-records=round-<i>.json` runs round
    i's candidates, each in the kernels of its anchors. With `known`, the
    signatures that file holds a current measurement of (by this tuner's
    version) are left out and counted in the plan's `known`. The IR is not
    changed. A directory that cannot be written, or a `known` file that
    cannot be read, is an error.
  }];
  let options = [
    Option<"dir", "dir", "std::string", [{""}],
           "The directory to write plan.json and the rounds' records to">,
    Option<"space", "space", "std::string", [{"small"}],
           "The candidates of each anchor: default, small or full">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "As hidet-select-schedules{tf32}">,
    Option<"tf32Terms", "tf32-terms", "int64_t", /*default=*/"1",
           "As hidet-select-schedules{tf32-terms}">,
    Option<"convRowTiles", "conv-row-tiles", "bool", /*default=*/"true",
           "Give convolutions whose window has several taps of at least 64 "
           "channels (3x3 layers) 64-row wgmma tiles; off: the GEMM "
           "model's tiles">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "As hidet-select-schedules{fuse}">,
    Option<"known", "known", "std::string", [{""}],
           "A records file of earlier tuning (a cache): anchors whose "
           "signature and chip have a record measured by this tuner's "
           "version are not planned again">,
    Option<"attention", "attention", "bool", /*default=*/"true",
           "As hidet-select-schedules{attention}: an attention it fuses is "
           "one entry, its #hidet.attention block sizes the candidates, and "
           "its two batch matmuls are not planned">,
  ];
}

def ScheduleAnchors : Pass<"hidet-schedule-anchors", "::mlir::func::FuncOp"> {
  let summary = "Builds the kernels of anchor ops from their schedules.";
  let description = [{
    Every anchor op on buffers that carries a `hidet.schedule` (written by
    `hidet-select-schedules`, a user or a tuner) becomes the GPU kernel its
    schedule's template builds (`ScheduleAttrInterface::buildKernel`),
    written with task mappings; the schedule is recorded on the kernel's
    launch. The pass chooses nothing: anchors without a schedule are left
    to `hidet-rule-based-schedule`. A schedule is checked again against the
    target (`#hidet.target`) and the op before it is built, so one edited
    after selection cannot build a wrong kernel.

    Anchors are read as batched GEMMs, `C[b, m, n] += A[b, m, k] *
    B[b, k, n]`, with an address function per operand:

    - `linalg.matmul` with any operand maps (transposed A or B),
      `linalg.batch_matmul`, and `linalg.generic` contractions with one m,
      n and k loop and at most one batch loop, which one operand may lack
      (it is then broadcast to every batch);
    - `linalg.conv_2d_nhwc_hwcf` and `linalg.conv_2d_nchw_fchw` with any
      stride and dilation, as implicit GEMMs whose im2col indexing is
      computed in the loads of A (padding is a separate `tensor.pad`).

    All operands must be static buffers with the identity layout. The
    templates:

    - `#hidet.simt_matmul`: the paper's SIMT template, f32;
    - `#hidet.mma_matmul`: the tensor-core template (mma.sync m16n8k16 for
      f16 and bf16 operands, f32 accumulation, ldmatrix from XOR-swizzled
      shared memory; m16n8k8 in tf32 for f32 operands, where fragments of
      tiles that are not k-major in shared memory are read element by
      element, since ldmatrix cannot transpose 32-bit values);
    - `#hidet.wgmma_matmul` (sm_90a): the Hopper template for f16 or bf16
      GEMMs of K-major A and N-major B whose rows are multiples of 16
      bytes: TMA (or cp.async) loads into 128-byte-swizzled stages that
      complete on mbarriers, a producer warpgroup and 64-row consumer
      warpgroups running wgmma, the epilogue through shared memory.

    The SIMT and mma.sync templates handle any M, N, K (zero-filled loads,
    predicated stores) and keep two shared-memory stages fed through
    registers; the tensor-core template can instead pipeline N stages with
    cp.async (`stages = N`). Both take the grid fields `swizzle` (grouped
    tile order) and `split_k` (K slices summed by a second kernel, or in the
    kernel itself: option `split-k-in-kernel`). A
    `linalg.fill` of C right before the anchor becomes the accumulators'
    start value.

    Epilogue fusion (option `fuse`, on by default): the ops that follow an
    anchor in its `#hidet.fusion` group (written by `hidet-partition` before
    bufferization) are applied to each result inside the anchor's kernel,
    which then runs where the chain's last op was and stores only the
    chain's result. Each op is re-indexed through its inverse index map
    (reshaped views keep offsets), its side inputs are loaded at their own
    maps (on the Hopper path as vectors when positions are kept), and its
    payload is inlined; with split-K whatever adds the slices applies it. On
    buffers the chain is checked again: an op that reads the previous value
    through a non-permutation, whose intermediate buffer is read elsewhere,
    that writes a buffer the kernel reads, or that an op in between
    conflicts with, ends the chain, with a remark naming it and the reason.
    An op that moves the innermost dimension elsewhere (a transpose that
    makes C's rows columns) would make the kernel store C's elements one by
    one, far apart: it is fused only when the anchor's output is at most
    `scatter-max-bytes` (where a launch costs more than the scattered
    stores), and otherwise left to a transpose kernel of its own.

    Prologue fusion (same option): the index-only producers of a
    contraction's inputs in its group (a transpose, broadcast or copy whose
    payload yields one input unchanged) are folded into the kernel's reads,
    which then address the producer's source through the composed index
    map: the async copies stay raw byte copies and the temporary is never
    written. Chains of them fold from the anchor outwards. An elementwise
    producer that computes each element from one element of one input (a
    cast, a scale, an activation) folds the same way, and its payload is
    applied to each value the kernel loads, in registers and only inside the
    operand's edges; raw byte copies cannot do that, so the heuristic then
    picks a register-staged schedule (mma.sync with `stages` = 0, or SIMT),
    and a written cp.async or Hopper schedule keeps the producer a kernel.
    A producer whose result is used elsewhere, whose source is written
    between it and the anchor or by the anchor's kernel, or that combines
    several inputs, stays a separate kernel, with a remark. A convolution's
    input (im2col addressing) takes one prologue: a zero padding (a
    bufferized `tensor.pad`: a +0.0 fill of a temporary and a copy of the
    source into its interior), which becomes a shift of the source address
    and a predicate that reads 0 outside the source's rows and columns.
    When bufferization reused the source's buffer for the convolution's
    output, the output from its fill on gets a new buffer. A slice of a
    contraction's input (a static `memref.subview`, from
    `tensor.extract_slice`) needs no prologue: the kernel addresses the
    sliced buffer at the slice's strides and offset.

    ```mlir
    linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32],
        warp = [64, 64], mma = [16, 8, 16], swizzle = 8>}
        ins(%a, %b : ...) outs(%c : ...)
    ```
    }];
  let options = [
    Option<"reduceBlockSize", "reduce-block-size", "int64_t",
           /*default=*/"256",
           "Threads per block of the split-K reduction kernel (a multiple "
           "of 32 in [32, 1024])">,
    Option<"splitKInKernel", "split-k-in-kernel", "bool", /*default=*/"false",
           "With split-K, add the K slices in the GEMM kernel: the warp "
           "that stores its part of a tile last (a counter per part, the "
           "kernel's hidet.persistent_counters) adds the slices in order and "
           "applies the epilogue; by default a second kernel adds them (on "
           "the H100 it was 6-16% faster on whole models at batch 1)">,
    Option<"wgmmaTmaB", "wgmma-tma-b", "bool", /*default=*/"true",
           "In the wgmma template, load B by TMA beside A's cp.async "
           "copies where A needs cp.async (an implicit GEMM's im2col rows) "
           "and B is a 2-D row-major matrix or collapses to one (a "
           "convolution's HWCF filter) whose 64 x 64 boxes are whole (K "
           "and N multiples of 64); off: cp.async loads both">,
    Option<"wgmmaAsyncArrive", "wgmma-async-arrive", "bool",
           /*default=*/"true",
           "In the wgmma template's cp.async producer, each thread arrives "
           "on a step's full mbarrier as its copies land "
           "(cp.async.mbarrier.arrive.noinc) instead of waiting for them "
           "(cp.async.wait_group), so that S - 1 steps of copies may be in "
           "flight instead of S - 2; the consumers then fence each stage for "
           "the async proxy after waiting for it. Off: the producer waits "
           "for its copies (cp.async.wait_group S - 2) and arrives">,
    Option<"attentionSkipMasked", "attention-skip-masked", "bool",
           /*default=*/"false",
           "In a fused attention whose scores' epilogue selects a constant "
           "of at most -1e4 (a mask, as GPT-2's causal one), a warp skips "
           "the key tiles whose every score the epilogue would mask: it "
           "evaluates the epilogue on a zero score at its positions first "
           "(their softmax weights underflow to 0 in f32)">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Fuse each anchor's #hidet.fusion group into its kernel: the "
           "epilogue chain applied to the results, index-only and "
           "elementwise prologues folded into the reads (instead of "
           "separate kernels)">,
    Option<"scatterMaxBytes", "scatter-max-bytes", "int64_t",
           /*default=*/"262144",
           "Largest anchor output, in bytes, whose epilogue may move the "
           "innermost dimension (a K^T of attention), its elements then "
           "stored one by one; larger ones leave that op to a transpose "
           "kernel that stores coalesced (0: never)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::math::MathDialect", "::mlir::vector::VectorDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::LLVM::LLVMDialect", "::hidet::tm::TaskMappingDialect",
    "::hidet::HidetDialect"];
}

def PrintScheduleSpace : Pass<"hidet-print-schedule-space"> {
  let summary = "Prints the schedule space of every anchor op.";
  let description = [{
    For every anchor op (on tensors or buffers), prints to standard output
    its GEMM view (batch x M x N x K and element types), its template, the
    size of the template's hardware-centric schedule space for the target
    (candidates from hardware values: warp counts, lane shapes, per-thread
    or per-warp tiles, K steps, mma shape, swizzle, split-K; filtered by
    threads, shared memory and registers), the schedule the heuristic picks
    for the op's shape, the schedule written on the op if any, and, with
    `list=1`, every schedule of the space as an attribute a user or tuner
    can write on the op. Anchors without a template say so. The IR is left
    unchanged.

    ```
    anchor linalg.conv_2d_nhwc_hwcf 100352x64x576 f16 x f16 -> f16: template wgmma_matmul, 182 schedules
      default: #hidet.wgmma_matmul<block = [128, 64], swizzle = 8, persistent = true>
    ```
  }];
  let options = [
    Option<"list", "list", "bool", /*default=*/"false",
           "Print every schedule of the space">,
    Option<"convRowTiles", "conv-row-tiles", "bool", /*default=*/"true",
           "Give convolutions whose window has several taps of at least 64 "
           "channels (3x3 layers) 64-row wgmma tiles; off: the GEMM "
           "model's tiles">,
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Print f32 anchors' tensor-core (tf32) space, as "
           "hidet-select-schedules{tf32=1} would schedule them">,
  ];
  let dependentDialects = ["::hidet::HidetDialect"];
}

def SummarizeKernels : Pass<"hidet-summarize-kernels", "::mlir::ModuleOp"> {
  let summary = "Writes what each GPU kernel is and what it fused, as JSON.";
  let description = [{
    For every `gpu.launch` of the module, in order, reads the `hidet.kernel`
    dictionary that the schedulers write on it (its kind: the template or
    rule that built it; for a template, the anchor op it computes (its
    name without the dialect) and its GEMM's extents; the
    kinds of the ops fused into it) and the recorded schedule
    (`hidet.schedule`, `hidet.attention`), and writes a JSON object to
    `file` (`-`: standard output):

    ```json
    {
      "kernels": [
        {
          "name": "graph_wgmma", "function": "graph",
          "kind": "wgmma", "anchor": "matmul",
          "gemm": {"batch": 1, "m": 512, "n": 768, "k": 768, "taps": 1},
          "schedule": "#hidet.wgmma_matmul<block = [128, 128], stages = 4>",
          "prologue": [], "epilogue": ["broadcast"],
          "features": "wgmma wgmma.matmul wgmma.tma epilogue.broadcast"
        }
      ]
    }
    ```

    `features` is the kernel's coverage, which differential testing counts
    over random graphs (utils/difftest.sh): its kind; for a template
    `<kind>.<anchor>` (`matmul`, `batched`, `conv`), the schedule's choices
    (`<kind>.split_k`, `wgmma.persistent`, `wgmma.pingpong`, and
    `wgmma.conv_64_rows`: 64-row tiles of a convolution whose window has
    several taps of at least 64 channels) and the Hopper loads (`wgmma.tma`, `wgmma.tma_b`,
    `wgmma.cp_async`); and the fused ops' kinds (`prologue.<k>`,
    `epilogue.<k>` and, for an attention, `scores.<k>` and
    `softmax.zero_nan_rows`, the NaN rows of its softmax zeroed). A launch without
    the dictionary (written by hand) has kind `unknown`. The IR is not
    changed; a file that cannot be written is an error.
  }];
  let options = [
    Option<"file", "file", "std::string", [{"-"}],
           "Where to write the summary (-: standard output)">,
  ];
}

def RuleBasedSchedule : Pass<"hidet-rule-based-schedule", "::mlir::func::FuncOp"> {
  let summary = "Turns every linalg op on buffers into a GPU kernel written "
                "with task mappings.";
  let description = [{
    The rule-based scheduler of Hidet (its section 4), for every structured
    linalg op on memrefs that no template has scheduled. Each op becomes one
    `gpu.launch` whose body iterates its tasks with `tm.foreach`; launch
    sizes are computed from the mapping (`tm.num_workers`), never written as
    constants.

    - **Injective ops** (all iterators parallel: elementwise, broadcast,
      transpose, fill, copy, cast, ...): one task per output element on the
      global thread id, `#tm.spatial<[output shape]>`. When the innermost
      loop walks the innermost, contiguous dimension of every operand that
      uses it and its extent divides, each task covers `vector-bytes` bytes
      of the widest element type: `vector.load`/`vector.store` for
      contiguous operands, a scalar load and `vector.broadcast` for operands
      that do not depend on the innermost loop.
    - **Permuted injective ops** (transposes): when an input is contiguous
      along a loop dimension other than the output's innermost one, each
      block stages a `transpose-tile` square of it through shared memory
      (rows padded by one element): read along the input's contiguous
      dimension, barrier, written along the output's, so both global
      accesses coalesce.
    - **Reductions** whose reduced dimensions include the innermost
      dimension of the reduced input and whose combiner is a single
      associative arith op (`matchReduction`): one warp per output element;
      lanes stride over the reduction with
      `#tm.compose<repeat<[ceil(R/32)]> * spatial<[32]>>`, starting from the
      combiner's neutral element, then combine with a `gpu.shuffle xor`
      butterfly; lane 0 combines with the initial value and stores. Rows of
      at least `block-reduce-min` elements are reduced by a whole block
      instead: the warps' partials meet in shared memory.
    - **Row groups**: a run of consecutive ops on the same rows (elementwise
      over `[rows..., n]`, reductions over `n`, elementwise ops and fills
      over `[rows...]`) that contains a reduction, such as a decomposed
      softmax or layer norm, becomes one kernel: a warp per row runs the
      ops in program order, every lane walking the columns with the same
      mapping and vector width (so it reads back only its own writes), row
      values computed and stored by every lane. When each lane holds at
      most `row-register-elements` of a row, the group's temporaries and
      the buffers it accesses whole more than once (a softmax's input and
      output) stay in per-lane registers between its ops: each is loaded
      at most once and only its last write reaches memory.
    - **Other reductions** (a middle axis, a pooling or depthwise
      convolution window, several outputs, a payload the warp path cannot
      split): one thread per output element with a sequential loop, which
      keeps neighbouring threads on neighbouring addresses. A window (at
      most `serial-unroll-max` steps per output) has its loops unrolled,
      and when every operand that the output's innermost dimension indexes
      is contiguous along it (the channels of an NHWC pooling or depthwise
      convolution), a thread computes `vector-bytes` of consecutive
      outputs with vector loads; longer reductions keep a thread per
      output, so that more loads are in flight.

    A reduction is an anchor: with `fuse` (on by default), the epilogue
    chain of its `#hidet.fusion` group is applied to each result in its
    kernel, as `hidet-schedule-anchors` does for the templates, with the
    same checks and remarks. A reduction starts from the constant of a
    `linalg.fill` of its output right before it instead of running the
    fill. A serial reduction also folds a constant padding of an input (a
    bufferized `tensor.pad`: a fill of a temporary and a copy into its
    interior), reading the source and taking the padding value past its
    edges; a padding it cannot fold gets a remark. Reductions are scheduled
    before the other ops, so that they find their groups still as linalg
    ops. Row groups come first and take row-wise chains whole.

    Ops with dynamic shapes are left alone with a remark.
  }];
  let options = [
    Option<"blockSize", "block-size", "int64_t", /*default=*/"256",
           "Threads per block of the generated kernels">,
    Option<"vectorBytes", "vector-bytes", "int64_t", /*default=*/"16",
           "Bytes per thread per access in injective kernels: 1, 2, 4, 8 "
           "or 16 (1 disables vectorization)">,
    Option<"transposeTile", "transpose-tile", "int64_t", /*default=*/"64",
           "Side of the shared-memory tile of permuted injective ops, a "
           "power of two >= 32 (1 disables the tiled rule)">,
    Option<"fuseRows", "fuse-rows", "bool", /*default=*/"true",
           "Schedule row groups (softmax, layer norm, ...) as one kernel">,
    Option<"rowRegisterElements", "row-register-elements", "int64_t",
           /*default=*/"64",
           "Elements of a row-group temporary each lane may keep in "
           "registers; longer rows keep it in memory">,
    Option<"blockReduceMin", "block-reduce-min", "int64_t",
           /*default=*/"8192",
           "Smallest reduced extent reduced by a whole block (warps combine "
           "through shared memory) instead of a warp">,
    Option<"warpReduceMin", "warp-reduce-min", "int64_t", /*default=*/"32",
           "Smallest reduced extent reduced by a warp instead of a thread">,
    Option<"fuse", "fuse", "bool", /*default=*/"true",
           "Apply each reduction's epilogue chain (its #hidet.fusion group) "
           "to the results in its kernel instead of separate kernels, fold "
           "the fill of its output, and fold the paddings of a serial "
           "reduction's inputs">,
    Option<"serialUnrollMax", "serial-unroll-max", "int64_t",
           /*default=*/"64",
           "Serial reductions of at most this many steps per output (a "
           "window) have their loops unrolled and their outputs computed "
           "in vectors; 0 keeps every loop and scalar">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::gpu::GPUDialect",
    "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect", "::mlir::affine::AffineDialect",
    "::mlir::linalg::LinalgDialect", "::hidet::tm::TaskMappingDialect"];
}

#endif // HIDET_TRANSFORMS_SCHEDULE_PASSES_TD
