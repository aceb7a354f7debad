// f16 matmul 8192x8192x8192 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_f16_8192x8192x8192(%a: tensor<8192x8192xf16>, %b: tensor<8192x8192xf16>) -> tensor<8192x8192xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8192x8192xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  %r = linalg.matmul ins(%a, %b : tensor<8192x8192xf16>, tensor<8192x8192xf16>) outs(%f : tensor<8192x8192xf16>) -> tensor<8192x8192xf16>
  return %r : tensor<8192x8192xf16>
}
