// hidet-run reads inputs and expected outputs from NumPy .npy files and
// writes outputs to them, running a CPU library without a GPU. a.npy holds
// [[1, 2, 3], [4, 5, 6]] as f32, twice.npy twice that.
// REQUIRES: hidet-runtime
// RUN: hidet-compile %s --target=cpu -o %t.so
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n" > %t.d/header
// RUN: cat %t.d/header > %t.d/a.npy
// RUN: printf '\x00\x00\x80\x3f\x00\x00\x00\x40\x00\x00\x40\x40\x00\x00\x80\x40\x00\x00\xa0\x40\x00\x00\xc0\x40' >> %t.d/a.npy
// RUN: printf '\x00\x00\x00\x40\x00\x00\x80\x40\x00\x00\xc0\x40\x00\x00\x00\x41\x00\x00\x20\x41\x00\x00\x40\x41' > %t.d/twice.data
// RUN: cat %t.d/header %t.d/twice.data > %t.d/twice.npy

// a + a is twice a: a pass (the second --input is given the other way).
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input @%t.d/a.npy --expected-output=@%t.d/twice.npy --reps 0 | FileCheck %s --check-prefix=PASS
// PASS-NOT: not verified
// PASS: hidet-run: add PASS expected_max_abs=0 (device: cpu)

// --output writes the sum with the header NumPy writes (the data aligned to
// 64 bytes), and no temporary file stays behind. Read back, it is the
// expected output exactly.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --output=@%t.d/sum.npy --reps 2 | FileCheck %s --check-prefix=TIMED
// RUN: od -An -tx1 -N10 %t.d/sum.npy | FileCheck %s --check-prefix=MAGIC
// RUN: head -c 127 %t.d/sum.npy | tail -c +11 | FileCheck %s --check-prefix=HEADER
// RUN: od -An -c -j127 -N1 %t.d/sum.npy | FileCheck %s --check-prefix=NEWLINE
// RUN: tail -c +129 %t.d/sum.npy | cmp - %t.d/twice.data
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --expected-output=@%t.d/sum.npy --rtol 0 --atol 0 --reps 0 | FileCheck %s --check-prefix=PASS
// RUN: ls -a %t.d | FileCheck %s --check-prefix=NOTEMP
// TIMED: hidet-run: add UNVERIFIED median_ms={{.*}} (device: cpu)
// MAGIC: 93 4e 55 4d 50 59 01 00 76 00
// HEADER: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// NEWLINE: \n
// NOTEMP-NOT: hidet-run-

// Compared with a itself, the sum is off: exit status 1, the worst element
// named; the outputs of a mismatch are still saved.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --output=@%t.d/off.npy --reps 0 > %t.d/off.out; test $? -eq 1
// RUN: FileCheck %s --check-prefix=OFF < %t.d/off.out
// RUN: test -f %t.d/off.npy
// OFF: hidet-run: add FAIL expected_max_abs=6 expected_mismatches=6 (device: cpu)
// OFF-NEXT: output 2 (f32 2x3) vs {{.*}}a.npy: max_abs=6 mismatches=6 of 6 beyond atol + rtol*|expected| (rtol=0.001 atol=1e-07); worst at [1, 2] (element 5): got 12, expected 6 MISMATCH

// The bound is atol + rtol*|expected|: |12 - 6| is within 0 + 1 * 6 but not
// within 0 + 0.99 * 6, nor 5.9 + 0.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 1 --atol 0 --reps 0 | FileCheck %s --check-prefix=LOOSE
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0.99 --atol 0 --reps 0 > /dev/null; test $? -eq 1
// RUN: hidet-run %t.so --input=@%t.d/a.npy --input=@%t.d/a.npy --expected-output=@%t.d/a.npy --rtol 0 --atol 5.9 --reps 0 > /dev/null; test $? -eq 1
// LOOSE: hidet-run: add PASS expected_max_abs=6 (device: cpu)

// Inputs not given are random: with the first one from a file, and with a
// reference (the same library), the run passes whatever the second holds.
// RUN: hidet-run %t.so --input=@%t.d/a.npy --ref %t.so --reps 0 | FileCheck %s --check-prefix=REF
// REF: hidet-run: add PASS rel_l2=0 max_abs=0 (device: cpu)

// A CPU-only run never opens the CUDA driver.
// RUN: env LD_DEBUG=libs hidet-run %t.so --ref %t.so --reps 1 2>&1 | FileCheck %s --check-prefix=NOCUDA --implicit-check-not=libcuda
// NOCUDA: hidet-run: add PASS

func.func @add(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.add ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>)
                  outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
