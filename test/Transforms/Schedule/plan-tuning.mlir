// RUN: rm -rf %t && mkdir %t
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/small space=small' | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=PLAN < %t/small/plan.json
// RUN: FileCheck %s --check-prefix=ROUND0 < %t/small/round-0.json
// RUN: FileCheck %s --check-prefix=ROUND3 < %t/small/round-3.json
// RUN: hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tuning-records=%t/small/round-3.json}))' 2>&1 | FileCheck %s --check-prefix=APPLIED
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/default space=default' -o /dev/null
// RUN: ls %t/default | FileCheck %s --check-prefix=DEFAULT
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/known space=small known=%S/Inputs/tuning-known.json' -o /dev/null
// RUN: FileCheck %s --check-prefix=KNOWN < %t/known/plan.json
// RUN: not hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/y known=%t/missing.json' -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOKNOWN
// RUN: not hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/x space=medium' -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPACE
// RUN: not hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%s/cannot space=small' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRITE

// The plan of three anchors: two matmuls of one signature (two nodes of a
// model), one of another, and one whose schedule is written (not tuned).
// The IR is unchanged.
// IR-LABEL: func.func @main(
// IR:         linalg.matmul ins(
// IR-NOT:     hidet.schedule
// IR:         linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>}

// plan.json: one entry per signature, the heuristic's schedule first, the
// kernels of both nodes of the shared signature.
// PLAN:      "format": "hidet-tuning-plan",
// PLAN-NEXT: "version": 1,
// PLAN-NEXT: "chip": "sm_90a",
// PLAN-NEXT: "space": "small",
// PLAN-NEXT: "rounds": {{[1-9][0-9]+}},
// PLAN-NEXT: "known": 0,
// PLAN:      "signature": "linalg.matmul(memref<256x128xf16>, memref<128x512xf16>, memref<256x512xf16>)
// PLAN-NEXT: "kernels": [
// PLAN-NEXT:   "wgmma_q_MatMul",
// PLAN-NEXT:   "splitk_reduce_q_MatMul",
// PLAN-NEXT:   "wgmma_k_MatMul",
// PLAN-NEXT:   "splitk_reduce_k_MatMul"
// PLAN-NEXT: ],
// PLAN-NEXT: "candidates": [
// PLAN-NEXT:   "#hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>",
// PLAN-NEXT:   "#hidet.wgmma_matmul<
// PLAN:      "signature": "linalg.matmul(memref<512x512xf16>, memref<512x512xf16>, memref<512x512xf16>)
// PLAN-NEXT: "kernels": [
// PLAN-NEXT:   "wgmma_ffn_MatMul",
// PLAN-NOT:  "signature"

// Round 0 gives each signature the heuristic's schedule; round 3 the
// fourth candidate, which the selection pass then applies to both nodes.
// ROUND0:      "format": "hidet-tuning-records",
// ROUND0:      "chip": "sm_90a",
// ROUND0-NEXT: "schedule": "#hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>",
// ROUND0-NEXT: "default_schedule": "#hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>",
// ROUND0-NEXT: "tool": "hidet-plan-tuning round 0"
// ROUND3:      "schedule": "#hidet.wgmma_matmul<block = [64, 128], swizzle = 8>",
// ROUND3-NEXT: "default_schedule": "#hidet.wgmma_matmul<block = [64, 64], swizzle = 8, persistent = true>",
// APPLIED:     remark: loc("q/MatMul"): hidet-select-schedules: schedule of tuning record 0 of '{{.*}}round-3.json'
// APPLIED:     remark: loc("k/MatMul"): hidet-select-schedules: schedule of tuning record 0 of '{{.*}}round-3.json'
// APPLIED:     remark: loc("ffn/MatMul"): hidet-select-schedules: schedule of tuning record 1 of '{{.*}}round-3.json'
// APPLIED:     linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], swizzle = 8>} ins(%arg0, %arg1
// APPLIED:     linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [64, 128], swizzle = 8>} ins(%arg0, %arg3

// With known records (Inputs/tuning-known.json), the signature of q and k,
// which it holds a measurement of by this tuner's version, is not planned
// again (2 anchors known); that of ffn, measured by another version, is.
// KNOWN:     "known": 2,
// KNOWN-NOT: "signature": "linalg.matmul(memref<256x128xf16>
// KNOWN:     "signature": "linalg.matmul(memref<512x512xf16>
// NOKNOWN: error: hidet-plan-tuning: cannot read the known records '{{.*}}missing.json': No such file or directory

// DEFAULT:      plan.json
// DEFAULT-NEXT: round-0.json
// DEFAULT-NOT:  round-1.json
// SPACE: error: hidet-plan-tuning: unknown space 'medium' (default, small or full)
// WRITE: error: hidet-plan-tuning: cannot create '{{.*}}cannot': {{.*}}
func.func @main(%a: memref<256x128xf16>, %b: memref<128x512xf16>, %c: memref<256x512xf16>,
                %w: memref<128x512xf16>, %d: memref<256x512xf16>,
                %x: memref<512x512xf16>, %y: memref<512x512xf16>, %z: memref<512x512xf16>,
                %e: memref<512x512xf16>) {
  linalg.matmul ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>) outs(%c : memref<256x512xf16>) loc("q/MatMul")
  linalg.matmul ins(%a, %w : memref<256x128xf16>, memref<128x512xf16>) outs(%d : memref<256x512xf16>) loc("k/MatMul")
  linalg.matmul ins(%x, %y : memref<512x512xf16>, memref<512x512xf16>) outs(%z : memref<512x512xf16>) loc("ffn/MatMul")
  linalg.matmul {hidet.schedule = #hidet.wgmma_matmul<block = [128, 128]>} ins(%x, %y : memref<512x512xf16>, memref<512x512xf16>) outs(%e : memref<512x512xf16>)
  return
}
