// Transpose of an 8192x8192 f32 matrix (512 MiB moved).
func.func @transpose_f32(%a: tensor<8192x8192xf32>) -> tensor<8192x8192xf32> {
  %e = tensor.empty() : tensor<8192x8192xf32>
  %r = linalg.transpose ins(%a : tensor<8192x8192xf32>) outs(%e : tensor<8192x8192xf32>) permutation = [1, 0]
  return %r : tensor<8192x8192xf32>
}
