// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-decompose-aggregates))' | FileCheck %s

// linalg.softmax becomes upstream's decomposition: max reduction, exp of the
// difference, sum reduction, division (structured ops the schedulers know).
// CHECK-LABEL: func.func @softmax(
// CHECK-NOT:     linalg.softmax
// CHECK:         linalg.fill
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         arith.maxnumf
// CHECK:         math.exp
// CHECK:         arith.addf
// CHECK:         arith.divf
func.func @softmax(%a: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
