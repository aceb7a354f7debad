// Large elementwise add, f32, 2^26 elements per tensor (768 MiB moved).
func.func @add_f32(%a: tensor<8192x8192xf32>, %b: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %e = tensor.empty() : tensor<8192x8192xf32>
  %r = linalg.add ins(%a, %b : tensor<8192x8192xf32>, tensor<8192x8192xf32>) outs(%e : tensor<8192x8192xf32>) -> tensor<8192x8192xf32>
  return %r : tensor<8192x8192xf32>
}
