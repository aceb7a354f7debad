// bf16 tanh as hidet-narrow-math computes it, by default (tanh.approx.f32)
// and with exp2-tanh (exp2 and reciprocal in f32, x itself for
// |x| < 2^-7), against the CPU's libm tanhf rounded to bf16: every element
// within one bf16 ulp of [0.5, 1) (2^-8). `wide` covers [-6, 6) (saturation
// included), `narrow` [-1/64, 1/64) around the switch between the two forms
// of exp2-tanh; the shape is ragged.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --max-abs 0.004 --rtol-l2 1e-3 | FileCheck %s
// RUN: hidet-compile %s -o %t.exp2.gpu.so --runtime-dir=%hidet_libs --pipeline-options=exp2-tanh=1
// RUN: hidet-run %t.exp2.gpu.so --ref %t.cpu.so --max-abs 0.004 --rtol-l2 1e-3 | FileCheck %s
// CHECK-COUNT-2: PASS

#id = affine_map<(i, j) -> (i, j)>
func.func @tanh_bf16_wide(%a: tensor<333x257xbf16>) -> tensor<333x257xbf16> {
  %k = arith.constant 6.0 : bf16
  %e = tensor.empty() : tensor<333x257xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<333x257xbf16>) outs(%e : tensor<333x257xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.mulf %x, %k : bf16
    %t = math.tanh %s : bf16
    linalg.yield %t : bf16
  } -> tensor<333x257xbf16>
  return %r : tensor<333x257xbf16>
}

func.func @tanh_bf16_narrow(%a: tensor<333x257xbf16>) -> tensor<333x257xbf16> {
  %k = arith.constant 0.015625 : bf16
  %e = tensor.empty() : tensor<333x257xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<333x257xbf16>) outs(%e : tensor<333x257xbf16>) {
  ^bb0(%x: bf16, %o: bf16):
    %s = arith.mulf %x, %k : bf16
    %t = math.tanh %s : bf16
    linalg.yield %t : bf16
  } -> tensor<333x257xbf16>
  return %r : tensor<333x257xbf16>
}
