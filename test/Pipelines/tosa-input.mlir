// RUN: hidet-opt %s --hidet-gpu-pipeline="from-tosa=1 cubin-format=isa" | FileCheck %s
// RUN: hidet-opt %s --hidet-cpu-pipeline="from-tosa=1" | FileCheck %s --check-prefix=CPU

// A model exported through TOSA (add, then a reduce_sum over the last axis;
// one kernel: add + fill + reduce as one row group, which writes the
// 64x1 output through its collapsed view, hidet-results-in-place)
// goes through upstream tosa-to-linalg and then the same GPU pipeline.
// CHECK-LABEL: llvm.func @tosa_add_reduce(
// CHECK:       gpu.launch_func
// CHECK-NOT:     gpu.launch_func
// CHECK:       gpu.binary {{.*}}shfl.sync.bfly
// CPU-LABEL: llvm.func @tosa_add_reduce(
// CPU-NOT: gpu.
func.func @tosa_add_reduce(%a: tensor<64x256xf32>, %b: tensor<64x256xf32>) -> tensor<64x1xf32> {
  %s = tosa.add %a, %b : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
  %r = tosa.reduce_sum %s {axis = 1 : i32} : (tensor<64x256xf32>) -> tensor<64x1xf32>
  return %r : tensor<64x1xf32>
}
