// f32 matmul 128x768x3072 (M x N x K) through the SIMT template.
func.func @mm_128x768x3072(%a: tensor<128x3072xf32>, %b: tensor<3072x768xf32>) -> tensor<128x768xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x768xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x3072xf32>, tensor<3072x768xf32>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
  return %r : tensor<128x768xf32>
}
