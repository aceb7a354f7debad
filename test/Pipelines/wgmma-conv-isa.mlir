// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a wgmma-async-arrive=0" | FileCheck %s
// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a wgmma-tma-b=0 wgmma-async-arrive=0" | FileCheck %s --check-prefix=NOTMA
// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a" | FileCheck %s --check-prefix=ARRIVE

// A 3x3 NHWC convolution on the Hopper template (128 x 128 tiles, 4
// stages) through the whole GPU pipeline to PTX. The filter comes by TMA
// (here with wgmma-async-arrive=0): the host encodes one tensor map (of the filter as a 576 x
// 128 matrix), and the producer prefetches it; in each K step its threads
// copy the im2col rows with cp.async, its first thread issues the filter's
// boxes, which complete on the stage's mbarrier with their bytes, and the
// copies are committed as a group; a step's arrivals come once its group
// landed and was fenced for the async proxy, the first thread's expecting
// the boxes' bytes.
// CHECK-LABEL: llvm.func @conv(
// CHECK-COUNT-1: llvm.call @mgpuTensorMapEncodeTiledMemref(
// CHECK-NOT:     llvm.call @mgpuTensorMapEncodeTiledMemref(
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @conv_wgmma::@conv_wgmma
// CHECK:       gpu.binary @conv_wgmma
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    prefetch.tensormap
// CHECK-SAME:    cp.async.cg.shared.global
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME:    cp.async.commit_group
// CHECK-SAME:    mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME:    cp.async.wait_group \092
// CHECK-SAME:    fence.proxy.async.shared::cta

// With wgmma-tma-b=0 (and wgmma-async-arrive=0) the threads copy both
// operands: no tensor map, no bulk copy, no expected bytes.
// NOTMA-LABEL: llvm.func @conv(
// NOTMA-NOT:     mgpuTensorMapEncodeTiledMemref
// NOTMA:       gpu.binary @conv_wgmma
// NOTMA-SAME:    cp.async.cg.shared.global
// NOTMA-NOT:     cp.async.bulk.tensor
// NOTMA-NOT:     expect_tx
// By default (wgmma-async-arrive) the consumers fence a full stage for the async
// proxy before their wgmma, and the producer's threads arrive as their
// copies land (the loop rotated: a step's arrival comes first in the
// text), the first expecting the boxes' bytes before it issues them, and
// the only wait for a group is the threads' last.
// ARRIVE:       gpu.binary @conv_wgmma
// ARRIVE-SAME:    fence.proxy.async.shared::cta
// ARRIVE-SAME:    wgmma.fence.sync.aligned
// ARRIVE-SAME:    cp.async.mbarrier.arrive.noinc.shared.b64
// ARRIVE-SAME:    cp.async.cg.shared.global
// ARRIVE-SAME:    mbarrier.expect_tx.relaxed.cta.shared.b64
// ARRIVE-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// ARRIVE-NOT:     cp.async.wait_group \092
// ARRIVE-SAME:    cp.async.wait_group \090
func.func @conv(%x: memref<2x10x10x64xf16>, %w: memref<3x3x64x128xf16>, %o: memref<2x8x8x128xf16>) {
  linalg.conv_2d_nhwc_hwcf {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], stages = 4>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x10x10x64xf16>, memref<3x3x64x128xf16>) outs(%o : memref<2x8x8x128xf16>)
  return
}
