// f32 matmul 197x3072x768 (M x N x K) through the SIMT template.
func.func @mm_197x3072x768(%a: tensor<197x768xf32>, %b: tensor<768x3072xf32>) -> tensor<197x3072xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<197x3072xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<197x3072xf32>) -> tensor<197x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<197x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<197x3072xf32>) -> tensor<197x3072xf32>
  return %r : tensor<197x3072xf32>
}
