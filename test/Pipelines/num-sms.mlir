// RUN: hidet-opt %s --hidet-bufferize --hidet-schedule-kernels | FileCheck %s --check-prefix=H100
// RUN: hidet-opt %s --hidet-bufferize --hidet-schedule-kernels="num-sms=1" | FileCheck %s --check-prefix=ONE
// RUN: hidet-opt %s --hidet-bufferize --hidet-schedule-kernels="anchors=0" | FileCheck %s --check-prefix=NAIVE

// The pipeline's num-sms option reaches the anchor heuristic: no tile of a
// 256 x 256 output fills 132 SMs, so it gets 64 x 64 tiles (16 blocks) with
// K split 4 ways (32 K steps, 8 per slice; 8 slices would leave 4); one SM
// gets the largest tiles (128 threads, 3 cp.async stages).
// The template's shared tiles end up in dynamic shared memory
// (hidet-workgroup-allocs-to-dynamic-shared runs after the templates):
// 2 x 8 x (64 + 4) and 2 x 8 x 64 f32 tiles (A's rows padded), 8448 bytes.
// H100: %[[SMEM:.*]] = arith.constant 8448 : i32
// H100: gpu.launch blocks({{.*}}) in (%{{.*}} = %c64, {{.*}} dynamic_shared_memory_size %[[SMEM]]
// H100-NOT: memref.alloc() : memref<{{.*}}workgroup
// H100: } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 1], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, split_k = 4>}
// ONE: gpu.launch
// ONE: } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
// With anchors=0 the matmul gets the rule-based scheduler's naive kernel
// (a thread per output element, a serial K loop): the GPU reference of the
// benchmarks.
// NAIVE-NOT: hidet.schedule
// NAIVE: gpu.launch blocks({{.*}}) in (%{{.*}} = %c256, {{.*}} threads({{.*}}) in (%{{.*}} = %c256,
// NAIVE:      scf.for %{{.*}} = %c0 to %c256 step %c1 {
// NAIVE-NOT: hidet.schedule
func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>, %c: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<256x256xf32>, tensor<256x256xf32>) outs(%c : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}
