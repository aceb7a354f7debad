// Attention over 197 tokens as PyTorch's exporter writes
// scaled_dot_product_attention for a sequence-first model (ViT-B/16): the
// heads transposed out of [tokens, batch * heads, 64], the queries and the
// transposed keys each scaled by 1 / sqrt(sqrt(64)) between reshapes, the
// scores' softmax and the product with the values. hidet-fold-operand-scales
// moves both scales after the scores' f32 sums, so the head transposes fold
// into the batch matmuls' reads (test/Pipelines/scaled-heads.test pins the
// three kernels). Checked against an f32 reference that keeps the scales
// where they are (Inputs/scaled-heads.ref.mlir; the CPU build of the f16
// program rounds the scaled operands, the scores and the softmax's steps to
// f16). Inputs uniform, sparse and in {-1, 0, 1}: normal inputs make the
// scaled scores large enough that rounding them to f16, as the fused kernel
// does, moves the softmax beyond the default bounds.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/scaled-heads.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// CHECK: attention PASS

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @attention(%q: tensor<197x24x64xf16>, %k: tensor<197x24x64xf16>, %v: tensor<197x24x64xf16>)
    -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f16
  %c = arith.constant 0.3535 : f16
  %e3 = tensor.empty() : tensor<24x197x64xf16>
  %qt = linalg.transpose ins(%q : tensor<197x24x64xf16>) outs(%e3 : tensor<24x197x64xf16>) permutation = [1, 0, 2]
  %kt = linalg.transpose ins(%k : tensor<197x24x64xf16>) outs(%e3 : tensor<24x197x64xf16>) permutation = [1, 0, 2]
  %vt = linalg.transpose ins(%v : tensor<197x24x64xf16>) outs(%e3 : tensor<24x197x64xf16>) permutation = [1, 0, 2]
  %q4 = tensor.expand_shape %qt [[0, 1], [2], [3]] output_shape [2, 12, 197, 64] : tensor<24x197x64xf16> into tensor<2x12x197x64xf16>
  %k4 = tensor.expand_shape %kt [[0, 1], [2], [3]] output_shape [2, 12, 197, 64] : tensor<24x197x64xf16> into tensor<2x12x197x64xf16>
  %ekt = tensor.empty() : tensor<2x12x64x197xf16>
  %k4t = linalg.transpose ins(%k4 : tensor<2x12x197x64xf16>) outs(%ekt : tensor<2x12x64x197xf16>) permutation = [0, 1, 3, 2]
  %eq = tensor.empty() : tensor<2x12x197x64xf16>
  %qs = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%q4 : tensor<2x12x197x64xf16>) outs(%eq : tensor<2x12x197x64xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %x, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x12x197x64xf16>
  %ks = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%k4t : tensor<2x12x64x197xf16>) outs(%ekt : tensor<2x12x64x197xf16>) {
  ^bb0(%x: f16, %o: f16):
    %m = arith.mulf %x, %c : f16
    linalg.yield %m : f16
  } -> tensor<2x12x64x197xf16>
  %a = tensor.collapse_shape %qs [[0, 1], [2], [3]] : tensor<2x12x197x64xf16> into tensor<24x197x64xf16>
  %b = tensor.collapse_shape %ks [[0, 1], [2], [3]] : tensor<2x12x64x197xf16> into tensor<24x64x197xf16>
  %e = tensor.empty() : tensor<24x197x197xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %s = linalg.batch_matmul ins(%a, %b : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%f : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %fo = linalg.fill ins(%z : f16) outs(%e3 : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  %o = linalg.batch_matmul ins(%p, %vt : tensor<24x197x197xf16>, tensor<24x197x64xf16>) outs(%fo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  return %o : tensor<24x197x64xf16>
}
