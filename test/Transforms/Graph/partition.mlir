// RUN: hidet-opt %s -split-input-file --hidet-partition | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-partition=remarks=1 -verify-diagnostics -o /dev/null

// GPT-2 MLP: gelu(x @ w1 + b1) @ w2 + b2 + x. Each matmul anchors a group
// whose fill is a prologue; the bias, the GELU (a separate generic) and the
// residual add are epilogue chains. Two groups, two kernels.
// CHECK-LABEL: func.func @gpt2_mlp(
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>}
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>}
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>}
// CHECK-NOT:     hidet.fusion
// CHECK:         return
func.func @gpt2_mlp(%x: tensor<128x768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>) -> tensor<128x768xf16> {
  %z = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %e1 = tensor.empty() : tensor<128x3072xf16>
  %f1 = linalg.fill ins(%z : f16) outs(%e1 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  // expected-remark @+1 {{fusion group 0: 1 prologue op(s), 2 epilogue op(s)}}
  %h = linalg.matmul ins(%x, %w1 : tensor<128x768xf16>, tensor<768x3072xf16>) outs(%f1 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %hb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b1 : tensor<128x3072xf16>, tensor<3072xf16>) outs(%e1 : tensor<128x3072xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x3072xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%hb : tensor<128x3072xf16>) outs(%e1 : tensor<128x3072xf16>) {
  ^bb0(%a: f16, %o: f16):
    %t = math.tanh %a : f16
    %u = arith.addf %t, %one : f16
    %w = arith.mulf %u, %half : f16
    %r = arith.mulf %a, %w : f16
    linalg.yield %r : f16
  } -> tensor<128x3072xf16>
  %e2 = tensor.empty() : tensor<128x768xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e2 : tensor<128x768xf16>) -> tensor<128x768xf16>
  // expected-remark @+1 {{fusion group 1: 1 prologue op(s), 1 epilogue op(s)}}
  %y = linalg.matmul ins(%g, %w2 : tensor<128x3072xf16>, tensor<3072x768xf16>) outs(%f2 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b2, %x : tensor<128x768xf16>, tensor<768xf16>, tensor<128x768xf16>) outs(%e2 : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %t = arith.addf %s, %c : f16
    linalg.yield %t : f16
  } -> tensor<128x768xf16>
  return %r : tensor<128x768xf16>
}

// -----

// ResNet-50 bottleneck (batch-norm folded into the biases): three
// convolutions. The 3x3 one takes the pad of its input as a prologue; the
// last one's bias, residual add and ReLU are its epilogue chain. Three
// groups.
// CHECK-LABEL: func.func @bottleneck(
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>}
// CHECK:         linalg.conv_2d_nhwc_hwcf {{{.*}}hidet.fusion = #hidet.fusion<group = 0, role = anchor>
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         tensor.pad
// CHECK:         } {hidet.fusion = #hidet.fusion<group = 1, role = prologue>} : tensor<8x14x14x64xf16> to tensor<8x16x16x64xf16>
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>}
// CHECK:         linalg.conv_2d_nhwc_hwcf {{{.*}}hidet.fusion = #hidet.fusion<group = 1, role = anchor>
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>}
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 2, role = prologue>}
// CHECK:         linalg.conv_2d_nhwc_hwcf {{{.*}}hidet.fusion = #hidet.fusion<group = 2, role = anchor>
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 2, role = epilogue>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 2, role = epilogue>}
// CHECK-NOT:     hidet.fusion
func.func @bottleneck(%x: tensor<8x14x14x256xf16>, %w1: tensor<1x1x256x64xf16>, %b1: tensor<64xf16>, %w2: tensor<3x3x64x64xf16>, %b2: tensor<64xf16>, %w3: tensor<1x1x64x256xf16>, %b3: tensor<256xf16>) -> tensor<8x14x14x256xf16> {
  %z = arith.constant 0.0 : f16
  %e64 = tensor.empty() : tensor<8x14x14x64xf16>
  %f1 = linalg.fill ins(%z : f16) outs(%e64 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  // expected-remark @+1 {{fusion group 0: 1 prologue op(s), 1 epilogue op(s)}}
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<8x14x14x256xf16>, tensor<1x1x256x64xf16>) outs(%f1 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<8x14x14x64xf16>, tensor<64xf16>) outs(%e64 : tensor<8x14x14x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x64xf16>
  %p = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f16
  } : tensor<8x14x14x64xf16> to tensor<8x16x16x64xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e64 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  // expected-remark @+1 {{fusion group 1: 2 prologue op(s), 1 epilogue op(s)}}
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w2 : tensor<8x16x16x64xf16>, tensor<3x3x64x64xf16>) outs(%f2 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %b2 : tensor<8x14x14x64xf16>, tensor<64xf16>) outs(%e64 : tensor<8x14x14x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x64xf16>
  %e256 = tensor.empty() : tensor<8x14x14x256xf16>
  %f3 = linalg.fill ins(%z : f16) outs(%e256 : tensor<8x14x14x256xf16>) -> tensor<8x14x14x256xf16>
  // expected-remark @+1 {{fusion group 2: 1 prologue op(s), 2 epilogue op(s)}}
  %c3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r2, %w3 : tensor<8x14x14x64xf16>, tensor<1x1x64x256xf16>) outs(%f3 : tensor<8x14x14x256xf16>) -> tensor<8x14x14x256xf16>
  %a3 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c3, %b3 : tensor<8x14x14x256xf16>, tensor<256xf16>) outs(%e256 : tensor<8x14x14x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8x14x14x256xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a3, %x : tensor<8x14x14x256xf16>, tensor<8x14x14x256xf16>) outs(%e256 : tensor<8x14x14x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x256xf16>
  return %out : tensor<8x14x14x256xf16>
}

// -----

// A BERT self-attention block: the query projection's bias, its reshape
// to heads (expand_shape) and transpose are the matmul's epilogue; the
// scaled scores are the first batch matmul's; the softmax anchors its own
// group; the second batch matmul takes the heads' transpose back and the
// collapse to 768 columns as its epilogue. Four groups.
// CHECK-LABEL: func.func @bert_attention(
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>}
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         tensor.expand_shape {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>}
// CHECK:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>}
// CHECK:         linalg.softmax {{.*}}{hidet.fusion = #hidet.fusion<group = 2, role = anchor>}
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 3, role = prologue>}
// CHECK:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 3, role = anchor>}
// CHECK:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 3, role = epilogue>}
// CHECK:         tensor.collapse_shape {{.*}} {hidet.fusion = #hidet.fusion<group = 3, role = epilogue>}
func.func @bert_attention(%x: tensor<128x768xf16>, %wq: tensor<768x768xf16>, %bq: tensor<768xf16>, %k: tensor<12x64x128xf16>, %v: tensor<12x128x64xf16>) -> tensor<128x768xf16> {
  %z = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<128x768xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<128x768xf16>) -> tensor<128x768xf16>
  // expected-remark @+1 {{fusion group 0: 1 prologue op(s), 3 epilogue op(s)}}
  %q = linalg.matmul ins(%x, %wq : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f : tensor<128x768xf16>) -> tensor<128x768xf16>
  %qb = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%q, %bq : tensor<128x768xf16>, tensor<768xf16>) outs(%e : tensor<128x768xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %q3 = tensor.expand_shape %qb [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %et = tensor.empty() : tensor<12x128x64xf16>
  %qt = linalg.transpose ins(%q3 : tensor<128x12x64xf16>) outs(%et : tensor<12x128x64xf16>) permutation = [1, 0, 2]
  %es = tensor.empty() : tensor<12x128x128xf16>
  %fs = linalg.fill ins(%z : f16) outs(%es : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  // expected-remark @+1 {{fusion group 1: 1 prologue op(s), 1 epilogue op(s)}}
  %s = linalg.batch_matmul ins(%qt, %k : tensor<12x128x64xf16>, tensor<12x64x128xf16>) outs(%fs : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %ss = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<12x128x128xf16>) outs(%es : tensor<12x128x128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %scale : f16
    linalg.yield %m : f16
  } -> tensor<12x128x128xf16>
  // expected-remark @+1 {{fusion group 2: 0 prologue op(s), 0 epilogue op(s)}}
  %p = linalg.softmax dimension(2) ins(%ss : tensor<12x128x128xf16>) outs(%es : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %fc = linalg.fill ins(%z : f16) outs(%et : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  // expected-remark @+1 {{fusion group 3: 1 prologue op(s), 2 epilogue op(s)}}
  %c = linalg.batch_matmul ins(%p, %v : tensor<12x128x128xf16>, tensor<12x128x64xf16>) outs(%fc : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %eo = tensor.empty() : tensor<128x12x64xf16>
  %ct = linalg.transpose ins(%c : tensor<12x128x64xf16>) outs(%eo : tensor<128x12x64xf16>) permutation = [1, 0, 2]
  %o = tensor.collapse_shape %ct [[0], [1, 2]] : tensor<128x12x64xf16> into tensor<128x768xf16>
  return %o : tensor<128x768xf16>
}

// -----

// Negative: the matmul's result has two uses, so neither user is its
// epilogue (the value is kept, not recomputed); each user anchors its own
// group.
// CHECK-LABEL: func.func @multi_use(
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 2, role = anchor>}
func.func @multi_use(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> (tensor<64x64xf32>, tensor<64x64xf32>) {
  // expected-remark @+1 {{fusion group 0: 0 prologue op(s), 0 epilogue op(s)}}
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<64x64xf32>
  // expected-remark @+1 {{fusion group 1: 0 prologue op(s), 0 epilogue op(s)}}
  %x = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  // expected-remark @+1 {{fusion group 2: 0 prologue op(s), 0 epilogue op(s)}}
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<64x64xf32>
  return %x, %y : tensor<64x64xf32>, tensor<64x64xf32>
}

// -----

// Negative: an op that reads the matmul's result through a broadcast (each
// element feeds 4 result elements) has no inverse index map, so it is not
// an epilogue. A bias read through a broadcast is fine: it is a side input.
// CHECK-LABEL: func.func @broadcast_consumer(
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
func.func @broadcast_consumer(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<4x64x64xf32> {
  // expected-remark @+1 {{fusion group 0: 0 prologue op(s), 0 epilogue op(s)}}
  %m = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = tensor.empty() : tensor<4x64x64xf32>
  // expected-remark @+1 {{fusion group 1: 0 prologue op(s), 0 epilogue op(s)}}
  %x = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%m : tensor<64x64xf32>) outs(%e : tensor<4x64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<4x64x64xf32>
  return %x : tensor<4x64x64xf32>
}

// -----

// Negative: a reduction is never a prologue; it anchors its own group,
// and the matmul that reads it only takes the fill. The transpose between
// them is bijective with respect to the reduction's result, so it is the
// reduction's epilogue (epilogues are grown before prologues).
// CHECK-LABEL: func.func @reduction_producer(
// CHECK:         linalg.reduce {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// CHECK:         linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>}
// CHECK:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
func.func @reduction_producer(%x: tensor<64x64x8xf32>, %b: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{fusion group 0: 1 prologue op(s), 1 epilogue op(s)}}
  %s = linalg.reduce ins(%x : tensor<64x64x8xf32>) outs(%f : tensor<64x64xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %r = arith.addf %in, %acc : f32
      linalg.yield %r : f32
    }
  %t = linalg.transpose ins(%s : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) permutation = [1, 0]
  %f2 = linalg.fill ins(%z : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
  // expected-remark @+1 {{fusion group 1: 1 prologue op(s), 0 epilogue op(s)}}
  %m = linalg.matmul ins(%t, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%f2 : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %m : tensor<64x64xf32>
}

// -----

// An island of injective ops with no anchor is one group, anchored at its
// last op, the others its prologues.
// CHECK-LABEL: func.func @injective_island(
// CHECK:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = prologue>}
// CHECK:         linalg.generic {{.*}} attrs =  {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// CHECK-NOT:     hidet.fusion
func.func @injective_island(%x: tensor<32x64xf32>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %e = tensor.empty() : tensor<64x32xf32>
  %t = linalg.transpose ins(%x : tensor<32x64xf32>) outs(%e : tensor<64x32xf32>) permutation = [1, 0]
  // expected-remark @+1 {{fusion group 0: 1 prologue op(s), 0 epilogue op(s)}}
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%t, %y : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<64x32xf32>
  return %s : tensor<64x32xf32>
}

// -----

// Ops on buffers communicate through memory, which the rules do not
// follow: they belong to no group.
// CHECK-LABEL: func.func @buffers(
// CHECK-NOT:     hidet.fusion
// CHECK:         return
func.func @buffers(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%c : memref<64x64xf32>) {
  ^bb0(%o: f32):
    %r = math.exp %o : f32
    linalg.yield %r : f32
  }
  return
}
