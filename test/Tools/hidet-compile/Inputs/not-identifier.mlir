// A public function whose name is not a C identifier: it has no C entry
// point to name in a manifest.
func.func @"add-one"(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
