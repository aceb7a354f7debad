// Elementwise chain in f16 with the arithmetic in f32 (extf/truncf), vectorized (1024 divides by 8).
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so | FileCheck %s
// CHECK: PASS

func.func @elementwise_chain_f16(%a: tensor<512x1024xf16>, %b: tensor<512x1024xf16>) -> tensor<512x1024xf16> {
  %e = tensor.empty() : tensor<512x1024xf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<512x1024xf16>, tensor<512x1024xf16>) outs(%e : tensor<512x1024xf16>) {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %xf = arith.extf %x : f16 to f32
    %yf = arith.extf %y : f16 to f32
    %s = arith.mulf %xf, %yf : f32
    %t = math.exp %s : f32
    %r = arith.truncf %t : f32 to f16
    linalg.yield %r : f16
  } -> tensor<512x1024xf16>
  return %r : tensor<512x1024xf16>
}
