// RUN: hidet-opt %s --pass-pipeline='builtin.module(func.func(hidet-copies-to-linalg))' | FileCheck %s

// A copy into a strided view (what bufferizing tensor.pad leaves) becomes
// linalg.copy with the same operands; copies inside kernels are left.
// CHECK-LABEL: func.func @pad_copy(
// CHECK-SAME:    %[[SRC:.*]]: memref<4x4xf32>, %[[DST:.*]]: memref<6x6xf32>
// CHECK:         %[[VIEW:.*]] = memref.subview %[[DST]][1, 1] [4, 4] [1, 1]
// CHECK-NEXT:    linalg.copy ins(%[[SRC]] : memref<4x4xf32>) outs(%[[VIEW]] : memref<4x4xf32, strided<[6, 1], offset: 7>>)
// CHECK:         gpu.launch
// CHECK:           memref.copy
// CHECK-NOT:     memref.copy
func.func @pad_copy(%src: memref<4x4xf32>, %dst: memref<6x6xf32>) {
  %view = memref.subview %dst[1, 1] [4, 4] [1, 1] : memref<6x6xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  memref.copy %src, %view : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1) threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.copy %src, %view : memref<4x4xf32> to memref<4x4xf32, strided<[6, 1], offset: 7>>
    gpu.terminator
  }
  return
}
