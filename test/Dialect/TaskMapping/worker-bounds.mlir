// RUN: hidet-opt %s --convert-tm-to-scf --allow-unregistered-dialect -split-input-file | FileCheck %s

// Static worker bounds near the int64 limit must not overflow: each of these
// inputs is valid (an overflow shows as a negative or zero "worker range" in
// the tm.foreach verifier's error), and the lowering's guard is exact.

// A constant worker of INT64_MAX: its bound INT64_MAX + 1 does not exist, so
// the worker is treated as unbounded and guarded.
// CHECK-LABEL: func.func @constant_worker_int64_max(
func.func @constant_worker_int64_max() {
  // CHECK: %[[W:.*]] = arith.constant 9223372036854775807 : index
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: %[[IN:.*]] = arith.cmpi ult, %[[W]], %[[C4]] : index
  // CHECK: scf.if %[[IN]] {
  // CHECK: "test.use"
  %w = arith.constant 9223372036854775807 : index
  tm.foreach (%i) in #tm.spatial<[4]> on %w {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// global_x in a launch of 2^42 blocks of 2^42 threads: the product overflows.
// CHECK-LABEL: func.func @global_x_launch_size_overflow(
func.func @global_x_launch_size_overflow() {
  %c1 = arith.constant 1 : index
  %big = arith.constant 4398046511104 : index
  // CHECK: gpu.launch
  // CHECK: %[[G:.*]] = arith.addi
  // CHECK: %[[C32:.*]] = arith.constant 32 : index
  // CHECK: arith.cmpi ult, %[[G]], %[[C32]] : index
  // CHECK: scf.if
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %big, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %big, %sy = %c1, %sz = %c1) {
    tm.foreach (%i) in #tm.spatial<[32]> on global_x {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// warp in a launch of INT64_MAX threads: (n + 31) / 32 overflows.
// CHECK-LABEL: func.func @warp_launch_size_int64_max(
func.func @warp_launch_size_int64_max() {
  %c1 = arith.constant 1 : index
  %max = arith.constant 9223372036854775807 : index
  // CHECK: gpu.launch
  // CHECK: %[[WARP:.*]] = arith.divui
  // CHECK: %[[C4:.*]] = arith.constant 4 : index
  // CHECK: arith.cmpi ult, %[[WARP]], %[[C4]] : index
  // CHECK: scf.if
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %max, %sy = %c1, %sz = %c1) {
    tm.foreach (%i) in #tm.spatial<[4]> on warp {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// A negative constant launch size says nothing about the range.
// CHECK-LABEL: func.func @negative_launch_size(
func.func @negative_launch_size() {
  %c1 = arith.constant 1 : index
  %neg = arith.constant -1 : index
  // CHECK: gpu.launch
  // CHECK: %[[TID:.*]] = gpu.thread_id x
  // CHECK: arith.cmpi ult, %[[TID]], %{{.*}} : index
  // CHECK: scf.if
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %neg, %sy = %c1, %sz = %c1) {
    tm.foreach (%i) in #tm.spatial<[32]> on thread_x {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}
