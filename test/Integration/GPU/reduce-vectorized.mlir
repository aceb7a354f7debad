// Reductions whose rows divide into 16-byte vectors (lanes load 8 x f16 or
// 4 x f32 per step): sum of squares in f32 and an f16 max, ragged row count.
// Inputs also normal, sparse, in {-1, 0, 1} and wide.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: sumsq_f32 PASS
// CHECK: max_f16 PASS

#red = {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
        iterator_types = ["parallel", "reduction"]}
func.func @sumsq_f32(%a: tensor<333x1024xf32>) -> tensor<333xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333xf32>) -> tensor<333xf32>
  %r = linalg.generic #red ins(%a : tensor<333x1024xf32>) outs(%f : tensor<333xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %q = arith.mulf %x, %x : f32
    %s = arith.addf %q, %acc : f32
    linalg.yield %s : f32
  } -> tensor<333xf32>
  return %r : tensor<333xf32>
}

func.func @max_f16(%a: tensor<333x776xf16>) -> tensor<333xf16> {
  %z = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<333xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<333xf16>) -> tensor<333xf16>
  %r = linalg.generic #red ins(%a : tensor<333x776xf16>) outs(%f : tensor<333xf16>) {
  ^bb0(%x: f16, %acc: f16):
    %s = arith.maximumf %x, %acc : f16
    linalg.yield %s : f16
  } -> tensor<333xf16>
  return %r : tensor<333xf16>
}
