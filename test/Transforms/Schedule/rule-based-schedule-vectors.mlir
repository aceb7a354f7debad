// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule))' | FileCheck %s

// Vector widths of the rule-based kernels. Vectors stay aligned or are not
// used: copying into the interior of a padded buffer (rows of 5 floats)
// cannot use 16-byte vectors, since every other row starts 4 bytes past a
// 16-byte boundary; the same copy into rows of 8 floats can.
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

// -----

// Memory vectors of i1 would be bit-packed (vector<4xi1> is one byte) while
// i1 buffers hold a byte per element: ops with i1 operands stay scalar.
// CHECK-LABEL: func.func @is_nan(
// CHECK:         tm.foreach ({{.*}}) in #tm.spatial<[64]> on global_x {
// CHECK-NOT:       vector.
// CHECK:           arith.cmpf uno, %{{.*}}, %{{.*}} : f32
// CHECK:           memref.store %{{.*}}, %{{.*}} : memref<64xi1>
#id1 = affine_map<(i) -> (i)>
func.func @is_nan(%a: memref<64xf32>, %o: memref<64xi1>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<64xf32>) outs(%o : memref<64xi1>) {
  ^bb0(%x: f32, %y: i1):
    %n = arith.cmpf uno, %x, %x : f32
    linalg.yield %n : i1
  }
  return
}
