// Invalid options are errors that name the option, not crashes.
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{block-size=100}))' 2>&1 | FileCheck %s --check-prefix=BLOCK
// RUN: not hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{transpose-tile=48}))' 2>&1 | FileCheck %s --check-prefix=TILE
// BLOCK: hidet-rule-based-schedule: block-size must be a multiple of 32 in [32, 1024], got 100
// TILE: hidet-rule-based-schedule: transpose-tile must be a power of two of at least 32 (or 1 to disable the tiled rule), got 48
func.func @f(%a: memref<8xf32>, %o: memref<8xf32>) {
  linalg.copy ins(%a : memref<8xf32>) outs(%o : memref<8xf32>)
  return
}
