// RUN: hidet-opt %s -split-input-file -hidet-sink-scalar-reads | FileCheck %s

// A scalar read at the top level, scaled there, that one linalg body uses:
// the read and the scaling move into that body.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME:    %[[X:.*]]: tensor<4xf32>, %[[S:.*]]: tensor<f32>)
// CHECK-NOT:     tensor.extract
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[V:.*]] = tensor.extract %[[S]][] : tensor<f32>
// CHECK-NEXT:      %[[T:.*]] = arith.mulf %[[V]], %{{.*}} : f32
// CHECK-NEXT:      %[[R:.*]] = arith.mulf %[[A]], %[[T]] : f32
// CHECK-NEXT:      linalg.yield %[[R]]
#id = affine_map<(i) -> (i)>
func.func @scale(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xf32> {
  %two = arith.constant 2.0 : f32
  %v = tensor.extract %s[] : tensor<f32>
  %t = arith.mulf %v, %two : f32
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %t : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Two bodies use the scalar: each reads it.
// CHECK-LABEL: func.func @two_users(
// CHECK-NOT:     tensor.extract
// CHECK:         linalg.generic
// CHECK:           tensor.extract %{{.*}}[%{{.*}}] : tensor<4xf32>
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK:           tensor.extract %{{.*}}[%{{.*}}] : tensor<4xf32>
// CHECK:           arith.mulf
#id = affine_map<(i) -> (i)>
func.func @two_users(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %c3 = arith.constant 3 : index
  %v = tensor.extract %x[%c3] : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.addf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  %e2 = tensor.empty() : tensor<4xf32>
  %q = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e2 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %v : f32
    linalg.yield %m : f32
  } -> tensor<4xf32>
  return %r, %q : tensor<4xf32>, tensor<4xf32>
}

// -----

// A scalar that something other than a linalg body uses (here an operand of
// linalg.fill, and a tensor built from it) stays where it is.
// CHECK-LABEL: func.func @other_uses(
// CHECK:         %[[V:.*]] = tensor.extract
// CHECK:         linalg.fill ins(%[[V]] : f32)
// CHECK:         tensor.from_elements %[[V]]
#id = affine_map<(i) -> (i)>
func.func @other_uses(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<1xf32>) {
  %c0 = arith.constant 0 : index
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %t = tensor.from_elements %v : tensor<1xf32>
  return %f, %t : tensor<4xf32>, tensor<1xf32>
}
