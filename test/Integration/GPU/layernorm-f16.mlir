// Layer norm over the last axis written as linalg (mean, variance, normalize, scale and shift), f16 input and output, f32 statistics, ragged shape.
// Inputs also normal, sparse, in {-1, 0, 1} and wide (magnitudes from 2^-5
// to 2^5).
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
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func @layernorm_f16(%x: tensor<333x777xf16>, %gamma: tensor<777xf16>, %beta: tensor<777xf16>) -> tensor<333x777xf16> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 777.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %e = tensor.empty() : tensor<333xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<333xf32>) -> tensor<333xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<333x777xf16>) outs(%z : tensor<333xf32>) {
  ^bb0(%xv: f16, %acc: f32):
    %xf = arith.extf %xv : f16 to f32
    %s = arith.addf %xf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<333xf32>
  %e1 = tensor.empty() : tensor<333xf32>
  %mean = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<333xf32>) outs(%e1 : tensor<333xf32>) {
  ^bb0(%s: f32, %o: f32):
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<333xf32>
  %sq = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<333x777xf16>, tensor<333xf32>) outs(%z : tensor<333xf32>) {
  ^bb0(%xv: f16, %m: f32, %acc: f32):
    %xf = arith.extf %xv : f16 to f32
    %d = arith.subf %xf, %m : f32
    %d2 = arith.mulf %d, %d : f32
    %s = arith.addf %d2, %acc : f32
    linalg.yield %s : f32
  } -> tensor<333xf32>
  %e2 = tensor.empty() : tensor<333x777xf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #row, #col, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %sq, %gamma, %beta : tensor<333x777xf16>, tensor<333xf32>, tensor<333xf32>, tensor<777xf16>, tensor<777xf16>)
      outs(%e2 : tensor<333x777xf16>) {
  ^bb0(%xv: f16, %m: f32, %s2: f32, %g: f16, %b: f16, %o: f16):
    %xf = arith.extf %xv : f16 to f32
    %var = arith.divf %s2, %n : f32
    %ve = arith.addf %var, %eps : f32
    %rs = math.rsqrt %ve : f32
    %d = arith.subf %xf, %m : f32
    %nrm = arith.mulf %d, %rs : f32
    %gv = arith.extf %g : f16 to f32
    %bv = arith.extf %b : f16 to f32
    %sc = arith.mulf %nrm, %gv : f32
    %y = arith.addf %sc, %bv : f32
    %yo = arith.truncf %y : f32 to f16
    linalg.yield %yo : f16
  } -> tensor<333x777xf16>
  return %y : tensor<333x777xf16>
}
