// f32 matmuls on the tensor cores with split operands (tf32_terms = 3: each
// value is its tf32 rounding plus the tf32 of the rest, three mma.sync
// m16n8k8 per step), checked against the exact f32 CPU reference with f32's
// own bound on the relative L2 error (1e-5; plain tf32 needs 2e-3,
// matmul-mma-tf32.mlir): ragged, transposed A (fragments read element by
// element) and B, register staging with split-K, and one without a written
// schedule, which hidet-select-schedules{tf32=1 tf32-terms=3} gives its
// heuristic's (64 x 32 warp tiles, a 3-stage cp.async pipeline).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs --pipeline-options="tf32=1 tf32-terms=3"
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: split_ragged PASS
// CHECK-DAG: split_transposed PASS
// CHECK-DAG: split_split_k PASS
// CHECK-DAG: split_heuristic PASS

func.func @split_ragged(%a: tensor<333x555xf32>, %b: tensor<555x444xf32>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8], stages = 3, swizzle = 4, tf32_terms = 3>}
      ins(%a, %b : tensor<333x555xf32>, tensor<555x444xf32>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @split_transposed(%a: tensor<136x200xf32>, %b: tensor<264x136xf32>) -> tensor<200x264xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x264xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x264xf32>) -> tensor<200x264xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8], tf32_terms = 3>}
      ins(%a, %b : tensor<136x200xf32>, tensor<264x136xf32>) outs(%f : tensor<200x264xf32>) -> tensor<200x264xf32>
  return %r : tensor<200x264xf32>
}

func.func @split_split_k(%a: tensor<32x2048xf32>, %b: tensor<2048x64xf32>) -> tensor<32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 32], warp = [16, 16], mma = [16, 8, 8], split_k = 4, tf32_terms = 3>}
      ins(%a, %b : tensor<32x2048xf32>, tensor<2048x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

func.func @split_heuristic(%a: tensor<1024x768xf32>, %b: tensor<768x1024xf32>) -> tensor<1024x1024xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x768xf32>, tensor<768x1024xf32>) outs(%f : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
