// f16 matmul 1x4096x4096 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_f16_1x4096x4096(%a: tensor<1x4096xf16>, %b: tensor<4096x4096xf16>) -> tensor<1x4096xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1x4096xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1x4096xf16>) -> tensor<1x4096xf16>
  %r = linalg.matmul ins(%a, %b : tensor<1x4096xf16>, tensor<4096x4096xf16>) outs(%f : tensor<1x4096xf16>) -> tensor<1x4096xf16>
  return %r : tensor<1x4096xf16>
}
