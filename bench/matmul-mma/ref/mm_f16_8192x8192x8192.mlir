// f16 matmul 8192x8192x8192 (M x N x K) reference: f32 accumulation, one rounding; compiled with anchors=0 (naive GPU kernels).
func.func @mm_f16_8192x8192x8192(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8192x8192xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8192x8192xf16>, tensor<8192x8192xf16>) outs(%f : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  %o = tensor.empty() : tensor<8192x8192xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<8192x8192xf32>) outs(%o : tensor<8192x8192xf16>) {
  ^bb0(%x: f32, %y: f16):
    %c = arith.truncf %x : f32 to f16
    linalg.yield %c : f16
  } -> tensor<8192x8192xf16>
  return %t : tensor<8192x8192xf16>
}
