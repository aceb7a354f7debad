// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-schedule-anchors{num-sms=1}))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-schedule-anchors))' -verify-diagnostics | FileCheck %s --check-prefix=HEUR

// An f32 matmul without a schedule gets the heuristic's schedule, recorded
// on the kernel: with one SM (num-sms=1) the largest tiles, 128 x 128; with
// the default 132 SMs the 16 x 32 tiles, the largest shape that still gives
// every SM a block (21 x 14 blocks).
// HEUR-LABEL: func.func @default_schedule(
// HEUR:         tm.num_workers #tm.spatial<[21, 14]>
// HEUR:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
// The kernel with the largest tiles: a block per C tile
// (spatial over the 3 x 4 tiles of 333 x 444), the warp and lane positions
// from the spatial factors, the accumulators in a private array addressed by
// the fully unrolled repeat factors, and a K loop that moves the auto_map
// tile loads of A (k-major) and B from registers to shared memory, then
// fetches the next tiles into registers before the FMAs (register double
// buffering), with barriers around the compute.
// CHECK-LABEL: func.func @default_schedule(
// CHECK:         tm.num_workers #tm.spatial<[3, 4]>
// CHECK:         gpu.launch {{.*}} workgroup(%[[AS:.*]] : memref<8x128xf32, #gpu.address_space<workgroup>>, %[[BS:.*]] : memref<8x128xf32, #gpu.address_space<workgroup>>)
// CHECK:           tm.foreach (%{{.*}}, %{{.*}}) in #tm.spatial<[3, 4]> on block_x {
// CHECK:             tm.spatial <[4, 2]> on
// CHECK:             tm.spatial <[4, 8]> on
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<8x8xf32>
// CHECK:             %[[RA:.*]] = memref.alloca() : memref<4xf32>
// CHECK:             tm.spatial <[32, 8]> on
// CHECK:             %[[RB:.*]] = memref.alloca() : memref<4xf32>
// CHECK:             tm.spatial <[2, 128]> on
// CHECK:             scf.for %{{.*}} = %{{.*}} to %[[KT:.*]] step
// CHECK:               memref.load %[[RA]]
// CHECK:               memref.store %{{.*}}, %[[AS]]
// CHECK:               memref.load %[[RB]]
// CHECK:               memref.store %{{.*}}, %[[BS]]
// CHECK:               gpu.barrier
// CHECK:               memref.store %{{.*}}, %[[RA]]
// CHECK:               memref.store %{{.*}}, %[[RB]]
// CHECK:               tm.repeat (%{{.*}}) in <[8], unroll = [full]> {
// CHECK:                 tm.repeat (%{{.*}}, %{{.*}}) in <[2, 2]> {
// CHECK:                   tm.repeat (%{{.*}}, %{{.*}}) in <[4, 4], unroll = [full, full]> {
// CHECK:                     math.fma
// CHECK:               gpu.barrier
// CHECK:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
// CHECK-NOT:     linalg.matmul
func.func @default_schedule(%a: memref<333x555xf32>, %b: memref<555x444xf32>, %c: memref<333x444xf32>) {
  linalg.matmul ins(%a, %b : memref<333x555xf32>, memref<555x444xf32>) outs(%c : memref<333x444xf32>)
  return
}

// -----

// A schedule written on the op overrides the heuristic.
// HEUR-LABEL: func.func @user_schedule(
// HEUR:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
// CHECK-LABEL: func.func @user_schedule(
// CHECK:         workgroup(%{{.*}} : memref<4x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<4x16xf32, #gpu.address_space<workgroup>>)
// CHECK:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
func.func @user_schedule(%a: memref<200x96xf32>, %b: memref<96x72xf32>, %c: memref<200x72xf32>) {
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [1, 2], warp_outer = [1, 1], warp_mid = [8, 4], warp_inner = [2, 2], block_k = 4>}
      ins(%a, %b : memref<200x96xf32>, memref<96x72xf32>) outs(%c : memref<200x72xf32>)
  return
}

// -----

// A large output gets 128 x 128 tiles with the default 132 SMs.
// HEUR-LABEL: func.func @large(
// HEUR:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8>}
// CHECK-LABEL: func.func @large(
func.func @large(%a: memref<2048x64xf32>, %b: memref<64x2048xf32>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x64xf32>, memref<64x2048xf32>) outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// A 16 x 130 output gets the smallest tiles (no shape gives 132 blocks).
// HEUR-LABEL: func.func @small(
// HEUR:         } {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
// CHECK-LABEL: func.func @small(
func.func @small(%a: memref<16x300xf32>, %b: memref<300x130xf32>, %c: memref<16x130xf32>) {
  linalg.matmul ins(%a, %b : memref<16x300xf32>, memref<300x130xf32>) outs(%c : memref<16x130xf32>)
  return
}

// -----

// Without a template (f16 so far) the op is left, with a remark.
// CHECK-LABEL: func.func @no_template(
// CHECK:         linalg.matmul
func.func @no_template(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-remark @+1 {{left to the rule-based scheduler: only f32 has a template yet (the SIMT one)}}
  linalg.matmul ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A schedule of the wrong kind is an error.
func.func @wrong_schedule(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  // expected-error @+1 {{'hidet.schedule' of a linalg.matmul must be a #hidet.simt_matmul, got 3 : i64}}
  linalg.matmul {hidet.schedule = 3} ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// A schedule can be valid in the IR and still not fit the target: 128 x 128
// tiles with k = 64 need 64 KiB of shared memory.
func.func @too_big_for_target(%a: memref<512x512xf32>, %b: memref<512x512xf32>, %c: memref<512x512xf32>) {
  // expected-error @+1 {{the schedule does not fit the target: the tiles need 65536 bytes of shared memory; the target has 49152}}
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [4, 4], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 2], block_k = 64>}
      ins(%a, %b : memref<512x512xf32>, memref<512x512xf32>) outs(%c : memref<512x512xf32>)
  return
}
