// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors{split-k-in-kernel=1},cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors,cse))' -verify-diagnostics | FileCheck %s --check-prefix=SEPARATE
// RUN: not hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80},func.func(hidet-select-schedules,hidet-schedule-anchors))' 2>&1 | FileCheck %s --check-prefix=SM80

// The Hopper template on a 256 x 512 x 320 f16 GEMM with 128 x 256 tiles and
// 3 stages. Host: the tensor maps of A (128 x 64 boxes) and B (64 x 64
// boxes), 128-byte swizzled, passed to the kernel as addresses. Kernel: a
// block per tile (4), 2 consumer warpgroups and a producer (384 threads); 3
// stages of 48 KiB, two epilogue chunks of 64 x (32 + 8) f16 per consumer
// and 1 KiB of alignment slack; a full and an empty mbarrier per stage (1
// arrival, and one per consumer thread). The warpgroups rebalance the
// register file: the producer keeps 40 registers a thread, the consumers
// take 232 of the launch's 168. Consumers walk their block's tiles
// (one here), wait for each stage, run wgmma on their 64 rows (B read
// transposed: N is innermost), release the previous stage and, after the
// loop, the last; then store C in 8 chunks of 32 columns, staged in the
// warpgroup's two chunk buffers by turns (8 fragment stores per thread),
// each warp storing its own 16 rows of a chunk (2 16-byte rows per lane);
// chunk c + 1 is staged before chunk c is stored, with one warp barrier
// per chunk. The producer's first thread walks the
// same tiles, waits for a free stage, expects 48 KiB on its full barrier and
// loads A at (k, m) and 4 boxes of B at (n + 64 j, k).
// CHECK-LABEL: func.func @wgmma(
// CHECK-SAME:    %[[A:[^:]*]]: memref<256x320xf16>, %[[B:[^:]*]]: memref<320x512xf16>, %[[C:[^:]*]]: memref<256x512xf16>
// CHECK-NOT:     linalg.fill
// CHECK:         %[[CA:.*]] = memref.cast %[[A]] : memref<256x320xf16> to memref<*xf16>
// CHECK:         %[[MA:.*]] = nvgpu.tma.create.descriptor %[[CA]] box[%c128, %c64] : memref<*xf16> -> <tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_256b, oob = zero, interleave = none>
// CHECK:         %[[PA:.*]] = builtin.unrealized_conversion_cast %[[MA]] {{.*}} to !llvm.ptr
// CHECK:         %[[IA:.*]] = llvm.ptrtoint %[[PA]] : !llvm.ptr to i64
// CHECK:         %[[CB:.*]] = memref.cast %[[B]] : memref<320x512xf16> to memref<*xf16>
// CHECK:         nvgpu.tma.create.descriptor %[[CB]] box[%c64, %c64] : memref<*xf16> -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b,
// CHECK:         tm.num_workers #tm.spatial<[4]>
// CHECK:         %[[SMEM:.*]] = arith.constant 168960 : i32
// CHECK:         gpu.launch blocks(%[[BID:[^,]*]], {{.*}} threads(%[[TID:[^,]*]], %{{.*}}) in (%{{[^ ]*}} = %c384, {{.*}} dynamic_shared_memory_size %[[SMEM]]
// CHECK:           llvm.inttoptr %[[IA]] : i64 to !llvm.ptr
// CHECK:           %[[WG:.*]] = arith.divui %[[TID]], %c128 : index
// CHECK:           %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:           %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 3>
// CHECK:             nvgpu.mbarrier.init %[[FULL]][%c0], %c1 :
// CHECK:             nvgpu.mbarrier.init %[[EMPTY]][%c0], %c256 :
// CHECK:             nvgpu.mbarrier.init %[[FULL]][%c1], %c1 :
// CHECK:             nvgpu.mbarrier.init %[[EMPTY]][%c1], %c256 :
// CHECK:             nvgpu.mbarrier.init %[[FULL]][%c2{{(_[0-9]+)?}}], %c1 :
// CHECK:             nvgpu.mbarrier.init %[[EMPTY]][%c2{{(_[0-9]+)?}}], %c256 :
// CHECK-NOT:         nvgpu.mbarrier.init
// CHECK:             nvvm.fence.mbarrier.init
// CHECK:           gpu.barrier
// CHECK:           %[[CONSUMER:.*]] = arith.cmpi ult, %[[WG]], %c2 : index
// CHECK:           scf.if %[[CONSUMER]] {
// CHECK-NEXT:        nvvm.setmaxregister increase 232
// CHECK:             scf.for %{{.*}} = %[[BID]] to %c4 step %c4 iter_args(%{{.*}} = %c0) -> (index) {
// The epilogue's shared chunks and the lane's pieces of the warp's 16 x 32
// chunk rows (a 2 x 1 repeat of an 8 x 4 spatial mapping of the lanes, each
// piece one 16-byte row) are set up before the main loop.
// CHECK:               %[[CHUNK0:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK:               %[[CHUNK1:.*]] = memref.view %{{.*}}[%{{.*}}][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<64x40xf16, #gpu.address_space<workgroup>>
// CHECK:               tm.spatial <[8, 4]> on %{{.*}}
// CHECK:               llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0Amov.b32 $1, 0;{{.*}}mov.b32 $127, 0;\0A", "=f,{{.*}},=f"  : () -> !llvm.struct<(f32,
// CHECK:               builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<(struct<(f32, {{.*}})>)> to !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>>
// CHECK:               %[[ACC:.*]] = scf.for
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[FULL]][%{{.*}}], %{{.*}}, %{{.*}} :
// CHECK:                 %[[DA:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>, {{.*}} -> <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>
// CHECK:                 %[[DB:.*]] = nvgpu.warpgroup.generate.descriptor %{{.*}}, %{{.*}} : memref<64x256xf16, #gpu.address_space<workgroup>>, {{.*}} -> <tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>
// CHECK:                 nvgpu.warpgroup.mma %[[DA]], %[[DB]], %{{.*}} {transposeB} : <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>, <fragmented = vector<64x256xf32>> -> <fragmented = vector<64x256xf32>>
// CHECK:                 scf.if
// CHECK:                   nvgpu.mbarrier.arrive %[[EMPTY]][%{{.*}}]
// CHECK:               nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:               nvgpu.mbarrier.arrive %[[EMPTY]][%{{.*}}]
// CHECK:               builtin.unrealized_conversion_cast %[[ACC]] : !nvgpu.warpgroup.accumulator<fragmented = vector<64x256xf32>> to !llvm.struct<(struct<(f32,
// CHECK-COUNT-8:       vector.store %{{.*}}, %[[CHUNK0]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:               nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-COUNT-8:       vector.store %{{.*}}, %[[CHUNK1]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// The tiles divide C (256 x 512): the lane's two pieces are stored
// unchecked, in one block.
// CHECK-NOT:           nvvm.bar.warp.sync
// CHECK:               vector.load %[[CHUNK0]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NOT:           scf.if
// CHECK:               vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<131072xf16>, vector<8xf16>
// CHECK-NOT:           scf.if
// CHECK:               vector.load %[[CHUNK0]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NOT:           scf.if
// CHECK:               vector.store %{{.*}}, %{{.*}}[%{{.*}}] {alignment = 16 : i64} : memref<131072xf16>, vector<8xf16>
// CHECK-NEXT:          nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-COUNT-8:       vector.store %{{.*}}, %[[CHUNK0]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:               vector.load %[[CHUNK1]][%{{.*}}, %{{.*}}] : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-COUNT-7:       nvvm.bar.warp.sync %c-1_i32 : i32
// CHECK-NOT:           nvvm.bar.warp.sync
// CHECK-NOT:           nvvm.barrier
// CHECK:           } else {
// CHECK-NEXT:        nvvm.setmaxregister decrease 40
// CHECK:             arith.cmpi eq, %[[TID]], %c256 : index
// CHECK:               nvgpu.tma.prefetch.descriptor
// CHECK:               scf.for %{{.*}} = %[[BID]] to %c4 step %c4 iter_args(%{{.*}} = %c0{{(_[0-9]+)?}}) -> (index) {
// CHECK:                 scf.for
// CHECK:                   nvgpu.mbarrier.try_wait.parity %[[EMPTY]][%{{.*}}], %{{.*}}, %{{.*}} :
// CHECK:                   nvgpu.mbarrier.arrive.expect_tx %[[FULL]][%[[S:.*]]], %c49152 :
// CHECK:                   nvgpu.tma.async.load %{{.*}}[%[[K0:[^,]*]], %{{.*}}], %[[FULL]][%[[S]]] to %{{.*}} : {{.*}} -> memref<128x64xf16, #gpu.address_space<workgroup>>
// CHECK-COUNT-4:           nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[K0]]], %[[FULL]][%[[S]]] to %{{.*}} : {{.*}} -> memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK-NOT:       linalg.matmul
// SM80-DAG: error: hidet-select-schedules: the schedule does not fit the target (sm_80): a #hidet.wgmma_matmul schedule needs wgmma (sm_90a), which sm_80 lacks
func.func @wgmma(%a: memref<256x320xf16>, %b: memref<320x512xf16>, %c: memref<256x512xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<256x512xf16>)
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 3>}
      ins(%a, %b : memref<256x320xf16>, memref<320x512xf16>) outs(%c : memref<256x512xf16>)
  return
}

// -----

// Without a schedule, on sm_90a, a GEMM of at least 64 rows gets the Hopper
// template, its tiles chosen by waves (4096 x 768: 128 x 192
// tiles are one wave of 128 blocks); on sm_80 it keeps mma.sync.
// CHECK-LABEL: func.func @default_hopper(
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [128, 192], swizzle = 8>}
// SM80-DAG:      hidet.schedule = #hidet.mma_matmul<block = [128, 128, 64], {{.*}}>}
func.func @default_hopper(%a: memref<4096x768xbf16>, %b: memref<768x768xbf16>, %c: memref<4096x768xbf16>) {
  linalg.matmul ins(%a, %b : memref<4096x768xbf16>, memref<768x768xbf16>) outs(%c : memref<4096x768xbf16>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// With a short K loop (12 steps), the persistent 128 x 256 pick becomes
// pingpong 64 x 256 tiles, so that epilogues run under the other
// consumer's main loop: with a fused epilogue, without one, and with one
// that calls math functions; so does a K loop of 16 steps. A K loop of 64
// steps keeps 128 x 256 tiles, not persistent.
// CHECK-LABEL: func.func @default_pingpong(
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], swizzle = 8>}
func.func @default_pingpong(%a: memref<4096x768xf16>, %b: memref<768x3072xf16>, %bias: memref<3072xf16>, %c: memref<4096x3072xf16>, %d: memref<4096x3072xf16>, %e: memref<4096x3072xf16>, %a16: memref<8192x1024xf16>, %b16: memref<1024x8192xf16>, %c16: memref<8192x8192xf16>, %a64: memref<4096x4096xf16>, %b64: memref<4096x4096xf16>, %c64: memref<4096x4096xf16>) {
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<4096x768xf16>, memref<768x3072xf16>) outs(%c : memref<4096x3072xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<4096x3072xf16>, memref<3072xf16>) outs(%c : memref<4096x3072xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  linalg.matmul ins(%a, %b : memref<4096x768xf16>, memref<768x3072xf16>) outs(%d : memref<4096x3072xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>} ins(%a, %b : memref<4096x768xf16>, memref<768x3072xf16>) outs(%e : memref<4096x3072xf16>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%e : memref<4096x3072xf16>) outs(%e : memref<4096x3072xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %t = math.tanh %x : f16
    linalg.yield %t : f16
  }
  linalg.matmul ins(%a16, %b16 : memref<8192x1024xf16>, memref<1024x8192xf16>) outs(%c16 : memref<8192x8192xf16>)
  linalg.matmul ins(%a64, %b64 : memref<4096x4096xf16>, memref<4096x4096xf16>) outs(%c64 : memref<4096x4096xf16>)
  return
}

// -----

// A skinny GEMM of 128 rows gets 64 x 64 Hopper tiles, whose 24 output
// tiles of 48 K steps are split 4 ways into 96 blocks; one of 16 rows,
// which would be 3/4 padding in a 64-row tile, keeps mma.sync and its
// split-K.
// CHECK-LABEL: func.func @default_skinny(
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 64], swizzle = 8, split_k = 4, persistent = true>}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], {{.*}} split_k = 8>}
func.func @default_skinny(%a: memref<128x3072xf16>, %b: memref<3072x768xf16>, %c: memref<128x768xf16>,
                          %x: memref<16x4096xf16>, %w: memref<4096x4096xf16>, %y: memref<16x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<128x3072xf16>, memref<3072x768xf16>) outs(%c : memref<128x768xf16>)
  linalg.matmul ins(%x, %w : memref<16x4096xf16>, memref<4096x4096xf16>) outs(%y : memref<16x4096xf16>)
  return
}

// -----

// Split-K: 2 x 2 output tiles of 128 x 128 whose 11 K steps are cut into
// slices of 3, 3, 3 and 2 steps make 16 tiles (batch, slice, output tile);
// each block walks its tiles counting K steps across them, runs the K
// tiles of its slice and stores f32 results to slice s of the workspace
// (4 x 1 x 200 x 136) through f32 epilogue chunks (4 stages of 32 KiB, 2
// chunks of 64 x (16 + 8) f32, 1 KiB of slack). The 64 x 128
// accumulators leave the register file as launched.
//
// With split-k-in-kernel=1 the slices are added in the kernel: each warp, after storing
// its 16 rows of a tile, fences and counts them in the kernel's 32
// persistent counters (2 x 8 strips of 16 rows, 2 tile columns); the warp that counts
// fourth resets its counter and adds the 4 slices of its 16 x 128
// elements in order to the fill value, 4 columns at a time (16 pieces
// per lane, loaded 8 at a time, addresses clamped into C, before their
// stores), storing f16 vectors to C. No second kernel.
// CHECK-LABEL: func.func @split_k(
// CHECK-SAME:    %[[C:[^:]*]]: memref<200x136xf16>
// CHECK:         %[[W:.*]] = memref.alloc() : memref<4x1x200x136xf32>
// CHECK:         gpu.launch
// CHECK:             %[[FLATW:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1, 2, 3]] : memref<4x1x200x136xf32> into memref<108800xf32>
// CHECK:             nvvm.memory.barrier <gpu>
// CHECK-NEXT:        nvvm.bar.warp.sync
// CHECK:             %[[COUNTED:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK:               %[[CTRS:.*]] = hidet.persistent_counters : memref<32xi32>
// CHECK:               %[[BEFORE:.*]] = memref.atomic_rmw addi %{{.*}}, %[[CTRS]][%[[CTR:.*]]] : (i32, memref<32xi32>) -> i32
// CHECK:               %[[LAST:.*]] = arith.cmpi eq, %[[BEFORE]], %c3_i32 : i32
// CHECK:               scf.if %[[LAST]] {
// CHECK:                 memref.store %{{.*}}, %[[CTRS]][%[[CTR]]] : memref<32xi32>
// CHECK:             gpu.shuffle  idx
// CHECK:             scf.if %{{.*}} {
// CHECK-NEXT:          nvvm.memory.barrier <gpu>
// CHECK-NEXT:          scf.for %{{.*}} = %c0 to %c2 step %c1 {
// CHECK:                 arith.minui %{{.*}}, %c199
// CHECK:                 arith.minui %{{.*}}, %c132
// CHECK:                 %[[S0:.*]] = vector.load %[[FLATW]][%{{.*}}] {alignment = 16 : i64} : memref<108800xf32>, vector<4xf32>
// CHECK:                 %[[A0:.*]] = arith.addf %{{.*}}, %[[S0]] : vector<4xf32>
// CHECK:                 %[[S1:.*]] = vector.load %[[FLATW]]
// CHECK:                 %[[A1:.*]] = arith.addf %[[A0]], %[[S1]] : vector<4xf32>
// CHECK:                 %[[S2:.*]] = vector.load %[[FLATW]]
// CHECK:                 %[[A2:.*]] = arith.addf %[[A1]], %[[S2]] : vector<4xf32>
// CHECK:                 %[[S3:.*]] = vector.load %[[FLATW]]
// CHECK:                 %[[A3:.*]] = arith.addf %[[A2]], %[[S3]] : vector<4xf32>
// CHECK-COUNT-28:        vector.load %[[FLATW]]
// CHECK-NOT:             vector.load
// CHECK:                 scf.if
// CHECK:                   %[[H:.*]] = arith.truncf %[[A3]] : vector<4xf32> to vector<4xf16>
// CHECK:                   vector.store %[[H]], %{{.*}}[%{{.*}}] {alignment = 8 : i64} : memref<27200xf16>, vector<4xf16>
// CHECK-COUNT-7:         vector.store
// CHECK-NOT:     gpu.launch
// CHECK:         memref.dealloc %[[W]] : memref<4x1x200x136xf32>
//
// By default a second kernel adds the slices to C in slice order, a thread
// per element of C, before freeing the workspace.
// SEPARATE-LABEL: func.func @split_k(
// SEPARATE-NOT:     nvvm.setmaxregister
// SEPARATE-SAME:    %[[C:[^:]*]]: memref<200x136xf16>
// SEPARATE:         %[[W:.*]] = memref.alloc() : memref<4x1x200x136xf32>
// SEPARATE:         tm.num_workers #tm.spatial<[16]>
// SEPARATE:         arith.constant 144384 : i32
// SEPARATE:         gpu.launch blocks(%[[BID:[^,]*]],
// SEPARATE:             %[[TILES:.*]] = scf.for %[[T:.*]] = %[[BID]] to %c16 step %c16 iter_args(%[[FIRST:.*]] = %c0) -> (index) {
// SEPARATE:               %[[REST:.*]] = arith.divui %[[T]], %c4 : index
// SEPARATE:               %[[SLICE:.*]] = arith.remui %[[REST]], %c4 : index
// SEPARATE:               %[[KB:.*]] = arith.muli %[[SLICE]], %c3 : index
// SEPARATE:               %[[KE0:.*]] = arith.addi %[[KB]], %c3 : index
// SEPARATE:               %[[KE:.*]] = arith.minui %c11, %[[KE0]] : index
// SEPARATE:               %[[FLAT:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1, 2, 3]] : memref<4x1x200x136xf32> into memref<108800xf32>
// SEPARATE-NOT:           nvvm.setmaxregister
// SEPARATE:               scf.for %[[I:.*]] = %[[KB]] to %[[KE]] step %c1 iter_args(
// SEPARATE:                 %[[DI:.*]] = arith.subi %[[I]], %[[KB]] : index
// SEPARATE:                 arith.addi %[[FIRST]], %[[DI]] : index
// SEPARATE:               vector.store %{{.*}}, %[[FLAT]][%{{.*}}] {alignment = 16 : i64} : memref<108800xf32>, vector<4xf32>
// SEPARATE:               %[[N:.*]] = arith.subi %[[KE]], %[[KB]] : index
// SEPARATE:               %[[NEXT:.*]] = arith.addi %[[FIRST]], %[[N]] : index
// SEPARATE:               scf.yield %[[NEXT]] : index
// SEPARATE:         gpu.launch
// SEPARATE:           tm.foreach (%[[BATCH:.*]], %[[R:.*]], %[[COL:.*]]) in #tm.spatial<[1, 200, 136]> on global_x {
// SEPARATE:             %[[S0:.*]] = memref.load %[[W]][%c0{{(_[0-9]+)?}}, %[[BATCH]], %[[R]], %[[COL]]]
// SEPARATE:             %[[A0:.*]] = arith.addf %{{.*}}, %[[S0]] : f32
// SEPARATE:             %[[S1:.*]] = memref.load %[[W]][%c1{{(_[0-9]+)?}}, %[[BATCH]], %[[R]], %[[COL]]]
// SEPARATE:             %[[A1:.*]] = arith.addf %[[A0]], %[[S1]] : f32
// SEPARATE:             memref.load %[[W]][%c2{{(_[0-9]+)?}}, %[[BATCH]], %[[R]], %[[COL]]]
// SEPARATE:             memref.load %[[W]][%c3{{(_[0-9]+)?}}, %[[BATCH]], %[[R]], %[[COL]]]
// SEPARATE:             arith.truncf %{{.*}} : f32 to f16
// SEPARATE:         memref.dealloc %[[W]] : memref<4x1x200x136xf32>
func.func @split_k(%a: memref<200x696xf16>, %b: memref<696x136xf16>, %c: memref<200x136xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill ins(%z : f16) outs(%c : memref<200x136xf16>)
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], split_k = 4>}
      ins(%a, %b : memref<200x696xf16>, memref<696x136xf16>) outs(%c : memref<200x136xf16>)
  return
}

// -----

// B's rows padded to 16 bytes (a weight of N = 100 columns stored as 104,
// read through a slice): TMA loads B through the slice, whose map covers
// its 100 columns in rows of 104 (and reads zeros past them); C's rows of
// 200 bytes are stored in 8-byte pieces. The same GEMM without the padding
// (rows of B not 16-byte multiples, which neither TMA nor 16-byte copies
// load) keeps mma.sync.
// CHECK-LABEL: func.func @padded_b(
// CHECK-SAME:    %{{[^:]*}}: memref<128x64xf16>, %[[BP:[^:]*]]: memref<64x104xf16>
// CHECK:         %[[S:.*]] = memref.subview %[[BP]][0, 0] [64, 100] [1, 1]
// CHECK:         %[[CB:.*]] = memref.cast %[[S]] : memref<64x100xf16, strided<[104, 1]>> to memref<*xf16>
// CHECK:         nvgpu.tma.create.descriptor %[[CB]] box[%c64, %c64]
// C's 100 columns are not a multiple of the tile's: a warp whose chunk lies
// inside C stores its pieces unchecked, the others check each piece.
// CHECK:         gpu.launch
// CHECK:           nvgpu.warpgroup.mma
// CHECK:             vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK-COUNT-3:     arith.
// CHECK-NEXT:        vector.store %{{.*}} {alignment = 8 : i64} : memref<12800xf16>, vector<4xf16>
// CHECK-NEXT:        vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<4xf16>
// CHECK:           } else {
// CHECK-NEXT:        arith.cmpi ult
// CHECK-NEXT:        arith.cmpi ult
// CHECK-NEXT:        arith.andi
// CHECK-NEXT:        scf.if
// CHECK-NEXT:          vector.load
// CHECK-COUNT-3:       arith.
// CHECK-NEXT:          vector.store %{{.*}} {alignment = 8 : i64} : memref<12800xf16>, vector<4xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<
func.func @padded_b(%a: memref<128x64xf16>, %bp: memref<64x104xf16>, %c: memref<128x100xf16>, %b: memref<64x100xf16>, %d: memref<128x100xf16>) {
  %s = memref.subview %bp[0, 0] [64, 100] [1, 1] : memref<64x104xf16> to memref<64x100xf16, strided<[104, 1]>>
  linalg.matmul ins(%a, %s : memref<128x64xf16>, memref<64x100xf16, strided<[104, 1]>>) outs(%c : memref<128x100xf16>)
  linalg.matmul ins(%a, %b : memref<128x64xf16>, memref<64x100xf16>) outs(%d : memref<128x100xf16>)
  return
}

// -----

// A column slice of a weight at a 16-byte offset (one of the query, key and
// value projections of a fused weight): TMA loads B through the slice, from
// its first element, in rows of the whole weight. A slice at an offset of 4
// elements (8 bytes) cannot be a tensor map's address and is copied with
// cp.async in 8-byte pieces instead.
// CHECK-LABEL: func.func @column_slice(
// CHECK:         %[[S:.*]] = memref.subview %{{.*}}[0, 64] [64, 64] [1, 1]
// CHECK:         %[[CB:.*]] = memref.cast %[[S]] : memref<64x64xf16, strided<[192, 1], offset: 64>> to memref<*xf16>
// CHECK:         nvgpu.tma.create.descriptor %[[CB]] box[%c64, %c64]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<
// CHECK-NOT:     nvgpu.tma.create.descriptor
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule =
func.func @column_slice(%a: memref<128x64xf16>, %w: memref<64x192xf16>, %c: memref<128x64xf16>, %d: memref<128x64xf16>) {
  %s = memref.subview %w[0, 64] [64, 64] [1, 1] : memref<64x192xf16> to memref<64x64xf16, strided<[192, 1], offset: 64>>
  linalg.matmul ins(%a, %s : memref<128x64xf16>, memref<64x64xf16, strided<[192, 1], offset: 64>>) outs(%c : memref<128x64xf16>)
  %u = memref.subview %w[0, 4] [64, 64] [1, 1] : memref<64x192xf16> to memref<64x64xf16, strided<[192, 1], offset: 4>>
  linalg.matmul ins(%a, %u : memref<128x64xf16>, memref<64x64xf16, strided<[192, 1], offset: 4>>) outs(%d : memref<128x64xf16>)
  return
}

// -----

// A transposed A (M-major, which the wgmma descriptors do not read) keeps
// mma.sync by default and is an error with a written Hopper schedule.
// CHECK-LABEL: func.func @transposed_a(
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<
func.func @transposed_a(%a: memref<768x4096xf16>, %b: memref<768x768xf16>, %c: memref<4096x768xf16>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<768x4096xf16>, memref<768x768xf16>) outs(%c : memref<4096x768xf16>)
  return
}

// -----

func.func @transposed_a_written(%a: memref<768x4096xf16>, %b: memref<768x768xf16>, %c: memref<4096x768xf16>) {
  // expected-error @+1 {{this linalg.matmul cannot take a #hidet.wgmma_matmul schedule: the wgmma template reads A with K contiguous (K-major)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>}
      ins(%a, %b : memref<768x4096xf16>, memref<768x768xf16>) outs(%c : memref<4096x768xf16>)
  return
}

// -----

func.func @odd_k(%a: memref<256x100xf16>, %b: memref<100x256xf16>, %c: memref<256x256xf16>) {
  // expected-error @+1 {{cannot take a #hidet.wgmma_matmul schedule: the wgmma template loads A in 16-byte pieces along K (K a multiple of 8)}}
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>}
      ins(%a, %b : memref<256x100xf16>, memref<100x256xf16>) outs(%c : memref<256x256xf16>)
  return
}

// -----

func.func @f32_operands(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) {
  // expected-error @+1 {{cannot take a #hidet.wgmma_matmul schedule: wgmma takes f16 or bf16 operands}}
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>}
      ins(%a, %b : memref<256x256xf32>, memref<256x256xf32>) outs(%c : memref<256x256xf32>)
  return
}

// -----

func.func @n_by_k_b(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf16>) {
  // expected-error @+1 {{cannot take a #hidet.wgmma_matmul schedule: the wgmma template reads B with N contiguous (N-major)}}
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>}
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf16>)
  return
}

// -----

// 3 consumer warpgroups of 64 x 256 accumulators and a producer do not fit
// the register file.
func.func @too_many_registers(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf16>) {
  // expected-error @+1 {{the schedule does not fit the target (sm_90a): about 160 registers for each of 512 threads; an SM has 65536}}
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [192, 256], stages = 2>}
      ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf16>)
  return
}

// -----

// Shared memory is checked for the stages and the largest (f32) epilogue
// chunks: 5 x 48 KiB + 2 x 64 x 24 x 4 bytes + 1 KiB.
func.func @too_many_stages(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf16>) {
  // expected-error @+1 {{the schedule does not fit the target (sm_90a): the tiles need 271360 bytes of shared memory; the target has 232448}}
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 5>}
      ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf16>)
  return
}


// -----

// Pingpong: one stage is read by one consumer (empty barriers of 128
// arrivals), tile i of a block is consumer i % 2's, and an ordering
// mbarrier (one phase per tile) starts a tile's main loop once the previous
// tile's consumer has waited for all its stages; the consumers read the
// same 64-row A tile of a stage.
// CHECK-LABEL: func.func @pingpong(
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c384,
// CHECK:           %[[FULL:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK:           %[[EMPTY:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK:           %[[ORDER:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>>
// CHECK:           nvgpu.mbarrier.init %[[EMPTY]][%c0], %c128
// CHECK:           nvgpu.mbarrier.init %[[ORDER]][%c0], %c128
// CHECK:           %[[CONSUMER:.*]] = arith.cmpi ult, %{{.*}}, %c2 : index
// CHECK:           scf.if %[[CONSUMER]] {
// CHECK-NEXT:        nvvm.setmaxregister increase 232
// CHECK:           scf.for
// CHECK:             %[[MINE:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:             scf.if %[[MINE]] {
// CHECK:               scf.if
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[ORDER]][%c0]
// CHECK:               scf.for
// CHECK:                 nvgpu.mbarrier.try_wait.parity %[[FULL]]
// CHECK:                 nvgpu.warpgroup.mma {{.*}} : <tensor = memref<64x64xf16, #gpu.address_space<workgroup>>>, <tensor = memref<64x256xf16, #gpu.address_space<workgroup>>>
// CHECK:               nvgpu.mbarrier.arrive %[[ORDER]][%c0]
// CHECK:               nvvm.wgmma.wait.group.sync.aligned 0
// CHECK:             nvvm.setmaxregister decrease 40
// CHECK-NEXT:        arith.constant 256 : index
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>}
func.func @pingpong(%a: memref<256x320xf16>, %b: memref<320x512xf16>, %c: memref<256x512xf16>) {
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>} ins(%a, %b : memref<256x320xf16>, memref<320x512xf16>) outs(%c : memref<256x512xf16>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// Pingpong with a fused bias: the bias of the tile's first 32-column chunk
// is loaded after the ordering wait and before the main loop, whose time
// hides its latency; after the first chunk is staged, the next chunk's
// bias is loaded and the next chunk staged before the first is stored.
// CHECK-LABEL: func.func @pingpong_bias(
// CHECK:               nvgpu.mbarrier.try_wait.parity %{{.*}}[%c0]
// CHECK:             %[[BV0:.*]] = vector.load %arg2[%{{.*}}] {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// CHECK:             llvm.inline_asm has_side_effects
// CHECK:             scf.for
// CHECK:               nvgpu.warpgroup.mma
// CHECK-COUNT-8:       vector.store %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK:               nvvm.bar.warp.sync
// CHECK:               vector.load %arg2[%{{.*}}] {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// CHECK-COUNT-8:       vector.store %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK-NEXT:          vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT:          arith.addf %{{.*}}, %[[BV0]] : vector<8xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>}
func.func @pingpong_bias(%a: memref<256x320xf16>, %b: memref<320x512xf16>, %bias: memref<512xf16>, %c: memref<256x512xf16>) {
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], persistent = true, pingpong = true>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x320xf16>, memref<320x512xf16>) outs(%c : memref<256x512xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<256x512xf16>, memref<512xf16>) outs(%c : memref<256x512xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// Ragged tiles (200 rows): each piece is stored only inside C, and its
// side inputs, loaded before that check, at a position clamped inside C
// (the column; the bias does not depend on the row).
// CHECK-LABEL: func.func @ragged_bias(
// CHECK:             %[[C:.*]] = arith.minsi %{{.*}}, %c128 : index
// CHECK:             %[[BV:.*]] = vector.load %arg2[%[[C]]] {alignment = 16 : i64} : memref<136xf16>, vector<8xf16>
// CHECK:             nvvm.bar.warp.sync
// CHECK:             %[[IN:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:        scf.if %[[IN]] {
// CHECK-NEXT:          %[[V:.*]] = vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT:          arith.addf %[[V]], %[[BV]] : vector<8xf16>
func.func @ragged_bias(%a: memref<200x320xf16>, %b: memref<320x136xf16>, %bias: memref<136xf16>, %c: memref<200x136xf16>) {
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 64]>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<200x320xf16>, memref<320x136xf16>) outs(%c : memref<200x136xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<200x136xf16>, memref<136xf16>) outs(%c : memref<200x136xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  return
}
