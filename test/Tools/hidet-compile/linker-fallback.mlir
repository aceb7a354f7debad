// Where no `cc` is on PATH (a machine with clang but without gcc),
// hidet-compile links with the clang of the LLVM it was built with; the
// library runs. A linker named with --linker is not replaced.
// REQUIRES: hidet-runtime
// RUN: rm -rf %t && mkdir -p %t/bin
// RUN: ln -s "$(command -v ld)" %t/bin/ld
// RUN: env PATH=%t/bin hidet-compile %s --target=cpu -o %t/lib.so
// RUN: hidet-run %t/lib.so --ref %t/lib.so --reps 0 | FileCheck %s
// RUN: not env PATH=%t/bin hidet-compile %s --target=cpu --linker=cc -o %t/cc.so 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: test ! -e %t/cc.so
// CHECK: hidet-run: add PASS
// NAMED: hidet-compile: cannot find the linker driver 'cc'
func.func @add(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
