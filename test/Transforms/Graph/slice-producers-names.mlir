// RUN: hidet-opt %s --hidet-slice-producers=min-elements=0 --canonicalize -mlir-print-debuginfo -mlir-print-local-scope | FileCheck %s

// Each slice's GEMM is named after its producer (the ONNX node) and the
// slice's index, in the order of the offsets, so that its kernel is named,
// profiled and tuned on its own (`wgmma_attn_c_attn_MatMul_slice0`); a
// suffix that ONNX node names do not take (`MatMul_1` is another node).
// CHECK-LABEL: func.func @named(
// CHECK: linalg.matmul {{.*}} loc("/attn/c_attn/MatMul/slice0"("/attn/c_attn/MatMul"))
// CHECK: linalg.matmul {{.*}} loc("/attn/c_attn/MatMul/slice1"("/attn/c_attn/MatMul"))
// CHECK-NOT: linalg.matmul
func.func @named(%x: tensor<256x64xf16>, %w: tensor<64x128xf16>) -> (tensor<256x64xf16>, tensor<256x64xf16>) {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<256x128xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<256x128xf16>) -> tensor<256x128xf16>
  %m = linalg.matmul ins(%x, %w : tensor<256x64xf16>, tensor<64x128xf16>) outs(%f : tensor<256x128xf16>) -> tensor<256x128xf16> loc("/attn/c_attn/MatMul")
  %q = tensor.extract_slice %m[0, 0] [256, 64] [1, 1] : tensor<256x128xf16> to tensor<256x64xf16>
  %k = tensor.extract_slice %m[0, 64] [256, 64] [1, 1] : tensor<256x128xf16> to tensor<256x64xf16>
  return %q, %k : tensor<256x64xf16>, tensor<256x64xf16>
}
