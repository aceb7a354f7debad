// f32 matmul 16x4096x4096 (M x N x K) through the SIMT template.
func.func @mm_16x4096x4096(%a: tensor<16x4096xf32>, %b: tensor<4096x4096xf32>) -> tensor<16x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x4096xf32>, tensor<4096x4096xf32>) outs(%f : tensor<16x4096xf32>) -> tensor<16x4096xf32>
  return %r : tensor<16x4096xf32>
}
