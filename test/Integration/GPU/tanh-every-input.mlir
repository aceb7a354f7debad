// 16-bit tanh on every f16 and bf16 value, as hidet-narrow-math computes it
// by default (tanh.approx.f32) and with exp2-tanh, against the CPU's libm
// tanhf rounded to the type: every finite input's result within 1 ulp of
// the reference (NaN and infinite inputs give 0, to keep the comparison
// finite). The input is unused: element i is tanh of the value whose bits
// are i. The log records how many results differ.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --max-ulp 1 --reps 0 | FileCheck %s
// RUN: hidet-compile %s -o %t.exp2.gpu.so --runtime-dir=%hidet_libs --pipeline-options=exp2-tanh=1
// RUN: hidet-run %t.exp2.gpu.so --ref %t.cpu.so --max-ulp 1 --reps 0 | FileCheck %s
// CHECK: tanh_every_f16 PASS {{.*}} max_ulp={{[01]}} ulp_mismatches=
// CHECK: tanh_every_bf16 PASS {{.*}} max_ulp={{[01]}} ulp_mismatches=

#id = affine_map<(i) -> (i)>
func.func @tanh_every_f16(%unused: tensor<65536xi32>) -> tensor<65536xf16> {
  %zero = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<65536xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%unused : tensor<65536xi32>) outs(%e : tensor<65536xf16>) {
  ^bb0(%u: i32, %o: f16):
    %i = linalg.index 0 : index
    %bits = arith.index_cast %i : index to i16
    %x = arith.bitcast %bits : i16 to f16
    %t = math.tanh %x : f16
    %d = arith.subf %x, %x : f16
    %finite = arith.cmpf oeq, %d, %zero : f16
    %y = arith.select %finite, %t, %zero : f16
    linalg.yield %y : f16
  } -> tensor<65536xf16>
  return %r : tensor<65536xf16>
}

func.func @tanh_every_bf16(%unused: tensor<65536xi32>) -> tensor<65536xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<65536xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%unused : tensor<65536xi32>) outs(%e : tensor<65536xbf16>) {
  ^bb0(%u: i32, %o: bf16):
    %i = linalg.index 0 : index
    %bits = arith.index_cast %i : index to i16
    %x = arith.bitcast %bits : i16 to bf16
    %t = math.tanh %x : bf16
    %d = arith.subf %x, %x : bf16
    %finite = arith.cmpf oeq, %d, %zero : bf16
    %y = arith.select %finite, %t, %zero : bf16
    linalg.yield %y : bf16
  } -> tensor<65536xbf16>
  return %r : tensor<65536xbf16>
}
