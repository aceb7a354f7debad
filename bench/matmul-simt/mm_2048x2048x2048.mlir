// f32 matmul 2048x2048x2048 (M x N x K) through the SIMT template.
func.func @mm_2048x2048x2048(%a: tensor<2048x2048xf32>, %b: tensor<2048x2048xf32>) -> tensor<2048x2048xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x2048xf32>, tensor<2048x2048xf32>) outs(%f : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
