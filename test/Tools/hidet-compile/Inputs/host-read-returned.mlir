// A scalar read at the top level and returned as a tensor of one element:
// the host would read the argument, a device buffer.
func.func @first(%x: tensor<4xf32>) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
  // The read.
  %v = tensor.extract %x[%c0] : tensor<4xf32>
  %r = tensor.from_elements %v : tensor<1xf32>
  return %r : tensor<1xf32>
}
