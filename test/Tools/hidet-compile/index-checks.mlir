// hidet-compile checks the tensor indices that come from data
// (hidet-check-indices, before the pipeline) and lists each status in the
// manifest as a `check` after the args: the input it checks, the extent of
// the dimension and the node; the status is one more argument after the
// outputs (and before a GPU library's workspace). --check-indices=0 leaves
// them out. A TOSA gather is checked too: tosa-to-linalg runs first.
// RUN: hidet-compile %S/../../Runtime/Inputs/embedding.mlir --target=cpu --emit=llvm -o - | FileCheck %s
// RUN: hidet-compile %S/../../Runtime/Inputs/embedding.mlir --target=cpu --check-indices=0 --emit=llvm -o - | FileCheck %s --check-prefix=OFF
// RUN: hidet-compile %S/../../Runtime/Inputs/embedding.mlir --pipeline-options=cubin-format=isa --emit=llvm -o - | FileCheck %s --check-prefix=GPU
// RUN: hidet-compile %s --from-tosa --target=cpu --emit=llvm -o - | FileCheck %s --check-prefix=TOSA
// CHECK: c"hidet-manifest 1\0Atarget cpu\0Afunc main 2 1\0Aarg 0 in i64 2x8 ids\0Aarg 1 in f32 scalar scale\0Aarg 2 out f32 2x8x4 y\0Acheck 0 16 Gather_ids\0A\00"
// CHECK: define void @_mlir_ciface_main(ptr %0, ptr %1, ptr %2, ptr %3)
// OFF: c"hidet-manifest 1\0Atarget cpu\0Afunc main 2 1\0Aarg 0 in i64 2x8 ids\0Aarg 1 in f32 scalar scale\0Aarg 2 out f32 2x8x4 y\0A\00"
// OFF: define void @_mlir_ciface_main(ptr %0, ptr %1, ptr %2)
// GPU: c"hidet-manifest 1\0Atarget gpu\0Afunc main 2 1\0Aworkspace {{[0-9]+}} {{[0-9]+}}\0Aarg 0 in i64 2x8 ids\0Aarg 1 in f32 scalar scale\0Aarg 2 out f32 2x8x4 y\0Acheck 0 16 Gather_ids\0A\00"
// GPU: define void @_mlir_ciface_main(ptr %0, ptr %1, ptr %2, ptr %3, ptr %4)
// TOSA: c"hidet-manifest 1\0Atarget cpu\0Afunc gather 2 1\0Aarg 0 in f32 1x16x4\0Aarg 1 in i32 1x8\0Aarg 2 out f32 1x8x4\0Acheck 1 16\0A\00"
func.func @gather(%values: tensor<1x16x4xf32>, %ids: tensor<1x8xi32>) -> tensor<1x8x4xf32> {
  %r = tosa.gather %values, %ids : (tensor<1x16x4xf32>, tensor<1x8xi32>) -> tensor<1x8x4xf32>
  return %r : tensor<1x8x4xf32>
}
