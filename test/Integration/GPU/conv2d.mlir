// Convolutions through the implicit-GEMM template: ResNet-50 layers at
// batch 1 and 32 (the 7x7 stem with 3 channels, 3x3 with stride 1 and 2,
// 1x1), padding as tensor.pad before the convolution, f16 and bf16 inputs
// with f32 or 16-bit results, NHWC/HWCF and one NCHW/FCHW layer. The
// reference (Inputs/conv2d.ref.mlir) accumulates in f32 on the CPU and
// rounds 16-bit results once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/conv2d.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// CHECK-DAG: conv1_7x7_s2 PASS
// CHECK-DAG: res2_3x3 PASS
// CHECK-DAG: res2_1x1 PASS
// CHECK-DAG: res3_3x3_s2 PASS
// CHECK-DAG: res4_3x3_bf16 PASS
// CHECK-DAG: res5_3x3_b32 PASS
// CHECK-DAG: res3_3x3_b32_s2 PASS
// CHECK-DAG: nchw_res3_3x3 PASS

func.func @conv1_7x7_s2(%x: tensor<1x224x224x3xf16>, %w: tensor<7x7x3x64xf16>) -> tensor<1x112x112x64xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 3, 3, 0] high[0, 3, 3, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x224x224x3xf16> to tensor<1x230x230x3xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x112x112x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x230x230x3xf16>, tensor<7x7x3x64xf16>) outs(%f : tensor<1x112x112x64xf32>) -> tensor<1x112x112x64xf32>
  return %r : tensor<1x112x112x64xf32>
}

func.func @res2_3x3(%x: tensor<1x56x56x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<1x56x56x64xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x56x56x64xf16> to tensor<1x58x58x64xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x56x56x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<1x56x56x64xf32>) -> tensor<1x56x56x64xf32>
  return %r : tensor<1x56x56x64xf32>
}

func.func @res2_1x1(%x: tensor<1x56x56x256xf16>, %w: tensor<1x1x256x64xf16>) -> tensor<1x56x56x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x56x56x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1x56x56x64xf16>) -> tensor<1x56x56x64xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<1x56x56x256xf16>, tensor<1x1x256x64xf16>) outs(%f : tensor<1x56x56x64xf16>) -> tensor<1x56x56x64xf16>
  return %r : tensor<1x56x56x64xf16>
}

func.func @res3_3x3_s2(%x: tensor<1x56x56x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<1x28x28x128xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x56x56x128xf16> to tensor<1x58x58x128xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x28x28x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<1x58x58x128xf16>, tensor<3x3x128x128xf16>) outs(%f : tensor<1x28x28x128xf32>) -> tensor<1x28x28x128xf32>
  return %r : tensor<1x28x28x128xf32>
}

func.func @res4_3x3_bf16(%x: tensor<1x14x14x256xbf16>, %w: tensor<3x3x256x256xbf16>) -> tensor<1x14x14x256xbf16> {
  %zp = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : bf16
  } : tensor<1x14x14x256xbf16> to tensor<1x16x16x256xbf16>
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x14x14x256xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<1x14x14x256xbf16>) -> tensor<1x14x14x256xbf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x16x16x256xbf16>, tensor<3x3x256x256xbf16>) outs(%f : tensor<1x14x14x256xbf16>) -> tensor<1x14x14x256xbf16>
  return %r : tensor<1x14x14x256xbf16>
}

func.func @res5_3x3_b32(%x: tensor<32x7x7x512xf16>, %w: tensor<3x3x512x512xf16>) -> tensor<32x7x7x512xf16> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<32x7x7x512xf16> to tensor<32x9x9x512xf16>
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x7x7x512xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x7x7x512xf16>) -> tensor<32x7x7x512xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<32x9x9x512xf16>, tensor<3x3x512x512xf16>) outs(%f : tensor<32x7x7x512xf16>) -> tensor<32x7x7x512xf16>
  return %r : tensor<32x7x7x512xf16>
}

func.func @res3_3x3_b32_s2(%x: tensor<32x56x56x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<32x28x28x128xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<32x56x56x128xf16> to tensor<32x58x58x128xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x28x28x128xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %w : tensor<32x58x58x128xf16>, tensor<3x3x128x128xf16>) outs(%f : tensor<32x28x28x128xf32>) -> tensor<32x28x28x128xf32>
  return %r : tensor<32x28x28x128xf32>
}

func.func @nchw_res3_3x3(%x: tensor<1x128x28x28xf16>, %w: tensor<128x128x3x3xf16>) -> tensor<1x128x28x28xf32> {
  %zp = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %zp : f16
  } : tensor<1x128x28x28xf16> to tensor<1x128x30x30xf16>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x128x28x28xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  %r = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x128x30x30xf16>, tensor<128x128x3x3xf16>) outs(%f : tensor<1x128x28x28xf32>) -> tensor<1x128x28x28xf32>
  return %r : tensor<1x128x28x28xf32>
}
