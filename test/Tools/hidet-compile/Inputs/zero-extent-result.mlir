// A result of no elements, which a manifest cannot describe.
func.func @no_rows(%b: tensor<4xf32>) -> tensor<0x4xf32> {
  %e = tensor.empty() : tensor<0x4xf32>
  return %e : tensor<0x4xf32>
}
