// CPU reference of ../transposed-keys.mlir: the same attention with every
// value in f32 (inputs extended, the keys' scale, scores, softmax and both
// products in f32), the output rounded once. The CPU build of the f16
// program rounds the scores and each step of the softmax to f16: a relative
// L2 error of 1.8e-3 against this reference, where the fused kernel's
// roundings (the probabilities to f16 for the second product, the output)
// emulated on the CPU give 3e-4.

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#t = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
func.func @attention(%q: tensor<24x197x64xf16>, %k: tensor<24x197x64xf16>, %v: tensor<24x197x64xf16>)
    -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f32
  %scale = arith.constant 0.125 : f32
  %e3 = tensor.empty() : tensor<24x197x64xf32>
  %q32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<24x197x64xf16>) outs(%e3 : tensor<24x197x64xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<24x197x64xf32>
  %v32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<24x197x64xf16>) outs(%e3 : tensor<24x197x64xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<24x197x64xf32>
  %ek = tensor.empty() : tensor<24x64x197xf32>
  %kt = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<24x197x64xf16>) outs(%ek : tensor<24x64x197xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %s = arith.mulf %y, %scale : f32
    linalg.yield %s : f32
  } -> tensor<24x64x197xf32>
  %e = tensor.empty() : tensor<24x197x197xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %s = linalg.batch_matmul ins(%q32, %kt : tensor<24x197x64xf32>, tensor<24x64x197xf32>) outs(%f : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<24x197x197xf32>) outs(%e : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %fo = linalg.fill ins(%z : f32) outs(%e3 : tensor<24x197x64xf32>) -> tensor<24x197x64xf32>
  %o = linalg.batch_matmul ins(%p, %v32 : tensor<24x197x197xf32>, tensor<24x197x64xf32>) outs(%fo : tensor<24x197x64xf32>) -> tensor<24x197x64xf32>
  %eh = tensor.empty() : tensor<24x197x64xf16>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<24x197x64xf32>) outs(%eh : tensor<24x197x64xf16>) {
  ^bb0(%x: f32, %w: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<24x197x64xf16>
  return %h : tensor<24x197x64xf16>
}
