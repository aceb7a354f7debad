// RUN: hidet-opt %s -split-input-file --hidet-accumulate-in-f32 | FileCheck %s

// A 16-bit matmul accumulates in f32: its init is extended, the matmul
// writes f32 (the named op extends its f16 operands in its body), and the
// result is rounded to f16 once.
// CHECK-LABEL: func.func @matmul(
// CHECK-SAME:      %[[A:.*]]: tensor<4x8xf16>, %[[B:.*]]: tensor<8x2xf16>, %[[C:.*]]: tensor<4x2xf16>)
// CHECK:         %[[C32:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<4x2xf16>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK:           arith.extf %{{.*}} : f16 to f32
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x2xf16>) outs(%[[C32]] : tensor<4x2xf32>) -> tensor<4x2xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[M]] : tensor<4x2xf32>) outs(%{{.*}} : tensor<4x2xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         return %[[R]]
func.func @matmul(%a: tensor<4x8xf16>, %b: tensor<8x2xf16>, %c: tensor<4x2xf16>) -> tensor<4x2xf16> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf16>, tensor<8x2xf16>) outs(%c : tensor<4x2xf16>) -> tensor<4x2xf16>
  return %r : tensor<4x2xf16>
}

// -----

// Convolutions keep their strides and dilations; bf16 too.
// CHECK-LABEL: func.func @conv(
// CHECK:         linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x3x9x9xbf16>, tensor<4x3x3x3xbf16>) outs(%{{.*}} : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
func.func @conv(%x: tensor<1x3x9x9xbf16>, %w: tensor<4x3x3x3xbf16>, %o: tensor<1x4x4x4xbf16>) -> tensor<1x4x4x4xbf16> {
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x3x9x9xbf16>, tensor<4x3x3x3xbf16>) outs(%o : tensor<1x4x4x4xbf16>) -> tensor<1x4x4x4xbf16>
  return %r : tensor<1x4x4x4xbf16>
}

// -----

// f32 matmuls, and matmuls on buffers, are left alone.
// CHECK-LABEL: func.func @untouched(
// CHECK-NOT:     linalg.generic
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x2xf32>) outs(%{{.*}} : tensor<4x2xf32>)
// CHECK:         linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf16>, memref<8x2xf16>) outs(%{{.*}} : memref<4x2xf16>)
func.func @untouched(%a: tensor<4x8xf32>, %b: tensor<8x2xf32>, %c: tensor<4x2xf32>, %d: memref<4x8xf16>, %e: memref<8x2xf16>, %f: memref<4x2xf16>) -> tensor<4x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x2xf32>) outs(%c : tensor<4x2xf32>) -> tensor<4x2xf32>
  linalg.matmul ins(%d, %e : memref<4x8xf16>, memref<8x2xf16>) outs(%f : memref<4x2xf16>)
  return %r : tensor<4x2xf32>
}

// -----

// A generic contraction (an Einsum's; here a batch matmul reading the values
// [token, head, dim]) accumulates in f32 too: the generic is built again
// into an f32 init with a body that extends both operands, and its result
// is rounded once. Other generics are left alone.
// CHECK-DAG:   #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d0, d2)>
// CHECK-LABEL: func.func @einsum(
// CHECK-SAME:      %[[P:.*]]: tensor<2x3x5xf16>, %[[V:.*]]: tensor<5x2x4xf16>, %[[C:.*]]: tensor<2x3x4xf16>)
// CHECK:         %[[C32:.*]] = linalg.generic {{.*}} ins(%[[C]] : tensor<2x3x4xf16>) outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK:         %[[S:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[B]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%[[P]], %[[V]] : tensor<2x3x5xf16>, tensor<5x2x4xf16>) outs(%[[C32]] : tensor<2x3x4xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f16, %[[Y:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[X32:.*]] = arith.extf %[[X]] : f16 to f32
// CHECK-NEXT:      %[[Y32:.*]] = arith.extf %[[Y]] : f16 to f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[X32]], %[[Y32]] : f32
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[ACC]], %[[M]] : f32
// CHECK-NEXT:      linalg.yield %[[A]] : f32
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x3x4xf32>) outs(%{{.*}} : tensor<2x3x4xf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to f16
// CHECK:         %[[E:.*]] = linalg.generic {{.*}} ins(%[[R]] : tensor<2x3x4xf16>) outs(%{{.*}} : tensor<2x3x4xf16>)
// CHECK-NEXT:    ^bb0(%{{.*}}: f16, %{{.*}}: f16):
// CHECK-NEXT:      math.tanh
// CHECK:         return %[[E]]
#pm = affine_map<(b, m, n, k) -> (b, m, k)>
#vm = affine_map<(b, m, n, k) -> (k, b, n)>
#om = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
func.func @einsum(%p: tensor<2x3x5xf16>, %v: tensor<5x2x4xf16>, %c: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %s = linalg.generic {indexing_maps = [#pm, #vm, #om], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x3x5xf16>, tensor<5x2x4xf16>) outs(%c : tensor<2x3x4xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %m = arith.mulf %x, %y : f16
    %a = arith.addf %acc, %m : f16
    linalg.yield %a : f16
  } -> tensor<2x3x4xf16>
  %e = tensor.empty() : tensor<2x3x4xf16>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x3x4xf16>) outs(%e : tensor<2x3x4xf16>) {
  ^bb0(%x: f16, %o: f16):
    %h = math.tanh %x : f16
    linalg.yield %h : f16
  } -> tensor<2x3x4xf16>
  return %t : tensor<2x3x4xf16>
}

// -----

// A 16-bit softmax is computed in f32: its input extended, the softmax into
// an f32 tensor, the result rounded once. An f32 softmax is left alone.
// CHECK-LABEL: func.func @softmax(
// CHECK-SAME:      %[[X:.*]]: tensor<2x300xbf16>, %[[Y:.*]]: tensor<2x3xf32>)
// CHECK:         %[[X32:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<2x300xbf16>) outs(%{{.*}} : tensor<2x300xf32>)
// CHECK:           arith.extf %{{.*}} : bf16 to f32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x300xf32>
// CHECK:         %[[S:.*]] = linalg.softmax dimension(1) ins(%[[X32]] : tensor<2x300xf32>) outs(%[[E]] : tensor<2x300xf32>) -> tensor<2x300xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<2x300xf32>) outs(%{{.*}} : tensor<2x300xbf16>)
// CHECK:           arith.truncf %{{.*}} : f32 to bf16
// CHECK:         %[[T:.*]] = linalg.softmax dimension(0) ins(%[[Y]] : tensor<2x3xf32>)
// CHECK:         return %[[R]], %[[T]]
func.func @softmax(%x: tensor<2x300xbf16>, %y: tensor<2x3xf32>) -> (tensor<2x300xbf16>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<2x300xbf16>
  %r = linalg.softmax dimension(1) ins(%x : tensor<2x300xbf16>) outs(%e : tensor<2x300xbf16>) -> tensor<2x300xbf16>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %t = linalg.softmax dimension(0) ins(%y : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r, %t : tensor<2x300xbf16>, tensor<2x3xf32>
}
