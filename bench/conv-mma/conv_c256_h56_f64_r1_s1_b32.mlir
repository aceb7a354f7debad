// ResNet-50 conv 256x56x56 -> 64, 1x1, stride 1, pad 0, batch 32, f16 NHWC/HWCF; the input is pre-padded (56x56), implicit GEMM through the tensor-core template.
func.func @conv_c256_h56_f64_r1_s1_b32(%x: tensor<32x56x56x256xf16>, %w: tensor<1x1x256x64xf16>) -> tensor<32x56x56x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<32x56x56x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x56x56x256xf16>, tensor<1x1x256x64xf16>) outs(%f : tensor<32x56x56x64xf16>) -> tensor<32x56x56x64xf16>
  return %r : tensor<32x56x56x64xf16>
}
