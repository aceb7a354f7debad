// RUN: hidet-opt %s --canonicalize --allow-unregistered-dialect -split-input-file | FileCheck %s

// Folders and canonicalization patterns of the tm ops.

// tm.num_workers and tm.task_shape fold to constants.
// CHECK-LABEL: func.func @queries_fold_to_constants(
func.func @queries_fold_to_constants() -> (index, index, index) {
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-NOT: tm.num_workers
  // CHECK-NOT: tm.task_shape
  // CHECK: return %[[C32]], %[[C8]], %[[C8]]
  %n = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  %m, %k = tm.task_shape #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  return %n, %m, %k : index, index, index
}

// -----

// The folded values follow the algebra for every kind of mapping: auto_map
// (repeat(4, 3) * spatial(2, 32)), a projection and a single repeat.
// CHECK-LABEL: func.func @queries_of_every_kind(
func.func @queries_of_every_kind() {
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
  // CHECK-DAG: %[[C96:.*]] = arith.constant 96 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: "test.use"(%[[C64]], %[[C8]], %[[C96]]) : (index, index, index) -> ()
  // CHECK: "test.use"(%[[C32]], %[[C4]], %[[C1]]) : (index, index, index) -> ()
  // CHECK: "test.use"(%[[C1]], %[[C4]], %[[C8]]) : (index, index, index) -> ()
  %n0 = tm.num_workers #tm.auto_map<[8, 96], workers = 64>
  %s0:2 = tm.task_shape #tm.auto_map<[8, 96], workers = 64>
  "test.use"(%n0, %s0#0, %s0#1) : (index, index, index) -> ()
  %n1 = tm.num_workers #tm.project<spatial<[4, 8]>, dims = [1]>
  %s1:2 = tm.task_shape #tm.project<spatial<[4, 8]>, dims = [1]>
  "test.use"(%n1, %s1#0, %s1#1) : (index, index, index) -> ()
  %n2 = tm.num_workers #tm.repeat<[4, 8]>
  %s2:2 = tm.task_shape #tm.repeat<[4, 8]>
  "test.use"(%n2, %s2#0, %s2#1) : (index, index, index) -> ()
  return
}

// -----

// Nested compositions are flattened.
// CHECK-LABEL: func.func @nested_compose_flattened(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @nested_compose_flattened(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]> * spatial<[2, 2]> * repeat<[2, 2]>> on %[[W]] {
  tm.foreach (%i, %j) in #tm.compose<compose<repeat<[2, 1]> * spatial<[4, 8]>> * compose<spatial<[2, 2]> * repeat<[2, 2]>>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Factors whose extents are all 1 are dropped; a single factor is left alone.
// CHECK-LABEL: func.func @unit_factors_dropped(
func.func @unit_factors_dropped(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.spatial<[4, 8]> on
  // CHECK-NOT: compose
  tm.foreach (%i, %j) in #tm.compose<repeat<[1, 1]> * spatial<[4, 8]> * spatial<[1, 1]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// spatial<[2, 1]> * spatial<[1, 8]> is spatial<[2, 8]>.
// CHECK-LABEL: func.func @spatial_times_spatial_merged(
func.func @spatial_times_spatial_merged(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.spatial<[2, 8]> on
  tm.foreach (%i, %j) in #tm.compose<spatial<[2, 1]> * spatial<[1, 8]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// spatial(1, 8) * spatial(2, 1) numbers the grid column-major: the merge
// keeps that order.
// CHECK-LABEL: func.func @spatial_times_spatial_merged_col_major(
func.func @spatial_times_spatial_merged_col_major(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.spatial<[2, 8], ranks = [1, 0]> on
  tm.foreach (%i, %j) in #tm.compose<spatial<[1, 8]> * spatial<[2, 1]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// repeat<[2, 1]> * repeat<[1, 8]> is repeat<[2, 8]>, whose hints are the
// defaults of [2, 8]; the neighbouring spatial factor stays.
// CHECK-LABEL: func.func @repeat_times_repeat_merged(
func.func @repeat_times_repeat_merged(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[2, 8]> * spatial<[4, 8]>> on
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * repeat<[1, 8]> * spatial<[4, 8]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Merging two fully unrolled loops of extent 2 keeps them fully unrolled,
// although extent 4 alone would default to a loop.
// CHECK-LABEL: func.func @repeat_merge_keeps_hints(
func.func @repeat_merge_keeps_hints(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[4, 1], unroll = [full, full]> * spatial<[4, 8]>> on
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * repeat<[2, 1]> * spatial<[4, 8]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// spatial<[4, 8]> * spatial<[2, 2]> gives each 2x2 sub-tile to 4 contiguous
// workers: no single spatial mapping does that, so both factors stay.
// CHECK-LABEL: func.func @spatial_not_mergeable(
func.func @spatial_not_mergeable(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<spatial<[4, 8]> * spatial<[2, 2]>> on
  tm.foreach (%i, %j) in #tm.compose<spatial<[4, 8]> * spatial<[2, 2]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// repeat * spatial * repeat (the mma C fragment) is already canonical.
// CHECK-LABEL: func.func @mma_fragment_unchanged(
func.func @mma_fragment_unchanged() {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// A task dimension of extent 1 is dropped: its block argument goes and its
// uses read the constant 0.
// CHECK-LABEL: func.func @unit_task_dim_dropped(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @unit_task_dim_dropped(%w: index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: tm.foreach (%[[I:[^,]*]], %[[K:[^,]*]]) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> on %[[W]] {
  // CHECK-NEXT: "test.use"(%[[I]], %[[C0]], %[[K]]) : (index, index, index) -> ()
  tm.foreach (%i, %j, %k) in #tm.compose<repeat<[2, 1, 1]> * spatial<[4, 1, 8]>> on %w {
    "test.use"(%i, %j, %k) : (index, index, index) -> ()
  }
  return
}

// -----

// Two unit dimensions are dropped, in any position; one dimension (the
// first) is kept even when the whole task shape is [1, 1, 1].
// CHECK-LABEL: func.func @unit_task_dims_all_dropped(
func.func @unit_task_dims_all_dropped(%w: index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: tm.foreach (%[[J:[^,)]*]]) in #tm.spatial<[32]> on
  // CHECK-NEXT: "test.use"(%[[C0]], %[[J]], %[[C0]]) : (index, index, index) -> ()
  tm.foreach (%i, %j, %k) in #tm.spatial<[1, 32, 1]> on %w {
    "test.use"(%i, %j, %k) : (index, index, index) -> ()
  }
  // CHECK: tm.foreach (%[[A:[^,)]*]]) in #tm.spatial<[1]> on
  // CHECK-NEXT: "test.use"(%[[A]], %[[C0]], %[[C0]]) : (index, index, index) -> ()
  tm.foreach (%i, %j, %k) in #tm.spatial<[1, 1, 1]> on %w {
    "test.use"(%i, %j, %k) : (index, index, index) -> ()
  }
  return
}

// -----

// A projected dimension whose base still iterates it is kept: its tasks
// repeat, and dropping it would change how often the body runs.
// CHECK-LABEL: func.func @projected_dim_kept(
func.func @projected_dim_kept(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.project<compose<repeat<[1, 2]> * spatial<[4, 8]>>, dims = [1]> on
  tm.foreach (%i, %j) in #tm.project<compose<repeat<[1, 2]> * spatial<[4, 8]>>, dims = [1]> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Projecting a dimension of extent 1 is the identity; the unit dimension is
// then dropped.
// CHECK-LABEL: func.func @trivial_projection_removed(
func.func @trivial_projection_removed(%w: index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: tm.foreach (%[[I:[^,)]*]]) in #tm.spatial<[4]> on
  // CHECK-NEXT: "test.use"(%[[I]], %[[C0]])
  // CHECK-NOT: project
  tm.foreach (%i, %j) in #tm.project<spatial<[4, 1]>, dims = [1]> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// tm.spatial on a constant worker folds to its task: spatial<[4, 8]> gives
// worker 13 the task (13 / 8, 13 % 8) = (1, 5).
// CHECK-LABEL: func.func @spatial_op_constant_worker(
func.func @spatial_op_constant_worker() -> (index, index) {
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
  // CHECK-NOT: tm.spatial
  // CHECK: return %[[C1]], %[[C5]]
  %c13 = arith.constant 13 : index
  %t:2 = tm.spatial <[4, 8]> on %c13
  return %t#0, %t#1 : index, index
}

// -----

// Column-major: col_spatial(4, 8) gives worker 13 the task (13 % 4, 13 / 4)
// = (1, 3).
// CHECK-LABEL: func.func @spatial_op_constant_worker_col_major(
func.func @spatial_op_constant_worker_col_major() -> (index, index) {
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
  // CHECK: return %[[C1]], %[[C3]]
  %c13 = arith.constant 13 : index
  %t:2 = tm.spatial <[4, 8], ranks = [1, 0]> on %c13
  return %t#0, %t#1 : index, index
}

// -----

// A worker beyond num_workers wraps around, as in Hidet: worker 45 of the 32
// workers of spatial<[4, 8]> gets the task of worker 13.
// CHECK-LABEL: func.func @spatial_op_constant_worker_wraps(
func.func @spatial_op_constant_worker_wraps() -> (index, index) {
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
  // CHECK: return %[[C1]], %[[C5]]
  %c45 = arith.constant 45 : index
  %t:2 = tm.spatial <[4, 8]> on %c45
  return %t#0, %t#1 : index, index
}

// -----

// A spatial mapping of one worker gives any worker the task (0, 0).
// CHECK-LABEL: func.func @spatial_op_single_worker(
func.func @spatial_op_single_worker(%w: index) -> (index, index) {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NOT: tm.spatial
  // CHECK: return %[[C0]], %[[C0]]
  %t:2 = tm.spatial <[1, 1]> on %w
  return %t#0, %t#1 : index, index
}

// -----

// A worker of unknown value does not fold.
// CHECK-LABEL: func.func @spatial_op_unknown_worker(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_op_unknown_worker(%w: index) -> (index, index) {
  // CHECK: %[[T:.*]]:2 = tm.spatial <[4, 8]> on %[[W]]
  // CHECK: return %[[T]]#0, %[[T]]#1
  %t:2 = tm.spatial <[4, 8]> on %w
  return %t#0, %t#1 : index, index
}

// -----

// A repeat over a single task is inlined with indices 0.
// CHECK-LABEL: func.func @single_task_repeat_inlined(
func.func @single_task_repeat_inlined() {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NOT: tm.repeat
  // CHECK: "test.use"(%[[C0]], %[[C0]]) : (index, index) -> ()
  // CHECK-NEXT: "test.other"() : () -> ()
  // CHECK-NEXT: return
  tm.repeat (%i, %j) in <[1, 1]> {
    "test.use"(%i, %j) : (index, index) -> ()
    "test.other"() : () -> ()
  }
  return
}

// -----

// A repeat over more than one task stays.
// CHECK-LABEL: func.func @repeat_not_inlined(
func.func @repeat_not_inlined() {
  // CHECK: tm.repeat (%{{.*}}) in <[2]> {
  tm.repeat (%i) in <[2]> {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// repeat<[2, 2]> * repeat<[2, 1]> visits (0, 0) (1, 0) (0, 1) (1, 1) (2, 0)
// ...: no single loop nest over [4, 2] does that, so both factors stay.
// CHECK-LABEL: func.func @repeat_not_mergeable(
func.func @repeat_not_mergeable(%w: index) {
  // CHECK: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[2, 2]> * repeat<[2, 1]> * spatial<[4, 8]>> on
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 2]> * repeat<[2, 1]> * spatial<[4, 8]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}
