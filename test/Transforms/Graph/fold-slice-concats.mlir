// RUN: hidet-opt %s -split-input-file --hidet-fold-slice-concats | FileCheck %s

// The rotary embedding's rotate_half as the ONNX exporters write it:
// cat(-x[..., 8:], x[..., :8]) through two slices, a negation and two
// inserts into an empty tensor. One generic over the result reads x at
// the position shifted into the piece it is in (clamped into the piece),
// once, negates it in the first piece and selects.
// CHECK-LABEL: func.func @rotate_half(
// CHECK-SAME:    %[[X:.*]]: tensor<2x4x16xf32>)
// CHECK-NOT:     tensor.extract_slice
// CHECK-NOT:     tensor.insert_slice
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} outs(%{{.*}} : tensor<2x4x16xf32>)
// CHECK:           %[[I0:.*]] = linalg.index 0 : index
// CHECK:           %[[I1:.*]] = linalg.index 1 : index
// CHECK:           %[[D:.*]] = linalg.index 2 : index
// CHECK:           %[[FIRST:.*]] = arith.cmpi ult, %[[D]], %c8{{.*}} : index
// CHECK:           %[[UP:.*]] = arith.addi %[[D]], %c8{{.*}} : index
// CHECK:           %[[UPLO:.*]] = arith.maxsi %[[UP]], %c8{{.*}} : index
// CHECK:           %[[UPC:.*]] = arith.minsi %[[UPLO]], %c15 : index
// CHECK-NOT:       arith.cmpi
// CHECK:           %[[DOWN:.*]] = arith.addi %[[D]], %c-8 : index
// CHECK:           %[[DOWNLO:.*]] = arith.maxsi %[[DOWN]], %c0 : index
// CHECK:           %[[DOWNC:.*]] = arith.minsi %[[DOWNLO]], %c7 : index
// CHECK:           %[[AT:.*]] = arith.select %[[FIRST]], %[[UPC]], %[[DOWNC]] : index
// CHECK:           %[[V:.*]] = tensor.extract %[[X]][%[[I0]], %[[I1]], %[[AT]]] : tensor<2x4x16xf32>
// CHECK:           %[[NEG:.*]] = arith.negf %[[V]] : f32
// CHECK:           %[[Y:.*]] = arith.select %[[FIRST]], %[[NEG]], %[[V]] : f32
// CHECK:           linalg.yield %[[Y]] : f32
// CHECK:         return %[[R]]
#id = affine_map<(a, b, c) -> (a, b, c)>
func.func @rotate_half(%x: tensor<2x4x16xf32>) -> tensor<2x4x16xf32> {
  %lo = tensor.extract_slice %x[0, 0, 0] [2, 4, 8] [1, 1, 1] : tensor<2x4x16xf32> to tensor<2x4x8xf32>
  %hi = tensor.extract_slice %x[0, 0, 8] [2, 4, 8] [1, 1, 1] : tensor<2x4x16xf32> to tensor<2x4x8xf32>
  %e8 = tensor.empty() : tensor<2x4x8xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%hi : tensor<2x4x8xf32>) outs(%e8 : tensor<2x4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %n = arith.negf %a : f32
    linalg.yield %n : f32
  } -> tensor<2x4x8xf32>
  %e = tensor.empty() : tensor<2x4x16xf32>
  %c0 = tensor.insert_slice %neg into %e[0, 0, 0] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x4x16xf32>
  %c1 = tensor.insert_slice %lo into %c0[0, 0, 8] [2, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> into tensor<2x4x16xf32>
  return %c1 : tensor<2x4x16xf32>
}

// -----

// Pieces from two tensors: each is read, clamped into its piece, and the
// piece the position is in is selected.
// CHECK-LABEL: func.func @two_sources(
// CHECK-SAME:    %[[A:.*]]: tensor<3x10xf16>, %[[B:.*]]: tensor<3x4xf16>)
// CHECK:         linalg.generic
// CHECK:           %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c6 : index
// CHECK:           %[[VA:.*]] = tensor.extract %[[A]][%{{.*}}, %{{.*}}] : tensor<3x10xf16>
// CHECK:           %[[VB:.*]] = tensor.extract %[[B]][%{{.*}}, %{{.*}}] : tensor<3x4xf16>
// CHECK:           arith.select %[[IN]], %[[VA]], %[[VB]] : f16
// CHECK-NOT:     tensor.insert_slice
func.func @two_sources(%a: tensor<3x10xf16>, %b: tensor<3x4xf16>) -> tensor<3x10xf16> {
  %sa = tensor.extract_slice %a[0, 4] [3, 6] [1, 1] : tensor<3x10xf16> to tensor<3x6xf16>
  %sb = tensor.extract_slice %b[0, 0] [3, 4] [1, 1] : tensor<3x4xf16> to tensor<3x4xf16>
  %e = tensor.empty() : tensor<3x10xf16>
  %c0 = tensor.insert_slice %sb into %e[0, 6] [3, 4] [1, 1] : tensor<3x4xf16> into tensor<3x10xf16>
  %c1 = tensor.insert_slice %sa into %c0[0, 0] [3, 6] [1, 1] : tensor<3x6xf16> into tensor<3x10xf16>
  return %c1 : tensor<3x10xf16>
}

// -----

// Slices of a transpose (Q's heads moved before its positions) are read
// from the transpose's input: the transpose goes.
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME:    %[[X:.*]]: tensor<2x32x4x16xf16>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic
// CHECK:           %[[B:.*]] = linalg.index 0 : index
// CHECK:           %[[H:.*]] = linalg.index 1 : index
// CHECK:           %[[S:.*]] = linalg.index 2 : index
// CHECK:           %[[AT:.*]] = arith.select
// CHECK:           tensor.extract %[[X]][%[[B]], %[[S]], %[[H]], %[[AT]]] : tensor<2x32x4x16xf16>
// CHECK-NOT:     linalg.transpose
#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func @transposed(%x: tensor<2x32x4x16xf16>) -> tensor<2x4x32x16xf16> {
  %et = tensor.empty() : tensor<2x4x32x16xf16>
  %t = linalg.transpose ins(%x : tensor<2x32x4x16xf16>) outs(%et : tensor<2x4x32x16xf16>) permutation = [0, 2, 1, 3]
  %lo = tensor.extract_slice %t[0, 0, 0, 0] [2, 4, 32, 8] [1, 1, 1, 1] : tensor<2x4x32x16xf16> to tensor<2x4x32x8xf16>
  %hi = tensor.extract_slice %t[0, 0, 0, 8] [2, 4, 32, 8] [1, 1, 1, 1] : tensor<2x4x32x16xf16> to tensor<2x4x32x8xf16>
  %e8 = tensor.empty() : tensor<2x4x32x8xf16>
  %neg = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%hi : tensor<2x4x32x8xf16>) outs(%e8 : tensor<2x4x32x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %n = arith.negf %a : f16
    linalg.yield %n : f16
  } -> tensor<2x4x32x8xf16>
  %e = tensor.empty() : tensor<2x4x32x16xf16>
  %c0 = tensor.insert_slice %neg into %e[0, 0, 0, 0] [2, 4, 32, 8] [1, 1, 1, 1] : tensor<2x4x32x8xf16> into tensor<2x4x32x16xf16>
  %c1 = tensor.insert_slice %lo into %c0[0, 0, 0, 8] [2, 4, 32, 8] [1, 1, 1, 1] : tensor<2x4x32x8xf16> into tensor<2x4x32x16xf16>
  return %c1 : tensor<2x4x32x16xf16>
}

// -----

// Left alone: a concatenation of values that are not slices (each is
// computed into its place), pieces that leave a gap, a piece that overlaps
// another, and pieces cut along two dimensions (a half of the rows, then
// the other half's two column halves).
// CHECK-LABEL: func.func @apart(
// CHECK-COUNT-9: tensor.insert_slice
// CHECK-NOT:     linalg.generic
func.func @apart(%x: tensor<4x8xf32>, %y: tensor<4x4xf32>, %z: tensor<4x4xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %a0 = tensor.insert_slice %y into %e[0, 0] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  %a1 = tensor.insert_slice %z into %a0[0, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  %s0 = tensor.extract_slice %x[0, 0] [4, 3] [1, 1] : tensor<4x8xf32> to tensor<4x3xf32>
  %s1 = tensor.extract_slice %x[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %b0 = tensor.insert_slice %s0 into %e[0, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<4x8xf32>
  %b1 = tensor.insert_slice %s1 into %b0[0, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  %s2 = tensor.extract_slice %x[0, 0] [4, 5] [1, 1] : tensor<4x8xf32> to tensor<4x5xf32>
  %s3 = tensor.extract_slice %x[0, 4] [4, 4] [1, 1] : tensor<4x8xf32> to tensor<4x4xf32>
  %c0 = tensor.insert_slice %s2 into %e[0, 0] [4, 5] [1, 1] : tensor<4x5xf32> into tensor<4x8xf32>
  %c1 = tensor.insert_slice %s3 into %c0[0, 4] [4, 4] [1, 1] : tensor<4x4xf32> into tensor<4x8xf32>
  %s4 = tensor.extract_slice %x[0, 0] [2, 8] [1, 1] : tensor<4x8xf32> to tensor<2x8xf32>
  %s5 = tensor.extract_slice %x[2, 0] [2, 4] [1, 1] : tensor<4x8xf32> to tensor<2x4xf32>
  %s6 = tensor.extract_slice %x[2, 4] [2, 4] [1, 1] : tensor<4x8xf32> to tensor<2x4xf32>
  %d0 = tensor.insert_slice %s4 into %e[0, 0] [2, 8] [1, 1] : tensor<2x8xf32> into tensor<4x8xf32>
  %d1 = tensor.insert_slice %s5 into %d0[2, 0] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x8xf32>
  %d2 = tensor.insert_slice %s6 into %d1[2, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<4x8xf32>
  return %a1, %b1, %c1, %d2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}
