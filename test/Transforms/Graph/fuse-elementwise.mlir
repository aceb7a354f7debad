// RUN: hidet-opt %s --hidet-fuse-elementwise --split-input-file | FileCheck %s

// The bias add and the five ops of GELU (erf form) after a matmul: one
// generic reads the matmul's result and the bias and computes all of it;
// the matmul stays.
// CHECK-LABEL: func.func @bias_gelu(
// CHECK:         %[[MM:.*]] = linalg.matmul
// CHECK:         %[[G:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins(%[[MM]], %{{.*}} : tensor<32x128xf32>, tensor<128xf32>)
// CHECK:           arith.addf
// CHECK:           arith.divf
// CHECK:           math.erf
// CHECK:           arith.addf
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:         return %[[G]]
// CHECK-NOT:     linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_gelu(%x: tensor<32x64xf32>, %w: tensor<64x128xf32>, %b: tensor<128xf32>) -> tensor<32x128xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %sqrt2 = arith.constant 1.41421354 : f32
  %e = tensor.empty() : tensor<32x128xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<32x128xf32>) -> tensor<32x128xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<32x64xf32>, tensor<64x128xf32>) outs(%f : tensor<32x128xf32>) -> tensor<32x128xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<32x128xf32>, tensor<128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.divf %a, %sqrt2 : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.erf %a : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %m = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %p : tensor<32x128xf32>, tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.mulf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  %h = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<32x128xf32>) outs(%e : tensor<32x128xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %half : f32
    linalg.yield %s : f32
  } -> tensor<32x128xf32>
  return %h : tensor<32x128xf32>
}

// -----

// An elementwise producer that a reduction and another op read stays
// apart (the reduction would recompute it), and so does one whose value the
// function returns besides; its elementwise consumer reads it instead of
// recomputing it.
// CHECK-LABEL: func.func @limits(
// CHECK:         %[[EXP:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:           math.exp
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[EXP]] :
// CHECK:         %[[LOG:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[EXP]] : tensor<4x8xf32>)
// CHECK-NOT:       math.exp
// CHECK:           math.log
// CHECK:         return %{{.*}}, %[[EXP]], %[[LOG]]
#id2 = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>
func.func @limits(%x: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.exp %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #red], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %log = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.log %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %sum, %exp, %log : tensor<4xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// A pre-LN residual stream: x1 = x0 + a is read by a row reduction (the
// next normalization) and by the next add, x2 = x1 + b. The second add
// reads x1; it does not recompute it (which, layer after layer, would
// recompute the whole stream in every add).
// CHECK-LABEL: func.func @residual_chain(
// CHECK:         %[[X1:.*]] = linalg.generic
// CHECK:           arith.addf
// CHECK:         linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X1]] :
// CHECK:         %[[X2:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[X1]], %{{.*}} : tensor<4x8xf32>, tensor<4x8xf32>)
// CHECK:           arith.addf
// CHECK-NOT:       arith.addf
// CHECK:         return
#id3 = affine_map<(i, j) -> (i, j)>
#red3 = affine_map<(i, j) -> (i)>
func.func @residual_chain(%x0: tensor<4x8xf32>, %a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4xf32>, tensor<4x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %x1 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x0, %a : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#id3, #red3], iterator_types = ["parallel", "reduction"]}
      ins(%x1 : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%p: f32, %o: f32):
    %s = arith.addf %p, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %x2 = linalg.generic {indexing_maps = [#id3, #id3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %b : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %sum, %x2 : tensor<4xf32>, tensor<4x8xf32>
}

// -----

// RMSNorm as exported (x * x, its mean kept as [rows, 1], + eps, sqrt,
// 1 / r, x * r, * weight): the square that only the sum reads goes into
// the sum; the statistics' ops on [4, 1] drop the unit dimension and join
// the normalization's last op, which reads x, the sum and the weight.
// CHECK-LABEL: func.func @rms_norm(
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[X:.*]] : tensor<4x8xf32>)
// CHECK:           %[[SQ:.*]] = arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:           arith.addf %[[SQ]], %{{.*}} : f32
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK-SAME:      ins({{.*}}%[[SUM]]{{.*}})
// CHECK:           arith.divf
// CHECK:           arith.addf
// CHECK:           math.sqrt
// CHECK:           arith.divf
// CHECK:           arith.mulf
// CHECK:           arith.mulf
// CHECK:         return %[[Y]]
// CHECK-NOT:     linalg.generic
#idr = affine_map<(i, j) -> (i, j)>
#redr = affine_map<(i, j) -> (i)>
#colr = affine_map<(i, j) -> (j)>
#id1 = affine_map<(i) -> (i)>
func.func @rms_norm(%x: tensor<4x8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %n = arith.constant 8.0 : f32
  %eps = arith.constant 1.0e-05 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#idr, #idr], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#idr, #redr], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %mean = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%sum : tensor<4xf32>) outs(%e1 : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.divf %a, %n : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %m2 = tensor.expand_shape %mean [[0, 1]] output_shape [4, 1] : tensor<4xf32> into tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x1xf32>
  %r = linalg.generic {indexing_maps = [#idr, #idr], iterator_types = ["parallel", "parallel"]}
      ins(%m2 : tensor<4x1xf32>) outs(%e2 : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %eps : f32
    %q = math.sqrt %s : f32
    %i = arith.divf %one, %q : f32
    linalg.yield %i : f32
  } -> tensor<4x1xf32>
  %r1 = tensor.collapse_shape %r [[0, 1]] : tensor<4x1xf32> into tensor<4xf32>
  %xn = linalg.generic {indexing_maps = [#idr, #redr, #idr], iterator_types = ["parallel", "parallel"]}
      ins(%x, %r1 : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#colr, #idr, #idr], iterator_types = ["parallel", "parallel"]}
      ins(%w, %xn : tensor<8xf32>, tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

// -----

// A norm's input computed by an elementwise op (Llama's first norm reads
// the embedding lookup): the square goes into the sum first, so the input
// has a reduction among its readers and stays one op, read by the sum and
// by the last op; it is not computed again in the last op.
// CHECK-LABEL: func.func @norm_input(
// CHECK:         %[[P:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "parallel"]
// CHECK:           arith.addf
// CHECK:         %[[SUM:.*]] = linalg.generic
// CHECK-SAME:      iterator_types = ["parallel", "reduction"]
// CHECK-SAME:      ins(%[[P]] : tensor<4x8xf32>)
// CHECK:           arith.mulf
// CHECK:         %[[Y:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[P]], %[[SUM]] :
// CHECK-NOT:       arith.addf %{{.*}}, %{{.*}} : f32
// CHECK:           math.rsqrt
// CHECK:         return %[[Y]]
#idn = affine_map<(i, j) -> (i, j)>
#redn = affine_map<(i, j) -> (i)>
func.func @norm_input(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %p = linalg.generic {indexing_maps = [#idn, #idn], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %one : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %sq = linalg.generic {indexing_maps = [#idn, #idn], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e1 = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4xf32>) -> tensor<4xf32>
  %sum = linalg.generic {indexing_maps = [#idn, #redn], iterator_types = ["parallel", "reduction"]}
      ins(%sq : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %y = linalg.generic {indexing_maps = [#idn, #redn, #idn], iterator_types = ["parallel", "parallel"]}
      ins(%p, %sum : tensor<4x8xf32>, tensor<4xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = math.rsqrt %b : f32
    %s = arith.mulf %a, %r : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}
