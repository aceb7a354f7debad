// RUN: mlir-opt %s --load-dialect-plugin=%hidet_libs/HidetPlugin%shlibext --load-pass-plugin=%hidet_libs/HidetPlugin%shlibext --pass-pipeline='builtin.module(convert-tm-to-scf, cse)' --allow-unregistered-dialect | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%hidet_libs/HidetPlugin%shlibext --allow-unregistered-dialect | mlir-opt --load-dialect-plugin=%hidet_libs/HidetPlugin%shlibext --allow-unregistered-dialect | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt %s --load-dialect-plugin=%hidet_libs/HidetPlugin%shlibext --load-pass-plugin=%hidet_libs/HidetPlugin%shlibext --pass-pipeline='builtin.module(tm-print-task-table{workers=0,13})' --allow-unregistered-dialect -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: not mlir-opt %s --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// The Hidet plugin loaded into the stock mlir-opt provides the tm dialect
// and the Hidet passes. A pass of a pass plugin is not a command-line flag
// of mlir-opt (its flags are fixed before the plugin loads), so the passes
// run through --pass-pipeline.

// NOPLUGIN: Dialect `tm' not found for custom op 'tm.foreach'

// CHECK-LABEL: func.func @spatial_4x8_through_plugin(
// CHECK-SAME: %[[W:[^:]*]]: index
// CHECK-NOT: tm.
// CHECK: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[I:.*]] = arith.divui %[[W]], %[[C8]] : index
// CHECK: %[[J:.*]] = arith.remui %[[W]], %[[C8]] : index
// CHECK: "plugin_test.use"(%[[I]], %[[J]]) : (index, index) -> ()
// CHECK: %[[C4:.*]] = arith.constant 4 : index
// CHECK: %[[I1:.*]] = arith.addi %[[I]], %[[C4]] : index
// CHECK: "plugin_test.use"(%[[I1]], %[[J]]) : (index, index) -> ()
// CHECK-NOT: tm.

// ROUNDTRIP-LABEL: func.func @spatial_4x8_through_plugin(
// ROUNDTRIP: tm.foreach (%{{.*}}, %{{.*}}) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> on %{{.*}} upper_bound 32 {
// ROUNDTRIP: %{{.*}} = tm.num_workers #tm.compose<repeat<[4, 1]> * spatial<[2, 32]>>

// TABLE: mapping #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> (tm.foreach)
// TABLE-NEXT: num_workers = 32, task_shape = [8, 8], tasks_per_worker = 2
// TABLE-NEXT: worker 0: (0, 0) (4, 0){{$}}
// TABLE-NEXT: worker 13: (1, 5) (5, 5){{$}}
// TABLE-NEXT: mapping #tm.compose<repeat<[4, 1]> * spatial<[2, 32]>> (tm.num_workers)
// TABLE-NEXT: num_workers = 64, task_shape = [8, 32], tasks_per_worker = 4
// TABLE-NEXT: worker 0: (0, 0) (2, 0) (4, 0) (6, 0){{$}}
// TABLE-NEXT: worker 13: (0, 13) (2, 13) (4, 13) (6, 13){{$}}
func.func @spatial_4x8_through_plugin(%w: index) -> index {
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> on %w upper_bound 32 {
    "plugin_test.use"(%i, %j) : (index, index) -> ()
  }
  %n = tm.num_workers #tm.auto_map<[8, 32], workers = 64>
  return %n : index
}
