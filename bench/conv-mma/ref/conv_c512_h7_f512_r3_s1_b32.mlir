// ResNet-50 conv 512x7x7 -> 512, 3x3, stride 1, pad 1, batch 32, f16 NHWC/HWCF; the input is pre-padded (9x9), reference: f32 accumulation, one rounding, anchors=0 (naive GPU kernels).
func.func @conv_c512_h7_f512_r3_s1_b32(%x: tensor<32x9x9x512xf16>, %w: tensor<3x3x512x512xf16>) -> tensor<32x7x7x512xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x7x7x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : tensor<32x9x9x512xf16>, tensor<3x3x512x512xf16>) outs(%f : tensor<32x7x7x512xf32>) -> tensor<32x7x7x512xf32>
  %o = tensor.empty() : tensor<32x7x7x512xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(a, b, c, d) -> (a, b, c, d)>, affine_map<(a, b, c, d) -> (a, b, c, d)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%r : tensor<32x7x7x512xf32>) outs(%o : tensor<32x7x7x512xf16>) {
  ^bb0(%v: f32, %u: f16):
    %c = arith.truncf %v : f32 to f16
    linalg.yield %c : f16
  } -> tensor<32x7x7x512xf16>
  return %t : tensor<32x7x7x512xf16>
}
