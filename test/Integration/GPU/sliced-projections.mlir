// Query, key and value projections as one GEMM and one bias add whose
// result is split three ways, each part viewed as heads and transposed
// (GPT-2's attention input), each part 2^20 elements. hidet-slice-producers
// computes each part by a GEMM of its own on a column slice of the weight, which the Hopper template
// loads with TMA from the slice's offset; the bias and the query and value
// head transposes fuse into those GEMMs. Checked against the CPU build on
// random inputs.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --reps 0 | FileCheck %s
// CHECK: qkv PASS

#bias = affine_map<(d0, d1, d2) -> (d2)>
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @qkv(%x: tensor<8192x128xf16>, %w: tensor<128x384xf16>, %bias: tensor<384xf16>)
    -> (tensor<64x2x128x64xf16>, tensor<64x2x64x128xf16>, tensor<64x2x128x64xf16>) {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<8192x384xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8192x384xf16>) -> tensor<8192x384xf16>
  %m = linalg.matmul ins(%x, %w : tensor<8192x128xf16>, tensor<128x384xf16>) outs(%f : tensor<8192x384xf16>) -> tensor<8192x384xf16>
  %v = tensor.expand_shape %m [[0, 1], [2]] output_shape [64, 128, 384] : tensor<8192x384xf16> into tensor<64x128x384xf16>
  %e2 = tensor.empty() : tensor<64x128x384xf16>
  %b = linalg.generic {indexing_maps = [#bias, #id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%bias, %v : tensor<384xf16>, tensor<64x128x384xf16>) outs(%e2 : tensor<64x128x384xf16>) {
  ^bb0(%p: f16, %q: f16, %o: f16):
    %s = arith.addf %p, %q : f16
    linalg.yield %s : f16
  } -> tensor<64x128x384xf16>
  %q = tensor.extract_slice %b[0, 0, 0] [64, 128, 128] [1, 1, 1] : tensor<64x128x384xf16> to tensor<64x128x128xf16>
  %k = tensor.extract_slice %b[0, 0, 128] [64, 128, 128] [1, 1, 1] : tensor<64x128x384xf16> to tensor<64x128x128xf16>
  %vv = tensor.extract_slice %b[0, 0, 256] [64, 128, 128] [1, 1, 1] : tensor<64x128x384xf16> to tensor<64x128x128xf16>
  %qh = tensor.expand_shape %q [[0], [1], [2, 3]] output_shape [64, 128, 2, 64] : tensor<64x128x128xf16> into tensor<64x128x2x64xf16>
  %kh = tensor.expand_shape %k [[0], [1], [2, 3]] output_shape [64, 128, 2, 64] : tensor<64x128x128xf16> into tensor<64x128x2x64xf16>
  %vh = tensor.expand_shape %vv [[0], [1], [2, 3]] output_shape [64, 128, 2, 64] : tensor<64x128x128xf16> into tensor<64x128x2x64xf16>
  %eq = tensor.empty() : tensor<64x2x128x64xf16>
  %qt = linalg.transpose ins(%qh : tensor<64x128x2x64xf16>) outs(%eq : tensor<64x2x128x64xf16>) permutation = [0, 2, 1, 3]
  %ek = tensor.empty() : tensor<64x2x64x128xf16>
  %kt = linalg.transpose ins(%kh : tensor<64x128x2x64xf16>) outs(%ek : tensor<64x2x64x128xf16>) permutation = [0, 2, 3, 1]
  %ev = tensor.empty() : tensor<64x2x128x64xf16>
  %vt = linalg.transpose ins(%vh : tensor<64x128x2x64xf16>) outs(%ev : tensor<64x2x128x64xf16>) permutation = [0, 2, 1, 3]
  return %qt, %kt, %vt : tensor<64x2x128x64xf16>, tensor<64x2x64x128xf16>, tensor<64x2x128x64xf16>
}
