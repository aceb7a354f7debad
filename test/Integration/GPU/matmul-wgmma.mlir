// The Hopper template (TMA + mbarrier + wgmma, warp-specialized) on the
// H100: every stage count from 2 to 6, square, skinny (M = 16, one tile of
// 64 rows) and ragged shapes (M, N and K not multiples of the tile; TMA
// zero-fills past the edges), K shorter than one K tile, 1 to 4 consumer
// warpgroups (block M = 64 to 256), block N of 64 to 256, f16 and bf16
// operands with f16, bf16 and f32 results, and C read and accumulated
// into, and persistent grids (320 tiles of 64 x 64 and 153 of 128 x 256
// over 132 blocks), and pingpong schedules (two consumers taking 64-row
// tiles in turns; TMA and cp.async, C read, split-K). The reference
// accumulates in f32 and rounds 16-bit results once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/matmul-wgmma.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: wgmma2_square_f16 PASS
// CHECK-DAG: wgmma4_ragged_f32 PASS
// CHECK-DAG: wgmma3_ragged_bf16 PASS
// CHECK-DAG: wgmma5_k_short PASS
// CHECK-DAG: wgmma4_skinny_bf16 PASS
// CHECK-DAG: wgmma3_accumulate PASS
// CHECK-DAG: wgmma6_deep_bf16 PASS
// CHECK-DAG: wgmma4_tall_f16 PASS
// CHECK-DAG: wgmma5_persistent_ragged_f16 PASS
// CHECK-DAG: wgmma4_persistent_f32 PASS
// CHECK-DAG: pp4_ragged_f16 PASS
// CHECK-DAG: pp3_accumulate_f16 PASS
// CHECK-DAG: pp4_bmm_split_f32 PASS

func.func @wgmma2_square_f16(%a: tensor<256x256xf16>, %b: tensor<256x256xf16>) -> tensor<256x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x256xf16>) -> tensor<256x256xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 2>}
      ins(%a, %b : tensor<256x256xf16>, tensor<256x256xf16>) outs(%f : tensor<256x256xf16>) -> tensor<256x256xf16>
  return %r : tensor<256x256xf16>
}

func.func @wgmma4_ragged_f32(%a: tensor<333x552xf16>, %b: tensor<552x440xf16>) -> tensor<333x440xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x440xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x440xf32>) -> tensor<333x440xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 4, swizzle = 8>}
      ins(%a, %b : tensor<333x552xf16>, tensor<552x440xf16>) outs(%f : tensor<333x440xf32>) -> tensor<333x440xf32>
  return %r : tensor<333x440xf32>
}

func.func @wgmma3_ragged_bf16(%a: tensor<200x264xbf16>, %b: tensor<264x136xbf16>) -> tensor<200x136xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<200x136xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<200x136xbf16>) -> tensor<200x136xbf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], stages = 3, persistent = true>}
      ins(%a, %b : tensor<200x264xbf16>, tensor<264x136xbf16>) outs(%f : tensor<200x136xbf16>) -> tensor<200x136xbf16>
  return %r : tensor<200x136xbf16>
}

func.func @wgmma5_k_short(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<200x136xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<200x136xf16>) -> tensor<200x136xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 64], stages = 5, swizzle = 4>}
      ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf16>) -> tensor<200x136xf16>
  return %r : tensor<200x136xf16>
}

func.func @wgmma4_skinny_bf16(%a: tensor<16x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<16x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], stages = 4, persistent = true>}
      ins(%a, %b : tensor<16x512xbf16>, tensor<512x1024xbf16>) outs(%f : tensor<16x1024xf32>) -> tensor<16x1024xf32>
  return %r : tensor<16x1024xf32>
}

func.func @wgmma3_accumulate(%a: tensor<192x128xf16>, %b: tensor<128x192xf16>, %c: tensor<192x192xf16>) -> tensor<192x192xf16> {
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [192, 128], stages = 3>}
      ins(%a, %b : tensor<192x128xf16>, tensor<128x192xf16>) outs(%c : tensor<192x192xf16>) -> tensor<192x192xf16>
  return %r : tensor<192x192xf16>
}

func.func @wgmma6_deep_bf16(%a: tensor<256x1024xbf16>, %b: tensor<1024x384xbf16>) -> tensor<256x384xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<256x384xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<256x384xbf16>) -> tensor<256x384xbf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 192], stages = 6, swizzle = 2, persistent = true>}
      ins(%a, %b : tensor<256x1024xbf16>, tensor<1024x384xbf16>) outs(%f : tensor<256x384xbf16>) -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}

func.func @wgmma4_tall_f16(%a: tensor<512x192xf16>, %b: tensor<192x256xf16>) -> tensor<512x256xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<512x256xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<512x256xf16>) -> tensor<512x256xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [256, 128], stages = 4>}
      ins(%a, %b : tensor<512x192xf16>, tensor<192x256xf16>) outs(%f : tensor<512x256xf16>) -> tensor<512x256xf16>
  return %r : tensor<512x256xf16>
}

func.func @wgmma5_persistent_ragged_f16(%a: tensor<1000x200xf16>, %b: tensor<200x1240xf16>) -> tensor<1000x1240xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1000x1240xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1000x1240xf16>) -> tensor<1000x1240xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 5, persistent = true>}
      ins(%a, %b : tensor<1000x200xf16>, tensor<200x1240xf16>) outs(%f : tensor<1000x1240xf16>) -> tensor<1000x1240xf16>
  return %r : tensor<1000x1240xf16>
}

func.func @wgmma4_persistent_f32(%a: tensor<2100x328xbf16>, %b: tensor<328x2104xbf16>) -> tensor<2100x2104xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2100x2104xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2100x2104xf32>) -> tensor<2100x2104xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 4, swizzle = 8, persistent = true>}
      ins(%a, %b : tensor<2100x328xbf16>, tensor<328x2104xbf16>) outs(%f : tensor<2100x2104xf32>) -> tensor<2100x2104xf32>
  return %r : tensor<2100x2104xf32>
}

// Pingpong: two consumer warpgroups take 64-row tiles in turns. Ragged,
// 160 tiles over 132 blocks (some blocks take two, one per consumer).
func.func @pp4_ragged_f16(%a: tensor<1000x200xf16>, %b: tensor<200x1240xf16>) -> tensor<1000x1240xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<1000x1240xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<1000x1240xf16>) -> tensor<1000x1240xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], stages = 4, swizzle = 8, persistent = true, pingpong = true>}
      ins(%a, %b : tensor<1000x200xf16>, tensor<200x1240xf16>) outs(%f : tensor<1000x1240xf16>) -> tensor<1000x1240xf16>
  return %r : tensor<1000x1240xf16>
}

// C read and accumulated into; 170 tiles of 64 x 64, so that some blocks
// take three (the first consumer twice, after waiting for the second).
func.func @pp3_accumulate_f16(%a: tensor<640x256xf16>, %b: tensor<256x1088xf16>, %c: tensor<640x1088xf16>) -> tensor<640x1088xf16> {
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 3, persistent = true, pingpong = true>}
      ins(%a, %b : tensor<640x256xf16>, tensor<256x1088xf16>) outs(%c : tensor<640x1088xf16>) -> tensor<640x1088xf16>
  return %r : tensor<640x1088xf16>
}

// A batched matmul (cp.async producer) split along K into f32 slices.
func.func @pp4_bmm_split_f32(%a: tensor<4x500x512xbf16>, %b: tensor<4x512x520xbf16>) -> tensor<4x500x520xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x500x520xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x500x520xf32>) -> tensor<4x500x520xf32>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], stages = 4, split_k = 2, persistent = true, pingpong = true>}
      ins(%a, %b : tensor<4x500x512xbf16>, tensor<4x512x520xbf16>) outs(%f : tensor<4x500x520xf32>) -> tensor<4x500x520xf32>
  return %r : tensor<4x500x520xf32>
}
