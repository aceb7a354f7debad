// RUN: hidet-opt %s --hidet-materialize-persistent-counters | FileCheck %s

// Each kernel's counters become a zero-initialized private global named
// after the kernel (renamed when the name is taken: two launches share the
// kernel name here), read with memref.get_global where the op was; the
// launches keep their other ops.
// CHECK-DAG:   memref.global "private" @main_mma_counters : memref<8xi32> = dense<0> {alignment = 4 : i64}
// CHECK-DAG:   memref.global "private" @main_mma_counters_0 : memref<16xi32> = dense<0> {alignment = 4 : i64}
// CHECK-DAG:   memref.global "private" @kernel_counters : memref<2xi32> = dense<0> {alignment = 4 : i64}
// CHECK-LABEL: func.func @main(
// CHECK:         gpu.launch
// CHECK:           %[[A:.*]] = memref.get_global @main_mma_counters{{(_0)?}} : memref<{{8|16}}xi32>
// CHECK:           memref.atomic_rmw addi %{{.*}}, %[[A]]
// CHECK:         gpu.launch
// CHECK:           memref.get_global @main_mma_counters{{(_0)?}} : memref<{{8|16}}xi32>
// CHECK:         gpu.launch
// CHECK:           memref.get_global @kernel_counters : memref<2xi32>
// CHECK-NOT:     hidet.persistent_counters
func.func @main(%i: index) {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) function(@main_mma) {
    %c = hidet.persistent_counters : memref<8xi32>
    %old = memref.atomic_rmw addi %one, %c[%i] : (i32, memref<8xi32>) -> i32
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) function(@main_mma) {
    %c = hidet.persistent_counters : memref<16xi32>
    %old = memref.atomic_rmw addi %one, %c[%i] : (i32, memref<16xi32>) -> i32
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    %c = hidet.persistent_counters : memref<2xi32>
    %old = memref.atomic_rmw addi %one, %c[%i] : (i32, memref<2xi32>) -> i32
    gpu.terminator
  }
  return
}
