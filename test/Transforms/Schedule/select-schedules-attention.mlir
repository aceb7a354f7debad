// RUN: hidet-opt %s -split-input-file --hidet-bufferize --hidet-set-target=chip=sm_90a --hidet-select-schedules -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-bufferize --hidet-set-target=chip=sm_90a "--hidet-select-schedules=attention=0" | FileCheck %s --check-prefix=OFF

// An attention (scores Q K^T through an elementwise epilogue, a softmax
// over their rows, the product with V) is given the fused attention
// template: #hidet.attention on the Q K^T, no hidet.schedule on either
// matmul. With attention=0 both matmuls get GEMM schedules.

// CHECK-LABEL: func.func @scaled(
// CHECK:         linalg.batch_matmul {{.*}}hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>
// CHECK-NOT:     hidet.schedule
// CHECK:         linalg.batch_matmul
// CHECK-NOT:     hidet.schedule
// CHECK:         return
// OFF-LABEL: func.func @scaled(
// OFF-NOT:       hidet.attention
// OFF:           linalg.batch_matmul {{.*}}hidet.schedule = #hidet.mma_matmul
// OFF:           linalg.batch_matmul {{.*}}hidet.schedule = #hidet.mma_matmul
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scaled(%q: tensor<24x197x64xf16>, %kt: tensor<24x64x197xf16>, %v: tensor<24x197x64xf16>) -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f16
  %c = arith.constant 0.125 : f16
  %e = tensor.empty() : tensor<24x197x197xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  // expected-remark @+1 {{hidet-select-schedules: fused attention with the P V at}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%f : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    linalg.yield %m : f16
  } -> tensor<24x197x197xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %eo = tensor.empty() : tensor<24x197x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<24x197x197xf16>, tensor<24x197x64xf16>) outs(%fo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  return %o : tensor<24x197x64xf16>
}

// -----

// BERT's additive mask (one row of biases per batch, broadcast over heads
// and queries) is part of the scores' epilogue: still one kernel. 24 heads
// of 128 queries make 48 blocks of 64 rows, fewer than half the H100's 132
// SMs: the default takes 32 rows.
// CHECK-LABEL: func.func @masked(
// CHECK:         linalg.batch_matmul {{.*}}hidet.attention = #hidet.attention<block_q = 32, block_kv = 32>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#row = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @masked(%q: tensor<24x128x64xbf16>, %k: tensor<24x128x64xbf16>, %v: tensor<24x128x64xbf16>, %mask: tensor<2x128xbf16>) -> tensor<24x128x64xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<24x128x128xbf16>
  %kt = tensor.empty() : tensor<24x64x128xbf16>
  %t = linalg.transpose ins(%k : tensor<24x128x64xbf16>) outs(%kt : tensor<24x64x128xbf16>) permutation = [0, 2, 1]
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<24x128x128xbf16>) -> tensor<24x128x128xbf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %t : tensor<24x128x64xbf16>, tensor<24x64x128xbf16>) outs(%f : tensor<24x128x128xbf16>) -> tensor<24x128x128xbf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 12, 128, 128] : tensor<24x128x128xbf16> into tensor<2x12x128x128xbf16>
  %e4 = tensor.empty() : tensor<2x12x128x128xbf16>
  %x = linalg.generic {indexing_maps = [#id4, #row, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %mask : tensor<2x12x128x128xbf16>, tensor<2x128xbf16>) outs(%e4 : tensor<2x12x128x128xbf16>) {
  ^bb0(%a: bf16, %m: bf16, %o: bf16):
    %y = arith.addf %a, %m : bf16
    linalg.yield %y : bf16
  } -> tensor<2x12x128x128xbf16>
  %p4 = linalg.softmax dimension(3) ins(%x : tensor<2x12x128x128xbf16>) outs(%e4 : tensor<2x12x128x128xbf16>) -> tensor<2x12x128x128xbf16>
  %p = tensor.collapse_shape %p4 [[0, 1], [2], [3]] : tensor<2x12x128x128xbf16> into tensor<24x128x128xbf16>
  %eo = tensor.empty() : tensor<24x128x64xbf16>
  %fo = linalg.fill ins(%z : bf16) outs(%eo : tensor<24x128x64xbf16>) -> tensor<24x128x64xbf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<24x128x128xbf16>, tensor<24x128x64xbf16>) outs(%fo : tensor<24x128x64xbf16>) -> tensor<24x128x64xbf16>
  return %o : tensor<24x128x64xbf16>
}

// -----

// BERT-base at batch 1: 12 heads of 128 queries make 24 blocks of 64 rows
// and 48 of 32, fewer than half the H100's 132 SMs: the default takes 16.
// CHECK-LABEL: func.func @few_blocks(
// CHECK:         linalg.batch_matmul {{.*}}hidet.attention = #hidet.attention<block_q = 16, block_kv = 32>
func.func @few_blocks(%q: tensor<12x128x64xf16>, %kt: tensor<12x64x128xf16>, %v: tensor<12x128x64xf16>) -> tensor<12x128x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<12x128x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<12x128x64xf16>, tensor<12x64x128xf16>) outs(%f : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<12x128x128xf16>) outs(%e : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %eo = tensor.empty() : tensor<12x128x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<12x128x128xf16>, tensor<12x128x64xf16>) outs(%fo : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  return %o : tensor<12x128x64xf16>
}

// -----

// Heads of 16 over many queries: 64 rows (128 threads) and 32 keys a step
// leave K's tile of 32 x 16 fewer 16-byte pieces than threads; 64 keys a
// step spread over them.
// CHECK-LABEL: func.func @head16(
// CHECK:         linalg.batch_matmul {{.*}}hidet.attention = #hidet.attention<block_q = 64, block_kv = 64>
func.func @head16(%q: tensor<8x1024x16xf16>, %kt: tensor<8x16x96xf16>, %v: tensor<8x96x16xf16>) -> tensor<8x1024x16xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x1024x96xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x1024x96xf16>) -> tensor<8x1024x96xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x1024x16xf16>, tensor<8x16x96xf16>) outs(%f : tensor<8x1024x96xf16>) -> tensor<8x1024x96xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x1024x96xf16>) outs(%e : tensor<8x1024x96xf16>) -> tensor<8x1024x96xf16>
  %eo = tensor.empty() : tensor<8x1024x16xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<8x1024x16xf16>) -> tensor<8x1024x16xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x1024x96xf16>, tensor<8x96x16xf16>) outs(%fo : tensor<8x1024x16xf16>) -> tensor<8x1024x16xf16>
  return %o : tensor<8x1024x16xf16>
}

// -----

// f32 operands (the SIMT template's) and heads of 8 have no fused
// template: each matmul gets its own schedule, and a remark says why.
// CHECK-LABEL: func.func @f32(
// CHECK-NOT:     hidet.attention
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule = #hidet.simt_matmul
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule = #hidet.simt_matmul
func.func @f32(%q: tensor<4x32x64xf32>, %kt: tensor<4x64x32xf32>, %v: tensor<4x32x64xf32>) -> tensor<4x32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x32x32xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  // expected-remark @+1 {{not a fused attention: the fused attention takes f16 or bf16 Q, K and V}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x32x64xf32>, tensor<4x64x32xf32>) outs(%f : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf32>) outs(%e : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
  %eo = tensor.empty() : tensor<4x32x64xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf32>, tensor<4x32x64xf32>) outs(%fo : tensor<4x32x64xf32>) -> tensor<4x32x64xf32>
  return %o : tensor<4x32x64xf32>
}

// -----

// CHECK-LABEL: func.func @head8(
// CHECK-NOT:     hidet.attention
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule = #hidet.mma_matmul
func.func @head8(%q: tensor<8x16x8xf16>, %kt: tensor<8x8x16xf16>, %v: tensor<8x16x8xf16>) -> tensor<8x16x8xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8x16x16xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x16x16xf16>) -> tensor<8x16x16xf16>
  // expected-remark @+1 {{not a fused attention: the fused attention takes head sizes that are multiples of 16 up to 128 (Q K^T's K is 8, P V's N is 8)}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x16x8xf16>, tensor<8x8x16xf16>) outs(%f : tensor<8x16x16xf16>) -> tensor<8x16x16xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x16x16xf16>) outs(%e : tensor<8x16x16xf16>) -> tensor<8x16x16xf16>
  %eo = tensor.empty() : tensor<8x16x8xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<8x16x8xf16>) -> tensor<8x16x8xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x16x16xf16>, tensor<8x16x8xf16>) outs(%fo : tensor<8x16x8xf16>) -> tensor<8x16x8xf16>
  return %o : tensor<8x16x8xf16>
}

// -----

// Scores that are also a result of the function (another reader), and a
// softmax that is also returned, keep the three kernels.
// CHECK-LABEL: func.func @scores_returned(
// CHECK-NOT:     hidet.attention
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule
func.func @scores_returned(%q: tensor<4x32x64xf16>, %kt: tensor<4x64x32xf16>, %v: tensor<4x32x64xf16>) -> (tensor<4x32x64xf16>, tensor<4x32x32xf16>) {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x32x64xf16>, tensor<4x64x32xf16>) outs(%f : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf16>) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %eo = tensor.empty() : tensor<4x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf16>, tensor<4x32x64xf16>) outs(%fo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  return %o, %p : tensor<4x32x64xf16>, tensor<4x32x32xf16>
}

// -----

// A softmax over the other dimension of the scores is not an attention.
// CHECK-LABEL: func.func @columns(
// CHECK-NOT:     hidet.attention
func.func @columns(%q: tensor<4x32x64xf16>, %kt: tensor<4x64x32xf16>, %v: tensor<4x32x64xf16>) -> tensor<4x32x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x32x64xf16>, tensor<4x64x32xf16>) outs(%f : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %p = linalg.softmax dimension(1) ins(%s : tensor<4x32x32xf16>) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %eo = tensor.empty() : tensor<4x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf16>, tensor<4x32x64xf16>) outs(%fo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  return %o : tensor<4x32x64xf16>
}

// -----

// PyTorch's exporters follow the softmax of scaled_dot_product_attention
// with where(isnan(p), 0, p) (a row whose keys are all masked attends to
// nothing), and compute a boolean mask's bias between Q K^T and the
// scores' epilogue. Both belong to the chain: one kernel.
// CHECK-LABEL: func.func @nan_guard(
// CHECK:         linalg.batch_matmul {{.*}}hidet.attention = #hidet.attention
// CHECK-NOT:     hidet.schedule
// CHECK:         return
// OFF-LABEL: func.func @nan_guard(
// OFF-NOT:       hidet.attention
#id4g = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rowg = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @nan_guard(%q: tensor<8x32x64xf16>, %kt: tensor<8x64x32xf16>, %v: tensor<8x32x64xf16>, %keep: tensor<2x32xi1>) -> tensor<8x32x64xf16> {
  %z = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<8x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x32x64xf16>, tensor<8x64x32xf16>) outs(%f : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  %eb = tensor.empty() : tensor<2x32xf16>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<2x32xi1>) outs(%eb : tensor<2x32xf16>) {
  ^bb0(%k: i1, %o: f16):
    %b = arith.select %k, %z, %ninf : f16
    linalg.yield %b : f16
  } -> tensor<2x32xf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 32, 32] : tensor<8x32x32xf16> into tensor<2x4x32x32xf16>
  %e4 = tensor.empty() : tensor<2x4x32x32xf16>
  %x = linalg.generic {indexing_maps = [#id4g, #rowg, #id4g], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %bias : tensor<2x4x32x32xf16>, tensor<2x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %y = arith.addf %a, %m : f16
    linalg.yield %y : f16
  } -> tensor<2x4x32x32xf16>
  %p4 = linalg.softmax dimension(3) ins(%x : tensor<2x4x32x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) -> tensor<2x4x32x32xf16>
  %en = tensor.empty() : tensor<2x4x32x32xi1>
  %nan = linalg.generic {indexing_maps = [#id4g, #id4g], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p4 : tensor<2x4x32x32xf16>) outs(%en : tensor<2x4x32x32xi1>) {
  ^bb0(%a: f16, %o: i1):
    %u = arith.cmpf uno, %a, %a : f16
    linalg.yield %u : i1
  } -> tensor<2x4x32x32xi1>
  %g4 = linalg.generic {indexing_maps = [#id4g, #id4g, #id4g], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%nan, %p4 : tensor<2x4x32x32xi1>, tensor<2x4x32x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) {
  ^bb0(%c: i1, %a: f16, %o: f16):
    %y = arith.select %c, %z, %a : f16
    linalg.yield %y : f16
  } -> tensor<2x4x32x32xf16>
  %p = tensor.collapse_shape %g4 [[0, 1], [2], [3]] : tensor<2x4x32x32xf16> into tensor<8x32x32xf16>
  %eo = tensor.empty() : tensor<8x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x32x32xf16>, tensor<8x32x64xf16>) outs(%fo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  return %o : tensor<8x32x64xf16>
}

// -----

// A select after the softmax that puts anything but 0 in the NaN rows is
// not the guard: the matmuls stay separate.
// CHECK-LABEL: func.func @nan_to_one(
// CHECK-NOT:     hidet.attention
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule = #hidet.mma_matmul
// CHECK:         linalg.batch_matmul {{.*}}hidet.schedule = #hidet.mma_matmul
#id3n = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @nan_to_one(%q: tensor<8x32x64xf16>, %kt: tensor<8x64x32xf16>, %v: tensor<8x32x64xf16>) -> tensor<8x32x64xf16> {
  %z = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %e = tensor.empty() : tensor<8x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x32x64xf16>, tensor<8x64x32xf16>) outs(%f : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<8x32x32xf16>) outs(%e : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  %g = linalg.generic {indexing_maps = [#id3n, #id3n], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<8x32x32xf16>) outs(%e : tensor<8x32x32xf16>) {
  ^bb0(%a: f16, %o: f16):
    %u = arith.cmpf uno, %a, %a : f16
    %y = arith.select %u, %one, %a : f16
    linalg.yield %y : f16
  } -> tensor<8x32x32xf16>
  %eo = tensor.empty() : tensor<8x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  %o = linalg.batch_matmul ins(%g, %v : tensor<8x32x32xf16>, tensor<8x32x64xf16>) outs(%fo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  return %o : tensor<8x32x64xf16>
}
