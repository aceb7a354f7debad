// RUN: hidet-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// `hidet.pipeline_stages` on a loop round-trips.
// CHECK-LABEL: func.func @marked(
// CHECK:         scf.for
// CHECK:         } {hidet.pipeline_stages = 3 : i64}
func.func @marked(%lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  scf.for %k = %lb to %ub step %c1 {
  } {hidet.pipeline_stages = 3 : i64}
  return
}

// -----

func.func @too_many(%lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.pipeline_stages' must be an integer in [2, 8], got 9 : i64}}
  scf.for %k = %lb to %ub step %c1 {
  } {hidet.pipeline_stages = 9 : i64}
  return
}

// -----

func.func @not_an_integer(%lb: index, %ub: index) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'hidet.pipeline_stages' must be an integer in [2, 8], got "three"}}
  scf.for %k = %lb to %ub step %c1 {
  } {hidet.pipeline_stages = "three"}
  return
}

// -----

func.func @not_a_loop() {
  // expected-error @+1 {{'hidet.pipeline_stages' must be on a loop, not on 'arith.constant'}}
  %c1 = arith.constant {hidet.pipeline_stages = 3 : i64} 1 : index
  return
}
