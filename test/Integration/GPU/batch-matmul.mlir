// Batched matmuls: linalg.batch_matmul in f32 (SIMT) and bf16, and
// linalg.generic contractions whose batch only one operand has (the other
// is broadcast to every batch), in f16. Ragged extents throughout.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK-DAG: bmm_f32 PASS
// CHECK-DAG: bmm_bf16 PASS
// CHECK-DAG: bmm_broadcast_b PASS
// CHECK-DAG: bmm_broadcast_a PASS

func.func @bmm_f32(%a: tensor<4x100x50xf32>, %b: tensor<4x50x72xf32>) -> tensor<4x100x72xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x100x72xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<4x100x72xf32>) -> tensor<4x100x72xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<4x100x50xf32>, tensor<4x50x72xf32>) outs(%f : tensor<4x100x72xf32>) -> tensor<4x100x72xf32>
  return %r : tensor<4x100x72xf32>
}

func.func @bmm_bf16(%a: tensor<8x64x136xbf16>, %b: tensor<8x136x96xbf16>) -> tensor<8x64x96xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x64x96xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x64x96xf32>) -> tensor<8x64x96xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<8x64x136xbf16>, tensor<8x136x96xbf16>) outs(%f : tensor<8x64x96xf32>) -> tensor<8x64x96xf32>
  return %r : tensor<8x64x96xf32>
}

// x[b] @ W with one W for every batch (a linear layer on a batch of
// sequences).
func.func @bmm_broadcast_b(%a: tensor<6x100x72xf16>, %b: tensor<72x200xf16>) -> tensor<6x100x200xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x100x200xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<6x100x200xf32>) -> tensor<6x100x200xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<6x100x72xf16>, tensor<72x200xf16>) outs(%f : tensor<6x100x200xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<6x100x200xf32>
  return %r : tensor<6x100x200xf32>
}

// W @ x[b]: the shared operand is A.
func.func @bmm_broadcast_a(%a: tensor<80x48xf16>, %b: tensor<3x48x120xf16>) -> tensor<3x80x120xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x80x120xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<3x80x120xf32>) -> tensor<3x80x120xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<80x48xf16>, tensor<3x48x120xf16>) outs(%f : tensor<3x80x120xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %xe = arith.extf %x : f16 to f32
    %ye = arith.extf %y : f16 to f32
    %p = arith.mulf %xe, %ye : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x80x120xf32>
  return %r : tensor<3x80x120xf32>
}
