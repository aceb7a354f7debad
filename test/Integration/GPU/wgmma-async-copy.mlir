// The Hopper template's cp.async producer, which serves the GEMMs that TMA
// cannot describe: batched matmuls (ragged M, N and K; 12 batches of 16
// tiles walked by a persistent grid) and NHWC convolutions as implicit
// GEMMs, whose im2col rows the producer's threads address (3x3 with stride
// 1 and 2, f32 and 16-bit results, a persistent grid, K = 72 with a ragged
// last K tile and N = 16 narrower than the tile, with 2 stages: no copies
// left in flight). The convolutions' filters come by TMA beside the
// cp.async copies of the im2col rows (collapsed to K x F; F = 16 narrower
// than a box), and with wgmma-tma-b=0 by cp.async too. The copies arrive
// on their stage by themselves, and with wgmma-async-arrive=0 the producer
// waits for them and arrives: all four forms are checked.
// The reference accumulates in f32 on the CPU and rounds 16-bit results
// once.
// REQUIRES: cuda
// RUN: hidet-compile %S/Inputs/wgmma-async-copy.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-compile %s -o %t.cp.gpu.so --runtime-dir=%hidet_libs --pipeline-options=wgmma-tma-b=0
// RUN: hidet-run %t.cp.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-compile %s -o %t.wait.gpu.so --runtime-dir=%hidet_libs --pipeline-options=wgmma-async-arrive=0
// RUN: hidet-run %t.wait.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-compile %s -o %t.cp-wait.gpu.so --runtime-dir=%hidet_libs "--pipeline-options=wgmma-tma-b=0 wgmma-async-arrive=0"
// RUN: hidet-run %t.cp-wait.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// CHECK-DAG: async_bmm_ragged_bf16 PASS
// CHECK-DAG: async_bmm_persistent_f16 PASS
// CHECK-DAG: async_conv3x3_f32 PASS
// CHECK-DAG: async_conv3x3_persistent_bf16 PASS
// CHECK-DAG: async_conv_ragged_k PASS
// CHECK-DAG: async_conv3x3_s2_f16 PASS

func.func @async_bmm_ragged_bf16(%a: tensor<3x200x264xbf16>, %b: tensor<3x264x136xbf16>) -> tensor<3x200x136xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<3x200x136xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<3x200x136xbf16>) -> tensor<3x200x136xbf16>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], stages = 3, persistent = true>}
      ins(%a, %b : tensor<3x200x264xbf16>, tensor<3x264x136xbf16>) outs(%f : tensor<3x200x136xbf16>) -> tensor<3x200x136xbf16>
  return %r : tensor<3x200x136xbf16>
}

func.func @async_bmm_persistent_f16(%a: tensor<12x512x256xf16>, %b: tensor<12x256x512xf16>) -> tensor<12x512x512xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<12x512x512xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 4, swizzle = 8, persistent = true>}
      ins(%a, %b : tensor<12x512x256xf16>, tensor<12x256x512xf16>) outs(%f : tensor<12x512x512xf16>) -> tensor<12x512x512xf16>
  return %r : tensor<12x512x512xf16>
}

func.func @async_conv3x3_f32(%x: tensor<4x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<4x56x56x64xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<4x56x56x64xf16> to tensor<4x58x58x64xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x56x56x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf { hidet.schedule = #hidet.wgmma_matmul<block = [128, 64], stages = 4>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<4x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<4x56x56x64xf32>) -> tensor<4x56x56x64xf32>
  return %r : tensor<4x56x56x64xf32>
}

func.func @async_conv3x3_persistent_bf16(%x: tensor<8x14x14x256xbf16>, %w: tensor<3x3x256x256xbf16>) -> tensor<8x14x14x256xbf16> {
  %zp = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : bf16
  } : tensor<8x14x14x256xbf16> to tensor<8x16x16x256xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<8x14x14x256xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<8x14x14x256xbf16>) -> tensor<8x14x14x256xbf16>
  %r = linalg.conv_2d_nhwc_hwcf { hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 3, persistent = true>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<8x16x16x256xbf16>, tensor<3x3x256x256xbf16>) outs(%f : tensor<8x14x14x256xbf16>) -> tensor<8x14x14x256xbf16>
  return %r : tensor<8x14x14x256xbf16>
}

func.func @async_conv_ragged_k(%x: tensor<1x9x9x8xf16>, %w: tensor<3x3x8x16xf16>) -> tensor<1x9x9x16xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x9x9x8xf16> to tensor<1x11x11x8xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x9x9x16xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1x9x9x16xf16>) -> tensor<1x9x9x16xf16>
  %r = linalg.conv_2d_nhwc_hwcf { hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], stages = 2, persistent = true>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x11x11x8xf16>, tensor<3x3x8x16xf16>) outs(%f : tensor<1x9x9x16xf16>) -> tensor<1x9x9x16xf16>
  return %r : tensor<1x9x9x16xf16>
}

func.func @async_conv3x3_s2_f16(%x: tensor<2x28x28x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<2x14x14x128xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<2x28x28x128xf16> to tensor<2x30x30x128xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x14x14x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<2x14x14x128xf16>) -> tensor<2x14x14x128xf16>
  %r = linalg.conv_2d_nhwc_hwcf { hidet.schedule = #hidet.wgmma_matmul<block = [256, 128], stages = 3, swizzle = 8>, dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<2x30x30x128xf16>, tensor<3x3x128x128xf16>) outs(%f : tensor<2x14x14x128xf16>) -> tensor<2x14x14x128xf16>
  return %r : tensor<2x14x14x128xf16>
}
