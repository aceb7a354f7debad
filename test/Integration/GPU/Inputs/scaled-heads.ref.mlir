// CPU reference of ../scaled-heads.mlir: the same attention with every
// value in f32 (inputs extended, both scales, scores, softmax and both
// products in f32), the output rounded once. The scale is f16's 0.3535
// (0.353515625), as the program has it. The CPU build of the f16 program
// rounds the scaled operands, the scores and each step of the softmax to
// f16, where the fused kernel keeps them in f32.

#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#heads = affine_map<(h, t, d) -> (t, h, d)>
#keys = affine_map<(h, d, t) -> (t, h, d)>
func.func @attention(%q: tensor<197x24x64xf16>, %k: tensor<197x24x64xf16>, %v: tensor<197x24x64xf16>)
    -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f32
  %c = arith.constant 0.353515625 : f32
  %e3 = tensor.empty() : tensor<24x197x64xf32>
  %qs = linalg.generic {indexing_maps = [#heads, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<197x24x64xf16>) outs(%e3 : tensor<24x197x64xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %s = arith.mulf %y, %c : f32
    linalg.yield %s : f32
  } -> tensor<24x197x64xf32>
  %vt = linalg.generic {indexing_maps = [#heads, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<197x24x64xf16>) outs(%e3 : tensor<24x197x64xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<24x197x64xf32>
  %ek = tensor.empty() : tensor<24x64x197xf32>
  %ks = linalg.generic {indexing_maps = [#keys, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<197x24x64xf16>) outs(%ek : tensor<24x64x197xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    %s = arith.mulf %y, %c : f32
    linalg.yield %s : f32
  } -> tensor<24x64x197xf32>
  %e = tensor.empty() : tensor<24x197x197xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %s = linalg.batch_matmul ins(%qs, %ks : tensor<24x197x64xf32>, tensor<24x64x197xf32>) outs(%f : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %p = linalg.softmax dimension(2) ins(%s : tensor<24x197x197xf32>) outs(%e : tensor<24x197x197xf32>) -> tensor<24x197x197xf32>
  %fo = linalg.fill ins(%z : f32) outs(%e3 : tensor<24x197x64xf32>) -> tensor<24x197x64xf32>
  %o = linalg.batch_matmul ins(%p, %vt : tensor<24x197x197xf32>, tensor<24x197x64xf32>) outs(%fo : tensor<24x197x64xf32>) -> tensor<24x197x64xf32>
  %eh = tensor.empty() : tensor<24x197x64xf16>
  %h = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<24x197x64xf32>) outs(%eh : tensor<24x197x64xf16>) {
  ^bb0(%x: f32, %w: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<24x197x64xf16>
  return %h : tensor<24x197x64xf16>
}
