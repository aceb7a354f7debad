// CPU/GPU reference of ../gelu_bias_f16_4096x3072x768.mlir: f32 accumulation, one rounding;
// tanh in f32 (libdevice), not through hidet-narrow-math, then rounded to f16.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @gelu_bias_f16_4096x3072x768(%x: tensor<4096x768xf16>, %w: tensor<768x3072xf16>, %b: tensor<3072xf16>) -> tensor<4096x3072xf16> {
  %zf16 = arith.constant 0.0 : f16
  %zf32 = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %k0 = arith.constant 0.7978845608 : f16
  %k1 = arith.constant 0.044715 : f16
  %e = tensor.empty() : tensor<4096x3072xf16>
  %ef32 = tensor.empty() : tensor<4096x3072xf32>
  %f = linalg.fill ins(%zf32 : f32) outs(%ef32 : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<4096x768xf16>, tensor<768x3072xf16>) outs(%f : tensor<4096x3072xf32>) -> tensor<4096x3072xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<4096x3072xf32>) outs(%e : tensor<4096x3072xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4096x3072xf16>
  %hb = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %b : tensor<4096x3072xf16>, tensor<3072xf16>) outs(%e : tensor<4096x3072xf16>) {
  ^bb0(%a: f16, %bb: f16, %o: f16):
    %s = arith.addf %a, %bb : f16
    linalg.yield %s : f16
  } -> tensor<4096x3072xf16>
  %g = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%hb : tensor<4096x3072xf16>) outs(%e : tensor<4096x3072xf16>) {
  ^bb0(%a: f16, %o: f16):
    %a2 = arith.mulf %a, %a : f16
    %a3 = arith.mulf %a2, %a : f16
    %t0 = arith.mulf %a3, %k1 : f16
    %t1 = arith.addf %a, %t0 : f16
    %t2 = arith.mulf %t1, %k0 : f16
    %t2f = arith.extf %t2 : f16 to f32
    %t3f = math.tanh %t2f : f32
    %t3 = arith.truncf %t3f : f32 to f16
    %t4 = arith.addf %t3, %one : f16
    %t5 = arith.mulf %t4, %half : f16
    %r = arith.mulf %a, %t5 : f16
    linalg.yield %r : f16
  } -> tensor<4096x3072xf16>
  return %g : tensor<4096x3072xf16>
}
