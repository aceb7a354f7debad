// A BERT-base encoder layer (sequence 128, hidden 768, 12 heads, FFN 3072,
// f16, GELU in its tanh form), for the kernel count of the fusion benchmark.
func.func @bert_layer(%x: tensor<128x768xf16>, %wq: tensor<768x768xf16>, %bq: tensor<768xf16>, %wk: tensor<768x768xf16>, %bk: tensor<768xf16>, %wv: tensor<768x768xf16>, %bv: tensor<768xf16>, %wo: tensor<768x768xf16>, %bo: tensor<768xf16>, %g1: tensor<768xf16>, %be1: tensor<768xf16>, %w1: tensor<768x3072xf16>, %b1: tensor<3072xf16>, %w2: tensor<3072x768xf16>, %b2: tensor<768xf16>, %g2: tensor<768xf16>, %be2: tensor<768xf16>) -> tensor<128x768xf16> {
  %z = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %inv = arith.constant 0.0013020833 : f16
  %eps = arith.constant 1.0e-5 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %k0 = arith.constant 0.7978845608 : f16
  %k1 = arith.constant 0.044715 : f16
  %e1 = tensor.empty() : tensor<128x768xf16>
  %f2 = linalg.fill ins(%z : f16) outs(%e1 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm3 = linalg.matmul ins(%x, %wq : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f2 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e4 = tensor.empty() : tensor<128x768xf16>
  %t5 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm3, %bq : tensor<128x768xf16>, tensor<768xf16>) outs(%e4 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %r6 = tensor.expand_shape %t5 [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %e7 = tensor.empty() : tensor<12x128x64xf16>
  %tr8 = linalg.transpose ins(%r6 : tensor<128x12x64xf16>) outs(%e7 : tensor<12x128x64xf16>) permutation = [1, 0, 2]
  %e9 = tensor.empty() : tensor<128x768xf16>
  %f10 = linalg.fill ins(%z : f16) outs(%e9 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm11 = linalg.matmul ins(%x, %wk : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f10 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e12 = tensor.empty() : tensor<128x768xf16>
  %t13 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm11, %bk : tensor<128x768xf16>, tensor<768xf16>) outs(%e12 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %r14 = tensor.expand_shape %t13 [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %e15 = tensor.empty() : tensor<12x64x128xf16>
  %tr16 = linalg.transpose ins(%r14 : tensor<128x12x64xf16>) outs(%e15 : tensor<12x64x128xf16>) permutation = [1, 2, 0]
  %e17 = tensor.empty() : tensor<128x768xf16>
  %f18 = linalg.fill ins(%z : f16) outs(%e17 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm19 = linalg.matmul ins(%x, %wv : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f18 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e20 = tensor.empty() : tensor<128x768xf16>
  %t21 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm19, %bv : tensor<128x768xf16>, tensor<768xf16>) outs(%e20 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<128x768xf16>
  %r22 = tensor.expand_shape %t21 [[0], [1, 2]] output_shape [128, 12, 64] : tensor<128x768xf16> into tensor<128x12x64xf16>
  %e23 = tensor.empty() : tensor<12x128x64xf16>
  %tr24 = linalg.transpose ins(%r22 : tensor<128x12x64xf16>) outs(%e23 : tensor<12x128x64xf16>) permutation = [1, 0, 2]
  %e25 = tensor.empty() : tensor<12x128x128xf16>
  %f26 = linalg.fill ins(%z : f16) outs(%e25 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %bmm27 = linalg.batch_matmul ins(%tr8, %tr16 : tensor<12x128x64xf16>, tensor<12x64x128xf16>) outs(%f26 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %e28 = tensor.empty() : tensor<12x128x128xf16>
  %t29 = linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>, affine_map<(b, i, j) -> (b, i, j)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bmm27 : tensor<12x128x128xf16>) outs(%e28 : tensor<12x128x128xf16>) {
  ^bb0(%a0: f16, %o: f16):
    %m = arith.mulf %a0, %scale : f16
    linalg.yield %m : f16
  } -> tensor<12x128x128xf16>
  %e30 = tensor.empty() : tensor<12x128x128xf16>
  %sm31 = linalg.softmax dimension(2) ins(%t29 : tensor<12x128x128xf16>) outs(%e30 : tensor<12x128x128xf16>) -> tensor<12x128x128xf16>
  %e32 = tensor.empty() : tensor<12x128x64xf16>
  %f33 = linalg.fill ins(%z : f16) outs(%e32 : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %bmm34 = linalg.batch_matmul ins(%sm31, %tr24 : tensor<12x128x128xf16>, tensor<12x128x64xf16>) outs(%f33 : tensor<12x128x64xf16>) -> tensor<12x128x64xf16>
  %e35 = tensor.empty() : tensor<128x12x64xf16>
  %tr36 = linalg.transpose ins(%bmm34 : tensor<12x128x64xf16>) outs(%e35 : tensor<128x12x64xf16>) permutation = [1, 0, 2]
  %r37 = tensor.collapse_shape %tr36 [[0], [1, 2]] : tensor<128x12x64xf16> into tensor<128x768xf16>
  %e38 = tensor.empty() : tensor<128x768xf16>
  %f39 = linalg.fill ins(%z : f16) outs(%e38 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm40 = linalg.matmul ins(%r37, %wo : tensor<128x768xf16>, tensor<768x768xf16>) outs(%f39 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e41 = tensor.empty() : tensor<128x768xf16>
  %t42 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm40, %bo, %x : tensor<128x768xf16>, tensor<768xf16>, tensor<128x768xf16>) outs(%e41 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    %s2 = arith.addf %s, %a2 : f16
    linalg.yield %s2 : f16
  } -> tensor<128x768xf16>
  %e43 = tensor.empty() : tensor<128xf16>
  %f44 = linalg.fill ins(%z : f16) outs(%e43 : tensor<128xf16>) -> tensor<128xf16>
  %sum45 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%t42 : tensor<128x768xf16>) outs(%f44 : tensor<128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %o : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %e46 = tensor.empty() : tensor<128x768xf16>
  %t47 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t42, %sum45 : tensor<128x768xf16>, tensor<128xf16>) outs(%e46 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %m = arith.mulf %a1, %inv : f16
    %d = arith.subf %a0, %m : f16
    linalg.yield %d : f16
  } -> tensor<128x768xf16>
  %f48 = linalg.fill ins(%z : f16) outs(%e43 : tensor<128xf16>) -> tensor<128xf16>
  %var49 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%t47 : tensor<128x768xf16>) outs(%f48 : tensor<128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %sq = arith.mulf %a, %a : f16
    %s = arith.addf %sq, %o : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %e50 = tensor.empty() : tensor<128x768xf16>
  %t51 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t47, %var49, %g1, %be1 : tensor<128x768xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) outs(%e50 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %a3: f16, %o: f16):
    %m = arith.mulf %a1, %inv : f16
    %ve = arith.addf %m, %eps : f16
    %r = math.rsqrt %ve : f16
    %n = arith.mulf %a0, %r : f16
    %y = arith.mulf %n, %a2 : f16
    %o2 = arith.addf %y, %a3 : f16
    linalg.yield %o2 : f16
  } -> tensor<128x768xf16>
  %e52 = tensor.empty() : tensor<128x3072xf16>
  %f53 = linalg.fill ins(%z : f16) outs(%e52 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %mm54 = linalg.matmul ins(%t51, %w1 : tensor<128x768xf16>, tensor<768x3072xf16>) outs(%f53 : tensor<128x3072xf16>) -> tensor<128x3072xf16>
  %e55 = tensor.empty() : tensor<128x3072xf16>
  %t56 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm54, %b1 : tensor<128x3072xf16>, tensor<3072xf16>) outs(%e55 : tensor<128x3072xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    linalg.yield %s : f16
  } -> tensor<128x3072xf16>
  %e57 = tensor.empty() : tensor<128x3072xf16>
  %t58 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t56 : tensor<128x3072xf16>) outs(%e57 : tensor<128x3072xf16>) {
  ^bb0(%a0: f16, %o: f16):
    %ga2 = arith.mulf %a0, %a0 : f16
    %ga3 = arith.mulf %ga2, %a0 : f16
    %gl0 = arith.mulf %ga3, %k1 : f16
    %gl1 = arith.addf %a0, %gl0 : f16
    %gl2 = arith.mulf %gl1, %k0 : f16
    %gl3 = math.tanh %gl2 : f16
    %gl4 = arith.addf %gl3, %one : f16
    %gl5 = arith.mulf %gl4, %half : f16
    %r = arith.mulf %a0, %gl5 : f16
    linalg.yield %r : f16
  } -> tensor<128x3072xf16>
  %e59 = tensor.empty() : tensor<128x768xf16>
  %f60 = linalg.fill ins(%z : f16) outs(%e59 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %mm61 = linalg.matmul ins(%t58, %w2 : tensor<128x3072xf16>, tensor<3072x768xf16>) outs(%f60 : tensor<128x768xf16>) -> tensor<128x768xf16>
  %e62 = tensor.empty() : tensor<128x768xf16>
  %t63 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mm61, %b2, %t51 : tensor<128x768xf16>, tensor<768xf16>, tensor<128x768xf16>) outs(%e62 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %o: f16):
    %s = arith.addf %a0, %a1 : f16
    %s2 = arith.addf %s, %a2 : f16
    linalg.yield %s2 : f16
  } -> tensor<128x768xf16>
  %e64 = tensor.empty() : tensor<128xf16>
  %f65 = linalg.fill ins(%z : f16) outs(%e64 : tensor<128xf16>) -> tensor<128xf16>
  %sum66 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%t63 : tensor<128x768xf16>) outs(%f65 : tensor<128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %s = arith.addf %a, %o : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %e67 = tensor.empty() : tensor<128x768xf16>
  %t68 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t63, %sum66 : tensor<128x768xf16>, tensor<128xf16>) outs(%e67 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %o: f16):
    %m = arith.mulf %a1, %inv : f16
    %d = arith.subf %a0, %m : f16
    linalg.yield %d : f16
  } -> tensor<128x768xf16>
  %f69 = linalg.fill ins(%z : f16) outs(%e64 : tensor<128xf16>) -> tensor<128xf16>
  %var70 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%t68 : tensor<128x768xf16>) outs(%f69 : tensor<128xf16>) {
  ^bb0(%a: f16, %o: f16):
    %sq = arith.mulf %a, %a : f16
    %s = arith.addf %sq, %o : f16
    linalg.yield %s : f16
  } -> tensor<128xf16>
  %e71 = tensor.empty() : tensor<128x768xf16>
  %t72 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%t68, %var70, %g2, %be2 : tensor<128x768xf16>, tensor<128xf16>, tensor<768xf16>, tensor<768xf16>) outs(%e71 : tensor<128x768xf16>) {
  ^bb0(%a0: f16, %a1: f16, %a2: f16, %a3: f16, %o: f16):
    %m = arith.mulf %a1, %inv : f16
    %ve = arith.addf %m, %eps : f16
    %r = math.rsqrt %ve : f16
    %n = arith.mulf %a0, %r : f16
    %y = arith.mulf %n, %a2 : f16
    %o2 = arith.addf %y, %a3 : f16
    linalg.yield %o2 : f16
  } -> tensor<128x768xf16>
  return %t72 : tensor<128x768xf16>
}
