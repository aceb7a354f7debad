// RUN: hidet-opt %s -split-input-file --hidet-slice-producers=min-elements=0 --canonicalize | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-slice-producers --canonicalize | FileCheck %s --check-prefix=DEFAULT
// RUN: not hidet-opt %s --hidet-slice-producers=min-elements=-1 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: hidet-slice-producers: min-elements must be at least 0, got -1

// By default slices of fewer than 2^20 elements are not computed on their
// own: small GEMMs cost about the same whatever their width.
// DEFAULT-LABEL: func.func @qkv(
// DEFAULT:         linalg.matmul {{.*}} -> tensor<256x192xf16>
// DEFAULT-COUNT-3: tensor.extract_slice %{{.*}} : tensor<2x128x192xf16> to tensor<2x128x64xf16>

// GPT-2's attention input: one GEMM and one bias add compute the query, key
// and value projections, split three ways. Each slice is computed by a
// GEMM of its own, on a column slice of the weight, with a bias add on a
// slice of the bias, each into a tensor of its own size.
// CHECK-LABEL: func.func @qkv(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<256x64xf16>, %[[W:[^:]*]]: tensor<64x192xf16>, %[[BIAS:[^:]*]]: tensor<192xf16>)
// CHECK-NOT:     tensor<256x192xf16>
// CHECK-NOT:     tensor<2x128x192xf16>
// CHECK:         %[[B0:.*]] = tensor.extract_slice %[[BIAS]][0] [64] [1]
// CHECK:         %[[W0:.*]] = tensor.extract_slice %[[W]][0, 0] [64, 64] [1, 1]
// CHECK:         %[[E0:.*]] = tensor.empty() : tensor<256x64xf16>
// CHECK:         %[[F0:.*]] = linalg.fill ins(%{{.*}} : f16) outs(%[[E0]] : tensor<256x64xf16>)
// CHECK:         %[[M0:.*]] = linalg.matmul ins(%[[X]], %[[W0]] : tensor<256x64xf16>, tensor<64x64xf16>) outs(%[[F0]] : tensor<256x64xf16>)
// CHECK:         %[[V0:.*]] = tensor.expand_shape %[[M0]] {{\[\[}}0, 1], [2]] output_shape [2, 128, 64]
// CHECK:         %[[Q:.*]] = linalg.generic {{.*}} ins(%[[B0]], %[[V0]] : tensor<64xf16>, tensor<2x128x64xf16>)
// CHECK:         tensor.extract_slice %[[BIAS]][64] [64] [1]
// CHECK:         tensor.extract_slice %[[W]][0, 64] [64, 64] [1, 1]
// CHECK:         linalg.matmul
// CHECK:         tensor.extract_slice %[[BIAS]][128] [64] [1]
// CHECK:         tensor.extract_slice %[[W]][0, 128] [64, 64] [1, 1]
// CHECK:         linalg.matmul
// CHECK-NOT:     tensor.extract_slice
// CHECK:         return %[[Q]],
#bias = affine_map<(d0, d1, d2) -> (d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @qkv(%x: tensor<256x64xf16>, %w: tensor<64x192xf16>, %bias: tensor<192xf16>) -> (tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<2x128x64xf16>) {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x192xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x192xf16>) -> tensor<256x192xf16>
  %m = linalg.matmul ins(%x, %w : tensor<256x64xf16>, tensor<64x192xf16>) outs(%f : tensor<256x192xf16>) -> tensor<256x192xf16>
  %v = tensor.expand_shape %m [[0, 1], [2]] output_shape [2, 128, 192] : tensor<256x192xf16> into tensor<2x128x192xf16>
  %e2 = tensor.empty() : tensor<2x128x192xf16>
  %b = linalg.generic {indexing_maps = [#bias, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias, %v : tensor<192xf16>, tensor<2x128x192xf16>) outs(%e2 : tensor<2x128x192xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %s = arith.addf %p, %q : f16
    linalg.yield %s : f16
  } -> tensor<2x128x192xf16>
  %q = tensor.extract_slice %b[0, 0, 0] [2, 128, 64] [1, 1, 1] : tensor<2x128x192xf16> to tensor<2x128x64xf16>
  %k = tensor.extract_slice %b[0, 0, 64] [2, 128, 64] [1, 1, 1] : tensor<2x128x192xf16> to tensor<2x128x64xf16>
  %vv = tensor.extract_slice %b[0, 0, 128] [2, 128, 64] [1, 1, 1] : tensor<2x128x192xf16> to tensor<2x128x64xf16>
  return %q, %k, %vv : tensor<2x128x64xf16>, tensor<2x128x64xf16>, tensor<2x128x64xf16>
}

// -----

// Overlapping slices would compute their shared columns twice: the GEMM
// stays whole.
// CHECK-LABEL: func.func @overlapping(
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} -> tensor<16x32xf32>
// CHECK:         tensor.extract_slice %[[M]][0, 0] [16, 24] [1, 1]
// CHECK:         tensor.extract_slice %[[M]][0, 8] [16, 24] [1, 1]
func.func @overlapping(%x: tensor<16x8xf32>, %w: tensor<8x32xf32>, %init: tensor<16x32xf32>) -> (tensor<16x24xf32>, tensor<16x24xf32>) {
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = tensor.extract_slice %m[0, 0] [16, 24] [1, 1] : tensor<16x32xf32> to tensor<16x24xf32>
  %b = tensor.extract_slice %m[0, 8] [16, 24] [1, 1] : tensor<16x32xf32> to tensor<16x24xf32>
  return %a, %b : tensor<16x24xf32>, tensor<16x24xf32>
}

// -----

// A value also read whole is computed whole.
// CHECK-LABEL: func.func @read_whole(
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} -> tensor<16x32xf32>
// CHECK:         %[[S:.*]] = tensor.extract_slice %[[M]][0, 0] [16, 16] [1, 1]
// CHECK:         return %[[S]], %[[M]]
func.func @read_whole(%x: tensor<16x8xf32>, %w: tensor<8x32xf32>, %init: tensor<16x32xf32>) -> (tensor<16x16xf32>, tensor<16x32xf32>) {
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = tensor.extract_slice %m[0, 0] [16, 16] [1, 1] : tensor<16x32xf32> to tensor<16x16xf32>
  return %a, %m : tensor<16x16xf32>, tensor<16x32xf32>
}

// -----

// One slice of rows: only those rows are computed (A's rows sliced).
// CHECK-LABEL: func.func @row_slice(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<16x8xf32>
// CHECK:         %[[XS:.*]] = tensor.extract_slice %[[X]][4, 0] [8, 8] [1, 1]
// CHECK:         %[[M:.*]] = linalg.matmul ins(%[[XS]], %{{.*}} : tensor<8x8xf32>, tensor<8x32xf32>) {{.*}} -> tensor<8x32xf32>
// CHECK:         return %[[M]]
func.func @row_slice(%x: tensor<16x8xf32>, %w: tensor<8x32xf32>, %init: tensor<16x32xf32>) -> tensor<8x32xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = tensor.extract_slice %m[4, 0] [8, 32] [1, 1] : tensor<16x32xf32> to tensor<8x32xf32>
  return %a : tensor<8x32xf32>
}

// -----

// A rank-reducing slice (a class token) is left to the ops that read it.
// CHECK-LABEL: func.func @rank_reducing(
// CHECK:         %[[M:.*]] = linalg.matmul {{.*}} -> tensor<16x32xf32>
// CHECK:         tensor.extract_slice %[[M]][0, 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<32xf32>
func.func @rank_reducing(%x: tensor<16x8xf32>, %w: tensor<8x32xf32>, %init: tensor<16x32xf32>) -> tensor<32xf32> {
  %m = linalg.matmul ins(%x, %w : tensor<16x8xf32>, tensor<8x32xf32>) outs(%init : tensor<16x32xf32>) -> tensor<16x32xf32>
  %a = tensor.extract_slice %m[0, 0] [1, 32] [1, 1] : tensor<16x32xf32> to tensor<32xf32>
  return %a : tensor<32xf32>
}
