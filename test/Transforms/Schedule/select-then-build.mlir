// The schedule is chosen by one pass and built by another, so a user (or a
// tuner) can read and edit it in between: here the heuristic's pingpong
// 64 x 256 Hopper tiles are replaced by cooperative 128 x 256 ones, and the
// kernel is built with the edited schedule.
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a --hidet-select-schedules | FileCheck %s --check-prefix=SELECTED
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a --hidet-select-schedules \
// RUN:   | sed 's/block = \[64, 256\], swizzle = 8, persistent = true, pingpong = true/block = [128, 256], stages = 3, swizzle = 8/' \
// RUN:   | hidet-opt --hidet-schedule-anchors | FileCheck %s --check-prefix=EDITED
// An edit that no longer fits the target is caught when the kernel is built.
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a --hidet-select-schedules \
// RUN:   | sed 's/block = \[64, 256\], swizzle = 8, persistent = true, pingpong = true/block = [256, 256], stages = 8/' \
// RUN:   | not hidet-opt --hidet-schedule-anchors 2>&1 | FileCheck %s --check-prefix=MISFIT
// So is a target that lacks the schedule's instructions.
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a --hidet-select-schedules \
// RUN:   | sed 's/chip = "sm_90a"/chip = "sm_80"/' \
// RUN:   | not hidet-opt --hidet-schedule-anchors 2>&1 | FileCheck %s --check-prefix=CHIP
// Without a schedule, hidet-schedule-anchors leaves the op alone (for the
// rule-based scheduler).
// RUN: hidet-opt %s --hidet-schedule-anchors | FileCheck %s --check-prefix=NONE

// SELECTED: linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 256], swizzle = 8, persistent = true, pingpong = true>}
// EDITED-NOT:  linalg.matmul
// EDITED:      gpu.launch
// EDITED:      } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul<block = [128, 256], stages = 3, swizzle = 8>}
// EDITED-NOT:  linalg.matmul
// MISFIT: error: hidet-schedule-anchors: the schedule does not fit the target (sm_90a): the tiles need 574464 bytes of shared memory; the target has 232448
// CHIP: error: hidet-schedule-anchors: the schedule does not fit the target (sm_80): a #hidet.wgmma_matmul schedule needs wgmma (sm_90a), which sm_80 lacks
// NONE-NOT: gpu.launch
// NONE: linalg.matmul ins
func.func @f16(%a: memref<4096x1024xf16>, %b: memref<1024x4096xf16>, %c: memref<4096x4096xf16>) {
  linalg.matmul ins(%a, %b : memref<4096x1024xf16>, memref<1024x4096xf16>) outs(%c : memref<4096x4096xf16>)
  return
}
