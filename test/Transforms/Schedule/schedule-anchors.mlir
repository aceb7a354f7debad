// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80 num-sms=1},func.func(hidet-select-schedules,hidet-schedule-anchors{split-k-in-kernel=1}))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80 num-sms=132},func.func(hidet-select-schedules,hidet-schedule-anchors{split-k-in-kernel=1}))' -verify-diagnostics | FileCheck %s --check-prefix=HEUR
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80 num-sms=1},func.func(hidet-select-schedules,hidet-schedule-anchors))' -verify-diagnostics | FileCheck %s --check-prefix=SEPARATE
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80 num-sms=132},func.func(hidet-select-schedules{tf32=1},hidet-schedule-anchors))' -verify-diagnostics | FileCheck %s --check-prefix=TF32
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80 num-sms=132},func.func(hidet-select-schedules{tf32=1 tf32-terms=3},hidet-schedule-anchors))' -verify-diagnostics | FileCheck %s --check-prefix=TF32X3

// The SIMT and mma.sync templates on sm_80 (no wgmma), with the H100's 132
// SMs where the heuristic picks (select-schedules.mlir has the A100's).

// An f32 matmul without a schedule gets the heuristic's schedule, recorded
// on the kernel: with one SM (num-sms=1) the largest tiles, 128 x 128; with
// the default 132 SMs the 64 x 64 tiles (6 x 7 = 42) leave the SMs short of
// warps, so K is split 8 ways (70 K steps of 8: at least 6 per slice; 336
// blocks, at most 4.5 an SM). Tiles go in groups of 8 rows.
// HEUR-LABEL: func.func @default_schedule(
// HEUR:         tm.num_workers #tm.spatial<[1, 8, 42]>
// HEUR:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 1], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, split_k = 8>, nvvm.minctasm = 5 : i32}
// The kernel with the largest tiles: a block per C tile
// (spatial over the batch, the K slices and the 3 x 4 = 12 tiles of 333 x
// 444), the warp and lane positions from the spatial factors, and the
// accumulators in a private array addressed by the fully unrolled repeat
// factors. The operands allow cp.async, so the heuristic's 128 x 128 tile
// runs on 128 threads of 16 x 8 accumulators with 3 stages: the K loop,
// marked for hidet-pipeline-shared-copies, copies the tiles by masked
// transfers into one shared tile each (the pass multi-buffers them): A
// (333 x 555, k contiguous) an element at a time into its k-major tile,
// whose rows are padded by 4, with consecutive lanes on consecutive k
// (auto_map over 128 x 8); B (444 columns, a multiple of 4) 4 elements at
// a time along N (auto_map over 8 x 32 pieces). Then a barrier and the
// FMAs on the tiles, without a stage index.
// CHECK-LABEL: func.func @default_schedule(
// CHECK:         tm.num_workers #tm.spatial<[1, 1, 12]>
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128,
// CHECK:           %[[AS:.*]] = memref.alloc() : memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<8x128xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[FA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<333x555xf32> into memref<184815xf32>
// CHECK:           %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<555x444xf32> into memref<246420xf32>
// CHECK:           %[[FC:.*]] = memref.collapse_shape %arg2 {{\[\[}}0, 1]] : memref<333x444xf32> into memref<147852xf32>
// CHECK:             tm.spatial <[2, 2]> on
// CHECK:             tm.spatial <[4, 8]> on
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<16x8xf32>
// CHECK-NOT:         memref.alloca
// CHECK:             tm.spatial <[16, 8]> on
// CHECK:             tm.spatial <[4, 32]> on
// CHECK:             scf.for
// CHECK-NEXT:          gpu.barrier
// CHECK-COUNT-8:       vector.transfer_read %[[FA]][%{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : memref<184815xf32>, vector<1xf32>
// CHECK-COUNT-2:       vector.transfer_read %[[FB]][%{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : memref<246420xf32>, vector<4xf32>
// CHECK-NEXT:          vector.transfer_write %{{.*}}, %[[BS]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<4xf32>, memref<8x128xf32, #gpu.address_space<workgroup>>
// CHECK-NEXT:          gpu.barrier
// CHECK-NEXT:          tm.repeat (%[[KK:.*]]) in <[8], unroll = [full]> {
// CHECK:                 memref.load %[[AS]][%[[KK]], %{{.*}}] : memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:                 memref.load %[[BS]][%[[KK]], %{{.*}}] : memref<8x128xf32, #gpu.address_space<workgroup>>
// CHECK:                 math.fma
// CHECK:             } {hidet.pipeline_stages = 3 : i64}
// Then the thread's 16 x 8 results, each stored where it is inside C.
// CHECK-COUNT-128:     memref.store %{{.*}}, %[[FC]][%{{.*}}] : memref<147852xf32>
// CHECK-NOT:           memref.store %{{.*}}, %[[FC]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>, nvvm.minctasm = 2 : i32}
// CHECK-NOT:     linalg.matmul
func.func @default_schedule(%a: memref<333x555xf32>, %b: memref<555x444xf32>, %c: memref<333x444xf32>) {
  linalg.matmul ins(%a, %b : memref<333x555xf32>, memref<555x444xf32>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// `stages = 0` (written here; the heuristic's choice where a prologue rules
// out cp.async): two shared-memory stages fed through registers. The
// auto_map tile loads of A (k-major) and B of the next step go to
// registers before the FMAs (register double buffering) and to the other
// stage after them, with one barrier per step.
// CHECK-LABEL: func.func @register_staging(
// CHECK:         tm.num_workers #tm.spatial<[1, 1, 12]>
// CHECK:         gpu.launch {{.*}} {
// CHECK:           %[[AS:.*]] = memref.alloc() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<2x8x128xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[FA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1]] : memref<333x555xf32> into memref<184815xf32>
// CHECK:           %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<555x444xf32> into memref<246420xf32>
// CHECK:           tm.foreach (%{{.*}}, %{{.*}}, %{{.*}}) in #tm.spatial<[1, 1, 12]> on block_x {
// CHECK:             tm.spatial <[4, 2]> on
// CHECK:             tm.spatial <[4, 8]> on
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<8x8xf32>
// CHECK:             %[[RA:.*]] = memref.alloca() : memref<4xf32>
// CHECK:             tm.spatial <[32, 8]> on
// CHECK:             %[[RB:.*]] = memref.alloca() : memref<4xf32>
// CHECK:             tm.spatial <[2, 128]> on
// CHECK:             memref.store %{{.*}}, %[[AS]][%c0
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[T:.*]] = %[[KB:.*]] to %{{.*}} step
// CHECK:               %[[STAGE:.*]] = arith.remui
// CHECK:               memref.load %[[FA]][%{{.*}}] : memref<184815xf32>
// CHECK:               memref.store %{{.*}}, %[[RA]]
// CHECK:               memref.load %[[FB]][%{{.*}}] : memref<246420xf32>
// CHECK:               memref.store %{{.*}}, %[[RB]]
// CHECK:               tm.repeat (%[[KK:.*]]) in <[8], unroll = [full]> {
// CHECK:                 tm.repeat (%{{.*}}, %{{.*}}) in <[2, 2]> {
// CHECK:                   tm.repeat (%{{.*}}, %{{.*}}) in <[4, 4], unroll = [full, full]> {
// CHECK:                     memref.load %[[AS]][%[[STAGE]], %[[KK]], {{.*}}]
// CHECK:                     math.fma
// CHECK:               %[[OTHER:.*]] = arith.subi %c1{{.*}}, %[[STAGE]]
// CHECK:               memref.load %[[RA]]
// CHECK:               memref.store %{{.*}}, %[[AS]][%[[OTHER]], {{.*}}]
// CHECK:               memref.load %[[RB]]
// CHECK:               memref.store %{{.*}}, %[[BS]][%[[OTHER]], {{.*}}]
// CHECK:               gpu.barrier
// CHECK-NEXT:        }
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>, nvvm.minctasm = 2 : i32}
// CHECK-NOT:     hidet.pipeline_stages
func.func @register_staging(%a: memref<333x555xf32>, %b: memref<555x444xf32>, %c: memref<333x444xf32>) {
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
    ins(%a, %b : memref<333x555xf32>, memref<555x444xf32>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// B stored K-contiguous (K^T read in place, as attention's keys): its
// cp.async copies go along K, 4 bytes each, like A's, so B's shared rows
// are padded by 4 as A's are (8 lanes on consecutive k of a column would
// otherwise share a bank).
// CHECK-LABEL: func.func @k_contiguous_b(
// CHECK:           %[[AS:.*]] = memref.alloc() : memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:           %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<444x555xf32> into memref<246420xf32>
// CHECK:             scf.for
// CHECK-COUNT-8:       vector.transfer_read %{{.*}} : memref<184815xf32>, vector<1xf32>
// CHECK-COUNT-8:       vector.transfer_read %[[FB]][%{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : memref<246420xf32>, vector<1xf32>
// CHECK-NEXT:          vector.transfer_write %{{.*}}, %[[BS]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<1xf32>, memref<8x132xf32, #gpu.address_space<workgroup>>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>, nvvm.minctasm = 2 : i32}
func.func @k_contiguous_b(%a: memref<333x555xf32>, %b: memref<444x555xf32>, %c: memref<333x444xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
    ins(%a, %b : memref<333x555xf32>, memref<444x555xf32>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// A schedule written on the op overrides the heuristic.
// HEUR-LABEL: func.func @user_schedule(
// HEUR:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>, nvvm.minctasm = 18 : i32}
// A's K rows are padded by 8 against bank conflicts (4 accumulators a
// thread, k steps of 4).
// CHECK-LABEL: func.func @user_schedule(
// CHECK:         memref.alloc() : memref<2x4x24xf32, #gpu.address_space<workgroup>>
// CHECK:         memref.alloc() : memref<2x4x16xf32, #gpu.address_space<workgroup>>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>, nvvm.minctasm = 18 : i32}
func.func @user_schedule(%a: memref<200x96xf32>, %b: memref<96x72xf32>, %c: memref<200x72xf32>) {
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
      ins(%a, %b : memref<200x96xf32>, memref<96x72xf32>) outs(%c : memref<200x72xf32>)
  return
}

// -----

// A large output gets 128 x 128 tiles with the default 132 SMs; with
// tf32=1 it goes to the tensor cores (m16n8k8, K tiles of 32 f32 in a
// 3-stage cp.async pipeline).
// TF32-LABEL: func.func @large(
// TF32:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// TF32:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 64], mma = [16, 8, 8], stages = 3, swizzle = 8>}
// With tf32-terms=3 each fragment value is split into its tf32 rounding
// (cvt.rna) and the rest, and three mma instructions add the rest of A
// times B, A times the rest of B, then A times B; the warps take 64 x 32
// tiles (the split fragments do not fit in registers beside 64 x 64).
// TF32X3-LABEL: func.func @large(
// TF32X3:         %[[HI:.*]] = nvvm.convert.float.to.tf32 %[[X:.*]] {rnd = #nvvm.fp_rnd_mode<rna>}
// TF32X3:         %[[H:.*]] = arith.bitcast %[[HI]] : i32 to f32
// TF32X3:         arith.subf %[[X]], %[[H]] : f32
// TF32X3:         %[[D1:.*]] = nvgpu.mma.sync(%[[ARS:.*]], %[[B:.*]], %{{.*}}) {mmaShape = [16, 8, 8], tf32Enabled}
// TF32X3:         %[[D2:.*]] = nvgpu.mma.sync(%[[A:.*]], %[[BRS:.*]], %[[D1]]) {mmaShape = [16, 8, 8], tf32Enabled}
// TF32X3-NEXT:    nvgpu.mma.sync(%[[A]], %[[B]], %[[D2]]) {mmaShape = [16, 8, 8], tf32Enabled}
// TF32X3:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [128, 128, 32], warp = [64, 32], mma = [16, 8, 8], stages = 3, swizzle = 8, tf32_terms = 3>}
// HEUR-LABEL: func.func @large(
// HEUR:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
// CHECK-LABEL: func.func @large(
func.func @large(%a: memref<2048x64xf32>, %b: memref<64x2048xf32>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x64xf32>, memref<64x2048xf32>) outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// A 16 x 130 output gets the smallest tiles (no shape gives 132 blocks),
// and its 5 blocks are split 8 ways along K (38 K steps; at least 4 per
// slice). With split-k-in-kernel=1 the slices are added in the kernel: each warp's 8 x 16 of the
// 16 x 32 tile is a part (20 counters), which the last of its 8 slices sums,
// 4 columns at a time where 130 allows 2: vectors of 2.
// HEUR-LABEL: func.func @small(
// HEUR:           %[[CTRS:.*]] = hidet.persistent_counters : memref<20xi32>
// HEUR:           memref.atomic_rmw addi %{{.*}}, %[[CTRS]]
// HEUR:           scf.for %{{.*}} = %{{.*}} to %c1{{.*}} step
// HEUR-COUNT-8:     vector.load %{{.*}} : memref<16640xf32>, vector<2xf32>
// HEUR:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8, swizzle = 8, split_k = 8>, nvvm.minctasm = 9 : i32}
// HEUR-NEXT:    memref.dealloc
// CHECK-LABEL: func.func @small(
func.func @small(%a: memref<16x300xf32>, %b: memref<300x130xf32>, %c: memref<16x130xf32>) {
  linalg.matmul ins(%a, %b : memref<16x300xf32>, memref<300x130xf32>) outs(%c : memref<16x130xf32>)
  return
}

// -----

// A schedule can be valid in the IR and still not fit the target: 256 x 256
// tiles with k = 64 need 256 KiB of shared memory in two stages, more than
// the 227 KiB a block of the H100 may have.
func.func @too_big_for_target(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  // expected-error @+1 {{the schedule does not fit the target (sm_80): the tiles need 262144 bytes of shared memory; the target has 166912}}
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 4], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 64>}
      ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}

// -----

// The tensor-core template: f16 operands, f32 accumulators. Warps own
// 32 x 32 tiles (spatial 2 x 2 of 64 x 64), lanes the mma C fragment
// (spatial 8 x 4) and ldmatrix rows (spatial 4 x 8); each thread keeps
// 2 x 4 fragments of 4 accumulators. A (K = 555, not a multiple of 8) is
// loaded an element at a time, B (N = 444) 4 at a time, each predicated;
// both go to shared memory in 16-byte pieces at XOR-swizzled positions,
// then through ldmatrix (B transposed: it is k-major in memory) into
// mma.sync. Shared memory has two stages: each K step loads the next tile
// into registers, runs the mma instructions on one stage, stores the next
// tile to the other and synchronizes once. The fragments are
// double-buffered in registers (2 x 2 of A, 2 x 2 pairs of B, 4 x 8 each):
// both 16-deep steps of a 32-deep tile are read with ldmatrix, the second
// into the other half, before the first step's 2 x 4 mma instructions. Tiles are visited in groups of 4
// rows (swizzle = 4).
// CHECK-LABEL: func.func @mma(
// CHECK:         tm.num_workers #tm.spatial<[1, 1, 42]>
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} {
// CHECK:           %[[AS:.*]] = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[CHUNKS:.*]] = memref.alloc() : memref<4x16x40xf32, #gpu.address_space<workgroup>>
// CHECK:           tm.foreach (%{{.*}}, %{{.*}}, %[[TILE:.*]]) in #tm.spatial<[1, 1, 42]> on block_x {
// CHECK:             arith.divui %[[TILE]], %c28
// CHECK:             arith.minui
// CHECK:             tm.spatial <[2, 2]> on
// CHECK:             tm.spatial <[8, 4]> on
// CHECK:             tm.spatial <[4, 8]> on
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<2x16xf32>
// CHECK:             tm.repeat ({{.*}}) in <[2, 4, 2, 2], unroll = [full, full, full, full]> {
// CHECK:               scf.if
// CHECK:               memref.store %{{.*}}, %[[ACC]]
// CHECK:             %[[FA:.*]] = memref.collapse_shape %arg0
// CHECK:             %[[RA:.*]] = memref.alloca() : memref<2x8xf16>
// CHECK:             tm.spatial <[32, 4]> on
// CHECK:             %[[FB:.*]] = memref.collapse_shape %arg1
// CHECK:             %[[RB:.*]] = memref.alloca() : memref<2x8xf16>
// CHECK:             tm.spatial <[16, 8]> on
// CHECK:             %[[FRA:.*]] = memref.alloca() : memref<4x8xf16>
// CHECK:             %[[FRB:.*]] = memref.alloca() : memref<4x8xf16>
// CHECK:             vector.load %[[FA]][{{.*}}] {alignment = 2 : i64} : memref<184815xf16>, vector<1xf16>
// CHECK:             vector.load %[[FB]][{{.*}}] {alignment = 8 : i64} : memref<246420xf16>, vector<4xf16>
// CHECK:             vector.load %[[RA]]
// CHECK:             arith.xori
// CHECK:             vector.store %{{.*}}, %[[AS]][%c0{{.*}}, {{.*}}] {alignment = 16 : i64}
// CHECK:             vector.store %{{.*}}, %[[BS]][%c0{{.*}}, {{.*}}] {alignment = 16 : i64}
// CHECK:             gpu.barrier
// CHECK:             scf.for %[[T:.*]] = %[[KB:.*]] to %{{.*}} step
// CHECK:               %[[REL:.*]] = arith.subi %[[T]], %[[KB]]
// CHECK:               %[[STAGE:.*]] = arith.remui %[[REL]], %c2
// CHECK:               vector.load %[[FA]]
// CHECK:               vector.store %{{.*}}, %[[RA]]
// CHECK:               vector.load %[[FB]]
// CHECK:               vector.store %{{.*}}, %[[RB]]
// CHECK:               tm.repeat (%[[MI0:.*]]) in <[2]> {
// CHECK:                 %[[SA0:.*]] = arith.addi %c0{{(_[0-9]+)?}}, %[[MI0]] : index
// CHECK:                 nvgpu.ldmatrix %[[AS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xf16>
// CHECK:                 vector.store %{{.*}}, %[[FRA]][%[[SA0]], %{{.*}}] : memref<4x8xf16>, vector<2xf16>
// CHECK:               tm.repeat (%{{.*}}) in <[2]> {
// CHECK:                 nvgpu.ldmatrix %[[BS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = true} : {{.*}} -> vector<4x2xf16>
// CHECK:                 vector.store %{{.*}}, %[[FRB]]
// CHECK-NOT:             nvgpu.mma.sync
// CHECK:               tm.repeat (%[[MI1:.*]]) in <[2]> {
// CHECK:                 %[[SA1:.*]] = arith.addi %c2{{(_[0-9]+)?}}, %[[MI1]] : index
// CHECK:                 nvgpu.ldmatrix %[[AS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x2xf16>
// CHECK:                 vector.store %{{.*}}, %[[FRA]][%[[SA1]], %{{.*}}] : memref<4x8xf16>, vector<2xf16>
// CHECK:               tm.repeat (%{{.*}}) in <[2]> {
// CHECK:                 nvgpu.ldmatrix %[[BS]][%[[STAGE]], {{.*}}] {numTiles = 4 : i32, transpose = true} : {{.*}} -> vector<4x2xf16>
// CHECK-NOT:           nvgpu.ldmatrix
// CHECK:               tm.repeat ({{.*}}) in <[2, 4], unroll = [full, full]> {
// CHECK:                 vector.load %[[FRA]][%{{.*}}, %{{.*}}] : memref<4x8xf16>, vector<2xf16>
// CHECK:                 nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:           nvgpu.ldmatrix
// CHECK:               tm.repeat ({{.*}}) in <[2, 4], unroll = [full, full]> {
// CHECK:                 nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 16]} : (vector<4x2xf16>, vector<2x2xf16>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK-NOT:           nvgpu.ldmatrix
// CHECK:               %[[OTHER:.*]] = arith.subi %c1{{.*}}, %[[STAGE]]
// CHECK:               vector.store %{{.*}}, %[[AS]][%[[OTHER]], {{.*}}] {alignment = 16 : i64}
// CHECK:               vector.store %{{.*}}, %[[BS]][%[[OTHER]], {{.*}}] {alignment = 16 : i64}
// CHECK:               gpu.barrier
// CHECK-NEXT:        }
// The results: each m tile's accumulators into the warp's chunk, then its
// 16 x 32 strip from the chunk to C, 16 elements a lane (a warp's lanes on
// consecutive columns of a row).
// CHECK:             tm.repeat ({{.*}}) in <[4, 2, 2], unroll = [full, full, full]> {
// CHECK:               memref.store %{{.*}}, %[[CHUNKS]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<4x16x40xf32, #gpu.address_space<workgroup>>
// CHECK:             nvvm.bar.warp.sync
// CHECK-COUNT-16:    memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<147852xf32>
// CHECK:             nvvm.bar.warp.sync
// CHECK:             tm.repeat ({{.*}}) in <[4, 2, 2], unroll = [full, full, full]> {
// CHECK:               memref.store %{{.*}}, %[[CHUNKS]]
// CHECK:             nvvm.bar.warp.sync
// CHECK-COUNT-16:    memref.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<147852xf32>
// CHECK:             nvvm.bar.warp.sync
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], swizzle = 4>}
// CHECK-NOT:     linalg.matmul
func.func @mma(%a: memref<333x555xf16>, %b: memref<555x444xf16>, %c: memref<333x444xf32>) {
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], swizzle = 4>}
      ins(%a, %b : memref<333x555xf16>, memref<555x444xf16>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// bf16 goes to nvvm.mma.sync (nvgpu.mma.sync cannot lower bf16 in MLIR
// 22), with the fragments packed in 32-bit registers; bf16 results are
// rounded from the f32 accumulators. Aligned rows (K = N = 256) allow
// 16-byte cp.async copies, so the default schedule has stages and the K
// loop is written for hidet-pipeline-shared-copies.
// HEUR-LABEL: func.func @bf16(
// HEUR:         vector.transfer_read {{.*}} : memref<65536xbf16>, vector<8xbf16>
// HEUR:         vector.transfer_write {{.*}} : vector<8xbf16>, memref<64x64xbf16, #gpu.address_space<workgroup>>
// HEUR:         nvgpu.ldmatrix {{.*}} -> vector<4x2xbf16>
// HEUR:         vector.bitcast {{.*}} : vector<2xbf16> to vector<1xi32>
// HEUR:         nvvm.mma.sync A[{{.*}}] B[{{.*}}] C[{{.*}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>}
// HEUR:         arith.truncf {{.*}} : f32 to bf16
// HEUR:         memref.store {{.*}} : memref<65536xbf16>
func.func @bf16(%a: memref<256x256xbf16>, %b: memref<256x256xbf16>, %c: memref<256x256xbf16>) {
  linalg.matmul ins(%a, %b : memref<256x256xbf16>, memref<256x256xbf16>) outs(%c : memref<256x256xbf16>)
  return
}

// -----

// Transposed operands keep their memory order in shared memory and
// ldmatrix transposes instead: A^T (k-major) is [k][m] and loaded with
// transpose, B^T (n-major, as nn.Linear weights) is [n][k] and loaded
// without.
// CHECK-LABEL: func.func @transposed(
// CHECK:         %[[AS:.*]] = memref.alloc() : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:         %[[BS:.*]] = memref.alloc() : memref<2x64x32xf16, #gpu.address_space<workgroup>>
// CHECK:         nvgpu.ldmatrix %[[AS]][{{.*}}] {numTiles = 4 : i32, transpose = true}
// CHECK:         nvgpu.ldmatrix %[[BS]][{{.*}}] {numTiles = 4 : i32, transpose = false}
func.func @transposed(%a: memref<256x128xf16>, %b: memref<512x256xf16>, %c: memref<128x512xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16]>}
      ins(%a, %b : memref<256x128xf16>, memref<512x256xf16>) outs(%c : memref<128x512xf32>)
  return
}

// -----

// A batch matmul with a broadcast operand (B shared by the batches, as a
// linalg.generic contraction): the batch is the outer grid dimension, and
// B's addresses do not use it.
// CHECK-LABEL: func.func @batch_broadcast(
// CHECK:         tm.num_workers #tm.spatial<[6, 1, 4]>
// CHECK:         tm.foreach (%[[BATCH:.*]], %{{.*}}, %{{.*}}) in #tm.spatial<[6, 1, 4]> on block_x {
// CHECK:           %[[FA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<6x128x64xf16> into memref<49152xf16>
// CHECK:           %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1]] : memref<64x256xf16> into memref<16384xf16>
// A's batch stride is 128 x 64 = 8192 elements; B has none.
// CHECK:           %[[ABATCH:.*]] = arith.muli %[[BATCH]], %c8192
// CHECK:           arith.addi %[[ABATCH]]
// CHECK:           vector.load %[[FA]][{{.*}}] {alignment = 16 : i64} : memref<49152xf16>, vector<8xf16>
// CHECK-NOT:       arith.muli %[[BATCH]]
// CHECK:           vector.load %[[FB]][{{.*}}] {alignment = 16 : i64} : memref<16384xf16>, vector<8xf16>
// CHECK:           nvgpu.mma.sync
// C's batch stride is 128 x 256 = 32768 elements.
// CHECK:           arith.muli %[[BATCH]], %c32768
// CHECK:           memref.store {{.*}} : memref<196608xf16>
#a = affine_map<(b, m, n, k) -> (b, m, k)>
#b = affine_map<(b, m, n, k) -> (k, n)>
#c = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batch_broadcast(%a: memref<6x128x64xf16>, %b: memref<64x256xf16>, %c: memref<6x128x256xf16>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      {hidet.schedule = #hidet.mma_matmul<block = [128, 64, 32], warp = [64, 32], mma = [16, 8, 16]>}
      ins(%a, %b : memref<6x128x64xf16>, memref<64x256xf16>) outs(%c : memref<6x128x256xf16>) {
  ^bb0(%x: f16, %y: f16, %acc: f16):
    %p = arith.mulf %x, %y : f16
    %s = arith.addf %acc, %p : f16
    linalg.yield %s : f16
  }
  return
}

// -----

// linalg.batch_matmul on f32 goes to the SIMT template, batch outermost.
// CHECK-LABEL: func.func @batch_simt(
// CHECK:         %[[FA:.*]] = memref.collapse_shape %arg0
// CHECK:         tm.foreach (%[[BATCH:.*]], %{{.*}}, %{{.*}}) in #tm.spatial<[4, 1, 8]> on block_x {
// CHECK:           arith.muli %[[BATCH]], %c2048
// CHECK:           memref.load %[[FA]][{{.*}}] : memref<8192xf32>
// CHECK:           math.fma
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
func.func @batch_simt(%a: memref<4x64x32xf32>, %b: memref<4x32x64xf32>, %c: memref<4x64x64xf32>) {
  linalg.batch_matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
      ins(%a, %b : memref<4x64x32xf32>, memref<4x32x64xf32>) outs(%c : memref<4x64x64xf32>)
  return
}

// -----

// Convolution through implicit GEMM (NHWC/HWCF, stride 2, dilation 1):
// m = (image, output row, output column), k = (filter row, filter column,
// channel). The im2col addressing is computed in A's loads, never
// materialized, and splits into a part of m (divisions by OH * OW = 64 and
// OW = 8, then img * 17 * 17 * 16 + 2y * 17 * 16 + 2x * 16) and a part of k
// (divisions by C = 16 and KW = 3, then r * 17 * 16 + s * 16 + c), each
// clamped to 0 past its edge, so that the m part is loop-invariant. With
// C = 16 the rows allow 16-byte pieces. The schedule asks for 3 stages: the
// template writes the K loop synchronously (a barrier, masked transfers
// from global memory into one shared tile per operand, a barrier, the math)
// and marks it for hidet-pipeline-shared-copies
// (test/Transforms/Kernel/pipeline-shared-copies.mlir). Past the edges the mask
// is empty (zero-fill).
// CHECK-LABEL: func.func @conv_nhwc(
// CHECK:         gpu.launch
// CHECK:           %[[AS:.*]] = memref.alloc() : memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK:           %[[BS:.*]] = memref.alloc() : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.if %{{.*}} -> (f32)
// CHECK:           %[[FA:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2, 3]] : memref<2x17x17x16xf16> into memref<9248xf16>
// CHECK:           %[[FB:.*]] = memref.collapse_shape %arg1 {{\[\[}}0, 1, 2, 3]] : memref<3x3x16x32xf16> into memref<4608xf16>
// CHECK:           scf.for
// CHECK-NEXT:        gpu.barrier
// CHECK:             %[[INM:.*]] = arith.cmpi ult, %{{.*}}, %c128
// CHECK:             %[[INK:.*]] = arith.cmpi ult, %{{.*}}, %c144
// CHECK:             %[[IN:.*]] = arith.andi %[[INM]], %[[INK]]
// CHECK:             %[[M:.*]] = arith.select %[[INM]], %{{.*}}, %[[ZERO:.*]] : index
// CHECK:             %[[K:.*]] = arith.select %[[INK]], %{{.*}}, %[[ZERO]] : index
// CHECK:             arith.divui %[[M]], %c64
// CHECK:             arith.divui %{{.*}}, %c8
// CHECK:             arith.muli %{{.*}}, %c4624
// CHECK:             arith.muli %{{.*}}, %c544
// CHECK:             arith.muli %{{.*}}, %c32
// CHECK:             arith.divui %[[K]], %c16
// CHECK:             arith.divui %{{.*}}, %c3
// CHECK:             arith.muli %{{.*}}, %c272
// CHECK:             %[[SRCN:.*]] = arith.select %[[IN]], %c8{{.*}}, %c0{{.*}} : index
// CHECK:             %[[MASK:.*]] = vector.create_mask %[[SRCN]] : vector<8xi1>
// CHECK:             %[[V:.*]] = vector.transfer_read %[[FA]][%{{.*}}], %{{.*}}, %[[MASK]] {in_bounds = [true]} : memref<9248xf16>, vector<8xf16>
// CHECK:             vector.transfer_write %[[V]], %[[AS]][%{{.*}}, %{{.*}}] {in_bounds = [true]} : vector<8xf16>, memref<16x64xf16, #gpu.address_space<workgroup>>
// CHECK:             vector.transfer_read %[[FB]]
// CHECK:             vector.transfer_write %{{.*}}, %[[BS]]
// CHECK:             gpu.barrier
// CHECK-NOT:         gpu.barrier
// CHECK:             nvgpu.ldmatrix %[[AS]][%{{.*}}, %{{.*}}]
// CHECK:             nvgpu.mma.sync
// CHECK:           } {hidet.pipeline_stages = 3 : i64}
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8>}
// CHECK-NOT:     linalg.conv_2d
func.func @conv_nhwc(%x: memref<2x17x17x16xf16>, %w: memref<3x3x16x32xf16>, %y: memref<2x8x8x32xf32>) {
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>,
      hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8>}
      ins(%x, %w : memref<2x17x17x16xf16>, memref<3x3x16x32xf16>) outs(%y : memref<2x8x8x32xf32>)
  return
}

// -----

// NCHW/FCHW convolutions too: k = (channel, filter row, filter column), so
// the filter is an F x K matrix (k-major B).
// CHECK-LABEL: func.func @conv_nchw(
// CHECK:         nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false}
// CHECK:         nvgpu.mma.sync
// CHECK-NOT:     linalg.conv_2d
func.func @conv_nchw(%x: memref<1x8x10x10xf16>, %w: memref<16x8x3x3xf16>, %y: memref<1x16x8x8xf16>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x8x10x10xf16>, memref<16x8x3x3xf16>) outs(%y : memref<1x16x8x8xf16>)
  return
}

// -----

// Split-K: each of the 4 slices writes f32 partials to a workspace. With
// split-k-in-kernel=1 (the CHECK lines) each
// of the 4 warps (16 x 16 of the tile) then counts its part in one of the
// kernel's 4 persistent counters; the last to count adds the slices, in
// order, to C's value (no fill: C is read), 4 columns at a time: a lane
// loads both of its pieces (addresses clamped into C) before it stores
// them, each where it lies inside C.
// CHECK-LABEL: func.func @split_k(
// CHECK:         %[[WS:.*]] = memref.alloc() : memref<4x1x16x64xf32>
// CHECK:         tm.foreach (%{{.*}}, %[[SLICE:.*]], %{{.*}}) in #tm.spatial<[1, 4, 1]> on block_x {
// CHECK:           scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK:           memref.store %{{.*}}, %[[WS]][%[[SLICE]], {{.*}}] : memref<4x1x16x64xf32>
// CHECK:           nvvm.memory.barrier <gpu>
// CHECK:           memref.atomic_rmw addi %{{.*}}, %{{.*}}[%{{.*}}] : (i32, memref<4xi32>) -> i32
// CHECK:           gpu.shuffle  idx
// CHECK:           nvvm.memory.barrier <gpu>
// CHECK:           scf.for %{{.*}} = %{{.*}} to %c1{{.*}} step
// CHECK:             %[[R0:.*]] = arith.minui %{{.*}}, %c15
// CHECK:             %[[C0:.*]] = arith.minui %{{.*}}, %c60
// CHECK:             %[[OLD:.*]] = vector.load %[[C:.*]][%{{.*}}] {alignment = 8 : i64} : memref<1024xf16>, vector<4xf16>
// CHECK:             arith.extf %[[OLD]] : vector<4xf16> to vector<4xf32>
// CHECK-COUNT-4:     vector.load %{{.*}} {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK:             vector.load %[[C]]
// CHECK-COUNT-4:     vector.load %{{.*}} {alignment = 16 : i64} : memref<4096xf32>, vector<4xf32>
// CHECK:             scf.if
// CHECK:               %[[H:.*]] = arith.truncf {{.*}} : vector<4xf32> to vector<4xf16>
// CHECK:               vector.store %[[H]], %[[C]]
// CHECK:             scf.if
// CHECK:               vector.store %{{.*}}, %[[C]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 4>}
// CHECK-NEXT:    memref.dealloc %[[WS]]
// By default a second kernel adds the slices.
// SEPARATE-LABEL: func.func @split_k(
// SEPARATE:         %[[WS:.*]] = memref.alloc() : memref<4x1x16x64xf32>
// SEPARATE-NOT:     memref.atomic_rmw
// SEPARATE:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 4>}
// SEPARATE:         tm.foreach (%{{.*}}, %{{.*}}, %{{.*}}) in #tm.spatial<[1, 16, 64]> on global_x {
// SEPARATE-COUNT-4:   memref.load %[[WS]]
// SEPARATE:           arith.truncf {{.*}} : f32 to f16
// SEPARATE:         memref.dealloc %[[WS]]
func.func @split_k(%a: memref<16x2048xf16>, %b: memref<2048x64xf16>, %c: memref<16x64xf16>) {
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 4>}
      ins(%a, %b : memref<16x2048xf16>, memref<2048x64xf16>) outs(%c : memref<16x64xf16>)
  return
}

// -----

// Without a template the op is left, with a remark that says why.
// CHECK-LABEL: func.func @no_template(
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK:         linalg.batch_reduce_matmul
// CHECK:         linalg.matmul
func.func @no_template(%a: memref<64x64xf64>, %b: memref<64x64xf64>, %c: memref<64x64xf64>,
                       %h: memref<64x64xf16>, %f: memref<64x64xf32>,
                       %ba: memref<2x64x64xf32>, %bb: memref<2x64x64xf32>, %d: memref<?x64xf32>) {
  // expected-remark @+1 {{left to the rule-based scheduler: no template for f64 x f64 -> f64 (f32 x f32 -> f32 is SIMT; f16 or bf16 operands with f16, bf16 or f32 results are tensor-core)}}
  linalg.matmul ins(%a, %b : memref<64x64xf64>, memref<64x64xf64>) outs(%c : memref<64x64xf64>)
  // expected-remark @+1 {{no template for f16 x f32 -> f32}}
  linalg.matmul ins(%h, %f : memref<64x64xf16>, memref<64x64xf32>) outs(%f : memref<64x64xf32>)
  // expected-remark @+1 {{the contraction has 0 batch, 1 m, 1 n and 2 k dimensions}}
  linalg.batch_reduce_matmul ins(%ba, %bb : memref<2x64x64xf32>, memref<2x64x64xf32>) outs(%f : memref<64x64xf32>)
  // expected-remark @+1 {{dynamic shapes have no template yet}}
  linalg.matmul ins(%d, %f : memref<?x64xf32>, memref<64x64xf32>) outs(%d : memref<?x64xf32>)
  return
}

// -----

// A schedule of the wrong kind is an error.
func.func @wrong_schedule(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{hidet-select-schedules: 'hidet.schedule' must be a schedule (#hidet.simt_matmul, #hidet.mma_matmul or #hidet.wgmma_matmul), got 3 : i64}}
  linalg.matmul {hidet.schedule = 3} ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

func.func @wrong_schedule_mma(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-error @+1 {{a #hidet.simt_matmul computes f32 x f32 -> f32, but this linalg.matmul is f16 x f16 -> f16 (16-bit operands take #hidet.mma_matmul or #hidet.wgmma_matmul)}}
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A tensor-core schedule that needs more shared memory than the target has.
func.func @mma_too_big(%a: memref<512x512xf16>, %b: memref<512x512xf16>, %c: memref<512x512xf16>) {
  // expected-error @+1 {{the schedule does not fit the target (sm_80): the tiles need 598016 bytes of shared memory; the target has 166912}}
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [256, 256, 64], warp = [64, 64], mma = [16, 8, 16], stages = 8>}
      ins(%a, %b : memref<512x512xf16>, memref<512x512xf16>) outs(%c : memref<512x512xf16>)
  return
}

// -----

// A fill of C right before the anchor (bufferized `C = 0.5; C += A * B`)
// becomes the accumulators' start: the fill is gone and C is only written.
// CHECK-LABEL: func.func @fill_folded(
// CHECK-SAME:    %{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>, %[[C:.*]]: memref<64x64xf16>
// CHECK-NOT:     linalg.fill
// CHECK:         %[[HALF:.*]] = arith.constant 5.000000e-01 : f16
// CHECK-NOT:     memref.load %[[C]]
// CHECK:         %[[FC:.*]] = memref.collapse_shape %[[C]]
// CHECK-NOT:     memref.load %[[FC]]
// CHECK:         %[[INIT:.*]] = arith.extf %[[HALF]] : f16 to f32
// CHECK:         memref.store %[[INIT]], %alloca
// CHECK-NOT:     memref.load %[[FC]]
// CHECK:         memref.store %{{.*}}, %[[FC]]
// CHECK-NOT:     linalg.fill
func.func @fill_folded(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  %half = arith.constant 0.5 : f16
  linalg.fill ins(%half : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// f32 in tf32, asked for by a tensor-core schedule with mma = [16, 8, 8]:
// m16n8k8 with 16-byte pieces of 4 f32. A (k-inner in shared memory) comes
// through ldmatrix as 4 x 1 fragments; B (k-major) cannot, since ldmatrix
// transposes 16-bit values only, so its fragments are read element by
// element.
// CHECK-LABEL: func.func @tf32(
// CHECK:         %[[AS:.*]] = memref.alloc() : memref<2x64x16xf32, #gpu.address_space<workgroup>>
// CHECK:         %[[BS:.*]] = memref.alloc() : memref<2x16x64xf32, #gpu.address_space<workgroup>>
// CHECK:         vector.store %{{.*}}, %[[AS]][{{.*}}] {alignment = 16 : i64} : {{.*}}, vector<4xf32>
// CHECK:         nvgpu.ldmatrix %[[AS]][{{.*}}] {numTiles = 4 : i32, transpose = false} : {{.*}} -> vector<4x1xf32>
// CHECK-COUNT-4: memref.load %[[BS]]
// CHECK:         nvgpu.mma.sync({{.*}}) {mmaShape = [16, 8, 8], tf32Enabled} : (vector<4x1xf32>, vector<2x1xf32>, vector<2x2xf32>) -> vector<2x2xf32>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>}
func.func @tf32(%a: memref<333x555xf32>, %b: memref<555x444xf32>, %c: memref<333x444xf32>) {
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>}
      ins(%a, %b : memref<333x555xf32>, memref<555x444xf32>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// The mma shape must match the operands.
func.func @mma_shape_mismatch(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{mma = [16, 8, 8] does not match the f16 operands of this linalg.matmul; they need [16, 8, 16]}}
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 16], warp = [32, 32], mma = [16, 8, 8]>}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A fill is kept when C is also read as an operand.
// CHECK-LABEL: func.func @fill_kept(
// CHECK:         linalg.fill
// CHECK:         gpu.launch
func.func @fill_kept(%a: memref<64x64xf16>, %c: memref<64x64xf16>) {
  %half = arith.constant 0.5 : f16
  linalg.fill ins(%half : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul ins(%a, %c : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A contraction's input that reshapes a slice of a buffer (ViT's class
// token rows: every 32nd row of the tokens, collapsed to a matrix) is
// addressed in the buffer it views, at the view's row stride (24576
// elements), like any slice: the GEMM gets a template, not the rule-based
// scheduler's loop.
// CHECK-LABEL: func.func @class_token_rows(
// CHECK-SAME:    %[[X:[^:]*]]: memref<128x768xf16>
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[X]] {{\[}}[0, 1]] : memref<128x768xf16> into memref<98304xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<
func.func @class_token_rows(%x: memref<128x768xf16>, %w: memref<768x256xf16>, %c: memref<4x256xf16>) {
  %e = memref.expand_shape %x [[0, 1], [2]] output_shape [4, 32, 768] : memref<128x768xf16> into memref<4x32x768xf16>
  %s = memref.subview %e[0, 0, 0] [4, 1, 768] [1, 1, 1] : memref<4x32x768xf16> to memref<4x1x768xf16, strided<[24576, 768, 1]>>
  %a = memref.collapse_shape %s [[0], [1, 2]] : memref<4x1x768xf16, strided<[24576, 768, 1]>> into memref<4x768xf16, strided<[24576, 1]>>
  linalg.matmul ins(%a, %w : memref<4x768xf16, strided<[24576, 1]>>, memref<768x256xf16>) outs(%c : memref<4x256xf16>)
  return
}
