// RUN: rm -rf %t && mkdir %t
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/fused space=default' -o /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/plan.json
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/small space=small' -o /dev/null
// RUN: FileCheck %s --check-prefix=SMALL < %t/small/plan.json
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-select-schedules=tuning-records=%t/small/round-5.json' 2>&1 | FileCheck %s --check-prefix=APPLIED
// RUN: sed -e 's/block_q = 32, block_kv = 32/block_q = 128, block_kv = 16/' %t/small/round-5.json > %t/unfit.json
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-select-schedules=tuning-records=%t/unfit.json' 2>&1 | FileCheck %s --check-prefix=UNFIT
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/apart space=default attention=0' -o /dev/null
// RUN: FileCheck %s --check-prefix=APART < %t/apart/plan.json

// A fused attention (#hidet.attention) is one entry of the plan, keyed by
// both matmuls' signatures, its kernel named after the Q K^T; the matmuls
// have no entries of their own. At the default level its candidate is the
// default schedule (16 query rows: 4 heads of 32 queries make few blocks);
// at small and full, every block_q x block_kv of 16 to 128 that fits
// (128 x 16 does not: K's 16 x 64 tile has too few 16-byte pieces for 256
// threads). A round's record is applied by hidet-select-schedules like a
// matmul's; one that does not fit is reported and the default taken. With
// attention=0 both matmuls are planned.
// FUSED:      "anchors": [
// FUSED-NEXT:   {
// FUSED-NEXT:     "signature": "attention(linalg.batch_matmul(memref<4x32x64xf16>, memref<4x64x32xf16>, memref<4x32x32xf16>) {{.*}}; linalg.batch_matmul(memref<4x32x32xf16>, memref<4x32x64xf16>, memref<4x32x64xf16>) {{.*}})",
// FUSED-NEXT:     "kernels": [
// FUSED-NEXT:       "main_attention"
// FUSED-NEXT:     ],
// FUSED-NEXT:     "candidates": [
// FUSED-NEXT:       "#hidet.attention<block_q = 16, block_kv = 32>"
// FUSED-NEXT:     ]
// FUSED:          "signature": "linalg.matmul(
// FUSED-NOT:      "signature"
// SMALL:      "signature": "attention(
// SMALL:      "candidates": [
// SMALL-NEXT:   "#hidet.attention<block_q = 16, block_kv = 32>",
// SMALL-NEXT:   "#hidet.attention<block_q = 16, block_kv = 16>",
// SMALL-NEXT:   "#hidet.attention<block_q = 16, block_kv = 64>",
// SMALL-NEXT:   "#hidet.attention<block_q = 16, block_kv = 128>",
// SMALL-NEXT:   "#hidet.attention<block_q = 32, block_kv = 16>",
// SMALL-NEXT:   "#hidet.attention<block_q = 32, block_kv = 32>",
// SMALL-COUNT-6: "#hidet.attention<block_q = {{32|64}},
// SMALL-NEXT:   "#hidet.attention<block_q = 128, block_kv = 32>",
// SMALL-NEXT:   "#hidet.attention<block_q = 128, block_kv = 64>",
// SMALL-NEXT:   "#hidet.attention<block_q = 128, block_kv = 128>"
// SMALL-NEXT: ]
// APPLIED:    remark: hidet-select-schedules: schedule of tuning record 0 of
// APPLIED:    linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 32, block_kv = 32>
// UNFIT:      warning: hidet-select-schedules: tuning record 0 of '{{.*}}unfit.json' is not applied: the tiles of Q, K and V do not spread over the block's 256 threads in 16-byte pieces; the heuristic's schedule instead
// UNFIT:      linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 16, block_kv = 32>
// APART:      "signature": "linalg.batch_matmul(memref<4x32x64xf16>, memref<4x64x32xf16>
// APART:      "signature": "linalg.batch_matmul(memref<4x32x32xf16>, memref<4x32x64xf16>
// APART:      "signature": "linalg.matmul(
func.func @main(%q: tensor<4x32x64xf16>, %kt: tensor<4x64x32xf16>, %v: tensor<4x32x64xf16>, %w: tensor<64x64xf16>) -> tensor<128x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x32x64xf16>, tensor<4x64x32xf16>) outs(%f : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf16>) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %eo = tensor.empty() : tensor<4x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf16>, tensor<4x32x64xf16>) outs(%fo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %rows = tensor.collapse_shape %o [[0, 1], [2]] : tensor<4x32x64xf16> into tensor<128x64xf16>
  %ey = tensor.empty() : tensor<128x64xf16>
  %fy = linalg.fill ins(%z : f16) outs(%ey : tensor<128x64xf16>) -> tensor<128x64xf16>
  %y = linalg.matmul ins(%rows, %w : tensor<128x64xf16>, tensor<64x64xf16>) outs(%fy : tensor<128x64xf16>) -> tensor<128x64xf16>
  return %y : tensor<128x64xf16>
}
