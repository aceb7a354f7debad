// RUN: hidet-opt %s --hidet-gpu-pipeline="cubin-format=isa chip=sm_90a" | FileCheck %s

// A bf16 GEMM with the Hopper template (128 x 256 tiles, 4 stages) through
// the whole GPU pipeline to PTX. The host encodes two tensor maps through
// the runtime and launches with 4 x 48 KiB of stages, 2 x 2 epilogue chunks
// of 5 KiB and 1 KiB of alignment slack; PTX declares the dynamic shared
// memory `.extern`, so that it starts after the static mbarriers instead of
// over them. The warpgroups rebalance their
// registers (setmaxnreg). The kernel initializes a full and an
// empty mbarrier per stage and fences the initialization; the consumer
// warpgroups wait on the full one, run 4 wgmma m64n256k16 per K tile
// between a fence and a commit, keep one group in flight, release the
// previous stage on its empty mbarrier, and after the loop wait for all
// groups and store C chunk by chunk, each warp between warp barriers. The
// producer prefetches
// the tensor maps, waits for a free stage, expects its bytes and issues one
// TMA load of A and four of B.
// CHECK-LABEL: llvm.func @mm(
// CHECK:         %[[SMEM:.*]] = llvm.mlir.constant(218112 : i32) : i32
// CHECK-COUNT-2: llvm.call @mgpuTensorMapEncodeTiledMemref(
// CHECK:         gpu.launch_func <%{{.*}} : !llvm.ptr> @mm_wgmma::@mm_wgmma {{.*}} : i64 dynamic_shared_memory_size %[[SMEM]] args(%{{.*}} : i64, %{{.*}} : i64,
// CHECK:       gpu.binary @mm_wgmma
// CHECK-SAME:    .target sm_90a
// CHECK-SAME:    .extern .shared .align 16 .b8 __hidet_dynamic_shared[];
// CHECK-SAME:    .shared .align 8 .b8 __mbarrier
// CHECK-SAME:    mbarrier.init.shared.b64
// CHECK-SAME:    fence.mbarrier_init.release.cluster;
// CHECK-SAME:    bar.sync \090;
// CHECK-SAME:    setmaxnreg.inc.sync.aligned.u32 \09232;
// CHECK-SAME:    mbarrier.try_wait.parity.shared.b64
// CHECK-SAME:    wgmma.fence.sync.aligned;
// CHECK-SAME:    wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-SAME:    wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-SAME:    wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-SAME:    wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16
// CHECK-SAME:    wgmma.commit_group.sync.aligned;
// CHECK-SAME:    wgmma.wait_group.sync.aligned \091;
// CHECK-SAME:    mbarrier.arrive.shared.b64
// CHECK-SAME:    wgmma.wait_group.sync.aligned \090;
// CHECK-SAME:    bar.warp.sync \09-1;
// CHECK-SAME:    bar.warp.sync \09-1;
// CHECK-SAME:    setmaxnreg.dec.sync.aligned.u32 \0940;
// CHECK-SAME:    prefetch.tensormap
// CHECK-SAME:    mbarrier.try_wait.parity.shared.b64
// CHECK-SAME:    mbarrier.arrive.expect_tx.shared.b64
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
// CHECK-SAME:    cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
func.func @mm(%a: tensor<256x1024xbf16>, %b: tensor<1024x512xbf16>) -> tensor<256x512xbf16> {
  %z = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<256x512xbf16>
  %f = linalg.fill ins(%z : bf16) outs(%e : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  %r = linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 4>}
      ins(%a, %b : tensor<256x1024xbf16>, tensor<1024x512xbf16>) outs(%f : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  return %r : tensor<256x512xbf16>
}
