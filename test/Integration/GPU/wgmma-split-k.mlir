// Split-K on the Hopper template on the H100: each output tile's K steps
// cut into slices computed by separate tiles of the grid into an f32
// workspace, then added to C in order by a second kernel. TMA with a
// ragged last slice (11 K steps in slices of 3, 3, 3 and 2) and ragged
// M, N; one consumer, persistent, 8 slices, bf16, accumulating into C;
// cp.async (a batched matmul) with 2 slices of 5 and 4 steps, f32 results,
// persistent over more tiles than blocks; a 3x3 convolution (implicit GEMM,
// cp.async) of 36 K steps in 4 slices. The reference accumulates in f32 and
// rounds 16-bit results once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/wgmma-split-k.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: split4_ragged_f16 PASS
// CHECK-DAG: split8_accumulate_bf16 PASS
// CHECK-DAG: split2_bmm_f32 PASS
// CHECK-DAG: split4_conv3x3_f16 PASS

func.func @split4_ragged_f16(%a: tensor<333x696xf16>, %b: tensor<696x200xf16>) -> tensor<333x200xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<333x200xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<333x200xf16>) -> tensor<333x200xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 4, swizzle = 8, split_k = 4>}
      ins(%a, %b : tensor<333x696xf16>, tensor<696x200xf16>) outs(%f : tensor<333x200xf16>) -> tensor<333x200xf16>
  return %r : tensor<333x200xf16>
}

func.func @split8_accumulate_bf16(%a: tensor<128x1536xbf16>, %b: tensor<1536x256xbf16>, %c: tensor<128x256xbf16>) -> tensor<128x256xbf16> {
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], stages = 4, split_k = 8, persistent = true>}
      ins(%a, %b : tensor<128x1536xbf16>, tensor<1536x256xbf16>) outs(%c : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %r : tensor<128x256xbf16>
}

func.func @split2_bmm_f32(%a: tensor<24x256x520xf16>, %b: tensor<24x520x192xf16>) -> tensor<24x256x192xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<24x256x192xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x256x192xf32>) -> tensor<24x256x192xf32>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 64], stages = 3, split_k = 2, persistent = true>}
      ins(%a, %b : tensor<24x256x520xf16>, tensor<24x520x192xf16>) outs(%f : tensor<24x256x192xf32>) -> tensor<24x256x192xf32>
  return %r : tensor<24x256x192xf32>
}

func.func @split4_conv3x3_f16(%x: tensor<2x7x7x256xf16>, %w: tensor<3x3x256x128xf16>) -> tensor<2x7x7x128xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<2x7x7x256xf16> to tensor<2x9x9x256xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x7x7x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x7x7x128xf16>) -> tensor<2x7x7x128xf16>
  %r = linalg.conv_2d_nhwc_hwcf { hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 4, swizzle = 8, split_k = 4>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x9x9x256xf16>, tensor<3x3x256x128xf16>) outs(%f : tensor<2x7x7x128xf16>) -> tensor<2x7x7x128xf16>
  return %r : tensor<2x7x7x128xf16>
}
