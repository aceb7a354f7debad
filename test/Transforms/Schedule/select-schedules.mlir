// RUN: hidet-opt %s -split-input-file --hidet-set-target=chip=sm_80 --hidet-select-schedules -verify-diagnostics | FileCheck %s --check-prefix=SM80
// RUN: hidet-opt %s -split-input-file --hidet-set-target=chip=sm_86 --hidet-select-schedules -verify-diagnostics | FileCheck %s --check-prefix=SM86
// RUN: hidet-opt %s -split-input-file --hidet-set-target=chip=sm_90a --hidet-select-schedules -verify-diagnostics | FileCheck %s --check-prefix=SM90A
// RUN: hidet-opt %s -split-input-file --hidet-set-target="chip=sm_90a num-sms=114" --hidet-select-schedules -verify-diagnostics | FileCheck %s --check-prefix=PCIE
// Without a #hidet.target the passes use the default chip, sm_90a.
// RUN: hidet-opt %s -split-input-file --hidet-select-schedules -verify-diagnostics | FileCheck %s --check-prefix=SM90A

// hidet-select-schedules writes the heuristic's schedule on every anchor
// that has a template, for the target: the A100 (sm_80, 108 SMs, 163 KiB
// of shared memory per block), the A40 (sm_86, 84 SMs) and the H100
// (sm_90a, 132 SMs, wgmma). It builds nothing: the ops stay linalg.
// The f32 GEMM's operands allow cp.async: 64 x 128 tiles with 4 stages
// where 128 x 128 ones leave SMs without two blocks (108 and 84 SMs, and
// 114 by balance), else 128 x 128 tiles on 128 threads with 3 stages.
// SM80:  module attributes {hidet.target = #hidet.target<chip = "sm_80">}
// SM80-LABEL: func.func @f32(
// SM80:    linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, stages = 4>}
// SM86-LABEL: func.func @f32(
// SM86:    linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, stages = 4>}
// SM90A-LABEL: func.func @f32(
// SM90A:   linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
// PCIE-LABEL: func.func @f32(
// PCIE:    linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, stages = 4>}
func.func @f32(%a: memref<2048x64xf32>, %b: memref<64x2048xf32>, %c: memref<2048x2048xf32>) {
  linalg.matmul ins(%a, %b : memref<2048x64xf32>, memref<64x2048xf32>) outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// A large f16 GEMM: mma.sync with a 3-stage cp.async pipeline where there
// is no wgmma; on the H100 pingpong 64 x 256 Hopper tiles (16 K steps,
// persistent), on 114 SMs 128 x 128 ones.
// SM80-LABEL: func.func @f16(
// SM80:    linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 128, 64], warp = [64, 64], mma = [16, 8, 16], stages = 3, swizzle = 8>}
// SM90A-LABEL: func.func @f16(
// SM90A:   linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// PCIE-LABEL: func.func @f16(
// PCIE:    linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128], swizzle = 8, persistent = true>}
func.func @f16(%a: memref<4096x1024xf16>, %b: memref<1024x4096xf16>, %c: memref<4096x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<4096x1024xf16>, memref<1024x4096xf16>) outs(%c : memref<4096x4096xf16>)
  return
}

// -----

// 16 rows are less than a warpgroup's 64: mma.sync everywhere, K split
// until the SMs hold two blocks each (16 ways on 108 or 132 SMs, 8 on 84).
// SM80-LABEL: func.func @skinny(
// SM80:    {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8, split_k = 16>}
// SM86-LABEL: func.func @skinny(
// SM86:    {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8, split_k = 8>}
// SM90A-LABEL: func.func @skinny(
// SM90A:   {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], stages = 3, swizzle = 8, split_k = 16>}
func.func @skinny(%a: memref<16x4096xf16>, %b: memref<4096x1024xf16>, %c: memref<16x1024xf16>) {
  linalg.matmul ins(%a, %b : memref<16x4096xf16>, memref<4096x1024xf16>) outs(%c : memref<16x1024xf16>)
  return
}

// -----

// A schedule already on the op (a user's or a tuner's) is kept.
// SM80-LABEL: func.func @written(
// SM80:    {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], swizzle = 4>}
// SM90A-LABEL: func.func @written(
// SM90A:   {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], swizzle = 4>}
func.func @written(%a: memref<256x256xf16>, %b: memref<256x256xf16>, %c: memref<256x256xf16>) {
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], swizzle = 4>}
      ins(%a, %b : memref<256x256xf16>, memref<256x256xf16>) outs(%c : memref<256x256xf16>)
  return
}

// -----

// Ops without a template keep no schedule and are explained.
// SM80-LABEL: func.func @int(
// SM80-NOT:  hidet.schedule
func.func @int(%a: memref<8x8xi32>, %b: memref<8x8xi32>, %c: memref<8x8xi32>) {
  // expected-remark @+1 {{hidet-select-schedules: left to the rule-based scheduler: only floating-point operands have a template}}
  linalg.matmul ins(%a, %b : memref<8x8xi32>, memref<8x8xi32>) outs(%c : memref<8x8xi32>)
  return
}

// -----

// An elementwise prologue on A is applied in registers, which cp.async
// cannot do: the 128 x 128 tiles keep 256 threads and register staging,
// as do the 64 x 128 ones of 108 SMs.
// SM80-LABEL: func.func @f32_prologue(
// SM80:          linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8>}
// SM86-LABEL: func.func @f32_prologue(
// PCIE-LABEL: func.func @f32_prologue(
// SM90A-LABEL: func.func @f32_prologue(
// SM90A:         linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.simt_matmul<block_warps = [4, 2], warp_outer = [2, 2], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8>}
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @f32_prologue(%x: memref<2048x64xf32>, %b: memref<64x2048xf32>, %c: memref<2048x2048xf32>) {
  %a = memref.alloc() : memref<2048x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<2048x64xf32>) outs(%a : memref<2048x64xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<2048x64xf32>, memref<64x2048xf32>) outs(%c : memref<2048x2048xf32>)
  return
}

// -----

// Attention's f32 products on the H100. P V of 384 heads (N = 64): 128 x 64
// tiles, since 128-column tiles would be half padding. Q K^T of 12 heads
// (K = 64, too short to split): 32 x 64 tiles on cp.async, 3 stages.
// SM90A-LABEL: func.func @attention_f32(
// SM90A:         linalg.batch_matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [2, 1], warp_mid = [4, 8], warp_inner = [8, 4], block_k = 8, swizzle = 8, stages = 3>}
// SM90A:         linalg.batch_matmul indexing_maps = {{.*}} {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [4, 4], block_k = 8, swizzle = 8, stages = 3>}
func.func @attention_f32(%p: memref<384x128x128xf32>, %v: memref<384x128x64xf32>, %o: memref<384x128x64xf32>, %q: memref<12x128x64xf32>, %k: memref<12x128x64xf32>, %s: memref<12x128x128xf32>) {
  linalg.batch_matmul ins(%p, %v : memref<384x128x128xf32>, memref<384x128x64xf32>) outs(%o : memref<384x128x64xf32>)
  linalg.batch_matmul indexing_maps = [affine_map<(b, i, j, k) -> (b, i, k)>, affine_map<(b, i, j, k) -> (b, j, k)>, affine_map<(b, i, j, k) -> (b, i, j)>]
      ins(%q, %k : memref<12x128x64xf32>, memref<12x128x64xf32>) outs(%s : memref<12x128x128xf32>)
  return
}
