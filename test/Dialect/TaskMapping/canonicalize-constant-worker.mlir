// RUN: hidet-opt %s --canonicalize --allow-unregistered-dialect | FileCheck %s

// A constant worker is one worker, not a range: --canonicalize folds the
// worker to the constant 5, and the tm.foreach verifier must accept the
// result (read as the worker range [0, 5] it would say "mapping needs 8
// workers but the worker range has only 6").

// CHECK-LABEL: func.func @worker_folds_to_constant(
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK: tm.foreach (%{{.*}}) in #tm.spatial<[8]> on %[[C5]] {
func.func @worker_folds_to_constant() {
  %c0 = arith.constant 0 : index
  %c5 = arith.constant 5 : index
  %w = arith.addi %c5, %c0 : index
  tm.foreach (%i) in #tm.spatial<[8]> on %w {
    "test.use"(%i) : (index) -> ()
  }
  return
}
