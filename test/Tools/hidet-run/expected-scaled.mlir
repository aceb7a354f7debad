// hidet-run's checks against expected files that scale with the output:
// --atol-rms k adds k times the expected output's root mean square to the
// absolute tolerance of each element, and --expected-rel-l2 bounds the
// relative L2 error of each output. a.npy holds [[1, 2, 3], [4, 5, 6]] as
// f32 (root mean square sqrt(91/6) = 3.894); the library doubles it, so
// compared with a itself the elements are off by 1 to 6 and the relative L2
// error is exactly 1.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/a.npy
// RUN: printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40\x00\x00\xa0\x40\x00\x00\xc0\x40' >> %t.d/a.npy

// 1.55 * 3.894 = 6.036 covers the difference of 6; 1.5 * 3.894 = 5.84 does
// not: one mismatch, exit status 1, the tolerance spelled out.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0 --atol 0 --atol-rms 1.55 --reps 0 --json %t.d/pass.json | FileCheck %s --check-prefix=PASS
// RUN: FileCheck %s --check-prefix=PASSJSON < %t.d/pass.json
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0 --atol 0 --atol-rms 1.5 --reps 0 > %t.d/fail.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=FAIL < %t.d/fail.out
// PASS: hidet-run: double PASS expected_max_abs=6 (device: cpu)
// PASSJSON:      "rtol": 0,
// PASSJSON-NEXT: "atol": 6.036{{[0-9]*}},
// PASSJSON-NEXT: "atol_rms": 1.55,
// PASSJSON-NEXT: "rms": 3.8944{{[0-9]*}},
// PASSJSON-NEXT: "rel_l2": 1,
// PASSJSON-NEXT: "rel_l2_bound": null,
// PASSJSON-NEXT: "max_abs": 6,
// PASSJSON-NEXT: "mismatches": 0,
// FAIL: hidet-run: double FAIL expected_max_abs=6 expected_mismatches=1 (device: cpu)
// FAIL-NEXT: output 1 (f32 2x3) vs {{.*}}a.npy: max_abs=6 mismatches=1 of 6 beyond atol + rtol*|expected| (rtol=0 atol=5.84166); worst at [1, 2] (element 5): got 12, expected 6 (atol = 0 + 1.5*rms, rms=3.89444) MISMATCH

// The scaled term adds to --atol: 0.5 + 1.4 * 3.894 = 5.95 still fails the
// last element, 0.6 + 1.4 * 3.894 = 6.05 passes.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0 --atol 0.5 --atol-rms 1.4 --reps 0 > %t.d/sum.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SUM < %t.d/sum.out
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0 --atol 0.6 --atol-rms 1.4 --reps 0 | FileCheck %s --check-prefix=PASS
// SUM: output 1 (f32 2x3) vs {{.*}}a.npy: max_abs=6 mismatches=1 of 6 beyond atol + rtol*|expected| (rtol=0 atol=5.95222); worst at [1, 2] (element 5): got 12, expected 6 (atol = 0.5 + 1.4*rms, rms=3.89444) MISMATCH

// --expected-rel-l2 fails an output whose every element is within its
// bound (rtol 1) but whose relative L2 error (1) is above it.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 1 --atol 0 --expected-rel-l2 1 --reps 0 | FileCheck %s --check-prefix=L2PASS
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 1 --atol 0 --expected-rel-l2 0.99 --reps 0 --json %t.d/l2.json > %t.d/l2.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=L2FAIL < %t.d/l2.out
// RUN: FileCheck %s --check-prefix=L2JSON < %t.d/l2.json
// L2PASS: hidet-run: double PASS expected_rel_l2=1 expected_max_abs=6 (device: cpu)
// L2FAIL: hidet-run: double FAIL expected_rel_l2=1 expected_max_abs=6 (device: cpu)
// L2FAIL-NEXT: output 1 (f32 2x3) vs {{.*}}a.npy: rel_l2=1 (bound 0.99) max_abs=6 mismatches=0 MISMATCH
// L2JSON: "status": "fail",
// L2JSON: "rel_l2": 1,
// L2JSON-NEXT: "rel_l2_bound": 0.98999{{[0-9]*}},
// L2JSON: "mismatches": 0,
// L2JSON: "pass": false

// Against the output itself, both checks pass at their tightest.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --output=@%t.d/twice.npy --reps 0
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/twice.npy --rtol 0 --atol 0 --atol-rms 0 --expected-rel-l2 0 --reps 0 | FileCheck %s --check-prefix=SELF
// SELF: hidet-run: double PASS expected_rel_l2=0 expected_max_abs=0 (device: cpu)

func.func @double(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %a : tensor<2x3xf32>, tensor<2x3xf32>)
                  outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
