// The tensor-core template with cp.async pipelines (stages = 2, 3, 4 in
// the schedule): ragged shapes (N = 444: 8-byte copies), a K shorter than
// the pipeline (40 with 4 stages of 32), transposed operands, split-K, f16
// and bf16, and 132 KiB of shared memory (4 stages of 128 x 256 x 32
// tiles and the 8 warps' epilogue chunks, past the 48 KiB a kernel gets
// without opting in). The reference accumulates in f32 and rounds 16-bit results
// once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/matmul-mma-async.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: async3_ragged PASS
// CHECK-DAG: async3_ragged_f16 PASS
// CHECK-DAG: async2_square_bf16 PASS
// CHECK-DAG: async4_k_short PASS
// CHECK-DAG: async3_transposed PASS
// CHECK-DAG: async3_split_k PASS
// CHECK-DAG: async4_large_shared PASS

func.func @async3_ragged(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
      ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @async3_ragged_f16(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<333x444xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<333x444xf16>) -> tensor<333x444xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
      ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf16>) -> tensor<333x444xf16>
  return %r : tensor<333x444xf16>
}

func.func @async2_square_bf16(%a: tensor<256x256xbf16>, %b: tensor<256x256xbf16>) -> tensor<256x256xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<256x256xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 2>}
      ins(%a, %b : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%f : tensor<256x256xbf16>) -> tensor<256x256xbf16>
  return %r : tensor<256x256xbf16>
}

func.func @async4_k_short(%a: tensor<200x40xf16>, %b: tensor<40x136xf16>) -> tensor<200x136xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x136xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x136xf32>) -> tensor<200x136xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 4, swizzle = 4>}
      ins(%a, %b : tensor<200x40xf16>, tensor<40x136xf16>) outs(%f : tensor<200x136xf32>) -> tensor<200x136xf32>
  return %r : tensor<200x136xf32>
}

func.func @async3_transposed(%a: tensor<264x200xf16>, %b: tensor<136x264xf16>) -> tensor<200x136xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<200x136xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<200x136xf16>) -> tensor<200x136xf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
      ins(%a, %b : tensor<264x200xf16>, tensor<136x264xf16>) outs(%f : tensor<200x136xf16>) -> tensor<200x136xf16>
  return %r : tensor<200x136xf16>
}

func.func @async3_split_k(%a: tensor<48x2048xf16>, %b: tensor<2048x64xf16>) -> tensor<48x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<48x64xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<48x64xf16>) -> tensor<48x64xf16>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, split_k = 4>}
      ins(%a, %b : tensor<48x2048xf16>, tensor<2048x64xf16>) outs(%f : tensor<48x64xf16>) -> tensor<48x64xf16>
  return %r : tensor<48x64xf16>
}

func.func @async4_large_shared(%a: tensor<333x554xf16>, %b: tensor<554x444xf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 256, 32], warp = [64, 64], mma = [16, 8, 16], stages = 4>}
      ins(%a, %b : tensor<333x554xf16>, tensor<554x444xf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}
