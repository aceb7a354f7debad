// Grids of thousands of 64 x 64 blocks of the Hopper template, one per
// tile, several resident on an SM (3 to 5, by shared memory and
// registers): TMA at 4 and 2 stages (f16 and f32 results) and the
// cp.async producer of a batched matmul at 2 stages. The kernels' static
// mbarriers and their dynamic shared memory must not overlap (PTX's
// `.extern .shared`): when they did, such grids failed with illegal
// instructions on mbarrier arrivals, or gave NaNs. The reference
// accumulates in f32 on the CPU and rounds 16-bit results once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/wgmma-resident-blocks.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// CHECK-DAG: resident_tma4_f16 PASS
// CHECK-DAG: resident_tma2_f32 PASS
// CHECK-DAG: resident_async2_bmm PASS

func.func @resident_tma4_f16(%a: tensor<4096x64xf16>, %b: tensor<64x4096xf16>) -> tensor<4096x4096xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4096x4096xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 4>}
      ins(%a, %b : tensor<4096x64xf16>, tensor<64x4096xf16>) outs(%f : tensor<4096x4096xf16>) -> tensor<4096x4096xf16>
  return %r : tensor<4096x4096xf16>
}

func.func @resident_tma2_f32(%a: tensor<2048x128xf16>, %b: tensor<128x4096xf16>) -> tensor<2048x4096xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x4096xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 2>}
      ins(%a, %b : tensor<2048x128xf16>, tensor<128x4096xf16>) outs(%f : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  return %r : tensor<2048x4096xf32>
}

func.func @resident_async2_bmm(%a: tensor<16x1024x64xf16>, %b: tensor<16x64x1024xf16>) -> tensor<16x1024x1024xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<16x1024x1024xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<16x1024x1024xf16>) -> tensor<16x1024x1024xf16>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 2>}
      ins(%a, %b : tensor<16x1024x64xf16>, tensor<16x64x1024xf16>) outs(%f : tensor<16x1024x1024xf16>) -> tensor<16x1024x1024xf16>
  return %r : tensor<16x1024x1024xf16>
}
