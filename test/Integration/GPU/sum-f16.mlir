// Sum of f16 values accumulated in f32 (last axis, ragged) and returned as f16.
// Inputs also normal, sparse, in {-1, 0, 1} (exact sums) and wide
// (magnitudes from 2^-5 to 2^5).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: PASS

func.func @sum_last_f16(%a: tensor<1000x333xf16>) -> tensor<1000xf16> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1000xf32>) -> tensor<1000xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<1000x333xf16>) outs(%f : tensor<1000xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %acc : f32
    linalg.yield %s : f32
  } -> tensor<1000xf32>
  %e2 = tensor.empty() : tensor<1000xf16>
  %t = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%r : tensor<1000xf32>) outs(%e2 : tensor<1000xf16>) {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  } -> tensor<1000xf16>
  return %t : tensor<1000xf16>
}
