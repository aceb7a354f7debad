// hidet-run --ref checks every element, |out - ref| <= atol + rtol*|ref|,
// as well as the relative L2 error, with bounds from the output dtype's
// precision (atol a multiple of the reference's RMS). Here a CPU library is
// checked against another, the functions of this file: results computed in
// another order or with 16-bit partial sums (Inputs/ref-check-reordered.mlir)
// pass on every input distribution; one wrong element, a wrong tile edge, a
// sign error at zero, a softmax without its maximum and NaN or infinite
// elements (Inputs/ref-check-wrong.mlir) fail, the first two with a relative
// L2 error below its bound.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.ref.so
// RUN: hidet-compile %S/Inputs/ref-check-reordered.mlir --target=cpu -o %t.reordered.so
// RUN: hidet-compile %S/Inputs/ref-check-wrong.mlir --target=cpu -o %t.wrong.so

// Another order passes, whatever the inputs.
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 | FileCheck %s --check-prefix=ORDER
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --input-dist=normal | FileCheck %s --check-prefix=ORDER
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --input-dist=sparse | FileCheck %s --check-prefix=ORDER
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --input-dist=zeros-and-ones | FileCheck %s --check-prefix=ORDER
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --input-dist=wide | FileCheck %s --check-prefix=ORDER
// ORDER: hidet-run: rowsum_f32 PASS
// ORDER: hidet-run: matmul_f16 PASS
// ORDER: hidet-run: tile_bf16 PASS
// ORDER: hidet-run: sign_f32 PASS
// ORDER: hidet-run: softmax_f32 PASS

// The absolute term grows with the length of the sums: a blocked sum of
// 4096 terms is not within the bound of sums of one term.
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --func rowsum_f32 --reduction-length 4096 | FileCheck %s --check-prefix=ROWSUM
// RUN: hidet-run %t.reordered.so --ref %t.ref.so --reps 0 --func rowsum_f32 --reduction-length 1 > %t.short.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SHORT < %t.short.out
// ROWSUM: hidet-run: rowsum_f32 PASS
// SHORT: hidet-run: rowsum_f32 FAIL rel_l2={{[0-9.]+e-0[67]}} max_abs={{.*}} mismatches={{[1-9][0-9]*}} (device: cpu)
// SHORT-NEXT: output 1 (f32 64): rel_l2={{.*}} (bound 1e-05) {{.*}} beyond atol + rtol*|ref| (rtol=7.2e-07 atol={{.*}}); worst at [{{[0-9]+}}] (element {{[0-9]+}}): got {{.*}}, ref {{.*}} MISMATCH

// One element of an f16 product off by 0.5 (a tenth of the output's RMS):
// the relative L2 error is below a half of its bound, the element fails.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func matmul_f16 --json %t.one.json > %t.one.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ONE < %t.one.out
// RUN: FileCheck %s --check-prefix=ONEJSON < %t.one.json
// ONE: hidet-run: matmul_f16 FAIL rel_l2={{0\.000[0-9]+}} max_abs=0.5 mismatches=1 (device: cpu)
// ONE-NEXT: output 2 (f16 128x128): rel_l2={{0\.000[0-9]+}} (bound 0.002) max_abs=0.5 max_ulp={{[0-9]+}} ulp_mismatches=1 mismatches=1 of 16384 beyond atol + rtol*|ref| (rtol=0.002 atol=0.011); worst at [77, 5] (element 9861): got {{.*}}, ref {{.*}} MISMATCH
// ONEJSON:      "elements": {
// ONEJSON-NEXT:   "rtol": 0.0019536{{[0-9]*}},
// ONEJSON-NEXT:   "atol": 0.01{{[0-9]+}},
// ONEJSON-NEXT:   "atol_rms": 0.0019989{{[0-9]*}},
// ONEJSON-NEXT:   "ref_rms": 5.{{[0-9]+}},
// ONEJSON-NEXT:   "mismatches": 1,
// ONEJSON-NEXT:   "worst": {
// ONEJSON-NEXT:     "element": 9861,
// ONEJSON-NEXT:     "index": "[77, 5]",
// ONEJSON-NEXT:     "got": {{.*}},
// ONEJSON-NEXT:     "ref": {{.*}},
// ONEJSON-NEXT:     "of_bound": {{[0-9.]+}}
// ONEJSON-NEXT:   }
// ONEJSON-NEXT: },
// ONEJSON:      "pass": false

// Bounds given: an absolute atol of 0.6, or 0.1 of the RMS, lets it pass.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func matmul_f16 --ref-atol 0.6 | FileCheck %s --check-prefix=LOOSE
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func matmul_f16 --ref-atol-rms 0.1 | FileCheck %s --check-prefix=LOOSE
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func matmul_f16 --ref-atol-rms 0.05 > /dev/null; test $? -eq 1
// LOOSE: hidet-run: matmul_f16 PASS

// The last column of the last 64-row tile of a bf16 product misses the last
// 64 of its 512 terms: 64 of 262144 elements (2.4e-4), a relative L2 error
// a third of its bound; most of the 64 fail.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func tile_bf16 > %t.edge.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=EDGE < %t.edge.out
// EDGE: hidet-run: tile_bf16 FAIL rel_l2={{0\.00[0-9]+}} max_abs={{.*}} mismatches={{[4-6][0-9]}} (device: cpu)
// EDGE-NEXT: output 2 (bf16 256x1024): rel_l2={{0\.00[0-9]+}} (bound 0.016) {{.*}} mismatches={{[4-6][0-9]}} of 262144 beyond atol + rtol*|ref| (rtol=0.016 atol={{.*}}); worst at [{{19[2-9]|2[0-5][0-9]}}, 1023]

// sign(x) that gives 1 at 0: inputs that are never 0 cannot see it.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func sign_f32 | FileCheck %s --check-prefix=SIGNPASS
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func sign_f32 --input-dist=zeros-and-ones > %t.sign.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SIGN < %t.sign.out
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func sign_f32 --input-dist=sparse > /dev/null; test $? -eq 1
// SIGNPASS: hidet-run: sign_f32 PASS
// SIGN: hidet-run: sign_f32 FAIL rel_l2={{.*}} max_abs=1 mismatches={{[1-9][0-9]+}} (device: cpu)
// SIGN-NEXT: output 1 (f32 1024): {{.*}} got 1, ref 0 MISMATCH

// A softmax that does not subtract its rows' maximum: right on inputs in
// (-1, 1), infinities over infinities (NaN) on wide ones.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func softmax_f32 | FileCheck %s --check-prefix=SOFTPASS
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func softmax_f32 --input-dist=wide > %t.soft.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SOFT < %t.soft.out
// SOFTPASS: hidet-run: softmax_f32 PASS
// SOFT: hidet-run: softmax_f32 FAIL {{.*}} gpu_nan_or_inf={{[1-9][0-9]*}} (device: cpu)

// A NaN and an infinity among the sums: each fails, counted and named.
// RUN: hidet-run %t.wrong.so --ref %t.ref.so --reps 0 --func rowsum_f32 > %t.nan.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=NAN < %t.nan.out
// NAN: hidet-run: rowsum_f32 FAIL rel_l2={{.*}} mismatches=2 gpu_nan_or_inf=2 (device: cpu)
// NAN-NEXT: output 1 (f32 64): {{.*}} gpu_nan_or_inf=2 mismatches=2 of 64 {{.*}}; worst at [3] (element 3): got inf, ref {{.*}} MISMATCH

// A reference with NaN checks nothing there: the library against itself
// fails.
// RUN: hidet-run %t.wrong.so --ref %t.wrong.so --reps 0 --func rowsum_f32 > %t.self.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SELF < %t.self.out
// SELF: output 1 (f32 64): {{.*}} gpu_nan_or_inf=2 ref_nan_or_inf=2 mismatches=0 {{.*}} MISMATCH

#id2 = affine_map<(i, j) -> (i, j)>
#id1 = affine_map<(i) -> (i)>

func.func @rowsum_f32(%a: tensor<64x4096xf32>) -> tensor<64xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64xf32>) -> tensor<64xf32>
  %r = linalg.reduce ins(%a : tensor<64x4096xf32>) outs(%f : tensor<64xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<64xf32>
}

// f16 operands, f32 sums, the result rounded once.
func.func @matmul_f16(%a: tensor<128x256xf16>, %b: tensor<256x128xf16>) -> tensor<128x128xf16> {
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<128x256xf32>
  %a32 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<128x256xf16>) outs(%ea : tensor<128x256xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<128x256xf32>
  %eb = tensor.empty() : tensor<256x128xf32>
  %b32 = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<256x128xf16>) outs(%eb : tensor<256x128xf32>) {
  ^bb0(%x: f16, %o: f32):
    %y = arith.extf %x : f16 to f32
    linalg.yield %y : f32
  } -> tensor<256x128xf32>
  %ec = tensor.empty() : tensor<128x128xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<128x128xf32>) -> tensor<128x128xf32>
  %c = linalg.matmul ins(%a32, %b32 : tensor<128x256xf32>, tensor<256x128xf32>) outs(%fc : tensor<128x128xf32>) -> tensor<128x128xf32>
  %eh = tensor.empty() : tensor<128x128xf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<128x128xf32>) outs(%eh : tensor<128x128xf16>) {
  ^bb0(%x: f32, %o: f16):
    %y = arith.truncf %x : f32 to f16
    linalg.yield %y : f16
  } -> tensor<128x128xf16>
  return %h : tensor<128x128xf16>
}

// bf16 operands, f32 sums, the result rounded once.
func.func @tile_bf16(%a: tensor<256x512xbf16>, %b: tensor<512x1024xbf16>) -> tensor<256x1024xbf16> {
  %z = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<256x1024xf32>
  %fc = linalg.fill ins(%z : f32) outs(%ec : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %c = linalg.matmul ins(%a, %b : tensor<256x512xbf16>, tensor<512x1024xbf16>) outs(%fc : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %eh = tensor.empty() : tensor<256x1024xbf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : tensor<256x1024xf32>) outs(%eh : tensor<256x1024xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<256x1024xbf16>
  return %h : tensor<256x1024xbf16>
}

// 1 above 0, -1 below, 0 at 0.
func.func @sign_f32(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = tensor.empty() : tensor<1024xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : tensor<1024xf32>) outs(%e : tensor<1024xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %one = arith.constant 1.0 : f32
    %minus = arith.constant -1.0 : f32
    %pos = arith.cmpf ogt, %x, %zero : f32
    %neg = arith.cmpf olt, %x, %zero : f32
    %n = arith.select %neg, %minus, %zero : f32
    %y = arith.select %pos, %one, %n : f32
    linalg.yield %y : f32
  } -> tensor<1024xf32>
  return %r : tensor<1024xf32>
}

func.func @softmax_f32(%a: tensor<64x333xf32>) -> tensor<64x333xf32> {
  %e = tensor.empty() : tensor<64x333xf32>
  %r = linalg.softmax dimension(1) ins(%a : tensor<64x333xf32>) outs(%e : tensor<64x333xf32>) -> tensor<64x333xf32>
  return %r : tensor<64x333xf32>
}
