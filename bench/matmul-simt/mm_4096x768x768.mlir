// f32 matmul 4096x768x768 (M x N x K) through the SIMT template.
func.func @mm_4096x768x768(%a: tensor<4096x768xf32>, %b: tensor<768x768xf32>) -> tensor<4096x768xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4096x768xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<4096x768xf32>, tensor<768x768xf32>) outs(%f : tensor<4096x768xf32>) -> tensor<4096x768xf32>
  return %r : tensor<4096x768xf32>
}
