// Sum over the last axis (warp per row, ragged 333) and over a middle axis (thread per output), f32.
// Inputs also normal, sparse, in {-1, 0, 1} (exact sums) and wide
// (magnitudes from 1e-3 to 1e3).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: PASS

func.func @sum_last_f32(%a: tensor<1000x333xf32>) -> tensor<1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1000xf32>) -> tensor<1000xf32>
  %r = linalg.reduce ins(%a : tensor<1000x333xf32>) outs(%f : tensor<1000xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<1000xf32>
}

func.func @sum_middle_f32(%a: tensor<64x333x48xf32>) -> tensor<64x48xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.reduce ins(%a : tensor<64x333x48xf32>) outs(%f : tensor<64x48xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64x48xf32>
}
