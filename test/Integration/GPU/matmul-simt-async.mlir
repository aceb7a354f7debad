// The SIMT matmul template with cp.async pipelines (stages = 3, 4 in the
// schedule) in f32, against the CPU build: ragged shapes (A copied an
// element at a time into its k-major tile; B in 16-byte pieces for 444
// columns, 4-byte ones for 445), a K shorter than the pipeline (2 K tiles
// for 3 stages), transposed operands (A's M contiguous: 16-byte pieces
// along M; B's K contiguous: 4-byte pieces), split-K, a batch, and the
// heuristic's own pick for a 2048 x 2048 output (128 x 128 tiles on 128
// threads, 3 stages).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: async3_ragged PASS
// CHECK-DAG: async4_ragged_odd_n PASS
// CHECK-DAG: async3_k_short PASS
// CHECK-DAG: async3_transposed PASS
// CHECK-DAG: async3_split_k PASS
// CHECK-DAG: async4_batch PASS
// CHECK-DAG: async_default PASS

func.func @async3_ragged(%a: tensor<333x555xf32>, %b: tensor<555x444xf32>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
      ins(%a, %b : tensor<333x555xf32>, tensor<555x444xf32>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @async4_ragged_odd_n(%a: tensor<300x200xf32>, %b: tensor<200x445xf32>) -> tensor<300x445xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<300x445xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<300x445xf32>) -> tensor<300x445xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, stages = 4>}
      ins(%a, %b : tensor<300x200xf32>, tensor<200x445xf32>) outs(%f : tensor<300x445xf32>) -> tensor<300x445xf32>
  return %r : tensor<300x445xf32>
}

func.func @async3_k_short(%a: tensor<256x12xf32>, %b: tensor<12x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, stages = 3>}
      ins(%a, %b : tensor<256x12xf32>, tensor<12x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @async3_transposed(%a: tensor<264x200xf32>, %b: tensor<136x264xf32>) -> tensor<200x136xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, stages = 3>}
      ins(%a, %b : tensor<264x200xf32>, tensor<136x264xf32>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

func.func @async3_split_k(%a: tensor<48x2048xf32>, %b: tensor<2048x64xf32>) -> tensor<48x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<48x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<48x64xf32>) -> tensor<48x64xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, split_k = 4, stages = 3>}
      ins(%a, %b : tensor<48x2048xf32>, tensor<2048x64xf32>) outs(%f : tensor<48x64xf32>) -> tensor<48x64xf32>
  return %r : tensor<48x64xf32>
}

func.func @async4_batch(%a: tensor<4x100x200xf32>, %b: tensor<4x200x300xf32>) -> tensor<4x100x300xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x100x300xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x100x300xf32>) -> tensor<4x100x300xf32>
  %r = linalg.batch_matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 16, stages = 4>}
      ins(%a, %b : tensor<4x100x200xf32>, tensor<4x200x300xf32>) outs(%f : tensor<4x100x300xf32>) -> tensor<4x100x300xf32>
  return %r : tensor<4x100x300xf32>
}

func.func @async_default(%a: tensor<2048x96xf32>, %b: tensor<96x2048xf32>) -> tensor<2048x2048xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2048x2048xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2048x96xf32>, tensor<96x2048xf32>) outs(%f : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  return %r : tensor<2048x2048xf32>
}
