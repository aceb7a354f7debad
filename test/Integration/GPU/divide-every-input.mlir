// 16-bit division as hidet-narrow-math computes it (div.full.f32 between
// the conversions) against the CPU's correctly rounded division, on every
// f16 and bf16 value x: x / y with y another value of the type picked from
// x's bits (the bits times an odd constant), and x / 1.414 (BERT's GELU)
// for f16. Every finite result within 1 ulp (non-finite results give 0, to
// keep the comparison finite). The input is unused: element i works on the
// value whose bits are i. The log records how many results differ.
// REQUIRES: cuda
// RUN: hidet-compile %s -o %t.gpu.so --runtime-dir=%hidet_libs
// RUN: hidet-compile %s --target=cpu -o %t.cpu.so
// RUN: hidet-run %t.gpu.so --ref %t.cpu.so --max-ulp 1 --reps 0 | FileCheck %s
// CHECK-DAG: divide_every_f16 PASS {{.*}} max_ulp={{[01]}} ulp_mismatches=
// CHECK-DAG: divide_every_bf16 PASS {{.*}} max_ulp={{[01]}} ulp_mismatches=
// CHECK-DAG: divide_every_f16_by_constant PASS {{.*}} max_ulp={{[01]}} ulp_mismatches=

#id = affine_map<(i) -> (i)>
func.func @divide_every_f16(%unused: tensor<65536xi32>) -> tensor<65536xf16> {
  %zero = arith.constant 0.0 : f16
  %odd = arith.constant 40503 : i16
  %e = tensor.empty() : tensor<65536xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%unused : tensor<65536xi32>) outs(%e : tensor<65536xf16>) {
  ^bb0(%u: i32, %o: f16):
    %i = linalg.index 0 : index
    %bits = arith.index_cast %i : index to i16
    %x = arith.bitcast %bits : i16 to f16
    %ybits = arith.muli %bits, %odd : i16
    %y = arith.bitcast %ybits : i16 to f16
    %q = arith.divf %x, %y : f16
    %d = arith.subf %q, %q : f16
    %finite = arith.cmpf oeq, %d, %zero : f16
    %s = arith.select %finite, %q, %zero : f16
    linalg.yield %s : f16
  } -> tensor<65536xf16>
  return %r : tensor<65536xf16>
}

func.func @divide_every_bf16(%unused: tensor<65536xi32>) -> tensor<65536xbf16> {
  %zero = arith.constant 0.0 : bf16
  %odd = arith.constant 40503 : i16
  %e = tensor.empty() : tensor<65536xbf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%unused : tensor<65536xi32>) outs(%e : tensor<65536xbf16>) {
  ^bb0(%u: i32, %o: bf16):
    %i = linalg.index 0 : index
    %bits = arith.index_cast %i : index to i16
    %x = arith.bitcast %bits : i16 to bf16
    %ybits = arith.muli %bits, %odd : i16
    %y = arith.bitcast %ybits : i16 to bf16
    %q = arith.divf %x, %y : bf16
    %d = arith.subf %q, %q : bf16
    %finite = arith.cmpf oeq, %d, %zero : bf16
    %s = arith.select %finite, %q, %zero : bf16
    linalg.yield %s : bf16
  } -> tensor<65536xbf16>
  return %r : tensor<65536xbf16>
}

func.func @divide_every_f16_by_constant(%unused: tensor<65536xi32>) -> tensor<65536xf16> {
  %zero = arith.constant 0.0 : f16
  %c = arith.constant 1.414060e+00 : f16
  %e = tensor.empty() : tensor<65536xf16>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%unused : tensor<65536xi32>) outs(%e : tensor<65536xf16>) {
  ^bb0(%u: i32, %o: f16):
    %i = linalg.index 0 : index
    %bits = arith.index_cast %i : index to i16
    %x = arith.bitcast %bits : i16 to f16
    %q = arith.divf %x, %c : f16
    %d = arith.subf %q, %q : f16
    %finite = arith.cmpf oeq, %d, %zero : f16
    %s = arith.select %finite, %q, %zero : f16
    linalg.yield %s : f16
  } -> tensor<65536xf16>
  return %r : tensor<65536xf16>
}
