// Last-axis sum of a 4096x768 f16 matrix, accumulated in f32, f16 result.
func.func @rowsum_f16(%a: tensor<4096x768xf16>) -> tensor<4096xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096xf32>) -> tensor<4096xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<4096x768xf16>) outs(%f : tensor<4096xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4096xf32>
  %e2 = tensor.empty() : tensor<4096xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%r : tensor<4096xf32>) outs(%e2 : tensor<4096xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<4096xf16>
  return %t : tensor<4096xf16>
}
