//===- TaskMappingAttrs.td - Task-mapping attributes -------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGATTRS_TD
#define HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGATTRS_TD

include "Hidet/Dialect/TaskMapping/IR/TaskMappingDialect.td"
include "Hidet/Dialect/TaskMapping/IR/TaskMappingInterfaces.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Mapping attributes
//===----------------------------------------------------------------------===//

class TaskMapping_MappingAttr<string name, string attrMnemonic>
    : TaskMapping_Attr<name, attrMnemonic,
                       [DeclareAttrInterfaceMethods<TaskMappingAttrInterface>]> {
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def TaskMapping_SpatialAttr : TaskMapping_MappingAttr<"Spatial", "spatial"> {
  let summary = "One task per worker: `prod(shape)` workers tile the grid.";
  let description = [{
    `#tm.spatial<[s0, ..., sd-1]>` has `prod(s)` workers; worker `w` owns the
    single task `t[i] = (w / stride[i]) % s[i]`, where the strides number the
    grid in the order given by `ranks` (row-major by default: the last
    dimension varies fastest between neighbouring workers).

    `ranks[i]` is the significance of dimension `i`: rank 0 is the outermost.
    `ranks = [1, 0]` gives the column-major numbering (Hidet's `col_spatial`).
    The attribute prints `ranks` only when it is not row-major.

    Example: `#tm.spatial<[2, 4]>` (8 workers, task shape `[2, 4]`)

    ```
    worker:  0     1     2     3     4     5     6     7
    task:   (0,0) (0,1) (0,2) (0,3) (1,0) (1,1) (1,2) (1,3)
    ```

    and `#tm.spatial<[2, 4], ranks = [1, 0]>` gives worker 1 the task (1,0).
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "extents">:$shape,
                        ArrayRefParameter<"int64_t", "dimension order">:$ranks);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape), [{
      return $_get($_ctxt, shape, ::llvm::to_vector(
          ::llvm::seq<int64_t>(0, shape.size())));
    }]>
  ];
}

def TaskMapping_RepeatAttr : TaskMapping_MappingAttr<"Repeat", "repeat"> {
  let summary = "One worker performs every task of the grid, in loop order.";
  let description = [{
    `#tm.repeat<[s0, ..., sd-1]>` has a single worker, which performs all
    `prod(s)` tasks in the order of a loop nest whose outermost loop walks the
    dimension of rank 0 (`ranks` as for `#tm.spatial`).

    `unroll` gives one hint per dimension for the loop that walks it when the
    mapping is lowered: `none` (keep the loop), `full` (unroll completely) or
    an integer factor `>= 2`. By default, as in Hidet, extents below 4 are
    unrolled completely and larger ones are kept; the attribute prints
    `unroll` only when it differs from that default.

    Example: `#tm.repeat<[2, 3]>` (1 worker, task shape `[2, 3]`)

    ```
    worker 0: (0,0) (0,1) (0,2) (1,0) (1,1) (1,2)
    ```

    `#tm.repeat<[2, 3], ranks = [1, 0]>` gives (0,0) (1,0) (0,1) (1,1) ...,
    and `#tm.repeat<[8, 8], unroll = [none, full]>` keeps the outer loop and
    unrolls the inner one.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "extents">:$shape,
                        ArrayRefParameter<"int64_t", "dimension order">:$ranks,
                        ArrayRefParameter<"int64_t",
                          "unroll hints: 1 none, 0 full, k >= 2 factor">:$unroll);
  let builders = [
    AttrBuilder<(ins "::llvm::ArrayRef<int64_t>":$shape), [{
      return get($_ctxt, ::hidet::algebra::TaskMapping::repeat(
          ::hidet::algebra::Shape(shape.begin(), shape.end())));
    }]>,
    AttrBuilder<(ins "const ::hidet::algebra::TaskMapping &":$mapping)>
  ];
  let extraClassDeclaration = [{
    /// The hints in the algebra's representation.
    ::hidet::algebra::LoopHints getLoopHints() const;
  }];
}

def TaskMapping_ComposeAttr : TaskMapping_MappingAttr<"Compose", "compose"> {
  let summary = "Composition `outer * inner` of task mappings.";
  let description = [{
    `#tm.compose<f0 * f1 * ... * fn>` composes mappings of the same rank,
    outermost first. Workers and task extents multiply. The inner mapping
    takes the fast-varying part of the worker id: for `outer * inner`, worker
    `w` runs `outer` as worker `w / inner.num_workers` and `inner` as worker
    `w % inner.num_workers`, and its tasks are
    `t_outer * inner.task_shape + t_inner` for every outer task (major) and
    every inner task (minor).

    Factors are written without the `#tm.` prefix (`spatial<...>`,
    `repeat<...>`, `project<...>`, `auto_map<...>`); any attribute that
    implements `TaskMappingAttrInterface` may also be written in full.
    Canonicalization of the ops that hold a composition flattens nested
    compositions, drops factors whose extents are all 1, and merges
    neighbouring `spatial * spatial` or `repeat * repeat` factors where that is
    an identity of the algebra.

    Example: `#tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>` (32 workers, task
    shape `[8, 8]`): worker 13 performs (1,5) then (5,5). The mma.sync
    m16n8k16 accumulator fragment is
    `#tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>>`, under
    which lane 13 owns (3,2) (3,3) (11,2) (11,3).
  }];
  let parameters = (ins
    ArrayRefParameter<"::hidet::tm::TaskMappingAttrInterface",
                      "factors, outermost first">:$factors);
}

def TaskMapping_ProjectAttr : TaskMapping_MappingAttr<"Project", "project"> {
  let summary = "A mapping with some task dimensions pinned to 0.";
  let description = [{
    `#tm.project<m, dims = [d...]>` has the workers and task order of `m`, but
    the listed dimensions of every task are replaced by 0 and their extent
    becomes 1. It lets a mapping over a larger grid drive a loop that ignores
    some of its dimensions (a broadcast operand, for instance). Tasks that
    differ only in a projected dimension become repeated tasks.

    Example: `#tm.project<spatial<[4, 8]>, dims = [1]>`: 32 workers, task
    shape `[4, 1]`; worker 13 owns (1,0).
  }];
  let parameters = (ins "::hidet::tm::TaskMappingAttrInterface":$base,
                        ArrayRefParameter<"int64_t", "pinned dims">:$dims);
}

//===----------------------------------------------------------------------===//
// GPU workers
//===----------------------------------------------------------------------===//

def TaskMapping_GPUWorker : I32EnumAttr<"GPUWorker",
    "GPU index that serves as the worker id of a mapping", [
      I32EnumAttrCase<"thread_x", 0>, I32EnumAttrCase<"thread_y", 1>,
      I32EnumAttrCase<"thread_z", 2>, I32EnumAttrCase<"block_x", 3>,
      I32EnumAttrCase<"block_y", 4>, I32EnumAttrCase<"block_z", 5>,
      I32EnumAttrCase<"lane", 6>, I32EnumAttrCase<"warp", 7>,
      I32EnumAttrCase<"global_x", 8>]> {
  let cppNamespace = "::hidet::tm";
  let genSpecializedAttr = 0;
}

def TaskMapping_GPUWorkerAttr : EnumAttr<TaskMapping_Dialect,
                                         TaskMapping_GPUWorker, "gpu_worker"> {
  let summary = "A GPU index used as worker id.";
  let description = [{
    `thread_x/y/z` and `block_x/y/z` are `gpu.thread_id` / `gpu.block_id`;
    `lane` is `gpu.lane_id`; `warp` is `thread_x / 32`; `global_x` is
    `block_x * block_dim_x + thread_x`.
  }];
}

#endif // HIDET_DIALECT_TASKMAPPING_IR_TASKMAPPINGATTRS_TD
