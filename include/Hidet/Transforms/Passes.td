//===- Passes.td - Hidet graph-to-kernel passes ------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_TRANSFORMS_PASSES_TD
#define HIDET_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MaterializePersistentCounters
    : Pass<"hidet-materialize-persistent-counters", "::mlir::ModuleOp"> {
  let summary = "Gives each kernel's persistent counters a module global.";
  let description = [{
    Replaces each `hidet.persistent_counters` (created inside a `gpu.launch`
    by function passes, which may not add symbols to the module) with a
    `memref.get_global` of a new private, zero-initialized `memref.global`
    of the module, named after the launch's kernel (`<kernel>_counters`,
    renamed if taken). `gpu-kernel-outlining` copies the global into the
    kernel's module; the GPU loads it with zeros when it loads the module,
    and the kernel keeps it zero between launches.

    ```mlir
    // Before:
    gpu.launch ... function(@main_wgmma) {
      %c = hidet.persistent_counters : memref<32xi32>
    // After:
    memref.global "private" @main_wgmma_counters : memref<32xi32> = dense<0>
    gpu.launch ... function(@main_wgmma) {
      %c = memref.get_global @main_wgmma_counters : memref<32xi32>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

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

    Hopper heuristic: of seven tiles from 128x256 to 64x128, the one with
    the least estimated time (waves of one block per SM times the tile's
    area over its measured efficiency), 4 stages, groups of 8 tile rows;
    a persistent 128x256 pick (at most 16 K steps) becomes pingpong 64x256
    tiles, epilogue or not (measured faster there, slower with longer K
    loops). Two consumers of 64x256 accumulators take the
    producer's registers (setmaxnreg).

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
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Print f32 anchors' tensor-core (tf32) space, as "
           "hidet-select-schedules{tf32=1} would schedule them">,
  ];
  let dependentDialects = ["::hidet::HidetDialect"];
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
    same checks and remarks. A serial reduction also folds a constant
    padding of an input (a bufferized `tensor.pad`: a fill of a temporary
    and a copy into its interior), reading the source and taking the
    padding value past its edges, and starts from the constant of a
    `linalg.fill` of its output right before it instead of running the
    fill; a padding it cannot fold gets a remark. Reductions are scheduled
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
           "to the results in its kernel instead of separate kernels, and "
           "fold the paddings of a serial reduction's inputs and the fill "
           "of its output">,
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

def HostBuffersToDevice : Pass<"hidet-host-buffers-to-device",
                               "::mlir::func::FuncOp"> {
  let summary = "Places the host function's temporary buffers in device "
                "memory.";
  let description = [{
    After scheduling, every kernel reads and writes device memory, and the
    host function only passes buffers around. This pass rewrites the host
    function's `memref.alloc`/`memref.dealloc` into `gpu.alloc`/
    `gpu.dealloc`, copies `memref.get_global` constants into device buffers
    once per call (`gpu.memcpy`), and turns a remaining `memref.copy`
    between device buffers into `gpu.memcpy`. Function arguments are assumed
    to be device buffers (the calling convention of the GPU library).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

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
    before it. Reductions and
    named ops (contractions, convolutions) are neither fused nor absorbed:
    `hidet-partition` groups them afterwards, and an elementwise DAG after an
    anchor has become one bijective op that joins its epilogue chain.

    Example: the five generics of BERT's GELU (divide, erf, add, multiply,
    multiply) become one, the epilogue of the matmul before it.
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

def ResultsInPlace : Pass<"hidet-results-in-place", "::mlir::func::FuncOp"> {
  let summary = "Computes results returned through a reshape in their output "
                "buffers.";
  let description = [{
    After `buffer-results-to-out-params`, a result that the function
    returned as a reshape of its own allocation (a GEMM computed on 2-D rows
    and returned as batch x tokens x features) is a copy of that reshape
    into the output buffer: upstream hoists only allocations returned as
    they are. This pass replaces the allocation with the inverse reshape of
    the output buffer (`memref.collapse_shape` for an `expand_shape`, and
    the reverse) and drops the copy, so the producers write the output
    directly. It applies where the output buffer is a function argument
    used by the copy alone, both layouts are the identity, the allocation
    is static, and every other use of the allocation comes before the copy
    in its block (its deallocations are dropped with it).

    Example:

    ```mlir
    %a = memref.alloc() : memref<32x24xf32>
    linalg.matmul ins(...) outs(%a : memref<32x24xf32>)
    %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] ...
    memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32>
    ```

    becomes

    ```mlir
    %a = memref.collapse_shape %out [[0, 1], [2]] : memref<4x8x24xf32> into memref<32x24xf32>
    linalg.matmul ins(...) outs(%a : memref<32x24xf32>)
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def CopiesToLinalg : Pass<"hidet-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Rewrites memref.copy as linalg.copy.";
  let description = [{
    Bufferization writes copies (for example of `tensor.pad`'s source into
    its padded buffer) as `memref.copy`. Outside GPU kernels these become
    `linalg.copy`, a structured op like any other: the GPU schedulers give
    it a kernel, and the CPU reference lowers it to loops, where a
    `memref.copy` between strided buffers would call the C runner library.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def PipelineSharedCopies
    : Pass<"hidet-pipeline-shared-copies", "::mlir::func::FuncOp"> {
  let summary = "Turns the synchronous global-to-shared copies of a K loop "
                "into an N-stage cp.async pipeline.";
  let description = [{
    Takes each `scf.for` marked `hidet.pipeline_stages = N` (N in [2, 8]),
    whose body the templates write synchronously:

    ```mlir
    scf.for %k = ... {hidet.pipeline_stages = 3 : i64} {
      gpu.barrier            // the tile about to be overwritten was read
      <vector.transfer_read (global, masked) + vector.transfer_write (shared)>
      gpu.barrier            // the copies are visible
      <math reading the shared tiles>
    }
    ```

    and pipelines it:
    - the copies become `nvgpu.device_async_copy` in one commit group per
      iteration (upstream `nvgpu::createAsyncGroups`; a masked read becomes
      a copy with that many source elements, the rest zero-filled);
    - each shared tile they write (a workgroup `memref.alloc`) gets N
      buffers (upstream `memref::multiBuffer`);
    - the loop is software-pipelined (upstream `scf::pipelineForLoop`): the
      copies of the first N - 1 iterations form a prologue, each iteration
      waits until at most N - 2 groups are pending, synchronizes once,
      issues the copies N - 1 iterations ahead and runs its math. Copies
      past the last iteration are predicated to copy nothing (their groups
      still count), so there is no epilogue and any trip count works; a
      wait for all groups follows the loop.

    A marked loop of another form, or copies that cp.async cannot do (it
    moves 4, 8 or 16 bytes), is an error.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
}

def WorkgroupAllocsToDynamicShared
    : Pass<"hidet-workgroup-allocs-to-dynamic-shared", "::mlir::func::FuncOp"> {
  let summary = "Places a kernel's workgroup allocations in dynamic shared "
                "memory.";
  let description = [{
    The templates allocate their shared tiles with `memref.alloc` in the
    workgroup address space inside a `gpu.launch`, the form upstream
    transformations such as `memref::multiBuffer` work on. This pass gives
    each such allocation its place in the block's dynamic shared memory: a
    `memref.view` of `gpu.dynamic_shared_memory` at an offset aligned to
    `alignment` bytes, and adds their sizes to the launch's
    `dynamic_shared_memory_size`. Deallocations of them are dropped.

    Unlike workgroup attributions (static shared memory, at most 48 KiB),
    dynamic shared memory may grow to what the GPU allows after an opt-in
    (227 KiB on sm_90), which the runtime does at launch.

    ```mlir
    gpu.launch ... {
      %a = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
    ```
    becomes
    ```mlir
    gpu.launch ... dynamic_shared_memory_size %c8192_i32 {
      %0 = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
      %a = memref.view %0[%c0][] : memref<?xi8, #gpu.address_space<workgroup>>
          to memref<2x64x32xf16, #gpu.address_space<workgroup>>
    ```

    An allocation with a dynamic shape or a non-identity layout, or a
    launch whose dynamic shared memory size is not a constant, is an error.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"128",
           "Byte alignment of each buffer (a power of two, at least 16: "
           "cp.async and ldmatrix need 16)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ExternDynamicShared
    : Pass<"hidet-extern-dynamic-shared", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Declares a GPU module's dynamic shared memory as the "
                "external symbol that PTX places after static shared memory.";
  let description = [{
    A kernel's dynamic shared memory (`gpu.dynamic_shared_memory`) starts
    after its static shared variables (workgroup attributions, the
    `nvgpu.mbarrier.create` barriers): PTX gets its address from an
    `.extern .shared` array of unknown size. Upstream's NVVM lowering
    declares the symbol with internal linkage, which the NVPTX backend
    emits as a one-byte static variable; ptxas then places it at the start
    of static shared memory, so that the dynamic buffers overlap the
    kernel's other static variables (in the Hopper template, its stage
    buffers overlapped its mbarriers).

    This pass, run on a `gpu.module` before `convert-gpu-to-nvvm`, declares
    that symbol itself with external linkage (a zero-sized i8 array in
    address space 3, aligned to 16 bytes), which the lowering then reuses:

    ```mlir
    gpu.module @kernels {
      llvm.mlir.global external @__hidet_dynamic_shared()
          {addr_space = 3 : i32, alignment = 16 : i64} : !llvm.array<0 x i8>
    ```
    and PTX reads `.extern .shared .align 16 .b8 __hidet_dynamic_shared[];`.
    A module without `gpu.dynamic_shared_memory` is left unchanged.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def OutlineKernels : Pass<"hidet-outline-kernels", "::mlir::ModuleOp"> {
  let summary = "Upstream's gpu-kernel-outlining, keeping the launches' "
                "nvvm.* attributes on the kernels.";
  let description = [{
    A template that plans its kernel for a number of resident blocks per SM
    records that promise on its `gpu.launch` as `nvvm.minctasm` (with the
    block size that `known_block_size` gives, ptxas then keeps the kernel's
    registers within `65536 / (blocks x threads)`). Upstream's
    `gpu-kernel-outlining` creates the `gpu.func` without the launch's
    attributes; this pass runs it and moves every attribute of the `nvvm`
    namespace of each outlined launch onto its kernel, from where
    `convert-gpu-to-nvvm` carries it to the `llvm.func` and the NVPTX back
    end to PTX (`.minnctapersm`):

    ```mlir
    gpu.launch blocks(...) in (...) threads(...) in (...) {
      ...
    } {nvvm.minctasm = 2 : i32}
    // becomes
    gpu.launch_func @k::@k blocks in (...) threads in (...) args(...)
    gpu.module @k {
      gpu.func @k(...) kernel attributes {known_block_size = ...,
                                          nvvm.minctasm = 2 : i32} {...}
    }
    ```

    Other attributes of a launch are dropped as upstream drops them.
    `hidet-lower-gpu` runs it where it would run `gpu-kernel-outlining`.
  }];
}

def GpuModuleToBinary : Pass<"hidet-gpu-module-to-binary"> {
  let summary = "Serializes gpu.modules to gpu.binary ops, in parallel.";
  let description = [{
    Upstream's `gpu-module-to-binary`, with the same options and the same
    result, but serializing the gpu.modules nested directly in the op in
    parallel (on the context's thread pool). For each module and target it
    calls the same `TargetAttrInterface::serializeToObject` (for NVVM:
    LLVM's NVPTX back end, then `ptxas` for `bin` and `fatbin`), then
    creates the objects and the `gpu.binary` ops in the modules' order.
    A model's pipeline outlines a module per kernel, and their
    serialization dominates its compile time; upstream serializes them one
    after the other. `hidet-lower-gpu` runs it where upstream's NVVM
    pipeline runs `gpu-module-to-binary`.

    The `format` option takes upstream's values: `offloading` or `llvm`,
    `assembly` or `isa`, `binary` or `bin`, `fatbinary` or `fatbin`.
  }];
  let options = [
    Option<"toolkitPath", "toolkit", "std::string", [{""}],
           "Toolkit path (as gpu-module-to-binary)">,
    ListOption<"linkFiles", "l", "std::string",
               "Extra files to link to (as gpu-module-to-binary)">,
    Option<"cmdOptions", "opts", "std::string", [{""}],
           "Command line options to pass to the tools (as "
           "gpu-module-to-binary)">,
    Option<"compilationTarget", "format", "std::string", [{"fatbin"}],
           "The target representation of the compilation process (as "
           "gpu-module-to-binary)">,
    Option<"elfSection", "section", "std::string", [{""}],
           "ELF section where the binary is to be located (as "
           "gpu-module-to-binary)">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def RemfToLibdevice
    : Pass<"hidet-remf-to-libdevice", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Calls libdevice's fmod for the floating-point remainders "
                "of GPU kernels.";
  let description = [{
    `arith.remf` (C's `fmod`, ONNX `Mod` with `fmod = 1`) has no PTX
    instruction. Upstream's NVVM lowering maps it to libdevice's
    `__nv_fmodf`, but `gpu-lower-to-nvvm-pipeline` converts arith to LLVM
    before it, and the `llvm.frem` that results is illegal there. This pass,
    run on a `gpu.module` before that pipeline, calls libdevice itself:
    f32 and f64 remainders become calls of `__nv_fmodf` and `__nv_fmod`,
    16-bit ones are computed in f32 and rounded once, and vectors element
    by element.

    ```mlir
    %r = arith.remf %x, %y : f32
    ```
    becomes
    ```mlir
    %r = func.call @__nv_fmodf(%x, %y) : (f32, f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect",
                           "::mlir::vector::VectorDialect"];
}

def AccumulateInF32
    : Pass<"hidet-accumulate-in-f32", "::mlir::func::FuncOp"> {
  let summary = "Gives 16-bit matmuls and convolutions on tensors f32 "
                "accumulators.";
  let description = [{
    The GPU templates accumulate f16 and bf16 products in f32 whatever the
    result type; upstream's loops accumulate in the result type. This pass,
    which the CPU pipeline runs so that the reference computes what the GPU
    does, rewrites each `linalg.matmul`, `linalg.batch_matmul` and named
    convolution on tensors whose result is f16 or bf16 into the same op with
    an f32 result (its init extended to f32; named ops extend their 16-bit
    operands in their bodies) followed by one rounding to the 16-bit type.
    A `linalg.generic` contraction of floats (an Einsum's) is built again
    the same way, with a body that extends both operands to f32.

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>)
                       outs(%c : tensor<4x2xf16>) -> tensor<4x2xf16>
    ```
    becomes an `arith.extf` generic of `%c`, the matmul into
    `tensor<4x2xf32>`, and an `arith.truncf` generic back to f16.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def PlanDeviceMemory : Pass<"hidet-plan-device-memory",
                            "::mlir::func::FuncOp"> {
  let summary = "Places a host function's device temporaries in one arena "
                "that the caller provides, shared by liveness.";
  let description = [{
    After `hidet-host-buffers-to-device`, every temporary of a public host
    function is a `gpu.alloc` released at the end of the function. This
    pass gives each one a byte offset in a single workspace buffer, passed
    by the caller as a new last argument `memref<?xi8>` marked
    `hidet.workspace`: the temporaries become `memref.view`s of it and the
    `gpu.alloc`/`gpu.dealloc` pairs disappear, so a call allocates nothing
    and can be captured in a CUDA graph.

    Live ranges are the positions, in the function's entry block, of a
    buffer's first and last use: uses of any value that an op of the block
    derives from it count (a view, a TMA descriptor or a pointer, which a
    later launch may take instead of the buffer), and a use inside a region
    counts at its top-level ancestor. Kernels run in
    program order on one stream, so buffers whose live ranges are disjoint
    share bytes. The placement is greedy by size (Hidet/Analysis/MemoryPlan.h).
    Writing in place is decided earlier, by one-shot bufferization (an op
    whose destination operand is an input's tensor writes into that
    buffer), so here every buffer is planned apart from the ones it is live
    with.

    The function gets `hidet.workspace = {size, intermediates, buffers}`:
    the arena's size and the sum of the planned buffers' sizes in bytes, and
    how many buffers were planned. `hidet-compile` writes the size into the
    library's manifest. Temporaries with dynamic shapes, non-identity
    layouts or outside the entry block are left as they are; private
    functions are left alone (their callers would need the argument).

    ```mlir
    %0 = gpu.alloc () : memref<4x8xf32>
    ...
    gpu.dealloc %0 : memref<4x8xf32>
    ```
    becomes, with `%ws: memref<?xi8> {hidet.workspace}` the new argument,
    ```mlir
    %c0 = arith.constant 0 : index
    %0 = memref.view %ws[%c0][] : memref<?xi8> to memref<4x8xf32>
    ```
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment of every buffer in the arena, in bytes (a power of "
           "two, at least 16 for TMA)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def ConstantsToWeights : Pass<"hidet-constants-to-weights",
                              "::mlir::ModuleOp"> {
  let summary = "Turns the large constants of public functions into weight "
                "arguments that a runtime uploads once.";
  let description = [{
    A constant tensor of a GPU library that stays a constant is copied from
    host memory to the device on every call. This pass makes each
    non-splat `arith.constant` of a public function with more than
    `max-inline-elements` elements an input of the function (after the
    existing inputs) marked `hidet.weight = "<name>"`, with its value kept in
    `hidet.weight_value`. `hidet-compile` moves the values into the library
    (a weights image in the format of `hidet/Weights.h`) and lists the
    arguments as `weight` in the manifest; the runtime uploads them to the
    device once, when a model is loaded.

    Names come from the constant's `dense_resource` key, else `weight<N>`,
    made unique and restricted to manifest tokens (letters, digits, `_`,
    `.`). Element types must be those of the manifest (f32, f16, bf16, f64,
    i32, i64, i8, i1; `hidet-compile` stores i1 values a byte per element);
    splats stay constants, and unused constants are not made inputs. A
    function whose arguments include any that are not tensors is left
    alone. `hidet-compile` runs it with `max-inline-elements=0`: a constant
    left in a GPU library is copied from the host on every call, which a
    CUDA graph cannot replay.
  }];
  let options = [
    Option<"maxInlineElements", "max-inline-elements", "int64_t",
           /*default=*/"16",
           "Constants with at most this many elements stay constants">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // HIDET_TRANSFORMS_PASSES_TD
