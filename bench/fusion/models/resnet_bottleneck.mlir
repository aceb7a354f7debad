
// ResNet-50 bottleneck (batch-norm folded into the biases): three
// convolutions. The 3x3 one takes the pad of its input as a prologue; the
// last one's bias, residual add and ReLU are its epilogue chain. Three
// groups.
func.func @bottleneck(%x: tensor<8x14x14x256xf16>, %w1: tensor<1x1x256x64xf16>, %b1: tensor<64xf16>, %w2: tensor<3x3x64x64xf16>, %b2: tensor<64xf16>, %w3: tensor<1x1x64x256xf16>, %b3: tensor<256xf16>) -> tensor<8x14x14x256xf16> {
  %z = arith.constant 0.0 : f16
  %e64 = tensor.empty() : tensor<8x14x14x64xf16>
  %f1 = linalg.fill ins(%z : f16) outs(%e64 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %c1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w1 : tensor<8x14x14x256xf16>, tensor<1x1x256x64xf16>) outs(%f1 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %r1 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c1, %b1 : tensor<8x14x14x64xf16>, tensor<64xf16>) outs(%e64 : tensor<8x14x14x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x64xf16>
  %p = tensor.pad %r1 low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    tensor.yield %z : f16
  } : tensor<8x14x14x64xf16> to tensor<8x16x16x64xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e64 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %c2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w2 : tensor<8x16x16x64xf16>, tensor<3x3x64x64xf16>) outs(%f2 : tensor<8x14x14x64xf16>) -> tensor<8x14x14x64xf16>
  %r2 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c2, %b2 : tensor<8x14x14x64xf16>, tensor<64xf16>) outs(%e64 : tensor<8x14x14x64xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x64xf16>
  %e256 = tensor.empty() : tensor<8x14x14x256xf16>
  %f3 = linalg.fill ins(%z : f16) outs(%e256 : tensor<8x14x14x256xf16>) -> tensor<8x14x14x256xf16>
  %c3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%r2, %w3 : tensor<8x14x14x64xf16>, tensor<1x1x64x256xf16>) outs(%f3 : tensor<8x14x14x256xf16>) -> tensor<8x14x14x256xf16>
  %a3 = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c3, %b3 : tensor<8x14x14x256xf16>, tensor<256xf16>) outs(%e256 : tensor<8x14x14x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    linalg.yield %s : f16
  } -> tensor<8x14x14x256xf16>
  %out = linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a3, %x : tensor<8x14x14x256xf16>, tensor<8x14x14x256xf16>) outs(%e256 : tensor<8x14x14x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<8x14x14x256xf16>
  return %out : tensor<8x14x14x256xf16>
}

