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
