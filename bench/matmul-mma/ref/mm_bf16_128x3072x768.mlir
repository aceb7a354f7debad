// bf16 matmul 128x3072x768 (M x N x K) reference: f32 accumulation, one rounding; compiled with anchors=0 (naive GPU kernels).
func.func @mm_bf16_128x3072x768(%a: tensor<128x768xbf16>, %b: tensor<768x3072xbf16>) -> tensor<128x3072xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x3072xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x3072xbf16>) outs(%f : tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %o = tensor.empty() : tensor<128x3072xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<128x3072xf32>) outs(%o : tensor<128x3072xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<128x3072xbf16>
  return %t : tensor<128x3072xbf16>
}
