//===- TaskMappingOps.td - TaskMapping operations ----------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGOPS_TD
#define HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGOPS_TD

include "Hidet/Dialect/TaskMapping/IR/TaskMappingDialect.td"
include "Hidet/Dialect/TaskMapping/IR/TaskMappingAttrs.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

//===----------------------------------------------------------------------===//
// Iteration ops
//===----------------------------------------------------------------------===//

def TaskMapping_ForEachOp : TaskMapping_Op<"foreach", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"::hidet::tm::YieldOp">]> {
  let summary = "Runs the body once for each task a worker owns.";
  let description = [{
    `tm.foreach` runs its body for every task that the worker owns under the
    mapping, in the mapping's order; the block arguments are the task indices
    (one `index` per dimension of the task shape). This is Hidet's
    `for i, j in mapping.on(worker)`.

    The worker is an SSA `index` value or a GPU index (`thread_x`, `block_x`,
    `lane`, `warp`, `global_x`, ...; see `#tm.gpu_worker`). Workers at or beyond
    `num_workers` own no tasks. `upper_bound N` states that the worker id is
    below `N`; with it, or when the worker comes from an op whose range is
    known (`gpu.thread_id` with a known block size, `gpu.lane_id`, a GPU
    worker inside a launch of known size), the verifier
    rejects a mapping that needs more workers than the range provides, and
    `convert-tm-to-scf` omits the bounds guard when the range fits.

    Example:

    ```mlir
    // 32 threads, each performing two tasks of an 8x8 tile:
    // thread 13 visits (1, 5) then (5, 5).
    tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
        on thread_x {
      %v = memref.load %src[%i, %j] : memref<8x8xf32>
      memref.store %v, %dst[%j, %i] : memref<8x8xf32>
    }
    tm.foreach (%i) in #tm.spatial<[64]> on %w upper_bound 128 {
      "test.use"(%i) : (index) -> ()
    }
    ```
  }];
  let arguments = (ins Optional<Index>:$worker,
                       TaskMappingAttrInterface:$mapping,
                       OptionalAttr<TaskMapping_GPUWorkerAttr>:$gpu_worker,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$upper_bound);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::hidet::tm::TaskMappingAttrInterface":$mapping,
                   "::mlir::Value":$worker,
                   CArg<"std::optional<int64_t>", "std::nullopt">:$upperBound)>,
    OpBuilder<(ins "::hidet::tm::TaskMappingAttrInterface":$mapping,
                   "::hidet::tm::GPUWorker":$gpuWorker)>
  ];
  let extraClassDeclaration = [{
    /// The task indices, one block argument per task dimension.
    ::mlir::Block::BlockArgListType getTaskIndices() {
      return getBody().front().getArguments();
    }
    /// An exclusive upper bound of the worker id that holds statically
    /// (the `upper_bound` attribute, or the range of the op that defines the
    /// worker), if any.
    std::optional<int64_t> getStaticWorkerBound();
  }];
}

def TaskMapping_RepeatOp : TaskMapping_Op<"repeat", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"::hidet::tm::YieldOp">]> {
  let summary = "Runs the body for every task of a repeat mapping.";
  let description = [{
    The primitive `#tm.repeat` mapping as an op: a loop nest over the task
    grid, outermost loop on the dimension of rank 0, one loop per dimension
    unrolled as the hint says. It needs no worker, as the repeat mapping has
    exactly one.

    Example:

    ```mlir
    tm.repeat (%i, %j) in <[2, 4], unroll = [full, none]> {
      "test.use"(%i, %j) : (index, index) -> ()
    }
    ```
  }];
  let arguments = (ins TaskMapping_RepeatAttr:$mapping);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasCanonicalizer = 1;
  let extraClassDeclaration = [{
    ::mlir::Block::BlockArgListType getTaskIndices() {
      return getBody().front().getArguments();
    }
  }];
}

def TaskMapping_SpatialOp : TaskMapping_Op<"spatial", [Pure]> {
  let summary = "The task of a worker under a spatial mapping.";
  let description = [{
    The primitive `#tm.spatial` mapping as an op: it returns the single task
    of `worker`, `t[i] = (worker / stride[i]) % shape[i]`. Like Hidet's
    `spatial(...).map(w)`, worker ids beyond `num_workers` wrap around; the
    lowering drops the outermost modulo only when the worker's range is known
    to fit.

    Example:

    ```mlir
    %lane = gpu.lane_id
    // p, q = col_spatial(16, 2).map(lane)
    %t:2 = tm.spatial <[16, 2], ranks = [1, 0]> on %lane
    ```
  }];
  let arguments = (ins Index:$worker, TaskMapping_SpatialAttr:$mapping);
  let results = (outs Variadic<Index>:$indices);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TaskMapping_YieldOp : TaskMapping_Op<"yield", [
    Pure, Terminator, ReturnLike,
    ParentOneOf<["ForEachOp", "RepeatOp"]>]> {
  let summary = "Terminates the body of a task loop.";
  let description = [{
    Ends the body of `tm.foreach` and `tm.repeat`; it is implicit in the
    custom syntax.
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

def TaskMapping_NumWorkersOp : TaskMapping_Op<"num_workers", [Pure]> {
  let summary = "Number of workers of a mapping.";
  let description = [{
    Folds to an `arith.constant`. Lets launch dimensions be derived from the
    mapping that a kernel iterates instead of being written twice.

    Example:

    ```mlir
    %n = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
    // canonicalizes to %n = arith.constant 32 : index
    ```
  }];
  let arguments = (ins TaskMappingAttrInterface:$mapping);
  let results = (outs Index:$result);
  let assemblyFormat = "$mapping attr-dict";
  let hasFolder = 1;
}

def TaskMapping_TaskShapeOp : TaskMapping_Op<"task_shape", [Pure]> {
  let summary = "Extents of the task grid of a mapping.";
  let description = [{
    Returns one `index` per dimension of the task shape; folds to constants.

    Example:

    ```mlir
    %m, %n = tm.task_shape #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
    // canonicalizes to arith.constant 8 : index (twice)
    ```
  }];
  let arguments = (ins TaskMappingAttrInterface:$mapping);
  let results = (outs Variadic<Index>:$extents);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGOPS_TD
