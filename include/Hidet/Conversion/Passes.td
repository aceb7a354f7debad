//===- Passes.td - Hidet conversion passes -----------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_CONVERSION_PASSES_TD
#define HIDET_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTaskMappingToSCF : Pass<"convert-tm-to-scf"> {
  let summary = "Lowers task-mapping ops to scf/arith index arithmetic.";
  let description = [{
    Lowers `tm.foreach`, `tm.repeat`, `tm.spatial`, `tm.num_workers` and
    `tm.task_shape` to `scf`, `arith` and, for GPU workers, `gpu` ops:

    - a GPU worker becomes `gpu.thread_id`/`gpu.block_id`/`gpu.lane_id`
      (`warp` = `thread_x / 32`, `global_x` = `block_x * block_dim_x + thread_x`);
    - each spatial coordinate is `(worker / stride) % extent`, computed once
      outside all loops; a remainder is omitted when the worker's bound
      proves it redundant, which removes the outermost modulo;
    - every non-unit dimension of a repeat factor becomes an `scf.for`, outer
      factors outermost; `full` hints unroll the loop completely (the body is
      emitted once per iteration with constant indices), factor hints unroll
      it with `scf` loop unrolling; extent-1 dimensions emit nothing;
    - task indices combine as `t = t_outer * s_inner + t_inner`;
    - `tm.foreach` is wrapped in `scf.if (worker < num_workers)` only when the
      worker's range is unknown or exceeds `num_workers`.

    ```mlir
    tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
        on %w upper_bound 32 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
    ```

    becomes (no guard, no outermost modulo, the 2-iteration loop unrolled):

    ```mlir
    %0 = arith.divui %w, %c8 : index
    %1 = arith.remui %w, %c8 : index
    "test.use"(%0, %1) : (index, index) -> ()
    %2 = arith.addi %0, %c4 : index
    "test.use"(%2, %1) : (index, index) -> ()
    ```
  }];
  let options = [
    Option<"maxUnrolledBodies", "max-unrolled-bodies", "int64_t",
           /*default=*/"4096",
           "Largest number of body copies that full unrolling may emit for "
           "one op; beyond it the lowering fails with an error">,
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

#endif // HIDET_CONVERSION_PASSES_TD
