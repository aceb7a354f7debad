// A wrong build of Inputs/doubled.mlir: every element 0.03 too large.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %c = arith.constant dense<0.03> : tensor<4xf32>
  %d = linalg.add ins(%x, %x : tensor<4xf32>, tensor<4xf32>)
                  outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.add ins(%d, %c : tensor<4xf32>, tensor<4xf32>)
                  outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
