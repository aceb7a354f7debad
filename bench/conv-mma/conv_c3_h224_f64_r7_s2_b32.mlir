// ResNet-50 conv 3x224x224 -> 64, 7x7, stride 2, pad 3, batch 32, f16 NHWC/HWCF; the input is pre-padded (230x230), implicit GEMM through the tensor-core template.
func.func @conv_c3_h224_f64_r7_s2_b32(%x: tensor<32x230x230x3xf16>, %w: tensor<7x7x3x64xf16>) -> tensor<32x112x112x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x112x112x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x112x112x64xf16>) -> tensor<32x112x112x64xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%x, %w : tensor<32x230x230x3xf16>, tensor<7x7x3x64xf16>) outs(%f : tensor<32x112x112x64xf16>) -> tensor<32x112x112x64xf16>
  return %r : tensor<32x112x112x64xf16>
}
