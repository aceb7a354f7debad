// RUN: hidet-opt %s --hidet-propagate-transposes --split-input-file | FileCheck %s

// Two channels-last convolutions with an NCHW ReLU between them, as the
// ONNX importer writes them: the transposes around the ReLU cancel, and the
// ReLU computes on the first convolution's NHWC result.
// CHECK-LABEL: func.func @conv_relu_conv(
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[C1:.*]] = linalg.conv_2d_nhwc_hwcf
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#[[ID:.*]], #[[ID]]], {{.*}}} ins(%[[C1]] : tensor<1x8x8x16xf32>) outs(%{{.*}} : tensor<1x8x8x16xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[C2:.*]] = linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[R]], %{{.*}} : tensor<1x8x8x16xf32>,
// CHECK:         %[[Y:.*]] = linalg.transpose ins(%[[C2]] : tensor<1x8x8x4xf32>) outs(%{{.*}} : tensor<1x4x8x8xf32>) permutation = [0, 3, 1, 2]
// CHECK:         return %[[Y]]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @conv_relu_conv(%x: tensor<1x8x8x3xf32>, %w1: tensor<1x1x3x16xf32>, %w2: tensor<1x1x16x4xf32>) -> tensor<1x4x8x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x8x8x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<1x8x8x3xf32>, tensor<1x1x3x16xf32>) outs(%f1 : tensor<1x8x8x16xf32>) -> tensor<1x8x8x16xf32>
  %e2 = tensor.empty() : tensor<1x16x8x8xf32>
  %t1 = linalg.transpose ins(%c1 : tensor<1x8x8x16xf32>) outs(%e2 : tensor<1x16x8x8xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t1 : tensor<1x16x8x8xf32>) outs(%e2 : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x16x8x8xf32>
  %t2 = linalg.transpose ins(%r : tensor<1x16x8x8xf32>) outs(%e1 : tensor<1x8x8x16xf32>) permutation = [0, 2, 3, 1]
  %e3 = tensor.empty() : tensor<1x8x8x4xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%t2, %w2 : tensor<1x8x8x16xf32>, tensor<1x1x16x4xf32>) outs(%f3 : tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %e4 = tensor.empty() : tensor<1x4x8x8xf32>
  %y = linalg.transpose ins(%c2 : tensor<1x8x8x4xf32>) outs(%e4 : tensor<1x4x8x8xf32>) permutation = [0, 3, 1, 2]
  return %y : tensor<1x4x8x8xf32>
}

// -----

// A residual add of two transposed NHWC values and a per-channel bias: it
// computes in NHWC (the bias, read along C, now along the last loop), and
// the transpose after it is written by the add itself (one kernel), since a
// graph output needs NCHW.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG:   #[[TO_NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func.func @add_bias(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x4x4x8xf32>, %[[B:[a-z0-9]+]]: tensor<2x4x4x8xf32>, %[[BIAS:[a-z0-9]+]]: tensor<8xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[Y:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[C]], #[[TO_NCHW]]], {{.*}}} ins(%[[A]], %[[B]], %[[BIAS]] : {{.*}}) outs(%{{.*}} : tensor<2x8x4x4xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         return %[[Y]]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
#ch = affine_map<(n, c, h, w) -> (c)>
func.func @add_bias(%a: tensor<2x4x4x8xf32>, %b: tensor<2x4x4x8xf32>, %bias: tensor<8xf32>) -> tensor<2x8x4x4xf32> {
  %e = tensor.empty() : tensor<2x8x4x4xf32>
  %ta = linalg.transpose ins(%a : tensor<2x4x4x8xf32>) outs(%e : tensor<2x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %tb = linalg.transpose ins(%b : tensor<2x4x4x8xf32>) outs(%e : tensor<2x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %y = linalg.generic {indexing_maps = [#id, #id, #ch, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ta, %tb, %bias : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>, tensor<8xf32>) outs(%e : tensor<2x8x4x4xf32>) {
  ^bb0(%x: f32, %z: f32, %c: f32, %out: f32):
    %s = arith.addf %x, %z : f32
    %t = arith.addf %s, %c : f32
    linalg.yield %t : f32
  } -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

// An add of a transposed value and one in loop order keeps its order: it
// reads the first through the transpose's map, and no transpose is left.
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG:   #[[FROM_NHWC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-LABEL: func.func @mixed_orders(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: tensor<2x4x4x8xf32>, %[[B:[a-z0-9]+]]: tensor<2x8x4x4xf32>)
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {indexing_maps = [#[[FROM_NHWC]], #[[ID]], #[[ID]]], {{.*}}} ins(%[[A]], %[[B]] : tensor<2x4x4x8xf32>, tensor<2x8x4x4xf32>) outs(%{{.*}} : tensor<2x8x4x4xf32>)
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @mixed_orders(%a: tensor<2x4x4x8xf32>, %b: tensor<2x8x4x4xf32>) -> tensor<2x8x4x4xf32> {
  %e = tensor.empty() : tensor<2x8x4x4xf32>
  %ta = linalg.transpose ins(%a : tensor<2x4x4x8xf32>) outs(%e : tensor<2x8x4x4xf32>) permutation = [0, 3, 1, 2]
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%ta, %b : tensor<2x8x4x4xf32>, tensor<2x8x4x4xf32>) outs(%e : tensor<2x8x4x4xf32>) {
  ^bb0(%x: f32, %z: f32, %out: f32):
    %s = arith.addf %x, %z : f32
    linalg.yield %s : f32
  } -> tensor<2x8x4x4xf32>
  return %y : tensor<2x8x4x4xf32>
}

// -----

// Max pooling of a padded NHWC tensor's transpose: the pad (its pads
// permuted) and the pooling (NHWC, its -inf fill refilled in NHWC) take the
// NHWC tensor. The global average pool after it reduces along rows of H x W
// collapsed: read from the NHWC tensor, those would run across rows (C
// apart), so the reduction keeps its contiguous rows and the transpose
// stays before the collapse.
// CHECK-DAG:   #[[RED_IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @pools(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<1x8x8x4xf32>
// CHECK:         %[[PAD:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         } : tensor<1x8x8x4xf32> to tensor<1x10x10x4xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x4x4x4xf32>)
// CHECK:         %[[P:.*]] = linalg.pooling_nhwc_max {{.*}} ins(%[[PAD]], %{{.*}} : tensor<1x10x10x4xf32>, tensor<3x3xf32>) outs(%[[INIT]] : tensor<1x4x4x4xf32>)
// CHECK:         %[[T:.*]] = linalg.transpose ins(%[[P]] : tensor<1x4x4x4xf32>) {{.*}} permutation = [0, 3, 1, 2]
// CHECK:         %[[HW:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0], [1], [2, 3]] : tensor<1x4x4x4xf32> into tensor<1x4x16xf32>
// CHECK:         linalg.generic {indexing_maps = [#[[RED_IN]], {{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[HW]] : tensor<1x4x16xf32>)
#in = affine_map<(n, c, r) -> (n, c, r)>
#out = affine_map<(n, c, r) -> (n, c)>
func.func @pools(%x: tensor<1x8x8x4xf32>) -> tensor<1x4xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %t = linalg.transpose ins(%x : tensor<1x8x8x4xf32>) outs(%e : tensor<1x4x8x8xf32>) permutation = [0, 3, 1, 2]
  %padded = tensor.pad %t low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %ninf : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %pe = tensor.empty() : tensor<1x4x4x4xf32>
  %pf = linalg.fill ins(%ninf : f32) outs(%pe : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %p = linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%padded, %win : tensor<1x4x10x10xf32>, tensor<3x3xf32>) outs(%pf : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %hw = tensor.collapse_shape %p [[0], [1], [2, 3]] : tensor<1x4x4x4xf32> into tensor<1x4x16xf32>
  %se = tensor.empty() : tensor<1x4xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<1x4xf32>) -> tensor<1x4xf32>
  %s = linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%hw : tensor<1x4x16xf32>) outs(%sf : tensor<1x4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}

// -----

// The first convolution's input: a graph input cast to f16, padded and
// transposed to NHWC. The transpose moves above the pad and is written by
// the cast (one kernel).
// CHECK-DAG:   #[[TO_NHWC:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3, d1)>
// CHECK-DAG:   #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @input_cast(
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[CAST:.*]] = linalg.generic {indexing_maps = [#[[ID]], #[[TO_NHWC]]], {{.*}}} ins(%{{.*}} : tensor<1x3x8x8xf32>) outs(%{{.*}} : tensor<1x8x8x3xf16>)
// CHECK:           arith.truncf
// CHECK:         %[[PAD:.*]] = tensor.pad %[[CAST]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:         return %[[PAD]]
#id = affine_map<(n, c, h, w) -> (n, c, h, w)>
func.func @input_cast(%x: tensor<1x3x8x8xf32>) -> tensor<1x10x10x3xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x3x8x8xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : tensor<1x3x8x8xf32>) outs(%e : tensor<1x3x8x8xf16>) {
  ^bb0(%in: f32, %out: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  } -> tensor<1x3x8x8xf16>
  %padded = tensor.pad %h low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f16
  } : tensor<1x3x8x8xf16> to tensor<1x3x10x10xf16>
  %te = tensor.empty() : tensor<1x10x10x3xf16>
  %t = linalg.transpose ins(%padded : tensor<1x3x10x10xf16>) outs(%te : tensor<1x10x10x3xf16>) permutation = [0, 2, 3, 1]
  return %t : tensor<1x10x10x3xf16>
}

// -----

// A transpose that moves only dims of extent 1 (an SE block's [N, C, 1, 1]
// to NHWC) is a reshape.
// CHECK-LABEL: func.func @unit_dims(
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[C:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<4x8x1x1xf32> into tensor<4x8xf32>
// CHECK:         %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0], [1, 2, 3]] output_shape [4, 1, 1, 8] : tensor<4x8xf32> into tensor<4x1x1x8xf32>
// CHECK:         return %[[E]]
func.func @unit_dims(%x: tensor<4x8x1x1xf32>) -> tensor<4x1x1x8xf32> {
  %e = tensor.empty() : tensor<4x1x1x8xf32>
  %t = linalg.transpose ins(%x : tensor<4x8x1x1xf32>) outs(%e : tensor<4x1x1x8xf32>) permutation = [0, 2, 3, 1]
  return %t : tensor<4x1x1x8xf32>
}

// -----

// A transpose of a matmul's result has no elementwise producer to join and
// no inverse to meet: it stays.
// CHECK-LABEL: func.func @stays(
// CHECK:         %[[M:.*]] = linalg.matmul
// CHECK:         linalg.transpose ins(%[[M]]
func.func @stays(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %c: tensor<8x16xf32>) -> tensor<16x8xf32> {
  %m = linalg.matmul ins(%a, %b : tensor<8x4xf32>, tensor<4x16xf32>) outs(%c : tensor<8x16xf32>) -> tensor<8x16xf32>
  %e = tensor.empty() : tensor<16x8xf32>
  %t = linalg.transpose ins(%m : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  return %t : tensor<16x8xf32>
}

// -----

// A row sum of a transpose that swaps the outer dims only: the same loop
// walks the contiguous dim either way, so the reduction reads the
// transpose's input.
// CHECK-DAG:   #[[SWAPPED:.*]] = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: tensor<4x2x16xf32>
// CHECK-NOT:     linalg.transpose
// CHECK:         linalg.generic {indexing_maps = [#[[SWAPPED]], {{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[X]] : tensor<4x2x16xf32>)
#rin = affine_map<(i, j, r) -> (i, j, r)>
#rout = affine_map<(i, j, r) -> (i, j)>
func.func @row_sum(%x: tensor<4x2x16xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x16xf32>
  %t = linalg.transpose ins(%x : tensor<4x2x16xf32>) outs(%e : tensor<2x4x16xf32>) permutation = [1, 0, 2]
  %se = tensor.empty() : tensor<2x4xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<2x4xf32>) -> tensor<2x4xf32>
  %s = linalg.generic {indexing_maps = [#rin, #rout], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t : tensor<2x4x16xf32>) outs(%sf : tensor<2x4xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x4xf32>
  return %s : tensor<2x4xf32>
}

// -----

// The same pool after an elementwise op that only it reads (ResNet's last
// ReLU): the transpose left before the collapse joins the ReLU, which
// writes NCHW directly.
// CHECK-DAG:   #[[TO_NCHW:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1, d2)>
// CHECK-LABEL: func.func @relu_pool(
// CHECK-NOT:     linalg.transpose
// CHECK:         %[[R:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[TO_NCHW]]], {{.*}}} ins(%{{.*}} : tensor<2x3x3x8xf32>) outs(%{{.*}} : tensor<2x8x3x3xf32>)
// CHECK:           arith.maximumf
// CHECK:         %[[HW:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1], [2, 3]] : tensor<2x8x3x3xf32> into tensor<2x8x9xf32>
// CHECK:         linalg.generic {{.*}} ins(%[[HW]] : tensor<2x8x9xf32>)
#id4 = affine_map<(n, c, h, w) -> (n, c, h, w)>
#pin = affine_map<(n, c, r) -> (n, c, r)>
#pout = affine_map<(n, c, r) -> (n, c)>
func.func @relu_pool(%x: tensor<2x3x3x8xf32>) -> tensor<2x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x8x3x3xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x3x8xf32>) outs(%e : tensor<2x8x3x3xf32>) permutation = [0, 3, 1, 2]
  %r = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : tensor<2x8x3x3xf32>) outs(%e : tensor<2x8x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x8x3x3xf32>
  %hw = tensor.collapse_shape %r [[0], [1], [2, 3]] : tensor<2x8x3x3xf32> into tensor<2x8x9xf32>
  %se = tensor.empty() : tensor<2x8xf32>
  %sf = linalg.fill ins(%zero : f32) outs(%se : tensor<2x8xf32>) -> tensor<2x8xf32>
  %s = linalg.generic {indexing_maps = [#pin, #pout], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%hw : tensor<2x8x9xf32>) outs(%sf : tensor<2x8xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %a = arith.addf %v, %acc : f32
    linalg.yield %a : f32
  } -> tensor<2x8xf32>
  return %s : tensor<2x8xf32>
}

// -----

// Attention scores over 197 tokens, K^T a transpose of the keys (rows of
// 64 f16, aligned) into rows of 197 (394 bytes, not a multiple of 16): the
// batch matmul reads the keys through its indexing map instead (K-major B)
// and the transpose is gone. The aligned transpose at 128 tokens stays a
// transpose, and so does the unaligned one of keys laid out [token, head,
// 64], which would move the batch dim (upstream's batch_matmul keeps it
// first in every operand).
// CHECK-DAG:   #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[BT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[C:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME:    (%[[Q:.*]]: tensor<12x197x64xf16>, %[[K:.*]]: tensor<12x197x64xf16>, %[[Q2:.*]]: tensor<12x128x64xf16>, %[[K2:.*]]: tensor<12x128x64xf16>, %[[K3:.*]]: tensor<197x12x64xf16>
// CHECK-NOT:     linalg.transpose ins(%[[K]]
// CHECK:         linalg.batch_matmul indexing_maps = [#[[A]], #[[BT]], #[[C]]] ins(%[[Q]], %[[K]] : tensor<12x197x64xf16>, tensor<12x197x64xf16>)
// CHECK:         %[[K2T:.*]] = linalg.transpose ins(%[[K2]]
// CHECK:         linalg.batch_matmul ins(%[[Q2]], %[[K2T]] : tensor<12x128x64xf16>, tensor<12x64x128xf16>)
// CHECK:         %[[K3T:.*]] = linalg.transpose ins(%[[K3]]
// CHECK:         linalg.batch_matmul ins(%[[Q]], %[[K3T]] : tensor<12x197x64xf16>, tensor<12x64x197xf16>)
func.func @scores(%q: tensor<12x197x64xf16>, %k: tensor<12x197x64xf16>,
                  %q2: tensor<12x128x64xf16>, %k2: tensor<12x128x64xf16>,
                  %k3: tensor<197x12x64xf16>)
    -> (tensor<12x197x197xf16>, tensor<12x128x128xf16>, tensor<12x197x197xf16>) {
  %zero = arith.constant 0.0 : f16
  %et = tensor.empty() : tensor<12x64x197xf16>
  %kt = linalg.transpose ins(%k : tensor<12x197x64xf16>) outs(%et : tensor<12x64x197xf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<12x197x197xf16>
  %f = linalg.fill ins(%zero : f16) outs(%e : tensor<12x197x197xf16>) -> tensor<12x197x197xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x197x64xf16>, tensor<12x64x197xf16>) outs(%f : tensor<12x197x197xf16>) -> tensor<12x197x197xf16>
  %et2 = tensor.empty() : tensor<12x64x128xf16>
  %kt2 = linalg.transpose ins(%k2 : tensor<12x128x64xf16>) outs(%et2 : tensor<12x64x128xf16>) permutation = [0, 2, 1]
  %e2 = tensor.empty() : tensor<12x128x128xf16>
  %f2 = linalg.fill ins(%zero : f16) outs(%e2 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %s2 = linalg.batch_matmul ins(%q2, %kt2 : tensor<12x128x64xf16>, tensor<12x64x128xf16>) outs(%f2 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %kt3 = linalg.transpose ins(%k3 : tensor<197x12x64xf16>) outs(%et : tensor<12x64x197xf16>) permutation = [1, 2, 0]
  %f3 = linalg.fill ins(%zero : f16) outs(%e : tensor<12x197x197xf16>) -> tensor<12x197x197xf16>
  %o = linalg.batch_matmul ins(%q, %kt3 : tensor<12x197x64xf16>, tensor<12x64x197xf16>) outs(%f3 : tensor<12x197x197xf16>) -> tensor<12x197x197xf16>
  return %s, %s2, %o : tensor<12x197x197xf16>, tensor<12x128x128xf16>, tensor<12x197x197xf16>
}
