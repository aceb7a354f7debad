// ResNet-50 conv 128x28x28 -> 128, 3x3, stride 1, pad 1, batch 32, f16 NHWC/HWCF; the input is pre-padded (30x30), implicit GEMM through the tensor-core template.
func.func @conv_c128_h28_f128_r3_s1_b32(%x: tensor<32x30x30x128xf16>, %w: tensor<3x3x128x128xf16>) -> tensor<32x28x28x128xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x28x28x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x28x28x128xf16>) -> tensor<32x28x28x128xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x30x30x128xf16>, tensor<3x3x128x128xf16>) outs(%f : tensor<32x28x28x128xf16>) -> tensor<32x28x28x128xf16>
  return %r : tensor<32x28x28x128xf16>
}
