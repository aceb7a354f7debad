// f32 matmul 6304x3072x768 (M x N x K) through the SIMT template: ViT-B/16's MLP at batch 32 (197 tokens x 32).
func.func @mm_6304x3072x768(%a: tensor<6304x768xf32>, %b: tensor<768x3072xf32>) -> tensor<6304x3072xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6304x3072xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6304x3072xf32>) -> tensor<6304x3072xf32>
  %r = linalg.matmul ins(%a, %b : tensor<6304x768xf32>, tensor<768x3072xf32>) outs(%f : tensor<6304x3072xf32>) -> tensor<6304x3072xf32>
  return %r : tensor<6304x3072xf32>
}
