// CPU reference of ../attention.mlir: the same attentions with every value
// in f32 (inputs extended, scores, mask, softmax and both products in f32),
// the output rounded once.

func.func @masked_bf16(%q: tensor<8x77x32xbf16>, %k: tensor<8x77x32xbf16>, %v: tensor<8x77x32xbf16>, %keep: tensor<2x77xi1>) -> tensor<8x77x32xbf16> {
  %z = arith.constant 0.0 : f32
  %eq32 = tensor.empty() : tensor<8x77x32xf32>
  %q32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<8x77x32xbf16>) outs(%eq32 : tensor<8x77x32xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<8x77x32xf32>
  %ek32 = tensor.empty() : tensor<8x77x32xf32>
  %k32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<8x77x32xbf16>) outs(%ek32 : tensor<8x77x32xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<8x77x32xf32>
  %ev32 = tensor.empty() : tensor<8x77x32xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<8x77x32xbf16>) outs(%ev32 : tensor<8x77x32xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %x = arith.extf %a : bf16 to f32
    linalg.yield %x : f32
  } -> tensor<8x77x32xf32>
  %emask32 = tensor.empty() : tensor<2x77xf32>
  %mask32 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<2x77xi1>) outs(%emask32 : tensor<2x77xf32>) {
  ^bb0(%kept: i1, %o: f32):
    %zero = arith.constant 0.0 : f32
    %ninf = arith.constant 0xFF800000 : f32
    %x = arith.select %kept, %zero, %ninf : f32
    linalg.yield %x : f32
  } -> tensor<2x77xf32>
  %ekt = tensor.empty() : tensor<8x32x77xf32>
  %kt = linalg.transpose ins(%k32 : tensor<8x77x32xf32>) outs(%ekt : tensor<8x32x77xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<8x77x77xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x77x77xf32>) -> tensor<8x77x77xf32>
  %s = linalg.batch_matmul ins(%q32, %kt : tensor<8x77x32xf32>, tensor<8x32x77xf32>) outs(%f : tensor<8x77x77xf32>) -> tensor<8x77x77xf32>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 77, 77] : tensor<8x77x77xf32> into tensor<2x4x77x77xf32>
  %e4 = tensor.empty() : tensor<2x4x77x77xf32>
  %x4 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %mask32 : tensor<2x4x77x77xf32>, tensor<2x77xf32>) outs(%e4 : tensor<2x4x77x77xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %c = arith.constant 0.1767767 : f32
    %y = arith.mulf %a, %c : f32
    %w = arith.addf %y, %b : f32
    linalg.yield %w : f32
  } -> tensor<2x4x77x77xf32>
  %x = tensor.collapse_shape %x4 [[0, 1], [2], [3]] : tensor<2x4x77x77xf32> into tensor<8x77x77xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<8x77x77xf32>) outs(%e : tensor<8x77x77xf32>) -> tensor<8x77x77xf32>
  %eo = tensor.empty() : tensor<8x77x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<8x77x32xf32>) -> tensor<8x77x32xf32>
  %o = linalg.batch_matmul ins(%p, %v32 : tensor<8x77x77xf32>, tensor<8x77x32xf32>) outs(%fo : tensor<8x77x32xf32>) -> tensor<8x77x32xf32>
  %et = tensor.empty() : tensor<8x77x32xbf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<8x77x32xf32>) outs(%et : tensor<8x77x32xbf16>) {
  ^bb0(%a: f32, %w: bf16):
    %y = arith.truncf %a : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<8x77x32xbf16>
  return %t : tensor<8x77x32xbf16>
}

func.func @causal_f16(%q: tensor<6x100x64xf16>, %k: tensor<6x100x64xf16>, %v: tensor<6x100x64xf16>) -> tensor<6x100x64xf16> {
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
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %ninf = arith.constant 0xFF800000 : f32
    %w = arith.select %keep, %y, %ninf : f32
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

func.func @head128_kt_f16(%q: tensor<4x50x128xf16>, %k: tensor<4x128x50xf16>, %v: tensor<4x50x128xf16>) -> tensor<4x50x128xf16> {
  %z = arith.constant 0.0 : f32
  %eq32 = tensor.empty() : tensor<4x50x128xf32>
  %q32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<4x50x128xf16>) outs(%eq32 : tensor<4x50x128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x50x128xf32>
  %ek32 = tensor.empty() : tensor<4x128x50xf32>
  %k32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<4x128x50xf16>) outs(%ek32 : tensor<4x128x50xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x128x50xf32>
  %ev32 = tensor.empty() : tensor<4x50x128xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<4x50x128xf16>) outs(%ev32 : tensor<4x50x128xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x50x128xf32>
  %e = tensor.empty() : tensor<4x50x50xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x50x50xf32>) -> tensor<4x50x50xf32>
  %s = linalg.batch_matmul ins(%q32, %k32 : tensor<4x50x128xf32>, tensor<4x128x50xf32>) outs(%f : tensor<4x50x50xf32>) -> tensor<4x50x50xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x50x50xf32>) outs(%e : tensor<4x50x50xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.0883883 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x50x50xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x50x50xf32>) outs(%e : tensor<4x50x50xf32>) -> tensor<4x50x50xf32>
  %eo = tensor.empty() : tensor<4x50x128xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<4x50x128xf32>) -> tensor<4x50x128xf32>
  %o = linalg.batch_matmul ins(%p, %v32 : tensor<4x50x50xf32>, tensor<4x50x128xf32>) outs(%fo : tensor<4x50x128xf32>) -> tensor<4x50x128xf32>
  %et = tensor.empty() : tensor<4x50x128xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<4x50x128xf32>) outs(%et : tensor<4x50x128xf16>) {
  ^bb0(%a: f32, %w: f16):
    %y = arith.truncf %a : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x50x128xf16>
  return %t : tensor<4x50x128xf16>
}

func.func @values32_f16(%q: tensor<4x200x64xf16>, %k: tensor<4x131x64xf16>, %v: tensor<4x131x32xf16>) -> tensor<4x200x32xf16> {
  %z = arith.constant 0.0 : f32
  %eq32 = tensor.empty() : tensor<4x200x64xf32>
  %q32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q : tensor<4x200x64xf16>) outs(%eq32 : tensor<4x200x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x200x64xf32>
  %ek32 = tensor.empty() : tensor<4x131x64xf32>
  %k32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%k : tensor<4x131x64xf16>) outs(%ek32 : tensor<4x131x64xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x131x64xf32>
  %ev32 = tensor.empty() : tensor<4x131x32xf32>
  %v32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%v : tensor<4x131x32xf16>) outs(%ev32 : tensor<4x131x32xf32>) {
  ^bb0(%a: f16, %o: f32):
    %x = arith.extf %a : f16 to f32
    linalg.yield %x : f32
  } -> tensor<4x131x32xf32>
  %ekt = tensor.empty() : tensor<4x64x131xf32>
  %kt = linalg.transpose ins(%k32 : tensor<4x131x64xf32>) outs(%ekt : tensor<4x64x131xf32>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<4x200x131xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x200x131xf32>) -> tensor<4x200x131xf32>
  %s = linalg.batch_matmul ins(%q32, %kt : tensor<4x200x64xf32>, tensor<4x64x131xf32>) outs(%f : tensor<4x200x131xf32>) -> tensor<4x200x131xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<4x200x131xf32>) outs(%e : tensor<4x200x131xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.125 : f32
    %y = arith.mulf %a, %c : f32
    linalg.yield %y : f32
  } -> tensor<4x200x131xf32>
  %p = linalg.softmax dimension(2) ins(%x : tensor<4x200x131xf32>) outs(%e : tensor<4x200x131xf32>) -> tensor<4x200x131xf32>
  %eo = tensor.empty() : tensor<4x200x32xf32>
  %fo = linalg.fill ins(%z : f32) outs(%eo : tensor<4x200x32xf32>) -> tensor<4x200x32xf32>
  %o = linalg.batch_matmul ins(%p, %v32 : tensor<4x200x131xf32>, tensor<4x131x32xf32>) outs(%fo : tensor<4x200x32xf32>) -> tensor<4x200x32xf32>
  %et = tensor.empty() : tensor<4x200x32xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%o : tensor<4x200x32xf32>) outs(%et : tensor<4x200x32xf16>) {
  ^bb0(%a: f32, %w: f16):
    %y = arith.truncf %a : f32 to f16
    linalg.yield %y : f16
  } -> tensor<4x200x32xf16>
  return %t : tensor<4x200x32xf16>
}
