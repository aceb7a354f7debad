// RUN: hidet-opt %s -split-input-file --hidet-distinct-results | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-bufferize | FileCheck %s --check-prefix=BUF

// A value returned three times: the later positions return copies.
// CHECK-LABEL: func.func @twice(
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<19xf32>
// CHECK:         %[[C:.*]] = linalg.copy ins(%[[R]] : tensor<19xf32>) outs(%[[E]] : tensor<19xf32>)
// CHECK:         %[[E2:.*]] = tensor.empty() : tensor<19xf32>
// CHECK:         %[[C2:.*]] = linalg.copy ins(%[[R]] : tensor<19xf32>) outs(%[[E2]] : tensor<19xf32>)
// CHECK:         return %[[R]], %[[C]], %[[C2]]
// Bufferized (found by hidet-random-graph: buffer-results-to-out-params
// crashed on the buffer returned twice), each output is written.
// BUF-LABEL: func.func @twice(
// BUF-SAME:      %[[A:[^:]*]]: memref<19xf32>, %[[O0:[^:]*]]: memref<19xf32>, %[[O1:[^:]*]]: memref<19xf32>, %[[O2:[^:]*]]: memref<19xf32>)
// BUF:         linalg.generic {{.*}} outs(%[[O0]] : memref<19xf32>)
// BUF:         linalg.copy ins(%[[O0]] : memref<19xf32>) outs(%[[O1]] : memref<19xf32>)
// BUF:         linalg.copy ins(%[[O0]] : memref<19xf32>) outs(%[[O2]] : memref<19xf32>)
// BUF:         return
#id = affine_map<(d0) -> (d0)>
func.func @twice(%a: tensor<19xf32>) -> (tensor<19xf32>, tensor<19xf32>, tensor<19xf32>) {
  %e = tensor.empty() : tensor<19xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<19xf32>) outs(%e : tensor<19xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %x : f32
    linalg.yield %s : f32
  } -> tensor<19xf32>
  return %r, %r, %r : tensor<19xf32>, tensor<19xf32>, tensor<19xf32>
}

// -----

// Distinct values are left alone.
// CHECK-LABEL: func.func @distinct(
// CHECK-NOT:     linalg.copy
// CHECK:         return %arg0, %arg1
func.func @distinct(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %a, %b : tensor<4xf32>, tensor<4xf32>
}
