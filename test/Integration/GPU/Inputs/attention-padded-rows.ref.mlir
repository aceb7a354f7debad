// CPU reference of ../attention-padded-rows.mlir: the same attention with
// every value in f32 (inputs extended, scores, mask, softmax and both
// products in f32), the masked scores at f16's lowest value, the output
// rounded once.

func.func @left_padded_causal_f16(%q: tensor<6x100x64xf16>, %k: tensor<6x100x64xf16>, %v: tensor<6x100x64xf16>) -> tensor<6x100x64xf16> {
  %z = arith.constant 0.0 : f32
  %eq32 = tensor.empty() : tensor<6x100x64xf32>
  %q32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<6x100x64xf16>) outs(%eq32 : tensor<6x100x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<6x100x64xf32>
  %ek32 = tensor.empty() : tensor<6x100x64xf32>
  %k32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<6x100x64xf16>) outs(%ek32 : tensor<6x100x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<6x100x64xf32>
  %ev32 = tensor.empty() : tensor<6x100x64xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<6x100x64xf16>) outs(%ev32 : tensor<6x100x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<6x100x64xf32>
  %ekt = tensor.empty() : tensor<6x64x100xf32>
  %kt = linalg.transpose ins(%k32 : tensor<6x100x64xf32>) outs(%ekt : tensor<6x64x100xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<6x100x100xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x100x100xf32>) -> tensor<6x100x100xf32>
  %s = linalg.batch_matmul ins(%q32, %kt : tensor<6x100x64xf32>, tensor<6x64x100xf32>) outs(%f : tensor<6x100x100xf32>) -> tensor<6x100x100xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<6x100x100xf32>) outs(%e : tensor<6x100x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %a, %c : f32
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %c3 = arith.constant 3 : index
    %c20 = arith.constant 20 : index
    %r = arith.remui %b, %c3 : index
    %pad = arith.muli %r, %c20 : index
    %past = arith.cmpi ule, %j, %i : index
    %real = arith.cmpi uge, %j, %pad : index
    %keep = arith.andi %past, %real : i1
    %lowest = arith.constant -65504.0 : f32
    %w = arith.select %keep, %y, %lowest : f32
    linalg.yield %w : f32
  } -> tensor<6x100x100xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<6x100x100xf32>) outs(%e : tensor<6x100x100xf32>) -> tensor<6x100x100xf32>
  %eo = tensor.empty() : tensor<6x100x64xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<6x100x64xf32>) -> tensor<6x100x64xf32>
  %o = linalg.batch_matmul ins(%p, %v32 : tensor<6x100x100xf32>, tensor<6x100x64xf32>) outs(%fo : tensor<6x100x64xf32>) -> tensor<6x100x64xf32>
  %et = tensor.empty() : tensor<6x100x64xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<6x100x64xf32>) outs(%et : tensor<6x100x64xf16>) {
  ^bb0(%a: f32, %w: f16):
    %y = arith.truncf %a : f32 to f16
    linalg.yield %y : f16
  } -> tensor<6x100x64xf16>
  return %t : tensor<6x100x64xf16>
}
