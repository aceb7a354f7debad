// Broadcast add of a row vector (bias) to a ragged matrix, f32.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @broadcast_add_f32(%a: tensor<777x333xf32>, %b: tensor<333xf32>) -> tensor<777x333xf32> {
  %e = tensor.empty() : tensor<777x333xf32>
  %bb = linalg.broadcast ins(%b : tensor<333xf32>) outs(%e : tensor<777x333xf32>) dimensions = [0]
  %e2 = tensor.empty() : tensor<777x333xf32>
  %r = linalg.add ins(%a, %bb : tensor<777x333xf32>, tensor<777x333xf32>) outs(%e2 : tensor<777x333xf32>) -> tensor<777x333xf32>
  return %r : tensor<777x333xf32>
}
