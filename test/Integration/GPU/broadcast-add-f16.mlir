// Broadcast add of a row vector (bias) to a ragged matrix, f16.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @broadcast_add_f16(%a: tensor<777x333xf16>, %b: tensor<333xf16>) -> tensor<777x333xf16> {
  %e = tensor.empty() : tensor<777x333xf16>
  %bb = linalg.broadcast ins(%b : tensor<333xf16>) outs(%e : tensor<777x333xf16>) dimensions = [0]
  %e2 = tensor.empty() : tensor<777x333xf16>
  %r = linalg.add ins(%a, %bb : tensor<777x333xf16>, tensor<777x333xf16>) outs(%e2 : tensor<777x333xf16>) -> tensor<777x333xf16>
  return %r : tensor<777x333xf16>
}
