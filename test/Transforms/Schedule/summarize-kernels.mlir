// hidet-summarize-kernels (run by hidet-schedule-kernels{kernel-summary}):
// each kernel's kind, anchor, GEMM, schedule and fused ops, and its
// coverage features: a Hopper GEMM with a bias epilogue (TMA loads), a 3x3
// convolution of 64 channels with its zero padding folded (64-row tiles,
// the filter by TMA), a causal attention (its mask an indexed op on the
// scores) and a softmax row group. A file that cannot be written is an
// error.
// RUN: hidet-opt %s --hidet-bufferize "--hidet-schedule-kernels=chip=sm_90a kernel-summary=%t.json" -o /dev/null 2>/dev/null
// RUN: FileCheck %s < %t.json
// RUN: not hidet-opt %s --hidet-bufferize "--hidet-schedule-kernels=chip=sm_90a kernel-summary=%t.missing/k.json" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: hidet-summarize-kernels: cannot write '{{.*}}.missing/k.json'

// CHECK:      "kernels": [
// CHECK:        "anchor": "matmul",
// CHECK-NEXT:   "epilogue": [
// CHECK-NEXT:     "broadcast"
// CHECK-NEXT:   ],
// CHECK-NEXT:   "features": "wgmma wgmma.matmul wgmma.persistent wgmma.tma epilogue.broadcast",
// CHECK-NEXT:   "function": "bias",
// CHECK:        "kind": "wgmma",
// CHECK-NEXT:   "name": "bias_wgmma",
// CHECK-NEXT:   "prologue": [],
// CHECK-NEXT:   "schedule": "#hidet.wgmma_matmul<
// CHECK:        "anchor": "conv_2d_nhwc_hwcf",
// CHECK:        "features": "wgmma wgmma.conv wgmma.persistent wgmma.conv_64_rows wgmma.tma_b prologue.pad",
// CHECK:        "k": 576,
// CHECK:        "taps": 9
// CHECK:        "prologue": [
// CHECK-NEXT:     "pad"
// CHECK-NEXT:   ],
// CHECK:        "features": "attention scores.elementwise scores.indexed",
// CHECK-NEXT:   "function": "causal",
// CHECK-NEXT:   "kind": "attention",
// CHECK:        "schedule": "#hidet.attention<
// An attention whose softmax's NaN rows become 0 (where(isnan(p), 0, p)).
// CHECK:        "features": "attention softmax.zero_nan_rows",
// CHECK-NEXT:   "function": "guarded",
// CHECK-NEXT:   "kind": "attention",
// CHECK:        "softmax": [
// CHECK-NEXT:     "zero_nan_rows"
// CHECK-NEXT:   ]
// CHECK:        "features": "row_group",
// CHECK-NEXT:   "function": "rows",

func.func @bias(%x: tensor<256x512xf16>, %w: tensor<512x256xf16>, %b: tensor<256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x256xf16>) -> tensor<256x256xf16>
  %c = linalg.matmul ins(%x, %w : tensor<256x512xf16>, tensor<512x256xf16>) outs(%f : tensor<256x256xf16>) -> tensor<256x256xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%c, %b : tensor<256x256xf16>, tensor<256xf16>) outs(%e : tensor<256x256xf16>) {
  ^bb0(%i0: f16, %i1: f16, %o: f16):
    %s = arith.addf %i0, %i1 : f16
    linalg.yield %s : f16
  } -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}

func.func @conv(%x: tensor<2x16x16x64xf16>, %w: tensor<3x3x64x128xf16>) -> tensor<2x16x16x128xf16> {
  %z = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %z : f16
  } : tensor<2x16x16x64xf16> to tensor<2x18x18x64xf16>
  %e = tensor.empty() : tensor<2x16x16x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x16x16x128xf16>) -> tensor<2x16x16x128xf16>
  %y = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%p, %w : tensor<2x18x18x64xf16>, tensor<3x3x64x128xf16>) outs(%f : tensor<2x16x16x128xf16>) -> tensor<2x16x16x128xf16>
  return %y : tensor<2x16x16x128xf16>
}

func.func @causal(%q: tensor<4x64x64xf16>, %kt: tensor<4x64x64xf16>, %v: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x64x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%f : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x64x64xf16>) outs(%e : tensor<4x64x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %ninf = arith.constant 0xFC00 : f16
    %w = arith.select %keep, %y, %ninf : f16
    linalg.yield %w : f16
  } -> tensor<4x64x64xf16>
  %p = linalg.softmax dimension(2) ins(%m : tensor<4x64x64xf16>) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%fo : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %o : tensor<4x64x64xf16>
}

func.func @guarded(%q: tensor<4x64x64xf16>, %kt: tensor<4x64x64xf16>, %v: tensor<4x64x64xf16>) -> tensor<4x64x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x64x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%f : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x64x64xf16>) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %g = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%p : tensor<4x64x64xf16>) outs(%e : tensor<4x64x64xf16>) {
  ^bb0(%a: f16, %o: f16):
    %nan = arith.cmpf uno, %a, %a : f16
    %y = arith.select %nan, %z, %a : f16
    linalg.yield %y : f16
  } -> tensor<4x64x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%e : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  %o = linalg.batch_matmul ins(%g, %v : tensor<4x64x64xf16>, tensor<4x64x64xf16>) outs(%fo : tensor<4x64x64xf16>) -> tensor<4x64x64xf16>
  return %o : tensor<4x64x64xf16>
}

func.func @rows(%x: tensor<64x1024xf32>) -> tensor<64x1024xf32> {
  %e = tensor.empty() : tensor<64x1024xf32>
  %p = linalg.softmax dimension(1) ins(%x : tensor<64x1024xf32>) outs(%e : tensor<64x1024xf32>) -> tensor<64x1024xf32>
  return %p : tensor<64x1024xf32>
}
