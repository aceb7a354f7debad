// Softmax of f16 input computed in f32 (extf, linalg.softmax, truncf), ragged rows.
// Inputs also normal, sparse, in {-1, 0, 1} and wide (magnitudes to 2^5:
// exp overflows f16 above 11 unless the row's maximum is subtracted).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: PASS

#id = affine_map<(i, j) -> (i, j)>
func.func @softmax_f16(%a: tensor<500x333xf16>) -> tensor<500x333xf16> {
  %e = tensor.empty() : tensor<500x333xf32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<500x333xf16>) outs(%e : tensor<500x333xf32>) {
  ^bb0(%v: f16, %o: f32):
    %f = arith.extf %v : f16 to f32
    linalg.yield %f : f32
  } -> tensor<500x333xf32>
  %e1 = tensor.empty() : tensor<500x333xf32>
  %s = linalg.softmax dimension(1) ins(%x : tensor<500x333xf32>) outs(%e1 : tensor<500x333xf32>) -> tensor<500x333xf32>
  %e2 = tensor.empty() : tensor<500x333xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%s : tensor<500x333xf32>) outs(%e2 : tensor<500x333xf16>) {
  ^bb0(%v: f32, %o: f16):
    %h = arith.truncf %v : f32 to f16
    linalg.yield %h : f16
  } -> tensor<500x333xf16>
  return %r : tensor<500x333xf16>
}
