func.func @main(%a: tensor<256x128xf16>, %b: tensor<128x512xf16>) -> tensor<256x512xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x512xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x512xf16>) -> tensor<256x512xf16>
  %m = linalg.matmul ins(%a, %b : tensor<256x128xf16>, tensor<128x512xf16>) outs(%f : tensor<256x512xf16>) -> tensor<256x512xf16>
  return %m : tensor<256x512xf16>
}
