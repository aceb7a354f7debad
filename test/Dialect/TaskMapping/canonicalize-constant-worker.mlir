// RUN: hidet-opt %s --canonicalize --allow-unregistered-dialect | FileCheck %s

// Regression: the tm.foreach verifier used to read a constant worker c as
// the worker range [0, c], so --canonicalize folding the worker to the
// constant 5 turned this valid input into IR the verifier rejected ("mapping
// needs 8 workers but the worker range has only 6"). A constant is one
// worker, not a range.

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
