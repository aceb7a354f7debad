// Entry points need static shapes and supported element types; the error
// names the function and the type, and the tool exits non-zero.
// RUN: not hidet-compile %s --target=cpu -o %t.so 2>&1 | FileCheck %s
// RUN: not hidet-compile %s --target=tpu -o %t.so 2>&1 | FileCheck %s --check-prefix=TARGET
// CHECK: error: hidet-compile: entry points take and return statically shaped tensors of f32, f16, bf16, f64, i1, i8, i32 or i64; got 'tensor<?xf32>'
// TARGET: hidet-compile: --target must be gpu or cpu, got 'tpu'
func.func @dynamic(%a: tensor<?xf32>) -> tensor<?xf32> {
  return %a : tensor<?xf32>
}
