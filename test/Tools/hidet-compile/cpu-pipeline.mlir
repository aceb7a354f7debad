// --cpu-pipeline picks the CPU pipeline: reference (the default,
// hidet-cpu-reference-pipeline) or fast (hidet-cpu-pipeline). Both keep the
// calling convention: an input returned as it is, one value returned at
// two positions (each output its own buffer) and a constant, in order.
// Input [5, -2]; outputs [5, -2], [10, -4] twice, [7, -1, 3].
// REQUIRES: hidet-runtime
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<i4', 'fortran_order': False, 'shape': (2,),   }\n" > %t.d/h2
// RUN: printf "\x93NUMPY\x01\x00\x3c\x00{'descr': '<i4', 'fortran_order': False, 'shape': (3,),   }\n" > %t.d/h3
// RUN: cp %t.d/h2 %t.d/x.npy && printf '\x05\0\0\0\xfe\xff\xff\xff' >> %t.d/x.npy
// RUN: cp %t.d/h2 %t.d/twice.npy && printf '\x0a\0\0\0\xfc\xff\xff\xff' >> %t.d/twice.npy
// RUN: cp %t.d/h3 %t.d/c.npy && printf '\x07\0\0\0\xff\xff\xff\xff\x03\0\0\0' >> %t.d/c.npy
// RUN: hidet-compile %s --target=cpu -o %t.d/ref.so
// RUN: hidet-compile %s --target=cpu --cpu-pipeline=fast -o %t.d/fast.so
// RUN: hidet-run %t.d/ref.so --input=@%t.d/x.npy --expected-output=@%t.d/x.npy --expected-output=@%t.d/twice.npy --expected-output=@%t.d/twice.npy --expected-output=@%t.d/c.npy --ref %t.d/fast.so --reps 3 | FileCheck %s
// RUN: hidet-run %t.d/fast.so --input=@%t.d/x.npy --expected-output=@%t.d/x.npy --expected-output=@%t.d/twice.npy --expected-output=@%t.d/twice.npy --expected-output=@%t.d/c.npy --reps 3 | FileCheck %s
// CHECK: hidet-run: outputs PASS

// A pipeline other than these two, or one for a GPU library, is an error,
// and nothing is written.
// RUN: not hidet-compile %s --target=cpu --cpu-pipeline=slow -o %t.d/bad.so 2>&1 | FileCheck %s --check-prefix=NAME
// RUN: not hidet-compile %s --cpu-pipeline=fast -o %t.d/gpu.so 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: not ls %t.d/bad.so %t.d/gpu.so
// NAME: hidet-compile: --cpu-pipeline must be reference or fast, got 'slow'
// GPU: hidet-compile: --cpu-pipeline applies to CPU libraries (--target=cpu)
func.func @outputs(%x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi32>) {
  %e = tensor.empty() : tensor<2xi32>
  %twice = linalg.add ins(%x, %x : tensor<2xi32>, tensor<2xi32>) outs(%e : tensor<2xi32>) -> tensor<2xi32>
  %c = arith.constant dense<[7, -1, 3]> : tensor<3xi32>
  return %x, %twice, %twice, %c : tensor<2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<3xi32>
}
