// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule))' | FileCheck %s

// Vectors stay aligned or are not used: copying into the interior of a
// padded buffer (rows of 5 floats) cannot use 16-byte vectors, since every
// other row starts 4 bytes past a 16-byte boundary; the same copy into rows
// of 8 floats can.
// CHECK-LABEL: func.func @into_padded_rows_of_5(
// CHECK:         tm.foreach ({{.*}}) in #tm.spatial<[4, 4]> on global_x {
// CHECK-NOT:       vector.
// CHECK:           memref.store
#id = affine_map<(i, j) -> (i, j)>
func.func @into_padded_rows_of_5(%a: memref<4x4xf32>, %p: memref<5x5xf32>) {
  %sub = memref.subview %p[0, 0] [4, 4] [1, 1] : memref<5x5xf32> to memref<4x4xf32, strided<[5, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%sub : memref<4x4xf32, strided<[5, 1]>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// CHECK-LABEL: func.func @into_padded_rows_of_8(
// CHECK:         tm.foreach ({{.*}}) in #tm.spatial<[4, 1]> on global_x {
// CHECK:           vector.load {{.*}} : memref<4x4xf32>, vector<4xf32>
// CHECK:           vector.store {{.*}} : memref<4x4xf32, strided<[8, 1]>>, vector<4xf32>
#id = affine_map<(i, j) -> (i, j)>
func.func @into_padded_rows_of_8(%a: memref<4x4xf32>, %p: memref<5x8xf32>) {
  %sub = memref.subview %p[0, 0] [4, 4] [1, 1] : memref<5x8xf32> to memref<4x4xf32, strided<[8, 1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%sub : memref<4x4xf32, strided<[8, 1]>>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  }
  return
}
