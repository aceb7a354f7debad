// A library that cannot be linked or written: the error names the linker
// driver or the path, the tool exits non-zero, and no library (nor its
// object file) is left behind.
// RUN: rm -rf %t && mkdir %t
// RUN: not hidet-compile %s --target=cpu --linker=hidet-no-such-driver -o %t/lib.so 2>&1 | FileCheck %s --check-prefix=LINKER
// RUN: not ls %t/lib.so %t/lib.so.o
// RUN: not hidet-compile %s --target=cpu -o %t/missing/lib.so 2>&1 | FileCheck %s --check-prefix=PATH
// LINKER: hidet-compile: cannot find the linker driver 'hidet-no-such-driver'
// PATH: hidet-compile: cannot write {{.*}}missing/lib.so: No such file or directory
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
