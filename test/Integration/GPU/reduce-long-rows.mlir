// Long rows reduced by a block (warps combine through shared memory): a
// ragged i32 sum of 3 rows of 100003 elements (integers, so the tree order
// and the CPU's sequential order must agree exactly) and an f16 max of 5
// rows of 65536 (vector loads).
// Inputs also in {-1, 0, 1} (the f16 rows tie for their maximum) and wide
// (the i32 inputs stay in [-8, 8]).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: sum_long_i32 PASS
// CHECK: max_long_f16 PASS

func.func @sum_long_i32(%a: tensor<3x100003xi32>) -> tensor<3xi32> {
  %z = arith.constant 0 : i32
  %e = tensor.empty() : tensor<3xi32>
  %f = linalg.fill ins(%z : i32) outs(%e : tensor<3xi32>) -> tensor<3xi32>
  %r = linalg.reduce ins(%a : tensor<3x100003xi32>) outs(%f : tensor<3xi32>) dimensions = [1]
    (%x: i32, %acc: i32) {
      %s = arith.addi %x, %acc : i32
      linalg.yield %s : i32
    }
  return %r : tensor<3xi32>
}

func.func @max_long_f16(%a: tensor<5x65536xf16>) -> tensor<5xf16> {
  %z = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<5xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<5xf16>) -> tensor<5xf16>
  %r = linalg.reduce ins(%a : tensor<5x65536xf16>) outs(%f : tensor<5xf16>) dimensions = [1]
    (%x: f16, %acc: f16) {
      %s = arith.maximumf %x, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<5xf16>
}
