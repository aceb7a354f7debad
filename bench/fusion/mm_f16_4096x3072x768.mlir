// f16 matmul 4096x3072x768 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_f16_4096x3072x768(%a: tensor<4096x768xf16>, %b: tensor<768x3072xf16>) -> tensor<4096x3072xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4096x3072xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4096x3072xf16>) -> tensor<4096x3072xf16>
  %r = linalg.matmul ins(%a, %b : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%f : tensor<4096x3072xf16>) -> tensor<4096x3072xf16>
  return %r : tensor<4096x3072xf16>
}
