// RUN: hidet-opt %s -split-input-file -hidet-constants-to-weights -allow-unregistered-dialect | FileCheck %s
// RUN: hidet-opt %s -split-input-file -hidet-constants-to-weights="max-inline-elements=20" -allow-unregistered-dialect | FileCheck %s --check-prefix=LIMIT
// RUN: hidet-opt %s -split-input-file -hidet-constants-to-weights="max-inline-elements=0" -allow-unregistered-dialect | FileCheck %s --check-prefix=ZERO
// RUN: not hidet-opt %s -split-input-file -hidet-constants-to-weights="max-inline-elements=-1" -allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// NEGATIVE: error: hidet-constants-to-weights: max-inline-elements must be at least 0, got -1

// Large constants become trailing inputs named after their resource key (made
// a manifest token), or weight<N>; equal values share one argument; an i1
// mask too (hidet-compile stores it a byte per element). Small constants
// and splats stay constants (hidet-compile passes max-inline-elements=0:
// only splats stay).
// CHECK-LABEL: func.func @model(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<4x8xf32>,
// CHECK-SAME:    %[[W:[^:]*]]: tensor<4x8xf32> {hidet.weight = "layer1_weight_0", hidet.weight_value = dense_resource<"layer1/weight:0"> : tensor<4x8xf32>},
// CHECK-SAME:    %[[B:[^:]*]]: tensor<20xf32> {hidet.weight = "weight0", hidet.weight_value = dense<{{.*}}> : tensor<20xf32>},
// CHECK-SAME:    %[[M:[^:]*]]: tensor<32xi1> {hidet.weight = "weight1", hidet.weight_value = dense<[true, false, {{.*}}]> : tensor<32xi1>})
// CHECK-NOT:     arith.constant dense_resource
// CHECK-DAG:     arith.constant dense<1.000000e+00> : tensor<4x8xf32>
// CHECK-DAG:     arith.constant dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>
// CHECK-NOT:     tensor<32xi1> = arith.constant
// CHECK:         "test.use"(%[[X]], %[[W]], %[[W]], %[[B]], %[[B]], %{{.*}}, %{{.*}}, %[[M]])
// LIMIT-LABEL: func.func @model(
// LIMIT-SAME:    %{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<4x8xf32> {hidet.weight = "layer1_weight_0"
// LIMIT-SAME:    %{{[^:]*}}: tensor<32xi1> {hidet.weight = "weight0"
// LIMIT:         arith.constant dense<{{.*}}> : tensor<20xf32>
// ZERO-LABEL: func.func @model(
// ZERO-SAME:    tensor<4xf32> {hidet.weight = "weight1", hidet.weight_value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>}
// ZERO:         arith.constant dense<1.000000e+00> : tensor<4x8xf32>
// ZERO-NOT:     arith.constant dense<[{{.*}}
// ZERO:         "test.use"
func.func @model(%x: tensor<4x8xf32>) {
  %w = arith.constant dense_resource<"layer1/weight:0"> : tensor<4x8xf32>
  %w2 = arith.constant dense_resource<"layer1/weight:0"> : tensor<4x8xf32>
  %b = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0]> : tensor<20xf32>
  %b2 = arith.constant dense<[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0]> : tensor<20xf32>
  %splat = arith.constant dense<1.0> : tensor<4x8xf32>
  %small = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %mask = arith.constant dense<[true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false, true, false]> : tensor<32xi1>
  "test.use"(%x, %w, %w2, %b, %b2, %splat, %small, %mask) : (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<20xf32>, tensor<20xf32>, tensor<4x8xf32>, tensor<4xf32>, tensor<32xi1>) -> ()
  return
}

{-#
  dialect_resources: {
    builtin: {
      "layer1/weight:0": "0x040000000000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F"
    }
  }
#-}

// -----

// A name already taken by an existing weight gets a suffix; functions that
// take a memref, private functions and declarations are left alone.
// CHECK-LABEL: func.func @taken(
// CHECK-SAME:    {hidet.weight = "weight0"}
// CHECK-SAME:    {hidet.weight = "weight0_1", hidet.weight_value
// CHECK-LABEL: func.func @buffers(
// CHECK-SAME:    %{{[^:]*}}: memref<4xf32>)
// CHECK:         arith.constant dense<{{.*}}> : tensor<20xi32>
// CHECK-LABEL: func.func private @helper()
// CHECK:         arith.constant dense<{{.*}}> : tensor<20xi32>
func.func @taken(%x: tensor<20xi32>, %w: tensor<20xi32> {hidet.weight = "weight0"}) {
  %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]> : tensor<20xi32>
  "test.use"(%x, %w, %c) : (tensor<20xi32>, tensor<20xi32>, tensor<20xi32>) -> ()
  return
}
func.func @buffers(%x: memref<4xf32>) {
  %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]> : tensor<20xi32>
  "test.use"(%x, %c) : (memref<4xf32>, tensor<20xi32>) -> ()
  return
}
func.func private @helper() {
  %c = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]> : tensor<20xi32>
  "test.use"(%c) : (tensor<20xi32>) -> ()
  return
}
