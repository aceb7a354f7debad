// Two entry points that take a weight each (MLIR input: the manifest marks
// the arguments that carry hidet.weight).
func.func @scale(%x: tensor<4xf32>, %w: tensor<4xf32> {hidet.weight = "w"}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.mul ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

func.func @shift(%x: tensor<4xf32>, %w: tensor<4xf32> {hidet.weight = "w"}) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%x, %w : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
