// Softmax over the last axis (linalg.softmax, decomposed), f32, ragged rows.
// Inputs also normal, sparse, in {-1, 0, 1} and wide (magnitudes to 1e3:
// exp overflows f32 above 88 unless the row's maximum is subtracted).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: PASS

func.func @softmax_f32(%a: tensor<500x333xf32>) -> tensor<500x333xf32> {
  %e = tensor.empty() : tensor<500x333xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<500x333xf32>) outs(%e : tensor<500x333xf32>) -> tensor<500x333xf32>
  return %r : tensor<500x333xf32>
}
