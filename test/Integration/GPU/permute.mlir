// Permutations through the shared-memory tile with 16-byte vectors: a 3-D
// permute (batch kept) and a transpose fused with an add of a contiguous
// operand and a broadcast one, f32 and f16.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: permute_3d_f32 PASS
// CHECK: transpose_add_f16 PASS

func.func @permute_3d_f32(%a: tensor<6x96x136xf32>) -> tensor<6x136x96xf32> {
  %e = tensor.empty() : tensor<6x136x96xf32>
  %r = linalg.transpose ins(%a : tensor<6x96x136xf32>) outs(%e : tensor<6x136x96xf32>) permutation = [0, 2, 1]
  return %r : tensor<6x136x96xf32>
}

func.func @transpose_add_f16(%a: tensor<200x328xf16>, %b: tensor<328x200xf16>, %c: tensor<200xf16>) -> tensor<328x200xf16> {
  %e = tensor.empty() : tensor<328x200xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b, %c : tensor<200x328xf16>, tensor<328x200xf16>, tensor<200xf16>) outs(%e : tensor<328x200xf16>) {
  ^bb0(%x: f16, %y: f16, %z: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    %t = arith.mulf %s, %z : f16
    linalg.yield %t : f16
  } -> tensor<328x200xf16>
  return %r : tensor<328x200xf16>
}
