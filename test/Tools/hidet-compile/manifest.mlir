// hidet-compile describes every public function in `hidet_manifest`
// (the target, then inputs and the results turned into output buffers) and
// exposes each through a C interface and a packed entry point that takes
// the descriptor pointers as an array.
// RUN: hidet-compile %s --target=cpu --emit=llvm -o - | FileCheck %s
// CHECK-DAG: @hidet_manifest = constant [{{[0-9]+}} x i8] c"hidet-manifest 1\0Atarget cpu\0Afunc two_outputs 2 2\0Aarg 0 in f16 4x8\0Aarg 1 in f32 scalar\0Aarg 2 out f16 4x8\0Aarg 3 out i32 8\0A\00"
// CHECK-DAG: define void @_mlir_ciface_two_outputs(ptr {{.*}}, ptr {{.*}}, ptr {{.*}}, ptr {{.*}})
// CHECK-NOT: _mlir_ciface_private_helper
// CHECK-NOT: _hidet_packed_private_helper

// The packed entry loads args[0..3] and passes them on, in order.
// CHECK-LABEL: define void @_hidet_packed_two_outputs(ptr %args)
// CHECK-NEXT:  entry:
// CHECK-NEXT:    %[[S0:.+]] = getelementptr inbounds ptr, ptr %args, i64 0
// CHECK-NEXT:    %[[A0:.+]] = load ptr, ptr %[[S0]]
// CHECK-NEXT:    %[[S1:.+]] = getelementptr inbounds ptr, ptr %args, i64 1
// CHECK-NEXT:    %[[A1:.+]] = load ptr, ptr %[[S1]]
// CHECK-NEXT:    %[[S2:.+]] = getelementptr inbounds ptr, ptr %args, i64 2
// CHECK-NEXT:    %[[A2:.+]] = load ptr, ptr %[[S2]]
// CHECK-NEXT:    %[[S3:.+]] = getelementptr inbounds ptr, ptr %args, i64 3
// CHECK-NEXT:    %[[A3:.+]] = load ptr, ptr %[[S3]]
// CHECK-NEXT:    call void @_mlir_ciface_two_outputs(ptr %[[A0]], ptr %[[A1]], ptr %[[A2]], ptr %[[A3]])
// CHECK-NEXT:    ret void

// RUN: hidet-compile %s --emit=llvm --pipeline-options=cubin-format=isa -o - | FileCheck %s --check-prefix=GPU
// GPU: c"hidet-manifest 1\0Atarget gpu\0Afunc two_outputs 2 2\0A
func.func @two_outputs(%a: tensor<4x8xf16>, %s: tensor<f32>) -> (tensor<4x8xf16>, tensor<8xi32>) {
  %c = arith.constant dense<7> : tensor<8xi32>
  return %a, %c : tensor<4x8xf16>, tensor<8xi32>
}
func.func private @private_helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
