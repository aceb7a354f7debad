// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a" | FileCheck %s

// A tensor-core matmul with a 4-stage schedule, through the whole GPU
// pipeline to PTX: its K loop is pipelined by hidet-pipeline-shared-copies
// and its 4 x (128 x 32 + 32 x 128) f16 tiles (64 KiB) and the 4 warps'
// epilogue chunks (18 KiB), past the 48 KiB of static shared memory, live
// in dynamic shared memory (PTX's `.extern .shared` array, after any
// static variables), sized at launch.
// The PTX has 16-byte cp.async copies, three commit groups before the loop
// (the prologue), a wait until at most two groups are pending and one
// barrier per K step, ldmatrix and mma.sync, and a wait for all groups
// after the loop.
// CHECK-LABEL: llvm.func @mm(
// CHECK:         %[[SMEM:.*]] = llvm.mlir.constant(83968 : i32) : i32
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @mm_mma::@mm_mma {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK:       gpu.binary @mm_mma
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    .extern .shared .align 16 .b8 __hidet_dynamic_shared[];
// CHECK-SAME:    cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16, 16;
// CHECK-SAME:    cp.async.commit_group;
// CHECK-SAME:    cp.async.commit_group;
// CHECK-SAME:    cp.async.commit_group;
// CHECK-SAME:    $L__BB0_1:
// CHECK-SAME:    cp.async.wait_group \092;
// CHECK-SAME:    bar.sync \090;
// The copies issued ahead copy 16 bytes, or none past the last K tile.
// CHECK-SAME:    selp.b32 \09[[SRC:%r[0-9]+]], 16, 0,
// CHECK-SAME:    cp.async.cg.shared.global [{{[^]]*}}], [{{[^]]*}}], 16, [[SRC]];
// CHECK-SAME:    cp.async.commit_group;
// CHECK-SAME:    ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-SAME:    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-SAME:    cp.async.wait_group \090;
func.func @mm(%a: tensor<512x512xf16>, %b: tensor<512x512xf16>) -> tensor<512x512xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<512x512xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<512x512xf32>) -> tensor<512x512xf32>
  %r = linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 16], stages = 4>}
      ins(%a, %b : tensor<512x512xf16>, tensor<512x512xf16>) outs(%f : tensor<512x512xf32>) -> tensor<512x512xf32>
  return %r : tensor<512x512xf32>
}
