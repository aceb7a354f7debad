// RUN: rm -rf %t && mkdir %t
// RUN: hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/x3 space=small tf32=1 tf32-terms=3' -o /dev/null
// RUN: FileCheck %s --check-prefix=PLAN < %t/x3/plan.json
// RUN: grep 'mma = \[16, 8, 8\]' %t/x3/plan.json | not grep -v 'tf32_terms = 3'
// RUN: grep '"#hidet.mma_matmul' %t/x3/plan.json | sort | uniq -d | count 0
// RUN: hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tf32=1 tf32-terms=3}))' | FileCheck %s --check-prefix=SELECT
// RUN: not hidet-opt %s --hidet-set-target=chip=sm_90a '--hidet-plan-tuning=dir=%t/y tf32=1 tf32-terms=2' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules{tf32=1 tf32-terms=0}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=BADSELECT

// An f32 matmul on the tensor cores with split operands: the heuristic's
// schedule and every candidate of the small tf32 space carry
// tf32_terms = 3 (64 x 64 warp tiles narrowed to 64 x 32), each once.
// PLAN:      "signature": "linalg.matmul(memref<1024x768xf32>, memref<768x1024xf32>, memref<1024x1024xf32>)
// PLAN:      "candidates": [
// PLAN-NEXT:   "#hidet.mma_matmul<block = [128, 64, 32], warp = [64, 32], mma = [16, 8, 8], stages = 3, swizzle = 8, tf32_terms = 3>",
// SELECT: linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [128, 64, 32], warp = [64, 32], mma = [16, 8, 8], stages = 3, swizzle = 8, tf32_terms = 3>}
// BAD: tf32-terms must be 1 or 3, got 2
// BADSELECT: tf32-terms must be 1 or 3, got 0

func.func @main(%a: memref<1024x768xf32>, %b: memref<768x1024xf32>, %c: memref<1024x1024xf32>) {
  linalg.matmul ins(%a, %b : memref<1024x768xf32>, memref<768x1024xf32>) outs(%c : memref<1024x1024xf32>)
  return
}
