// Max over the last and a middle axis, f32 and f16 (max is exact in any order).
// Inputs also normal, sparse, in {-1, 0, 1} (rows tie for their maximum)
// and wide.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=normal | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=sparse | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 --input-dist=wide | FileCheck %s
// CHECK: PASS

func.func @max_last_f16(%a: tensor<1000x333xf16>) -> tensor<1000xf16> {
  %z = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<1000xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1000xf16>) -> tensor<1000xf16>
  %r = linalg.reduce ins(%a : tensor<1000x333xf16>) outs(%f : tensor<1000xf16>) dimensions = [1]
    (%x: f16, %acc: f16) {
      %s = arith.maximumf %x, %acc : f16
      linalg.yield %s : f16
    }
  return %r : tensor<1000xf16>
}

func.func @max_middle_f32(%a: tensor<64x333x48xf32>) -> tensor<64x48xf32> {
  %z = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<64x48xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x48xf32>) -> tensor<64x48xf32>
  %r = linalg.reduce ins(%a : tensor<64x333x48xf32>) outs(%f : tensor<64x48xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64x48xf32>
}
