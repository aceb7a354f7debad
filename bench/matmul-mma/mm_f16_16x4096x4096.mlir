// f16 matmul 16x4096x4096 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_f16_16x4096x4096(%a: tensor<16x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<16x4096xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x4096xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  %r = linalg.matmul ins(%a, %b : tensor<16x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<16x4096xf16>) -> tensor<16x4096xf16>
  return %r : tensor<16x4096xf16>
}
