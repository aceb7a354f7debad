// Invalid options are errors that name the option, not crashes.
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{block-size=100}))' 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{transpose-tile=48}))' 2>&1 | FileCheck %s --check-prefix=TILE
// BLOCK: hidet-rule-based-schedule: block-size must be a multiple of 32 in [32, 1024], got 100
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{transpose-tile=0}))' 2>&1 | FileCheck %s --check-prefix=TILE0
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{vector-bytes=3}))' 2>&1 | FileCheck %s --check-prefix=VECTOR
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{vector-bytes=0}))' 2>&1 | FileCheck %s --check-prefix=VECTOR0
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{row-register-elements=-1}))' 2>&1 | FileCheck %s --check-prefix=ROW
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{block-reduce-min=0}))' 2>&1 | FileCheck %s --check-prefix=BLOCKMIN
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{warp-reduce-min=-5}))' 2>&1 | FileCheck %s --check-prefix=WARPMIN
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{serial-unroll-max=-1}))' 2>&1 | FileCheck %s --check-prefix=UNROLL
// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{vector-bytes=1 transpose-tile=1 row-register-elements=0 serial-unroll-max=0}))' -o /dev/null
// TILE: hidet-rule-based-schedule: transpose-tile must be a power of two of at least 32 (or 1 to disable the tiled rule), got 48
// TILE0: hidet-rule-based-schedule: transpose-tile must be a power of two of at least 32 (or 1 to disable the tiled rule), got 0
// VECTOR: hidet-rule-based-schedule: vector-bytes must be 1, 2, 4, 8 or 16 (1 disables vectorization), got 3
// VECTOR0: hidet-rule-based-schedule: vector-bytes must be 1, 2, 4, 8 or 16 (1 disables vectorization), got 0
// ROW: hidet-rule-based-schedule: row-register-elements must be at least 0, got -1
// BLOCKMIN: hidet-rule-based-schedule: block-reduce-min must be at least 1, got 0
// WARPMIN: hidet-rule-based-schedule: warp-reduce-min must be at least 1, got -5
// UNROLL: hidet-rule-based-schedule: serial-unroll-max must be at least 0, got -1
func.func @f(%a: memref<8xf32>, %o: memref<8xf32>) {
  linalg.copy ins(%a : memref<8xf32>) outs(%o : memref<8xf32>)
  return
}
