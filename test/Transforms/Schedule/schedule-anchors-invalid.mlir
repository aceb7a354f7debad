// RUN: hidet-opt %s -split-input-file --hidet-schedule-anchors -verify-diagnostics

// hidet-schedule-anchors reads only schedules: anything else written as
// hidet.schedule is an error naming it.
func.func @not_a_schedule(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-error @+1 {{hidet-schedule-anchors: 'hidet.schedule' must be a schedule (#hidet.simt_matmul, #hidet.mma_matmul or #hidet.wgmma_matmul), got #hidet.target<chip = "sm_80">}}
  linalg.matmul {hidet.schedule = #hidet.target<chip = "sm_80">}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// A schedule of the wrong template is rejected when built, as when selected.
func.func @wrong_template(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %c: memref<64x64xf16>) {
  // expected-error @+1 {{hidet-schedule-anchors: a #hidet.simt_matmul computes f32 x f32 -> f32, but this linalg.matmul is f16 x f16 -> f16}}
  linalg.matmul {hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8>}
      ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  return
}

// -----

// cp.async copies raw bytes: a SIMT schedule with stages cannot take an
// operand whose elementwise prologue is applied to the loaded values.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @stages_with_prologue(%x: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<64x32xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<64x32xf32>) outs(%a : memref<64x32xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%c : memref<64x64xf32>)
  // expected-error @+1 {{hidet-schedule-anchors: stages = 3 needs cp.async: an elementwise prologue is applied to the loaded values in registers, and cp.async copies raw bytes}}
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.simt_matmul<block_warps = [2, 2], warp_outer = [1, 1], warp_mid = [4, 8], warp_inner = [2, 2], block_k = 8, stages = 3>}
      ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  return
}
