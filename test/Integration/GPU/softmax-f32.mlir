// Softmax over the last axis (linalg.softmax, decomposed), f32, ragged rows.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @softmax_f32(%a: tensor<500x333xf32>) -> tensor<500x333xf32> {
  %e = tensor.empty() : tensor<500x333xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<500x333xf32>) outs(%e : tensor<500x333xf32>) -> tensor<500x333xf32>
  return %r : tensor<500x333xf32>
}
