// RUN: rm -rf %t && mkdir %t
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/fused space=default' -o /dev/null
// RUN: FileCheck %s --check-prefix=FUSED < %t/fused/plan.json
// RUN: hidet-opt %s --hidet-bufferize --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/apart space=default attention=0' -o /dev/null
// RUN: FileCheck %s --check-prefix=APART < %t/apart/plan.json

// The two batch matmuls of an attention that hidet-select-schedules fuses
// (#hidet.attention) have no schedule of their own: the plan leaves them
// out and keeps the projection. With attention=0 all three are planned.
// FUSED:      "anchors": [
// FUSED-NEXT:   {
// FUSED-NEXT:     "signature": "linalg.matmul(
// FUSED-NOT:    "signature"
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
