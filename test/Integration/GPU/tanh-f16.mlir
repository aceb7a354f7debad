// 16-bit tanh as hidet-narrow-math computes it, by default (tanh.approx.f32)
// and with exp2-tanh (exp2 and reciprocal in f32, x itself for
// |x| < 2^-7), against the CPU's libm tanhf rounded to f16: every element
// within one f16 ulp of [0.5, 1) (2^-11). `wide` covers [-6, 6) (saturation
// included), `narrow` [-1/64, 1/64) around the switch between the two forms
// of exp2-tanh; the shape is ragged.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --max-abs 0.0005 --rtol-l2 1e-4 | FileCheck %s
// RUN: hidet-compile %s -o %t.exp2.gpu.so --runtime-dir=%hidet_libs --pipeline-options=exp2-tanh=1
// RUN: hidet-run %t.exp2.gpu.so --ref %t.cpu.so --max-abs 0.0005 --rtol-l2 1e-4 | FileCheck %s
// CHECK-COUNT-2: PASS

#id = affine_map<(i, j) -> (i, j)>
func.func @tanh_f16_wide(%a: tensor<333x257xf16>) -> tensor<333x257xf16> {
  %k = arith.constant 6.0 : f16
  %e = tensor.empty() : tensor<333x257xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<333x257xf16>) outs(%e : tensor<333x257xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.mulf %x, %k : f16
    %t = math.tanh %s : f16
    linalg.yield %t : f16
  } -> tensor<333x257xf16>
  return %r : tensor<333x257xf16>
}

func.func @tanh_f16_narrow(%a: tensor<333x257xf16>) -> tensor<333x257xf16> {
  %k = arith.constant 0.015625 : f16
  %e = tensor.empty() : tensor<333x257xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<333x257xf16>) outs(%e : tensor<333x257xf16>) {
  ^bb0(%x: f16, %o: f16):
    %s = arith.mulf %x, %k : f16
    %t = math.tanh %s : f16
    linalg.yield %t : f16
  } -> tensor<333x257xf16>
  return %r : tensor<333x257xf16>
}
