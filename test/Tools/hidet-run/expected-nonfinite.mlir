// An output with NaNs and infinities against finite expected values: the
// relative L2 error and max_abs cover the elements where both are finite,
// so the report also counts the others (nan_or_inf), and each of them is a
// mismatch. a.npy holds [[1, 2, 3], [4, 5, 6]]; the library computes
// log(a - 3): NaN at 1 and 2, -inf at 3.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/a.npy
// RUN: printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40\x00\x00\xa0\x40\x00\x00\xc0\x40' >> %t.d/a.npy
// RUN: hidet-run %t.so --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 1 --atol 10 --expected-rel-l2 10 --reps 0 > %t.d/out; test $? -eq 1
// RUN: FileCheck %s < %t.d/out
// CHECK: hidet-run: logs FAIL
// CHECK-NEXT: output 1 (f32 2x3) vs {{.*}}a.npy: rel_l2={{.*}} nan_or_inf=3 mismatches=3 of 6

func.func @logs(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %c = arith.constant 3.0 : f32
    %s = arith.subf %x, %c : f32
    %l = math.log %s : f32
    linalg.yield %l : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
