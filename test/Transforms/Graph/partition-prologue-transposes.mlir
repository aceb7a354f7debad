// RUN: hidet-opt %s -split-input-file --hidet-partition | FileCheck %s --check-prefix=EPI
// RUN: hidet-opt %s -split-input-file --hidet-partition=prologue-transposes=1 | FileCheck %s --check-prefix=PRO

// Keys projected by one batch matmul, transposed for Q K^T: the transpose
// moves the innermost dimension into rows of 20 keys, 40 bytes, not a
// multiple of 16 (the widest copy). By
// Hidet's rules it is the projection's epilogue; with prologue-transposes
// it is left to Q K^T's group as a prologue (read in place, along the 16
// contiguous dimensions of the projection's output).
// EPI-LABEL: func.func @unaligned_keys(
// EPI:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// EPI:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// EPI:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
// PRO-LABEL: func.func @unaligned_keys(
// PRO:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>}
// PRO:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 1, role = prologue>}
// PRO:         linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>}
func.func @unaligned_keys(%x: tensor<2x20x16xf16>, %w: tensor<2x16x16xf16>, %q: tensor<2x20x16xf16>) -> tensor<2x20x20xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<2x20x16xf16>
  %k = linalg.batch_matmul ins(%x, %w : tensor<2x20x16xf16>, tensor<2x16x16xf16>) outs(%e : tensor<2x20x16xf16>) -> tensor<2x20x16xf16>
  %et = tensor.empty() : tensor<2x16x20xf16>
  %kt = linalg.transpose ins(%k : tensor<2x20x16xf16>) outs(%et : tensor<2x16x20xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x20x20xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x20x16xf16>, tensor<2x16x20xf16>) outs(%es : tensor<2x20x20xf16>) -> tensor<2x20x20xf16>
  return %s : tensor<2x20x20xf16>
}

// -----

// Rows of 24 f16 keys (48 bytes) or of 20 f32 keys (80 bytes) are aligned
// for the consumer's 16-byte copies: the transpose stays the projection's
// epilogue either way.
// PRO-LABEL: func.func @aligned_keys(
// PRO:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// PRO-LABEL: func.func @aligned_f32_keys(
// PRO:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
func.func @aligned_keys(%x: tensor<2x24x16xf16>, %w: tensor<2x16x16xf16>, %q: tensor<2x24x16xf16>) -> tensor<2x24x24xf16> {
  %e = tensor.empty() : tensor<2x24x16xf16>
  %k = linalg.batch_matmul ins(%x, %w : tensor<2x24x16xf16>, tensor<2x16x16xf16>) outs(%e : tensor<2x24x16xf16>) -> tensor<2x24x16xf16>
  %et = tensor.empty() : tensor<2x16x24xf16>
  %kt = linalg.transpose ins(%k : tensor<2x24x16xf16>) outs(%et : tensor<2x16x24xf16>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x24x24xf16>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x24x16xf16>, tensor<2x16x24xf16>) outs(%es : tensor<2x24x24xf16>) -> tensor<2x24x24xf16>
  return %s : tensor<2x24x24xf16>
}
func.func @aligned_f32_keys(%x: tensor<2x20x16xf32>, %w: tensor<2x16x16xf32>, %q: tensor<2x20x16xf32>) -> tensor<2x20x20xf32> {
  %e = tensor.empty() : tensor<2x20x16xf32>
  %k = linalg.batch_matmul ins(%x, %w : tensor<2x20x16xf32>, tensor<2x16x16xf32>) outs(%e : tensor<2x20x16xf32>) -> tensor<2x20x16xf32>
  %et = tensor.empty() : tensor<2x16x20xf32>
  %kt = linalg.transpose ins(%k : tensor<2x20x16xf32>) outs(%et : tensor<2x16x20xf32>) permutation = [0, 2, 1]
  %es = tensor.empty() : tensor<2x20x20xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x20x16xf32>, tensor<2x16x20xf32>) outs(%es : tensor<2x20x20xf32>) -> tensor<2x20x20xf32>
  return %s : tensor<2x20x20xf32>
}

// -----

// A transpose that keeps the innermost dimension, or whose use is not a
// contraction, is an epilogue either way.
// PRO-LABEL: func.func @not_moving(
// PRO:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
// PRO-LABEL: func.func @not_a_contraction(
// PRO:         linalg.transpose {{.*}} {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
func.func @not_moving(%x: tensor<2x20x16xf16>, %w: tensor<2x16x20xf16>) -> tensor<20x2x20xf16> {
  %e = tensor.empty() : tensor<2x20x20xf16>
  %k = linalg.batch_matmul ins(%x, %w : tensor<2x20x16xf16>, tensor<2x16x20xf16>) outs(%e : tensor<2x20x20xf16>) -> tensor<2x20x20xf16>
  %et = tensor.empty() : tensor<20x2x20xf16>
  %kt = linalg.transpose ins(%k : tensor<2x20x20xf16>) outs(%et : tensor<20x2x20xf16>) permutation = [1, 0, 2]
  return %kt : tensor<20x2x20xf16>
}
func.func @not_a_contraction(%x: tensor<2x20x16xf16>, %w: tensor<2x16x16xf16>) -> tensor<2x16x20xf16> {
  %e = tensor.empty() : tensor<2x20x16xf16>
  %k = linalg.batch_matmul ins(%x, %w : tensor<2x20x16xf16>, tensor<2x16x16xf16>) outs(%e : tensor<2x20x16xf16>) -> tensor<2x20x16xf16>
  %et = tensor.empty() : tensor<2x16x20xf16>
  %kt = linalg.transpose ins(%k : tensor<2x20x16xf16>) outs(%et : tensor<2x16x20xf16>) permutation = [0, 2, 1]
  return %kt : tensor<2x16x20xf16>
}
