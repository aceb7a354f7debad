// relu(x @ w + b), f16, M x N x K = 4096 x 3072 x 768: an arithmetic
// epilogue, which the Hopper heuristic hides under the other consumer's
// main loop (pingpong tiles).
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_relu_f16_4096x3072x768(%x: tensor<4096x768xf16>, %w: tensor<768x3072xf16>, %b: tensor<3072xf16>) -> tensor<4096x3072xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4096x3072xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4096x3072xf16>) -> tensor<4096x3072xf16>
  %mm = linalg.matmul ins(%x, %w : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%f : tensor<4096x3072xf16>) -> tensor<4096x3072xf16>
  %r = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<4096x3072xf16>, tensor<3072xf16>) outs(%e : tensor<4096x3072xf16>) {
  ^bb0(%a: f16, %bb: f16, %o: f16):
    %s = arith.addf %a, %bb : f16
    %m = arith.maximumf %s, %z : f16
    linalg.yield %m : f16
  } -> tensor<4096x3072xf16>
  return %r : tensor<4096x3072xf16>
}
