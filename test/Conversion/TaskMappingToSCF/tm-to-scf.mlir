// RUN: hidet-opt %s --convert-tm-to-scf --cse --allow-unregistered-dialect -split-input-file | FileCheck %s

// Lowering of the tm ops to scf/arith/gpu: the index arithmetic of each
// mapping, the bounds guard, loops and unrolling, and the GPU worker ids.

// spatial<[4, 8]> on 32 workers: t = (w / 8, w % 8). The bound proves the
// outer modulo redundant, and no guard is needed.
// CHECK-LABEL: func.func @spatial_4x8_on_32_threads(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_4x8_on_32_threads(%w: index) {
  // CHECK-NOT: arith.cmpi
  // CHECK-NOT: scf.if
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-NEXT: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK-NEXT: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK-NEXT: "test.use"(%[[I]], %[[J]]) : (index, index) -> ()
  // CHECK-NOT: arith.remui
  // CHECK-NEXT: return
  tm.foreach (%i, %j) in #tm.spatial<[4, 8]> on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Without a bound, workers at or beyond 32 are guarded off; inside the guard
// the outer modulo is still redundant.
// CHECK-LABEL: func.func @spatial_4x8_unbounded_worker(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_4x8_unbounded_worker(%w: index) {
  // CHECK: %[[C32:.*]] = arith.constant 32 : index
  // CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %[[W]], %[[C32]] : index
  // CHECK-NEXT: scf.if %[[IN]] {
  // CHECK-NEXT: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-NEXT: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK-NEXT: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK-NEXT: "test.use"(%[[I]], %[[J]]) : (index, index) -> ()
  // CHECK-NEXT: }
  // CHECK-NOT: arith.remui
  tm.foreach (%i, %j) in #tm.spatial<[4, 8]> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// An upper_bound above num_workers still needs the guard.
// CHECK-LABEL: func.func @spatial_upper_bound_above_num_workers(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_upper_bound_above_num_workers(%w: index) {
  // CHECK: %[[C32:.*]] = arith.constant 32 : index
  // CHECK: arith.cmpi ult, %[[W]], %[[C32]] : index
  // CHECK: scf.if
  tm.foreach (%i, %j) in #tm.spatial<[4, 8]> on %w upper_bound 64 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// The example of convert-tm-to-scf: repeat(2, 1) * spatial(4, 8) on 32
// workers. The 2-iteration loop is unrolled: the second body adds 4 (the
// extent of the spatial factor) to the row.
// CHECK-LABEL: func.func @repeat_2x1_spatial_4x8_unrolled(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @repeat_2x1_spatial_4x8_unrolled(%w: index) {
  // CHECK-NOT: scf.if
  // CHECK-NOT: scf.for
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK: "test.use"(%[[I]], %[[J]]) : (index, index) -> ()
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[C4]] : index
  // CHECK-NEXT: "test.use"(%[[I1]], %[[J]]) : (index, index) -> ()
  // CHECK-NOT: "test.use"
  // CHECK-NOT: scf.for
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
      on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// spatial(4, 8) * repeat(2, 1): each worker owns two contiguous rows.
// CHECK-LABEL: func.func @spatial_4x8_repeat_2x1_blocked(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_4x8_repeat_2x1_blocked(%w: index) {
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[T0:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: %[[I:.*]] = arith.muli %[[T0]], %[[C2]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK: "test.use"(%[[I]], %[[J]]) : (index, index) -> ()
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[C1]] : index
  // CHECK-NEXT: "test.use"(%[[I1]], %[[J]]) : (index, index) -> ()
  tm.foreach (%i, %j) in #tm.compose<spatial<[4, 8]> * repeat<[2, 1]>>
      on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// unroll = [none, full]: the first dimension stays an scf.for, the second is
// unrolled inside it.
// CHECK-LABEL: func.func @repeat_unroll_none_keeps_loop(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @repeat_unroll_none_keeps_loop(%w: index) {
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: scf.for %[[IV:.*]] = %[[C0]] to %[[C8]] step %[[C1]] {
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[R:.*]] = arith.muli %[[IV]], %[[C4]] : index
  // CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[R]] : index
  // CHECK: "test.use"(%[[I1]], %[[J]]) : (index, index) -> ()
  // CHECK: %[[J1:.*]] = arith.addi %[[J]], %[[C8]] : index
  // CHECK: "test.use"(%[[I1]], %[[J1]]) : (index, index) -> ()
  // CHECK-NEXT: }
  // CHECK-NOT: scf.for
  tm.foreach (%i, %j) in #tm.compose<repeat<[8, 2], unroll = [none, full]> * spatial<[4, 8]>>
      on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// By default an extent of 4 or more is a loop, below 4 it is unrolled.
// CHECK-LABEL: func.func @repeat_op_default_hints(
func.func @repeat_op_default_hints() {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: scf.for %[[IV0:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
  // CHECK-NEXT: "test.use"(%[[C0]], %[[IV0]]) : (index, index) -> ()
  // CHECK-NEXT: }
  // CHECK: scf.for %[[IV1:.*]] = %[[C0]] to %[[C4]] step %[[C1]] {
  // CHECK-NEXT: "test.use"(%[[C1]], %[[IV1]]) : (index, index) -> ()
  // CHECK-NEXT: }
  // CHECK-NOT: scf.for
  tm.repeat (%i, %j) in <[2, 4]> {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// col_repeat(2, 3): the first dimension varies fastest.
// CHECK-LABEL: func.func @repeat_op_col_major(
func.func @repeat_op_col_major() {
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: "test.use"(%[[C0]], %[[C0]])
  // CHECK: %[[C1:.*]] = arith.constant 1 : index
  // CHECK: "test.use"(%[[C1]], %[[C0]])
  // CHECK-NEXT: "test.use"(%[[C0]], %[[C1]])
  // CHECK-NEXT: "test.use"(%[[C1]], %[[C1]])
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: "test.use"(%[[C0]], %[[C2]])
  // CHECK-NEXT: "test.use"(%[[C1]], %[[C2]])
  // CHECK-NOT: scf.for
  tm.repeat (%i, %j) in <[2, 3], ranks = [1, 0]> {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// An unroll factor that divides the extent: one loop of step 4 whose body
// holds 4 copies at iv + 0, 1, 2, 3 (scf's loopUnrollByFactor).
// CHECK-LABEL: func.func @repeat_unroll_factor_4_of_16(
func.func @repeat_unroll_factor_4_of_16() {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: scf.for %[[IV:.*]] = %[[C0]] to %[[C16]] step %[[C4]] {
  // CHECK-NEXT: "test.use"(%[[IV]]) : (index) -> ()
  // CHECK: %[[A1:.*]] = arith.addi %[[IV]], %{{.*}} : index
  // CHECK-NEXT: "test.use"(%[[A1]]) : (index) -> ()
  // CHECK: %[[A2:.*]] = arith.addi %[[IV]], %{{.*}} : index
  // CHECK-NEXT: "test.use"(%[[A2]]) : (index) -> ()
  // CHECK: %[[A3:.*]] = arith.addi %[[IV]], %{{.*}} : index
  // CHECK-NEXT: "test.use"(%[[A3]]) : (index) -> ()
  // CHECK-NEXT: }
  // CHECK-NOT: scf.for
  // CHECK-NOT: "test.use"
  tm.repeat (%i) in <[16], unroll = [4]> {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// An unroll factor that does not divide the extent: the unrolled loop covers
// [0, 8) and an epilogue loop the remaining [8, 10).
// CHECK-LABEL: func.func @repeat_unroll_factor_4_of_10(
func.func @repeat_unroll_factor_4_of_10() {
  // CHECK-DAG: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-DAG: %[[C10:.*]] = arith.constant 10 : index
  // CHECK: scf.for %[[IV:.*]] = %[[C0]] to %[[C8]] step %[[C4]] {
  // CHECK-COUNT-4: "test.use"
  // CHECK: }
  // CHECK-NEXT: scf.for %[[IV2:.*]] = %[[C8]] to %[[C10]] step %[[C1]] {
  // CHECK-NEXT: "test.use"(%[[IV2]]) : (index) -> ()
  // CHECK-NEXT: }
  tm.repeat (%i) in <[10], unroll = [4]> {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// A factor at least the extent unrolls the loop completely.
// CHECK-LABEL: func.func @repeat_unroll_factor_above_extent(
func.func @repeat_unroll_factor_above_extent() {
  // CHECK-NOT: scf.for
  // CHECK-COUNT-4: "test.use"
  // CHECK-NOT: "test.use"
  // CHECK-NOT: scf.for
  tm.repeat (%i) in <[4], unroll = [8]> {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Column-major spatial: the first dimension takes the fast part of the
// worker id, t = (w % 4, w / 4), and the second (outer) needs no modulo.
// CHECK-LABEL: func.func @col_spatial_4x8_strides(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @col_spatial_4x8_strides(%w: index) {
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK-NEXT: %[[I:.*]] = arith.remui %[[W]], %[[C4]] : index
  // CHECK-NEXT: %[[J:.*]] = arith.divui %[[W]], %[[C4]] : index
  // CHECK-NEXT: "test.use"(%[[I]], %[[J]]) : (index, index) -> ()
  // CHECK-NOT: arith.remui
  tm.foreach (%i, %j) in #tm.spatial<[4, 8], ranks = [1, 0]> on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// Rank 3 with ranks = [1, 2, 0]: strides (4, 1, 8) for shape (2, 4, 3).
// CHECK-LABEL: func.func @spatial_rank3_permuted_strides(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_rank3_permuted_strides(%w: index) {
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[D0:.*]] = arith.divui %[[W]], %[[C4]] : index
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: %[[I:.*]] = arith.remui %[[D0]], %[[C2]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C4]] : index
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[K:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK-NOT: arith.remui %[[K]]
  // CHECK: "test.use"(%[[I]], %[[J]], %[[K]])
  tm.foreach (%i, %j, %k) in #tm.spatial<[2, 4, 3], ranks = [1, 2, 0]> on %w upper_bound 24 {
    "test.use"(%i, %j, %k) : (index, index, index) -> ()
  }
  return
}

// -----

// thread_x is gpu.thread_id x; with no known block size it is guarded.
// CHECK-LABEL: func.func @gpu_worker_thread_x(
func.func @gpu_worker_thread_x() {
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: %[[C32:.*]] = arith.constant 32 : index
  // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[TID]], %[[C32]] : index
  // CHECK: scf.if %[[IN]] {
  // CHECK-NEXT: "test.use"(%[[TID]]) : (index) -> ()
  tm.foreach (%i) in #tm.spatial<[32]> on thread_x {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// thread_y and thread_z are the other dimensions of gpu.thread_id.
// CHECK-LABEL: func.func @gpu_worker_thread_y_z(
func.func @gpu_worker_thread_y_z() {
  // CHECK: %[[TY:.*]] = gpu.thread_id y
  // CHECK: "test.use"(%[[TY]])
  // CHECK: %[[TZ:.*]] = gpu.thread_id z
  // CHECK: "test.use"(%[[TZ]])
  tm.foreach (%i) in #tm.spatial<[4]> on thread_y {
    "test.use"(%i) : (index) -> ()
  }
  tm.foreach (%i) in #tm.spatial<[2]> on thread_z {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// block_x, block_y, block_z are gpu.block_id.
// CHECK-LABEL: func.func @gpu_worker_block_ids(
func.func @gpu_worker_block_ids() {
  // CHECK: %[[BX:.*]] = gpu.block_id x
  // CHECK: "test.use"(%[[BX]])
  // CHECK: %[[BY:.*]] = gpu.block_id y
  // CHECK: "test.use"(%[[BY]])
  // CHECK: %[[BZ:.*]] = gpu.block_id z
  // CHECK: "test.use"(%[[BZ]])
  tm.foreach (%i) in #tm.spatial<[16]> on block_x {
    "test.use"(%i) : (index) -> ()
  }
  tm.foreach (%i) in #tm.spatial<[16]> on block_y {
    "test.use"(%i) : (index) -> ()
  }
  tm.foreach (%i) in #tm.spatial<[16]> on block_z {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// lane is gpu.lane_id, below 32: a 32-worker mapping needs no guard.
// CHECK-LABEL: func.func @gpu_worker_lane(
func.func @gpu_worker_lane() {
  // CHECK-NOT: scf.if
  // CHECK: %[[LANE:.*]] = gpu.lane_id
  // CHECK-NOT: scf.if
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[I:.*]] = arith.divui %[[LANE]], %[[C8]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[LANE]], %[[C8]] : index
  // CHECK: "test.use"(%[[I]], %[[J]])
  // CHECK-NOT: arith.remui
  tm.foreach (%i, %j) in #tm.spatial<[4, 8]> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// warp is thread_x / 32.
// CHECK-LABEL: func.func @gpu_worker_warp(
func.func @gpu_worker_warp() {
  // CHECK-DAG: %[[TID:.*]] = gpu.thread_id x
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %[[C32]] : index
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: arith.cmpi ult, %[[WARP]], %[[C4]] : index
  // CHECK: "test.use"(%[[WARP]])
  tm.foreach (%i) in #tm.spatial<[4]> on warp {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// global_x is block_id x * block_dim x + thread_id x.
// CHECK-LABEL: func.func @gpu_worker_global_x(
func.func @gpu_worker_global_x() {
  // CHECK: %[[BDIM:.*]] = gpu.block_dim x
  // CHECK: %[[BID:.*]] = gpu.block_id x
  // CHECK: %[[BASE:.*]] = arith.muli %[[BID]], %[[BDIM]] : index
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: %[[G:.*]] = arith.addi %[[BASE]], %[[TID]] : index
  // CHECK: %[[C256:.*]] = arith.constant 256 : index
  // CHECK: arith.cmpi ult, %[[G]], %[[C256]] : index
  // CHECK: "test.use"(%[[G]])
  tm.foreach (%i) in #tm.spatial<[256]> on global_x {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// In a gpu.func whose known block size equals num_workers, thread_x needs no
// guard and the outer modulo goes.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @thread_x_known_block_size_no_guard(
  gpu.func @thread_x_known_block_size_no_guard() kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // CHECK-NOT: scf.if
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %[[C8:.*]] = arith.constant 8 : index
    // CHECK: %[[I:.*]] = arith.divui %[[TID]], %[[C8]] : index
    // CHECK: %[[J:.*]] = arith.remui %[[TID]], %[[C8]] : index
    // CHECK: "test.use"(%[[I]], %[[J]])
    // CHECK: %[[C16:.*]] = arith.constant 16 : index
    // CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[C16]] : index
    // CHECK: "test.use"(%[[I1]], %[[J]])
    // CHECK-NOT: scf.if
    // CHECK-NOT: arith.remui
    // CHECK: gpu.return
    tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[16, 8]>> on thread_x {
      "test.use"(%i, %j) : (index, index) -> ()
    }
    gpu.return
  }
}

// -----

// An SSA gpu.thread_id in a gpu.func with a known block size is bounded too.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @thread_id_value_known_block_size_no_guard(
  gpu.func @thread_id_value_known_block_size_no_guard() kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    // CHECK-NOT: scf.if
    // CHECK: "test.use"
    // CHECK-NOT: scf.if
    %tid = gpu.thread_id x
    tm.foreach (%i) in #tm.spatial<[64]> on %tid {
      "test.use"(%i) : (index) -> ()
    }
    gpu.return
  }
}

// -----

// A gpu.launch with a constant block size bounds thread_x.
// CHECK-LABEL: func.func @thread_x_in_launch_no_guard(
func.func @thread_x_in_launch_no_guard() {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  // CHECK: gpu.launch
  // CHECK-NOT: scf.if
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK-NOT: scf.if
  // CHECK: "test.use"(%[[TID]])
  // CHECK: gpu.terminator
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c32, %sy = %c1, %sz = %c1) {
    tm.foreach (%i) in #tm.spatial<[32]> on thread_x {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// Nested loops (warps of a block, then the lanes of each warp, with the mma
// C fragment map) lower completely, without guards.
gpu.module @kernels {
  // CHECK-LABEL: gpu.func @nested_warps_then_lanes(
  gpu.func @nested_warps_then_lanes() kernel
      attributes {known_block_size = array<i32: 128, 1, 1>} {
    // CHECK-NOT: tm.
    // CHECK-NOT: scf.if
    // CHECK: %[[TID:.*]] = gpu.thread_id x
    // CHECK: %[[WARP:.*]] = arith.divui %[[TID]], %{{.*}} : index
    // CHECK: %[[LANE:.*]] = gpu.lane_id
    // CHECK: %[[C4:.*]] = arith.constant 4 : index
    // CHECK: %[[I:.*]] = arith.divui %[[LANE]], %[[C4]] : index
    // CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %[[C4]] : index
    // CHECK: %[[J:.*]] = arith.muli %[[Q]], %{{.*}} : index
    // CHECK: "test.use"(%[[WARP]], %[[I]], %[[J]])
    // CHECK-COUNT-3: "test.use"(%[[WARP]],
    // CHECK-NOT: "test.use"
    // CHECK-NOT: tm.
    // CHECK: gpu.return
    tm.foreach (%w) in #tm.spatial<[4]> on warp {
      tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
        "test.use"(%w, %i, %j) : (index, index, index) -> ()
      }
    }
    gpu.return
  }
}

// -----

// The m16n8k16 A fragment map col_repeat(2, 2) * spatial(8, 4) * repeat(1, 2)
// emits 8 bodies; lane l owns (l/4 + 8a, 2(l%4) + b + 8c) in the order
// c, a, b (hidet-semantics.md 1.8: lane 13 gets (3,2) (3,3) (11,2) (11,3)
// (3,10) (3,11) (11,10) (11,11)).
// CHECK-LABEL: func.func @mma_m16n8k16_a_fragment(
func.func @mma_m16n8k16_a_fragment() {
  // CHECK: %[[LANE:.*]] = gpu.lane_id
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[I:.*]] = arith.divui %[[LANE]], %[[C4]] : index
  // CHECK: %[[Q:.*]] = arith.remui %[[LANE]], %[[C4]] : index
  // CHECK: %[[C2:.*]] = arith.constant 2 : index
  // CHECK: %[[J:.*]] = arith.muli %[[Q]], %[[C2]] : index
  // CHECK: "test.use"(%[[I]], %[[J]])
  // CHECK: %[[J1:.*]] = arith.addi %[[J]], %{{.*}} : index
  // CHECK: "test.use"(%[[I]], %[[J1]])
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[I8:.*]] = arith.addi %[[I]], %[[C8]] : index
  // CHECK: "test.use"(%[[I8]], %[[J]])
  // CHECK-NEXT: "test.use"(%[[I8]], %[[J1]])
  // CHECK-NEXT: %[[J8:.*]] = arith.addi %[[J]], %[[C8]] : index
  // CHECK-NEXT: "test.use"(%[[I]], %[[J8]])
  // CHECK-NEXT: %[[J9:.*]] = arith.addi %[[J8]], %{{.*}} : index
  // CHECK-NEXT: "test.use"(%[[I]], %[[J9]])
  // CHECK-NEXT: "test.use"(%[[I8]], %[[J8]])
  // CHECK-NEXT: "test.use"(%[[I8]], %[[J9]])
  // CHECK-NOT: "test.use"
  // CHECK-NOT: scf.
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 2], ranks = [1, 0]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// tm.spatial on a worker of unknown range keeps every modulo (Hidet's
// wrap-around semantics).
// CHECK-LABEL: func.func @spatial_op_unknown_worker(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @spatial_op_unknown_worker(%w: index) -> (index, index) {
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[D:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[I:.*]] = arith.remui %[[D]], %[[C4]] : index
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
  // CHECK-NOT: tm.spatial
  // CHECK: return %[[I]], %[[J]]
  %t:2 = tm.spatial <[4, 8]> on %w
  return %t#0, %t#1 : index, index
}

// -----

// tm.spatial on gpu.lane_id with upper_bound 32 (col_spatial(16, 2)): the
// range of the lane drops the outer modulo.
// CHECK-LABEL: func.func @spatial_op_on_bounded_lane(
func.func @spatial_op_on_bounded_lane() -> (index, index) {
  // CHECK: %[[LANE:.*]] = gpu.lane_id upper_bound 32
  // CHECK: %[[C16:.*]] = arith.constant 16 : index
  // CHECK: %[[P:.*]] = arith.remui %[[LANE]], %[[C16]] : index
  // CHECK: %[[Q:.*]] = arith.divui %[[LANE]], %[[C16]] : index
  // CHECK-NOT: arith.remui
  // CHECK: return %[[P]], %[[Q]]
  %lane = gpu.lane_id upper_bound 32
  %t:2 = tm.spatial <[16, 2], ranks = [1, 0]> on %lane
  return %t#0, %t#1 : index, index
}

// -----

// tm.spatial on a constant worker lowers to constants: (13 / 8, 13 % 8).
// CHECK-LABEL: func.func @spatial_op_constant_worker(
func.func @spatial_op_constant_worker() -> (index, index) {
  // CHECK-DAG: %[[C1:.*]] = arith.constant 1 : index
  // CHECK-DAG: %[[C5:.*]] = arith.constant 5 : index
  // CHECK-NOT: arith.divui
  // CHECK-NOT: arith.remui
  // CHECK: return %[[C1]], %[[C5]]
  %c13 = arith.constant 13 : index
  %t:2 = tm.spatial <[4, 8]> on %c13
  return %t#0, %t#1 : index, index
}

// -----

// tm.num_workers and tm.task_shape lower to constants, the task shape of a
// composition included (computed for the query; read through a dangling
// reference it would lower to garbage constants).
// CHECK-LABEL: func.func @queries_to_constants(
func.func @queries_to_constants() -> (index, index, index, index, index) {
  // CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
  // CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
  // CHECK-DAG: %[[C128:.*]] = arith.constant 128 : index
  // CHECK-DAG: %[[C2:.*]] = arith.constant 2 : index
  // CHECK-NOT: tm.
  // CHECK: return %[[C32]], %[[C8]], %[[C8]], %[[C128]], %[[C2]]
  %n = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  %m, %k = tm.task_shape #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  %a, %b = tm.task_shape #tm.auto_map<[128, 2], workers = 128>
  return %n, %m, %k, %a, %b : index, index, index, index, index
}

// -----

// A projection pins its dimensions to the constant 0; the projected
// spatial coordinate is not computed.
// CHECK-LABEL: func.func @project_zeroes_dim(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @project_zeroes_dim(%w: index) {
  // CHECK: %[[C8:.*]] = arith.constant 8 : index
  // CHECK: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
  // CHECK-NOT: arith.remui
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK-NOT: arith.remui
  // CHECK: "test.use"(%[[I]], %[[C0]]) : (index, index) -> ()
  tm.foreach (%i, %j) in #tm.project<spatial<[4, 8]>, dims = [1]> on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// A projected repeat dimension still loops (its tasks repeat) but its index
// is 0.
// CHECK-LABEL: func.func @project_repeat_dim_repeats(
// CHECK-SAME: %[[W:[^:]*]]: index
func.func @project_repeat_dim_repeats(%w: index) {
  // CHECK: %[[J:.*]] = arith.remui %[[W]], %{{.*}} : index
  // CHECK: %[[C0:.*]] = arith.constant 0 : index
  // CHECK: "test.use"(%[[C0]], %[[J]]) : (index, index) -> ()
  // CHECK-NEXT: "test.use"(%[[C0]], %[[J]]) : (index, index) -> ()
  // CHECK-NOT: "test.use"
  tm.foreach (%i, %j) in #tm.project<compose<repeat<[2, 1]> * spatial<[4, 8]>>, dims = [0]> on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}
