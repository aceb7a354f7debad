// bf16 matmul 128x768x768 (M x N x K) through the tensor-core template (default schedule).
func.func @mm_bf16_128x768x768(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<128x768xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%f : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  return %r : tensor<128x768xbf16>
}
