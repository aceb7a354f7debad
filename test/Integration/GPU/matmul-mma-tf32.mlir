// The tensor-core template on f32 operands in tf32 (mma.sync m16n8k8, f32
// accumulation), selected by a #hidet.mma_matmul with mma = [16, 8, 8]
// written on the op: ragged 333x444x555, square, transposed A (fragments
// read element by element) and B (ldmatrix from the k-major tile), and
// split-K. tf32 keeps 10 of the inputs' 23 fraction bits: the H200's errors
// (relative L2 6.9e-4, bench/results/gpu-integration-h200.log) are those of
// inputs cut to 10 bits, a relative error up to 2^-10 each, 2^-9 a product.
// So the bounds against the exact f32 CPU reference are tf32's rather than
// f32's: 2e-3 on the relative L2 error, and each element within 4e-3 of the
// output's RMS plus 4e-3 of itself (4 tf32 eps: 2 eps a product, doubled);
// the inputs cut to tf32 on the CPU use 0.29 of these.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --rtol-l2 2e-3 --ref-rtol 4e-3 --ref-atol-rms 4e-3 | FileCheck %s
// CHECK-DAG: tf32_ragged PASS
// CHECK-DAG: tf32_square PASS
// CHECK-DAG: tf32_transposed PASS
// CHECK-DAG: tf32_split_k PASS

func.func @tf32_ragged(%a: tensor<333x555xf32>, %b: tensor<555x444xf32>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8], swizzle = 4>}
      ins(%a, %b : tensor<333x555xf32>, tensor<555x444xf32>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @tf32_square(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 16], warp = [64, 64], mma = [16, 8, 8]>}
      ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%f : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @tf32_transposed(%a: tensor<136x200xf32>, %b: tensor<264x136xf32>) -> tensor<200x264xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<200x264xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<200x264xf32>) -> tensor<200x264xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>}
      ins(%a, %b : tensor<136x200xf32>, tensor<264x136xf32>) outs(%f : tensor<200x264xf32>) -> tensor<200x264xf32>
  return %r : tensor<200x264xf32>
}

func.func @tf32_split_k(%a: tensor<32x2048xf32>, %b: tensor<2048x64xf32>) -> tensor<32x64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 32], warp = [16, 16], mma = [16, 8, 8], split_k = 4>}
      ins(%a, %b : tensor<32x2048xf32>, tensor<2048x64xf32>) outs(%f : tensor<32x64xf32>) -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}
