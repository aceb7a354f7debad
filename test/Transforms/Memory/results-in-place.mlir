// RUN: hidet-opt %s -split-input-file --hidet-results-in-place | FileCheck %s

// A GEMM on 2-D rows returned as 4 x 8 x 24: the allocation becomes the
// output's collapsed view, the copy and the reshape go.
// CHECK-LABEL: func.func @expanded(
// CHECK-SAME:      %[[X:.*]]: memref<32x16xf32>, %[[W:.*]]: memref<16x24xf32>, %[[OUT:.*]]: memref<4x8x24xf32>)
// CHECK-NEXT:    %[[V:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1], [2]] : memref<4x8x24xf32> into memref<32x24xf32>
// CHECK-NEXT:    linalg.matmul ins(%[[X]], %[[W]] : memref<32x16xf32>, memref<16x24xf32>) outs(%[[V]] : memref<32x24xf32>)
// CHECK-NEXT:    return
func.func @expanded(%x: memref<32x16xf32>, %w: memref<16x24xf32>, %out: memref<4x8x24xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<32x24xf32>
  linalg.matmul ins(%x, %w : memref<32x16xf32>, memref<16x24xf32>) outs(%a : memref<32x24xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] : memref<32x24xf32> into memref<4x8x24xf32>
  memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32>
  return
}

// -----

// A collapsed result (64 x 1 returned as 64) through linalg.copy, with a
// deallocation after it: the allocation becomes the output's expanded
// view.
// CHECK-LABEL: func.func @collapsed(
// CHECK-SAME:      %[[OUT:.*]]: memref<64xf32>)
// CHECK:         %[[V:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1]] output_shape [64, 1] : memref<64xf32> into memref<64x1xf32>
// CHECK-NEXT:    linalg.fill ins(%{{.*}} : f32) outs(%[[V]] : memref<64x1xf32>)
// CHECK-NEXT:    return
func.func @collapsed(%out: memref<64xf32>) {
  %z = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<64x1xf32>
  linalg.fill ins(%z : f32) outs(%a : memref<64x1xf32>)
  %c = memref.collapse_shape %a [[0, 1]] : memref<64x1xf32> into memref<64xf32>
  linalg.copy ins(%c : memref<64xf32>) outs(%out : memref<64xf32>)
  memref.dealloc %a : memref<64x1xf32>
  return
}

// -----

// Not when the allocation is used after the copy: the copy stays.
// CHECK-LABEL: func.func @used_after(
// CHECK:         memref.alloc()
// CHECK:         memref.copy
// CHECK:         linalg.fill
func.func @used_after(%x: memref<32x16xf32>, %w: memref<16x24xf32>, %out: memref<4x8x24xf32>) {
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<32x24xf32>
  linalg.matmul ins(%x, %w : memref<32x16xf32>, memref<16x24xf32>) outs(%a : memref<32x24xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] : memref<32x24xf32> into memref<4x8x24xf32>
  memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32>
  linalg.fill ins(%z : f32) outs(%a : memref<32x24xf32>)
  return
}

// -----

// Not when the output has another use (it is also read here), nor into a
// buffer that is not an argument, nor from a strided reshape source.
// CHECK-LABEL: func.func @output_read(
// CHECK:         memref.alloc()
// CHECK:         memref.copy
// CHECK-LABEL: func.func @not_an_argument(
// CHECK:         memref.copy
// CHECK-LABEL: func.func @strided_output(
// CHECK:         memref.copy
func.func @output_read(%x: memref<32x16xf32>, %w: memref<16x24xf32>, %out: memref<4x8x24xf32>, %r: memref<4x8x24xf32>) {
  %a = memref.alloc() : memref<32x24xf32>
  linalg.matmul ins(%x, %w : memref<32x16xf32>, memref<16x24xf32>) outs(%a : memref<32x24xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] : memref<32x24xf32> into memref<4x8x24xf32>
  linalg.copy ins(%out : memref<4x8x24xf32>) outs(%r : memref<4x8x24xf32>)
  memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32>
  return
}
func.func @not_an_argument(%x: memref<32x16xf32>, %w: memref<16x24xf32>) {
  %a = memref.alloc() : memref<32x24xf32>
  %b = memref.alloc() : memref<4x8x24xf32>
  linalg.matmul ins(%x, %w : memref<32x16xf32>, memref<16x24xf32>) outs(%a : memref<32x24xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] : memref<32x24xf32> into memref<4x8x24xf32>
  memref.copy %e, %b : memref<4x8x24xf32> to memref<4x8x24xf32>
  return
}
func.func @strided_output(%x: memref<32x16xf32>, %w: memref<16x24xf32>, %out: memref<4x8x24xf32, strided<[400, 50, 1]>>) {
  %a = memref.alloc() : memref<32x24xf32>
  linalg.matmul ins(%x, %w : memref<32x16xf32>, memref<16x24xf32>) outs(%a : memref<32x24xf32>)
  %e = memref.expand_shape %a [[0, 1], [2]] output_shape [4, 8, 24] : memref<32x24xf32> into memref<4x8x24xf32>
  memref.copy %e, %out : memref<4x8x24xf32> to memref<4x8x24xf32, strided<[400, 50, 1]>>
  return
}

// -----

// One allocation returned through two reshapes (a value returned twice):
// it becomes the first output's view, and the second output is copied from
// there.
// CHECK-LABEL: func.func @returned_twice(
// CHECK-SAME:      %[[X:.*]]: memref<128x16xf16>, %[[OUT0:.*]]: memref<2x64x16xf16>, %[[OUT1:.*]]: memref<2x64x16xf16>)
// CHECK-NEXT:    %[[V:.*]] = memref.collapse_shape %[[OUT0]] {{\[\[}}0, 1], [2]] : memref<2x64x16xf16> into memref<128x16xf16>
// CHECK-NEXT:    linalg.copy ins(%[[X]] : memref<128x16xf16>) outs(%[[V]] : memref<128x16xf16>)
// CHECK-NEXT:    %[[E:.*]] = memref.expand_shape %[[V]] {{\[\[}}0, 1], [2]] output_shape [2, 64, 16]
// CHECK-NEXT:    memref.copy %[[E]], %[[OUT1]]
// CHECK-NEXT:    return
func.func @returned_twice(%x: memref<128x16xf16>, %out0: memref<2x64x16xf16>, %out1: memref<2x64x16xf16>) {
  %a = memref.alloc() : memref<128x16xf16>
  linalg.copy ins(%x : memref<128x16xf16>) outs(%a : memref<128x16xf16>)
  %e0 = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 64, 16] : memref<128x16xf16> into memref<2x64x16xf16>
  %e1 = memref.expand_shape %a [[0, 1], [2]] output_shape [2, 64, 16] : memref<128x16xf16> into memref<2x64x16xf16>
  memref.copy %e0, %out0 : memref<2x64x16xf16> to memref<2x64x16xf16>
  memref.copy %e1, %out1 : memref<2x64x16xf16> to memref<2x64x16xf16>
  return
}
