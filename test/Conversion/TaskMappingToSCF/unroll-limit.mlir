// RUN: hidet-opt %s -split-input-file --convert-tm-to-scf -verify-diagnostics --allow-unregistered-dialect | FileCheck %s
// RUN: not hidet-opt %s -split-input-file --convert-tm-to-scf="max-unrolled-bodies=3" --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=LOW

// Ten dimensions of extent 3 are each fully unrolled by default (extent < 4):
// 3^10 = 59049 bodies exceed the default limit of 4096, so the lowering
// fails with an error at the op instead of exhausting memory.
func.func @too_many_unrolled_bodies() {
  // expected-error @+1 {{full unrolling would emit 59049 copies of the body (limit 4096)}}
  tm.repeat (%a, %b, %c, %d, %e, %f, %g, %h, %i, %j) in <[3, 3, 3, 3, 3, 3, 3, 3, 3, 3]> {
    "test.use"(%a) : (index) -> ()
  }
  return
}

// -----

// Two unrolled dimensions give 4 bodies: within the default limit, beyond
// a limit of 3 set by the pass option.
// CHECK-LABEL: func.func @within_limit(
// CHECK-COUNT-4: "test.use"
// CHECK-NOT: "test.use"
// LOW: full unrolling would emit 4 copies of the body (limit 3)
func.func @within_limit() {
  tm.repeat (%a, %b) in <[2, 2]> {
    "test.use"(%a, %b) : (index, index) -> ()
  }
  return
}
