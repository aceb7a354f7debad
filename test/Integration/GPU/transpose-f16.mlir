// Transpose of a ragged matrix, f16.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @transpose_f16(%a: tensor<333x445xf16>) -> tensor<445x333xf16> {
  %e = tensor.empty() : tensor<445x333xf16>
  %r = linalg.transpose ins(%a : tensor<333x445xf16>) outs(%e : tensor<445x333xf16>) permutation = [1, 0]
  return %r : tensor<445x333xf16>
}
