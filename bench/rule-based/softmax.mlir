// Softmax over the last axis of a 4096x768 f16 matrix, computed in f32.

#id = affine_map<(i, j) -> (i, j)>
func.func @softmax_f16(%a: tensor<4096x768xf16>) -> tensor<4096x768xf16> {
  %e = tensor.empty() : tensor<4096x768xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4096x768xf16>) outs(%e : tensor<4096x768xf32>) {
  ^bb0(%v: f16, %o: f32):
    %f = arith.extf %v : f16 to f32
    linalg.yield %f : f32
  } -> tensor<4096x768xf32>
  %e1 = tensor.empty() : tensor<4096x768xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<4096x768xf32>) outs(%e1 : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %e2 = tensor.empty() : tensor<4096x768xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<4096x768xf32>) outs(%e2 : tensor<4096x768xf16>) {
  ^bb0(%v: f32, %o: f16):
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<4096x768xf16>
  return %r : tensor<4096x768xf16>
}
