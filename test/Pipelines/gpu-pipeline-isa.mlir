// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a fuse-rows=0" | FileCheck %s
// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a" | FileCheck %s --check-prefix=FUSED
// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_80 features=+ptx80 vector-bytes=4" | FileCheck %s --check-prefix=SM80

// The whole GPU pipeline, from linalg on tensors to host code in the LLVM
// dialect and a gpu.binary holding PTX (format isa needs no ptxas).
// The bias add runs as 16-byte vector accesses; the row sum as warp
// shuffles; the host function takes its output as an argument (destination
// passing) and exposes a C interface.

// Without row groups: two kernels (bias+tanh, and the row sum, which starts
// from the fill's constant instead of running the fill), launched
// asynchronously on one stream that the host function creates and
// synchronizes. With them (the default), one kernel does all three ops.
// Each kernel is named after the rule that built it and the name its op
// carries (sanitized, the first of a fused location), else after the
// function.
// FUSED-LABEL: llvm.func @bias_gelu_rowsum(
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT:     gpu.launch_func
// FUSED:       gpu.binary @row_group_Tanh_3 {{.*}}.entry row_group_Tanh_3({{.*}}ld.global.v4.b32{{.*}}shfl.sync.bfly.b32
// CHECK-LABEL: llvm.func @bias_gelu_rowsum(
// CHECK:         llvm.call @mgpuStreamCreate()
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @injective_Tanh_3::@injective_Tanh_3
// CHECK-NOT:     gpu.launch_func
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @reduce_rows_encoder_row_sum_0::@reduce_rows_encoder_row_sum_0
// CHECK-NOT:     gpu.launch_func
// CHECK:         llvm.call @mgpuStreamSynchronize
// CHECK-LABEL: llvm.func @_mlir_ciface_bias_gelu_rowsum(
// CHECK:       gpu.binary @injective_Tanh_3
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    ld.global.v4.b32
// CHECK-SAME:    st.global.v4.b32
// CHECK-NOT:   gpu.binary @bias_gelu_rowsum_injective
// CHECK:       gpu.binary @reduce_rows_encoder_row_sum_0
// CHECK-SAME:    shfl.sync.bfly.b32
// SM80:        gpu.binary @row_group_Tanh_3
// SM80-SAME:     .target sm_80
// SM80-NOT:      ld.global.v4
#id = affine_map<(i, j) -> (i, j)>
func.func @bias_gelu_rowsum(%a: tensor<256x1024xf32>, %b: tensor<1024xf32>) -> tensor<256xf32>
    attributes {llvm.emit_c_interface} {
  %e = tensor.empty() : tensor<256x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<256x1024xf32>, tensor<1024xf32>) outs(%e : tensor<256x1024xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    %t = math.tanh %s : f32
    linalg.yield %t : f32
  } -> tensor<256x1024xf32> loc("Tanh_3")
  %z = arith.constant 0.0 : f32
  %e2 = tensor.empty() : tensor<256xf32>
  %f = linalg.fill ins(%z : f32) outs(%e2 : tensor<256xf32>) -> tensor<256xf32>
  %r = linalg.reduce ins(%y : tensor<256x1024xf32>) outs(%f : tensor<256xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    } loc(fused["/encoder/row.sum:0", "ReduceSum_7"])
  return %r : tensor<256xf32>
}
