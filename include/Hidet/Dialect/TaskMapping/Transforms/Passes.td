//===- Passes.td - TaskMapping passes ----------------------*- tablegen -*-===//
//
// Part of the Hidet-MLIR project.
//
//===----------------------------------------------------------------------===//

#ifndef HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_TD
#define HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def PrintTaskTable : Pass<"tm-print-task-table"> {
  let summary = "Prints the worker -> tasks table of every task mapping.";
  let description = [{
    Finds every task-mapping attribute held by an op (directly or inside an
    array or dictionary attribute), in program order and without repetition,
    and prints to standard output its number of workers, its task shape and
    the ordered tasks of each worker. The IR is left unchanged.

    ```mlir
    tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
        on thread_x { ... }
    ```

    prints

    ```
    mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.foreach)
      num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
      worker 0: (0, 0) (4, 0)
      ...
      worker 13: (1, 5) (5, 5)
      ...
    ```

    With `view=grid`, a mapping of rank 2 is shown instead as its task grid
    with the owner of each cell (workers joined by `/` when several own it),
    which shows at a glance how a tile is spread over threads.
  }];
  let options = [
    Option<"maxWorkers", "max-workers", "int64_t", /*default=*/"64",
           "Print at most this many workers per mapping (the rest is "
           "summarized)">,
    ListOption<"workers", "workers", "int64_t",
               "Print only these workers (overrides max-workers)">,
    Option<"view", "view", "std::string", /*default=*/"\"workers\"",
           "'workers' for the worker -> tasks list, 'grid' for the task "
           "grid with owners (rank-2 mappings only)">,
  ];
}

#endif // HIDET_DIALECT_TASKMAPPING_TRANSFORMS_PASSES_TD
