// The tensor-core matmul template in bf16 (nvvm.mma.sync, f32
// accumulation): ragged with f32 and bf16 results, square, skinny M = 1, 16
// and 128, and a transposed B. The reference accumulates in f32 on the CPU
// and rounds bf16 results once.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %S/Inputs/matmul-mma-bf16.ref.mlir --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: mm_ragged PASS
// CHECK-DAG: mm_ragged_bf16 PASS
// CHECK-DAG: mm_square PASS
// CHECK-DAG: mm_m1 PASS
// CHECK-DAG: mm_m16 PASS
// CHECK-DAG: mm_m128 PASS
// CHECK-DAG: mm_transposed_b PASS

func.func @mm_ragged(%a: tensor<333x555xbf16>, %b: tensor<555x444xbf16>) -> tensor<333x444xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<333x444xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<333x444xf32>) -> tensor<333x444xf32>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xbf16>, tensor<555x444xbf16>) outs(%f : tensor<333x444xf32>) -> tensor<333x444xf32>
  return %r : tensor<333x444xf32>
}

func.func @mm_ragged_bf16(%a: tensor<333x555xbf16>, %b: tensor<555x444xbf16>) -> tensor<333x444xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<333x444xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<333x444xbf16>) -> tensor<333x444xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<333x555xbf16>, tensor<555x444xbf16>) outs(%f : tensor<333x444xbf16>) -> tensor<333x444xbf16>
  return %r : tensor<333x444xbf16>
}

func.func @mm_square(%a: tensor<512x512xbf16>, %b: tensor<512x512xbf16>) -> tensor<512x512xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<512x512xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<512x512xbf16>) -> tensor<512x512xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<512x512xbf16>, tensor<512x512xbf16>) outs(%f : tensor<512x512xbf16>) -> tensor<512x512xbf16>
  return %r : tensor<512x512xbf16>
}

func.func @mm_m1(%a: tensor<1x1024xbf16>, %b: tensor<1024x1024xbf16>) -> tensor<1x1024xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1x1024xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<1x1024xbf16>) -> tensor<1x1024xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<1x1024xbf16>, tensor<1024x1024xbf16>) outs(%f : tensor<1x1024xbf16>) -> tensor<1x1024xbf16>
  return %r : tensor<1x1024xbf16>
}

func.func @mm_m16(%a: tensor<16x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<16x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<16x512xf32>) -> tensor<16x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<16x256xbf16>, tensor<256x512xbf16>) outs(%f : tensor<16x512xf32>) -> tensor<16x512xf32>
  return %r : tensor<16x512xf32>
}

func.func @mm_m128(%a: tensor<128x768xbf16>, %b: tensor<768x768xbf16>) -> tensor<128x768xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<128x768xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<128x768xbf16>, tensor<768x768xbf16>) outs(%f : tensor<128x768xbf16>) -> tensor<128x768xbf16>
  return %r : tensor<128x768xbf16>
}

func.func @mm_transposed_b(%a: tensor<256x320xbf16>, %b: tensor<192x320xbf16>) -> tensor<256x192xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<256x192xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<256x192xbf16>) -> tensor<256x192xbf16>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : tensor<256x320xbf16>, tensor<192x320xbf16>) outs(%f : tensor<256x192xbf16>) -> tensor<256x192xbf16>
  return %r : tensor<256x192xbf16>
}
