// hidet-compile describes every public function in `hidet_manifest`
// (inputs, then the results turned into output buffers) and exposes each
// through a C interface.
// RUN: hidet-compile %s --target=cpu --emit=llvm -o - | FileCheck %s
// CHECK-DAG: @hidet_manifest = constant [{{[0-9]+}} x i8] c"hidet-manifest 1\0Afunc two_outputs 2 2\0Aarg 0 in f16 4x8\0Aarg 1 in f32 scalar\0Aarg 2 out f16 4x8\0Aarg 3 out i32 8\0A\00"
// CHECK-DAG: define void @_mlir_ciface_two_outputs(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// CHECK-NOT: _mlir_ciface_private_helper
func.func @two_outputs(%a: tensor<4x8xf16>, %s: tensor<f32>) -> (tensor<4x8xf16>, tensor<8xi32>) {
  %c = arith.constant dense<7> : tensor<8xi32>
  return %a, %c : tensor<4x8xf16>, tensor<8xi32>
}
func.func private @private_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
