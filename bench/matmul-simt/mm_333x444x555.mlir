// f32 matmul 333x444x555 (M x N x K) through the SIMT template.
func.func @mm_333x444x555(%a: tensor<333x555xf32>, %b: tensor<555x444xf32>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xf32>, tensor<555x444xf32>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}
