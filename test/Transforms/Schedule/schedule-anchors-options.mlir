// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors{reduce-block-size=64}))' | FileCheck %s
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors{reduce-block-size=100}))' 2>&1 | FileCheck %s --check-prefix=BAD

// reduce-block-size sets the threads of the split-K reduction kernel.
// CHECK-LABEL: func.func @split(
// CHECK:         gpu.launch
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c64,
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-select-schedules,hidet-schedule-anchors{scatter-max-bytes=-1}))' 2>&1 | FileCheck %s --check-prefix=SCATTER
// BAD: hidet-schedule-anchors: reduce-block-size must be a multiple of 32 in [32, 1024], got 100
// SCATTER: hidet-schedule-anchors: scatter-max-bytes must be at least 0, got -1
func.func @split(%a: memref<16x2048xf16>, %b: memref<2048x64xf16>, %c: memref<16x64xf16>) {
  linalg.matmul {hidet.schedule = #hidet.mma_matmul<block = [16, 64, 64], warp = [16, 16], mma = [16, 8, 16], split_k = 4>}
      ins(%a, %b : memref<16x2048xf16>, memref<2048x64xf16>) outs(%c : memref<16x64xf16>)
  return
}
