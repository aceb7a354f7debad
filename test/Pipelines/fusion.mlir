// RUN: hidet-opt %s --hidet-bufferize --hidet-schedule-kernels | FileCheck %s
// RUN: hidet-opt %s --hidet-bufferize=fuse=0 --hidet-schedule-kernels=fuse=0 | FileCheck %s --check-prefix=OFF

// The default pipeline partitions on tensors (the groups survive
// bufferization as attributes) and fuses each anchor's epilogue chain into
// its kernel: one kernel for a GEMM with bias and ReLU, one for a
// convolution with bias, residual and ReLU, one for a GEMM of a transposed
// input (its prologue), one for a padded convolution with bias and ReLU;
// without fusion, a kernel per op.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#nhwc = affine_map<(n, h, w, f) -> (n, h, w, f)>
#chan = affine_map<(n, h, w, f) -> (f)>

// CHECK-LABEL: func.func @matmul_bias_relu(
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.
// CHECK:         return
// OFF-LABEL: func.func @matmul_bias_relu(
// OFF-COUNT-2: gpu.launch
func.func @matmul_bias_relu(%x: tensor<256x384xf16>, %w: tensor<384x512xf16>, %b: tensor<512xf16>) -> tensor<256x512xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x512xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x512xf16>) -> tensor<256x512xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<256x384xf16>, tensor<384x512xf16>) outs(%f : tensor<256x512xf16>) -> tensor<256x512xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<256x512xf16>, tensor<512xf16>) outs(%e : tensor<256x512xf16>) {
  ^bb0(%a: f16, %bb: f16, %o: f16):
    %s = arith.addf %a, %bb : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<256x512xf16>
  return %r : tensor<256x512xf16>
}

// CHECK-LABEL: func.func @conv_bias_residual_relu(
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
// OFF-LABEL: func.func @conv_bias_residual_relu(
// OFF-COUNT-3: gpu.launch
func.func @conv_bias_residual_relu(%x: tensor<4x14x14x64xf16>, %w: tensor<1x1x64x256xf16>, %b: tensor<256xf16>, %res: tensor<4x14x14x256xf16>) -> tensor<4x14x14x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x14x14x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x14x14x256xf16>) -> tensor<4x14x14x256xf16>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<4x14x14x64xf16>, tensor<1x1x64x256xf16>) outs(%f : tensor<4x14x14x256xf16>) -> tensor<4x14x14x256xf16>
  %s = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b, %res : tensor<4x14x14x256xf16>, tensor<256xf16>, tensor<4x14x14x256xf16>) outs(%e : tensor<4x14x14x256xf16>) {
  ^bb0(%a: f16, %bb: f16, %rr: f16, %o: f16):
    %t = arith.addf %a, %bb : f16
    %u = arith.addf %t, %rr : f16
    linalg.yield %u : f16
  } -> tensor<4x14x14x256xf16>
  %r = linalg.generic {indexing_maps = [#nhwc, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%s : tensor<4x14x14x256xf16>) outs(%e : tensor<4x14x14x256xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.maximumf %a, %z : f16
    linalg.yield %m : f16
  } -> tensor<4x14x14x256xf16>
  return %r : tensor<4x14x14x256xf16>
}

// A transposed input (a prologue): the kernel reads the source, no
// transpose kernel and no temporary.
// CHECK-LABEL: func.func @transpose_matmul(
// CHECK-NOT:     memref.alloc() {{.*}}: memref<256x384xf16>
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
// OFF-LABEL: func.func @transpose_matmul(
// OFF-COUNT-2: gpu.launch
func.func @transpose_matmul(%xt: tensor<384x256xf16>, %w: tensor<384x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f16
  %et = tensor.empty() : tensor<256x384xf16>
  %x = linalg.transpose ins(%xt : tensor<384x256xf16>) outs(%et : tensor<256x384xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<256x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x256xf16>) -> tensor<256x256xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<256x384xf16>, tensor<384x256xf16>) outs(%f : tensor<256x256xf16>) -> tensor<256x256xf16>
  return %mm : tensor<256x256xf16>
}

// A padded 3x3 convolution with bias and ReLU (a ResNet block's middle):
// the pad folds into the convolution's reads, the rest into its epilogue.
// CHECK-LABEL: func.func @pad_conv_bias_relu(
// CHECK-NOT:     memref.subview
// CHECK-COUNT-1: gpu.launch
// CHECK-NOT:     gpu.launch
// CHECK:         return
// OFF-LABEL: func.func @pad_conv_bias_relu(
// OFF-COUNT-4: gpu.launch
func.func @pad_conv_bias_relu(%x: tensor<4x14x14x64xf16>, %w: tensor<3x3x64x64xf16>, %b: tensor<64xf16>) -> tensor<4x14x14x64xf16> {
  %z = arith.constant 0.0 : f16
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %z : f16
  } : tensor<4x14x14x64xf16> to tensor<4x16x16x64xf16>
  %e = tensor.empty() : tensor<4x14x14x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x14x14x64xf16>) -> tensor<4x14x14x64xf16>
  %c = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<4x16x16x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<4x14x14x64xf16>) -> tensor<4x14x14x64xf16>
  %r = linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c, %b : tensor<4x14x14x64xf16>, tensor<64xf16>) outs(%e : tensor<4x14x14x64xf16>) {
  ^bb0(%a: f16, %bb: f16, %o: f16):
    %s = arith.addf %a, %bb : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<4x14x14x64xf16>
  return %r : tensor<4x14x14x64xf16>
}
