// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{fuse-rows=0},canonicalize,cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{fuse-rows=0 fuse=0}))' | FileCheck %s --check-prefix=OFF

// A reduction is an anchor too: the ops of its #hidet.fusion group that
// follow it are applied to each result in the reduction's kernel. (Row
// groups, off here, would take the first case as a whole as well; they do
// not take column reductions.)

#in = affine_map<(i, j) -> (i, j)>
#out = affine_map<(i, j) -> (i)>
#id = affine_map<(i) -> (i)>

// Row mean then scale, in place then into the output: the warp's leader
// combines the row's sum with the constant of the fill (which folds into
// the kernel), divides by the row length, scales and stores once: one
// kernel, and no temporary.
// CHECK-LABEL: func.func @row_mean_affine(
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT:     memref.alloc
// CHECK:         gpu.launch
// CHECK-NOT:     memref.load %{{.*}} : memref<64xf32>
// CHECK:           scf.if
// CHECK-NEXT:        %[[SUM:.*]] = arith.addf %{{.*}}, %[[ZERO]] : f32
// CHECK-NEXT:        %[[G:.*]] = memref.load %arg1[%[[ROW:.*]]] : memref<64xf32>
// CHECK-NEXT:        %[[MEAN:.*]] = arith.divf %[[SUM]], %{{.*}} : f32
// CHECK-NEXT:        %[[SC:.*]] = arith.mulf %[[MEAN]], %[[G]] : f32
// CHECK-NEXT:        memref.store %[[SC]], %arg2[%[[ROW]]] : memref<64xf32>
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     gpu.launch
// OFF-LABEL: func.func @row_mean_affine(
// OFF-COUNT-4: gpu.launch
func.func @row_mean_affine(%x: memref<64x256xf32>, %g: memref<64xf32>, %out: memref<64xf32>) {
  %z = arith.constant 0.0 : f32
  %n = arith.constant 256.0 : f32
  %acc = memref.alloc() : memref<64xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%acc : memref<64xf32>)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<64x256xf32>) outs(%acc : memref<64xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc : memref<64xf32>) outs(%acc : memref<64xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%a: f32, %o: f32):
    %m = arith.divf %a, %n : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%acc, %g : memref<64xf32>, memref<64xf32>) outs(%out : memref<64xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    linalg.yield %m : f32
  }
  memref.dealloc %acc : memref<64xf32>
  return
}

// -----

#in = affine_map<(i, j) -> (j, i)>
#out = affine_map<(i, j) -> (i)>
#id = affine_map<(i) -> (i)>

// A column max (serial: the reduced dimension is not contiguous) then a
// cast: each thread starts its four columns from the fill's -inf (the fill
// kernel is gone), and its results are truncated and stored to the f16
// output; the f32 temporary is gone.
// CHECK-LABEL: func.func @column_max_cast(
// CHECK-DAG:     %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK-NOT:     memref.alloc(
// CHECK:         gpu.launch
// CHECK:           %[[ACC:.*]] = memref.alloca() : memref<4xf32>
// CHECK-NEXT:      vector.store %[[NINF]], %[[ACC]]
// CHECK:           tm.repeat
// CHECK:             arith.maximumf {{.*}} : vector<4xf32>
// CHECK:           }
// CHECK-NEXT:      %[[R:.*]] = vector.load %[[ACC]]
// CHECK-NEXT:      %[[H:.*]] = arith.truncf %[[R]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:      vector.store %[[H]], %arg1[%{{.*}}] {{.*}} : memref<32xf16>, vector<4xf16>
// CHECK-NOT:     gpu.launch
func.func @column_max_cast(%x: memref<8x32xf32>, %out: memref<32xf16>) {
  %ninf = arith.constant 0xFF800000 : f32
  %acc = memref.alloc() : memref<32xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%ninf : f32) outs(%acc : memref<32xf32>)
  linalg.generic {indexing_maps = [#in, #out], iterator_types = ["parallel", "reduction"]} ins(%x : memref<8x32xf32>) outs(%acc : memref<32xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} {
  ^bb0(%a: f32, %o: f32):
    %s = arith.maximumf %a, %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%acc : memref<32xf32>) outs(%out : memref<32xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%a: f32, %o: f16):
    %h = arith.truncf %a : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %acc : memref<32xf32>
  return
}
