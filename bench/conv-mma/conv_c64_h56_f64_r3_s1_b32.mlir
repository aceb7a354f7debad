// ResNet-50 conv 64x56x56 -> 64, 3x3, stride 1, pad 1, batch 32, f16 NHWC/HWCF; the input is pre-padded (58x58), implicit GEMM through the tensor-core template.
func.func @conv_c64_h56_f64_r3_s1_b32(%x: tensor<32x58x58x64xf16>, %w: tensor<3x3x64x64xf16>) -> tensor<32x56x56x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x56x56x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x58x58x64xf16>, tensor<3x3x64x64xf16>) outs(%f : tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
  return %r : tensor<32x56x56x64xf16>
}
