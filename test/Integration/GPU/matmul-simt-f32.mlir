// The SIMT matmul template (hidet-schedule-anchors) in f32: ragged
// 333x444x555, square 256, skinny M = 1 (split-K by default), M = 16 and
// M = 128, and a hand-written schedule that overrides the heuristic.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: mm_ragged PASS
// CHECK-DAG: mm_square PASS
// CHECK-DAG: mm_m1 PASS
// CHECK-DAG: mm_m16 PASS
// CHECK-DAG: mm_m128 PASS
// CHECK-DAG: mm_scheduled PASS

func.func @mm_ragged(%a: tensor<333x555xf32>, %b: tensor<555x444xf32>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xf32>, tensor<555x444xf32>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @mm_square(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @mm_m1(%a: tensor<1x768xf32>, %b: tensor<768x1000xf32>) -> tensor<1x1000xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1000xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1x768xf32>, tensor<768x1000xf32>) outs(%f : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

func.func @mm_m16(%a: tensor<16x300xf32>, %b: tensor<300x130xf32>) -> tensor<16x130xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x130xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x130xf32>) -> tensor<16x130xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x300xf32>, tensor<300x130xf32>) outs(%f : tensor<16x130xf32>) -> tensor<16x130xf32>
  return %r : tensor<16x130xf32>
}

func.func @mm_m128(%a: tensor<128x512xf32>, %b: tensor<512x768xf32>) -> tensor<128x768xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x768xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<128x768xf32>) -> tensor<128x768xf32>
  %r = linalg.matmul ins(%a, %b : tensor<128x512xf32>, tensor<512x768xf32>) outs(%f : tensor<128x768xf32>) -> tensor<128x768xf32>
  return %r : tensor<128x768xf32>
}

func.func @mm_scheduled(%a: tensor<200x96xf32>, %b: tensor<96x72xf32>) -> tensor<200x72xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x72xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x72xf32>) -> tensor<200x72xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1],
                                                          warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
      ins(%a, %b : tensor<200x96xf32>, tensor<96x72xf32>) outs(%f : tensor<200x72xf32>) -> tensor<200x72xf32>
  return %r : tensor<200x72xf32>
}
