// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{num-sms=1},func.func(hidet-select-schedules,hidet-schedule-anchors{wgmma-tma-b=0 wgmma-async-arrive=0},cse))' | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{num-sms=1},func.func(hidet-select-schedules,hidet-schedule-anchors{wgmma-async-arrive=0},cse))' | FileCheck %s --check-prefix=TMAB
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{num-sms=1},func.func(hidet-select-schedules,hidet-schedule-anchors,cse))' | FileCheck %s --check-prefix=ARRIVE
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors,cse))' | FileCheck %s --check-prefix=DEFAULT
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-select-schedules{conv-row-tiles=0}))' | FileCheck %s --check-prefix=GEMMTILES

// The Hopper template's cp.async producer on a convolution (implicit GEMM:
// TMA cannot describe the im2col rows of A), with a persistent grid on a
// target of one SM (blocks of one consumer walk one per SM). No tensor
// maps: the descriptors get a value of their type. The block walks the 6
// tiles of 64 x 128; 3 stages of 24 KiB, one
// f32 epilogue chunk of 64 x (16 + 8), 1 KiB slack. The full mbarriers
// count the producer's 128 threads. Producer thread t copies piece t % 8 of
// rows t / 8 + 16 r at the swizzled column (t % 8) ^ (t / 8 % 8): 4 pieces
// of A's 64 x 64 tile and 2 x 4 of B's 64 x 64 boxes per K step (9 K steps
// of 64 over K = 576), commits them, and once the group of the step 1
// before landed (wait for at most 1 pending group), fences them for the
// async proxy and arrives on that step's full mbarrier; after the last
// tile it waits for all groups and arrives for the last step (with
// wgmma-tma-b=0 wgmma-async-arrive=0; by default TMA loads B and the copies
// arrive by themselves, below).
// CHECK-LABEL: func.func @conv_async(
// CHECK-NOT:     nvvm.setmaxregister
// CHECK-NOT:     nvgpu.tma.create.descriptor
// CHECK:         tm.num_workers #tm.spatial<[1]>
// CHECK:         %[[SMEM:.*]] = arith.constant 80896 : i32
// CHECK:         gpu.launch blocks(%[[BID:[^,]*]], {{.*}} threads(%[[TID:[^,]*]], %{{.*}}) in (%{{[^ ]*}} = %c256, {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK:           %[[ZERO:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK:           builtin.unrealized_conversion_cast %[[ZERO]] : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK:           %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:           %[[EMPTY:.*]] = nvgpu.mbarrier.create
// CHECK:             nvgpu.mbarrier.init %[[FULL]][%c0], %c128 :
// CHECK:             nvgpu.mbarrier.init %[[EMPTY]][%c0], %c128 :
// CHECK:           scf.if
// CHECK:             scf.for %{{.*}} = %[[BID]] to %c6 step %c1 iter_args(%{{.*}} = %c0) -> (index) {
// CHECK:               memref.view {{.*}} to memref<64x24xf32, #gpu.address_space<workgroup>>
// CHECK:               llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0Amov.b32 $1, 0;{{.*}}mov.b32 $63, 0;\0A", "=f,{{.*}},=f"  : () -> !llvm.struct<(f32,
// CHECK:               builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(struct<(f32, {{.*}})>)> to !nvgpu.warpgroup.accumulator<fragmented = vector<64x128xf32>>
// CHECK:               scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c9 step %c1 iter_args
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:                 nvgpu.warpgroup.mma
// CHECK:               nvvm.bar.warp.sync
// CHECK:           } else {
// CHECK:             %[[T:.*]] = arith.subi %[[TID]], %c128 : index
// CHECK:             %[[PIECE:.*]] = arith.remui %[[T]], %c8 : index
// CHECK:             %[[ROW:.*]] = arith.divui %[[T]], %c8 : index
// CHECK:             %[[PHASE:.*]] = arith.remui %[[ROW]], %c8 : index
// CHECK:             arith.xori %[[PIECE]], %[[PHASE]] : index
// CHECK:             scf.for %{{.*}} = %[[BID]] to %c6 step %c1 iter_args(%{{.*}} = %c0{{(_[0-9]+)?}}) -> (index) {
// CHECK:               scf.for %{{.*}} = %c0{{(_[0-9]+)?}} to %c9{{.*}} step %c1 {
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[EMPTY]]
// CHECK-COUNT-4:         nvgpu.device_async_copy %{{.*}}, 8, %{{.*}} {bypassL1} : memref<38400xf16> to memref<4096xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-8:         nvgpu.device_async_copy %{{.*}}, 8, %{{.*}} {bypassL1} : memref<73728xf16> to memref<8192xf16, #gpu.address_space<workgroup>>
// CHECK-NEXT:            nvvm.cp.async.commit.group
// CHECK:                 scf.if
// CHECK-NEXT:              nvvm.cp.async.wait.group 1
// CHECK-NEXT:              nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:                   nvgpu.mbarrier.arrive %[[FULL]]
// CHECK:             nvvm.cp.async.wait.group 0
// CHECK-NEXT:        nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:             arith.maxui %{{.*}}, %c1 : index
// CHECK:             scf.for
// CHECK:               nvgpu.mbarrier.arrive %[[FULL]]
// By default the filter (B) comes by TMA (here with wgmma-async-arrive=0): its
// HWCF buffer collapsed to the 576 x 128 matrix that a tensor map of 64 x 64
// boxes describes, on the host. The producer's first thread prefetches the map
// and, in each K step, issues B's two boxes after the 4 cp.async pieces of A
// that every thread copies; the step's arrival (once its group landed) by that
// thread expects B's 16384 bytes, the others' are plain, the full mbarriers
// still count the 128 threads.
// TMAB-LABEL: func.func @conv_async(
// TMAB:         %[[W:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1, 2], [3]] : memref<3x3x64x128xf16> into memref<576x128xf16>
// TMAB:         %[[CAST:.*]] = memref.cast %[[W]] : memref<576x128xf16> to memref<*xf16>
// TMAB:         nvgpu.tma.create.descriptor %[[CAST]] box[%c64, %c64] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// TMAB:         gpu.launch
// TMAB:           %[[FULL:.*]] = nvgpu.mbarrier.create
// TMAB:             nvgpu.mbarrier.init %[[FULL]][%c0], %c128 :
// TMAB:           } else {
// TMAB:             %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// TMAB-NEXT:        scf.if %[[LEADER]] {
// TMAB-NEXT:          nvgpu.tma.prefetch.descriptor %[[MAP:[^ ]*]] :
// TMAB:             scf.for
// TMAB:               scf.for
// TMAB-COUNT-4:         nvgpu.device_async_copy %{{.*}}, 8, %{{.*}} {bypassL1} : memref<38400xf16> to memref<4096xf16, #gpu.address_space<workgroup>>
// TMAB-NOT:             nvgpu.device_async_copy
// TMAB:                 scf.if %[[LEADER]] {
// TMAB-COUNT-2:           nvgpu.tma.async.load %[[MAP]][%{{.*}}, %{{.*}}], %[[FULL]][%{{.*}}] to %{{.*}} : {{.*}} -> memref<64x64xf16, #gpu.address_space<workgroup>>
// TMAB:                 nvvm.cp.async.commit.group
// TMAB:                   nvvm.cp.async.wait.group 1
// TMAB-NEXT:              nvvm.fence.proxy
// TMAB:                   scf.if %[[LEADER]] {
// TMAB:                     nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c16384 :
// TMAB-NEXT:              } else {
// TMAB-NEXT:                nvgpu.mbarrier.arrive %[[FULL]]
// TMAB:             nvvm.cp.async.wait.group 0
// TMAB:             scf.for
// TMAB:               scf.if %[[LEADER]] {
// TMAB:                 nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%{{.*}}], %c16384 :
// TMAB-NEXT:          } else {
// TMAB-NEXT:            nvgpu.mbarrier.arrive %[[FULL]]
// By default (wgmma-async-arrive) each producer thread arrives on the step's
// full mbarrier as its copies land (cp.async.mbarrier.arrive.noinc, one of the
// 128 arrivals the mbarrier counts) instead of waiting for a group; the first
// thread expects B's bytes before it issues B's boxes. No groups are committed
// or waited for in the loop, only once at the end. The consumers fence each
// stage for the async proxy once it is full, before wgmma.
// ARRIVE-LABEL: func.func @conv_async(
// ARRIVE:         %[[FULL:.*]] = nvgpu.mbarrier.create
// ARRIVE:           nvgpu.mbarrier.init %[[FULL]][%c0], %c128 :
// ARRIVE:           scf.for
// ARRIVE:             scf.for
// The block's steps stay far below 2^31: their stage and round are i32 math.
// ARRIVE:               %[[STEP:.*]] = arith.index_castui %{{.*}} : index to i32
// ARRIVE:               %[[STAGE32:.*]] = arith.remui %[[STEP]], %[[THREE:c3_i32[_0-9]*]] : i32
// ARRIVE-NEXT:          %[[CSTAGE:.*]] = arith.index_castui %[[STAGE32]] : i32 to index
// ARRIVE-NEXT:          %[[ROUND:.*]] = arith.divui %[[STEP]], %[[THREE]] : i32
// ARRIVE:               %[[ODD:.*]] = arith.andi %[[ROUND]], %{{.*}} : i32
// ARRIVE-NEXT:          %[[PARITY:.*]] = arith.trunci %[[ODD]] : i32 to i1
// ARRIVE:               nvgpu.mbarrier.try_wait.parity %[[FULL]][%[[CSTAGE]]], %[[PARITY]]
// ARRIVE-NEXT:          nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// ARRIVE:               nvgpu.warpgroup.mma
// ARRIVE:         } else {
// ARRIVE:           %[[LEADER:.*]] = arith.cmpi eq, %{{.*}}, %c0 : index
// ARRIVE:           scf.for
// ARRIVE:             scf.for
// ARRIVE-COUNT-4:       nvgpu.device_async_copy
// ARRIVE-NEXT:          %[[ADDR:.*]] = nvgpu.mbarrier.get %[[FULL]][%[[STAGE:.*]]] : {{.*}} -> i32
// ARRIVE-NEXT:          %[[BAR:.*]] = llvm.inttoptr %[[ADDR]] : i32 to !llvm.ptr<3>
// ARRIVE-NEXT:          scf.if %[[LEADER]] {
// ARRIVE:                 nvvm.mbarrier.expect_tx %[[BAR]], %c16384_i32 : !llvm.ptr<3>, i32
// ARRIVE-COUNT-2:         nvgpu.tma.async.load {{.*}}, %[[FULL]][%[[STAGE]]]
// ARRIVE:               }
// ARRIVE-NEXT:          nvvm.cp.async.mbarrier.arrive %[[BAR]] {noinc = true} : !llvm.ptr<3>
// ARRIVE-NOT:           nvvm.cp.async.wait.group
// ARRIVE-NOT:           nvgpu.mbarrier.arrive %[[FULL]]
// ARRIVE:           nvvm.cp.async.commit.group
// ARRIVE-NEXT:      nvvm.cp.async.wait.group 0
func.func @conv_async(%x: memref<6x10x10x64xf16>, %w: memref<3x3x64x128xf16>, %o: memref<6x8x8x128xf32>) {
  linalg.conv_2d_nhwc_hwcf {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], stages = 3, persistent = true>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<6x10x10x64xf16>, memref<3x3x64x128xf16>) outs(%o : memref<6x8x8x128xf32>)
  return
}

// -----

// The filter comes by TMA only where its 64 x 64 boxes are whole (K and N
// multiples of 64): neither for a stem's K = 3 x 3 x 8 = 72 and N = 32 nor for
// K = 576 and N = 96; cp.async loads both operands, by default as well.
// ARRIVE-LABEL: func.func @conv_clipped_boxes(
// ARRIVE-NOT:     nvgpu.tma.create.descriptor
// ARRIVE-NOT:     nvgpu.tma.async.load
// ARRIVE-NOT:     nvvm.mbarrier.expect_tx
// ARRIVE:         nvgpu.device_async_copy
// ARRIVE-NOT:     nvgpu.tma.async.load
// ARRIVE-NOT:     nvvm.mbarrier.expect_tx
// ARRIVE:         nvgpu.device_async_copy
// ARRIVE-NOT:     nvgpu.tma.async.load
// ARRIVE-NOT:     nvvm.mbarrier.expect_tx
// ARRIVE:         return
func.func @conv_clipped_boxes(%x: memref<6x10x10x8xf16>, %w: memref<3x3x8x32xf16>, %o: memref<6x8x8x32xf16>,
                              %y: memref<6x10x10x64xf16>, %v: memref<3x3x64x96xf16>, %p: memref<6x8x8x96xf16>) {
  linalg.conv_2d_nhwc_hwcf {hidet.schedule = #hidet.wgmma_matmul<block = [64, 64]>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<6x10x10x8xf16>, memref<3x3x8x32xf16>) outs(%o : memref<6x8x8x32xf16>)
  linalg.conv_2d_nhwc_hwcf {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128]>, dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%y, %v : memref<6x10x10x64xf16>, memref<3x3x64x96xf16>) outs(%p : memref<6x8x8x96xf16>)
  return
}

// -----

// Without a schedule, on sm_90a with 132 SMs: a batched GEMM takes the
// Hopper template through cp.async (64 x 64 tiles: 64 blocks, one wave), a
// ResNet 3x3 convolution of 64 channels (9 taps of one K step) one block per
// 64 x 64 tile (1568), and a 1x1 convolution of 256 channels the GEMM
// model's 128 x 64 tiles on a persistent grid (784 tiles, 4 K steps, over
// the 2 x 132 blocks that the SMs hold).
// DEFAULT-LABEL: func.func @default_batched(
// DEFAULT-NOT:     nvgpu.tma.create.descriptor
// DEFAULT:         nvgpu.device_async_copy
// DEFAULT:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>}
// DEFAULT-LABEL: func.func @default_conv(
// DEFAULT:         tm.num_workers #tm.spatial<[1568]>
// DEFAULT:         nvgpu.device_async_copy
// DEFAULT:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8>}
// With conv-row-tiles=0 the 3x3 convolution gets the GEMM model's tiles
// too: 128 x 64 on a persistent grid.
// GEMMTILES-LABEL: func.func @default_conv(
// GEMMTILES:         linalg.conv_2d_nhwc_hwcf {{.*}}hidet.schedule = #hidet.wgmma_matmul<block = [128, 64], swizzle = 8, persistent = true>
// GEMMTILES-LABEL: func.func @default_pointwise(
// DEFAULT-LABEL: func.func @default_pointwise(
// DEFAULT:         tm.num_workers #tm.spatial<[264]>
// DEFAULT:         nvgpu.device_async_copy
// DEFAULT:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [128, 64], swizzle = 8, persistent = true>}
func.func @default_batched(%a: memref<4x256x512xbf16>, %b: memref<4x512x256xbf16>, %c: memref<4x256x256xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<4x256x512xbf16>, memref<4x512x256xbf16>) outs(%c : memref<4x256x256xf32>)
  return
}
func.func @default_conv(%x: memref<32x58x58x64xf16>, %w: memref<3x3x64x64xf16>, %o: memref<32x56x56x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<32x58x58x64xf16>, memref<3x3x64x64xf16>) outs(%o : memref<32x56x56x64xf16>)
  return
}
func.func @default_pointwise(%x: memref<32x56x56x256xf16>, %w: memref<1x1x256x64xf16>, %o: memref<32x56x56x64xf16>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<32x56x56x256xf16>, memref<1x1x256x64xf16>) outs(%o : memref<32x56x56x64xf16>)
  return
}

// -----

// A cp.async producer of two consumers of 64 x 256 accumulators keeps 56
// registers a thread (it computes every thread's addresses), and the
// consumers take 224 of the launch's 168.
// CHECK-LABEL: func.func @async_rebalanced(
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c384,
// CHECK:           %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c2 : index
// CHECK:           scf.if %[[CONSUMER]] {
// CHECK-NEXT:        nvvm.setmaxregister increase 224
// CHECK:             llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0Amov.b32 $1, 0;{{.*}}mov.b32 $127, 0;\0A", "=f,{{.*}},=f"  : () -> !llvm.struct<(f32,
// CHECK:             builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(struct<(f32, {{.*}})>)> to !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
// CHECK:             nvvm.setmaxregister decrease 56
// CHECK-NEXT:        arith.constant 256 : index
// CHECK-NEXT:        arith.subi %{{.*}}, %c256 : index
// CHECK:             nvgpu.device_async_copy
// A batched matmul keeps cp.async for B too (the template's tensor maps are
// 2-D, one matrix), by default as well.
// TMAB-LABEL: func.func @async_rebalanced(
// TMAB-NOT:     nvgpu.tma.create.descriptor
// TMAB-NOT:     nvgpu.tma.async.load
// TMAB-NOT:     nvgpu.mbarrier.arrive.expect_tx
// TMAB:         return
func.func @async_rebalanced(%a: memref<2x256x320xf16>, %b: memref<2x320x512xf16>, %c: memref<2x256x512xf16>) {
  linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>}
    ins(%a, %b : memref<2x256x320xf16>, memref<2x320x512xf16>) outs(%c : memref<2x256x512xf16>)
  return
}

// -----

// A block's steps past 2^31 (one persistent block over 2 x 8192 x 8192
// tiles of 16384 K steps each): the ring keeps 64-bit index math.
// ARRIVE-LABEL: func.func @ring_past_i32(
// ARRIVE-NOT:     index to i32
// ARRIVE:         scf.for %{{.*}} = %c0 to %c16384 step %c1
// ARRIVE-NEXT:      %[[STEP:.*]] = arith.addi
// ARRIVE-NEXT:      %[[STAGE:.*]] = arith.remui %[[STEP]], %c4 : index
// ARRIVE-NEXT:      %[[ROUND:.*]] = arith.divui %[[STEP]], %c4 : index
// ARRIVE-NEXT:      %[[ODD:.*]] = arith.andi %[[ROUND]], %c1 : index
// ARRIVE-NEXT:      %[[PARITY:.*]] = arith.index_cast %[[ODD]] : index to i1
// ARRIVE:           nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[STAGE]]], %[[PARITY]]
func.func @ring_past_i32(%a: memref<2x1048576x1048576xf16>, %b: memref<2x1048576x1048576xf16>, %c: memref<2x1048576x1048576xf16>) {
  linalg.batch_matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], persistent = true>}
    ins(%a, %b : memref<2x1048576x1048576xf16>, memref<2x1048576x1048576xf16>) outs(%c : memref<2x1048576x1048576xf16>)
  return
}
