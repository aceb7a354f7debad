// RUN: hidet-opt %s -split-input-file --hidet-reference-bufferize | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-reference-bufferize | FileCheck %s --check-prefix=NONE

// Upstream transform ops only: the softmax becomes upstream's decomposition
// (max, exp of the difference, sum, division), the function takes and
// returns buffers of identity layout, and the copies into the concatenation
// and the padding's interior (strided subviews) are linalg.copy.
// NONE-NOT: linalg.softmax
// NONE-NOT: memref.copy
// NONE-NOT: tensor<
// CHECK-LABEL: func.func @softmax_concat_pad(
// CHECK-SAME:      %[[A:.*]]: memref<4x16xf32>, %[[B:.*]]: memref<4x3xf32>)
// CHECK-SAME:      -> (memref<4x19xf32>, memref<6x18xf32>)
// CHECK:         %[[S:.*]] = memref.alloc() {{.*}} : memref<4x16xf32>
// CHECK:         %[[ROW:.*]] = memref.alloc() {{.*}} : memref<4xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[A]] : memref<4x16xf32>) outs(%[[ROW]] : memref<4xf32>)
// CHECK:           arith.maxnumf
// CHECK:         linalg.generic {{.*}} ins(%[[A]], %[[ROW]] : memref<4x16xf32>, memref<4xf32>) outs(%[[S]] : memref<4x16xf32>)
// CHECK:           arith.subf
// CHECK:           math.exp
// CHECK:         linalg.generic {{.*}} ins(%[[S]] : memref<4x16xf32>) outs(%[[ROW]] : memref<4xf32>)
// CHECK:           arith.addf
// CHECK:         linalg.generic {{.*}} ins(%[[S]], %[[ROW]] : memref<4x16xf32>, memref<4xf32>) outs(%[[S]] : memref<4x16xf32>)
// CHECK:           arith.divf
// CHECK:         %[[CAT:.*]] = memref.alloc() {{.*}} : memref<4x19xf32>
// CHECK:         %[[LEFT:.*]] = memref.subview %[[CAT]][0, 0] [4, 16] [1, 1]
// CHECK:         linalg.copy ins(%[[S]] : memref<4x16xf32>) outs(%[[LEFT]] : memref<4x16xf32, strided<[19, 1]>>)
// CHECK:         %[[RIGHT:.*]] = memref.subview %[[CAT]][0, 16] [4, 3] [1, 1]
// CHECK:         linalg.copy ins(%[[B]] : memref<4x3xf32>) outs(%[[RIGHT]] : memref<4x3xf32, strided<[19, 1], offset: 16>>)
// CHECK:         %[[PAD:.*]] = memref.alloc() {{.*}} : memref<6x18xf32>
// CHECK:         %[[IN:.*]] = memref.subview %[[PAD]][1, 1] [4, 16] [1, 1]
// CHECK:         linalg.copy ins(%[[A]] : memref<4x16xf32>) outs(%[[IN]] : memref<4x16xf32, strided<[18, 1], offset: 19>>)
// CHECK:         return %[[CAT]], %[[PAD]] : memref<4x19xf32>, memref<6x18xf32>
func.func @softmax_concat_pad(%a: tensor<4x16xf32>, %b: tensor<4x3xf32>) -> (tensor<4x19xf32>, tensor<6x18xf32>) {
  %e = tensor.empty() : tensor<4x16xf32>
  %s = linalg.softmax dimension(1) ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %cat = tensor.concat dim(1) %s, %b : (tensor<4x16xf32>, tensor<4x3xf32>) -> tensor<4x19xf32>
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %a low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x16xf32> to tensor<6x18xf32>
  return %cat, %p : tensor<4x19xf32>, tensor<6x18xf32>
}

// -----

// Two matmuls that read one fill: bufferization, not a pass of this
// project, gives the second its own copy of the fill's buffer (written
// in place, the first would clobber what the second starts from).
// CHECK-LABEL: func.func @shared_fill(
// CHECK:         %[[F:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[F]] : memref<4x4xf32>)
// CHECK:         %[[C:.*]] = memref.alloc() {{.*}} : memref<4x4xf32>
// CHECK:         linalg.copy ins(%[[F]] : memref<4x4xf32>) outs(%[[C]] : memref<4x4xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x4xf32>) outs(%[[C]] : memref<4x4xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf32>, memref<8x4xf32>) outs(%[[F]] : memref<4x4xf32>)
func.func @shared_fill(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>, %c: tensor<8x4xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %y = linalg.matmul ins(%a, %c : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %x, %y : tensor<4x4xf32>, tensor<4x4xf32>
}
