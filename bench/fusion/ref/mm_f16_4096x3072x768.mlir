// f16 matmul 4096x3072x768 (M x N x K) reference: f32 accumulation, one rounding; compiled with anchors=0 (naive GPU kernels).
func.func @mm_f16_4096x3072x768(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>) -> tensor<4096x3072xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x3072xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%f : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %o = tensor.empty() : tensor<4096x3072xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4096x3072xf32>) outs(%o : tensor<4096x3072xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<4096x3072xf16>
  return %t : tensor<4096x3072xf16>
}
