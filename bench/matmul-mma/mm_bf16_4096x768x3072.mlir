// bf16 matmul 4096x768x3072 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_bf16_4096x768x3072(%a: tensor<4096x3072xbf16>, %b: tensor<3072x768xbf16>) -> tensor<4096x768xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4096x768xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<4096x768xbf16>) -> tensor<4096x768xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<4096x3072xbf16>, tensor<3072x768xbf16>) outs(%f : tensor<4096x768xbf16>) -> tensor<4096x768xbf16>
  return %r : tensor<4096x768xbf16>
}
