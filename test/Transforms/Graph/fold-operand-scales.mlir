// RUN: hidet-opt %s --hidet-fold-operand-scales --split-input-file | FileCheck %s

// Attention scores as PyTorch's exporter writes scaled_dot_product_attention:
// the queries and the transposed keys each scaled by 1 / sqrt(sqrt(64)) in
// f16, between reshapes of the heads. The batch matmul reads the unscaled
// tensors (the query's collapse of its expand folds away), accumulates into
// f32 from a zero fill of its own, and one generic scales by the product of
// the two constants and rounds to f16.
// CHECK-LABEL: func.func @scaled_heads(
// CHECK-SAME:    %[[Q:[^:]*]]: tensor<24x197x64xf16>, %[[KT:[^:]*]]: tensor<2x12x64x197xf16>
// CHECK-DAG:     %[[C:.*]] = arith.constant 0.124973297 : f32
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     arith.mulf
// CHECK:         %[[K:.*]] = tensor.collapse_shape %[[KT]] {{\[}}[0, 1], [2], [3]] : tensor<2x12x64x197xf16> into tensor<24x64x197xf16>
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<24x197x197xf32>
// CHECK:         %[[F:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[E]] : tensor<24x197x197xf32>)
// CHECK:         %[[S:.*]] = linalg.batch_matmul ins(%[[Q]], %[[K]] : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%[[F]] : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<24x197x197xf32>) outs(%{{.*}} : tensor<24x197x197xf16>)
// CHECK:           %[[M:.*]] = arith.mulf %{{.*}}, %[[C]] : f32
// CHECK:           %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK:           linalg.yield %[[T]] : f16
// CHECK:         return %[[R]]
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @scaled_heads(%q: tensor<24x197x64xf16>, %kt: tensor<2x12x64x197xf16>) -> tensor<24x197x197xf16> {
  %z = arith.constant 0.0 : f16
  %c = arith.constant 0.3535 : f16
  %q4 = tensor.expand_shape %q [[0, 1], [2], [3]] output_shape [2, 12, 197, 64] : tensor<24x197x64xf16> into tensor<2x12x197x64xf16>
  %eq = tensor.empty() : tensor<2x12x197x64xf16>
  %qs = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q4 : tensor<2x12x197x64xf16>) outs(%eq : tensor<2x12x197x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %x, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x12x197x64xf16>
  %ek = tensor.empty() : tensor<2x12x64x197xf16>
  %ks = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%kt : tensor<2x12x64x197xf16>) outs(%ek : tensor<2x12x64x197xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %c, %x : f16
    linalg.yield %m : f16
  } -> tensor<2x12x64x197xf16>
  %a = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x12x197x64xf16> into tensor<24x197x64xf16>
  %b = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<2x12x64x197xf16> into tensor<24x64x197xf16>
  %e = tensor.empty() : tensor<24x197x197xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %s = linalg.batch_matmul ins(%a, %b : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%f : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  return %s : tensor<24x197x197xf16>
}

// -----

// An f32 matmul whose right operand is divided by a constant: the result
// is divided instead (multiplied by 0.25), with no rounding after it; the
// zero fill of the f32 accumulator is a fresh one.
// CHECK-LABEL: func.func @divided_f32(
// CHECK-SAME:    %[[A:[^:]*]]: tensor<8x16xf32>, %[[B:[^:]*]]: tensor<16x4xf32>
// CHECK:         %[[C:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NOT:     arith.divf
// CHECK:         %[[P:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<8x16xf32>, tensor<16x4xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%[[P]] : tensor<8x4xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[IN]], %[[C]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         return %[[R]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @divided_f32(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 4.0 : f32
  %eb = tensor.empty() : tensor<16x4xf32>
  %bs = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%b : tensor<16x4xf32>) outs(%eb : tensor<16x4xf32>) {
  ^bb0(%x: f32, %o: f32):
    %d = arith.divf %x, %c : f32
    linalg.yield %d : f32
  } -> tensor<16x4xf32>
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.matmul ins(%a, %bs : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

// -----

// What stays: a contraction that accumulates onto its init (the init would
// be scaled too); a scaled value that something else reads as well; a scale
// that is not a constant; a scale read through a transposing map; a
// constant divided by the operand; a division by zero (0 * inf is NaN).
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-6: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#t2 = affine_map<(d0, d1) -> (d1, d0)>
func.func @kept(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %acc: tensor<8x8xf32>, %s: f32)
    -> (tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x8xf32>) -> tensor<8x8xf32>
  // Onto %acc.
  %a1 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r1 = linalg.matmul ins(%a1, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%acc : tensor<8x8xf32>) -> tensor<8x8xf32>
  // Also returned.
  %a2 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r2 = linalg.matmul ins(%a2, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  // By a function argument.
  %a3 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r3 = linalg.matmul ins(%a3, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  // Transposed while scaled.
  %a4 = linalg.generic {indexing_maps = [#t2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %c : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r4 = linalg.matmul ins(%a4, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  // 2 / a.
  %a5 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.divf %c, %x : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r5 = linalg.matmul ins(%a5, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  // a / 0.
  %a6 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.divf %x, %z : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %r6 = linalg.matmul ins(%a6, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%f : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r1, %r2, %r3, %r4, %r5, %r6, %a2 : tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}
