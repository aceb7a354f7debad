// bf16 matmul 1x4096x4096 (M x N x K) reference: f32 accumulation, one rounding; compiled with anchors=0 (naive GPU kernels).
func.func @mm_bf16_1x4096x4096(%a: tensor<1x4096xbf16>, %b: tensor<4096x4096xbf16>) -> tensor<1x4096xbf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x4096xbf16>, tensor<4096x4096xbf16>) outs(%f : tensor<1x4096xf32>) -> tensor<1x4096xf32>
  %o = tensor.empty() : tensor<1x4096xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<1x4096xf32>) outs(%o : tensor<1x4096xbf16>) {
  ^bb0(%x: f32, %y: bf16):
    %c = arith.truncf %x : f32 to bf16
    linalg.yield %c : bf16
  } -> tensor<1x4096xbf16>
  return %t : tensor<1x4096xbf16>
}
