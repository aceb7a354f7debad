// RUN: hidet-opt %s -split-input-file -hidet-check-indices | FileCheck %s

// An embedding lookup: the row index comes from the ids. The read takes it
// clamped into [0, 16); one reduction over the ids (collapsed to rows)
// gives ~p for the first position p whose id is out of range, else 0, and
// the function returns it after its result, annotated with the input it
// checks (argument 1), the extent and the node.
// CHECK-LABEL: func.func @gather(
// CHECK-SAME:    %[[TABLE:.*]]: tensor<16x4xf32>, %[[IDS:.*]]: tensor<2x3xi64>)
// CHECK-SAME:    -> (tensor<2x3x4xf32>, tensor<i64> {hidet.check = {extent = 16 : i64, input = 1 : i64, node = "Gather_0"}})
// CHECK:         %[[R:.*]] = linalg.generic
// CHECK-SAME:      ins(%[[IDS]] : tensor<2x3xi64>)
// CHECK-NEXT:    ^bb0(%[[ID:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT:      %[[K:.*]] = arith.index_cast %[[ID]] : i64 to index
// CHECK-NEXT:      %[[J:.*]] = linalg.index 2 : index
// CHECK-DAG:       %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:       %[[C15:.*]] = arith.constant 15 : index
// CHECK:           %[[LO:.*]] = arith.maxsi %[[K]], %[[C0]] : index
// CHECK-NEXT:      %[[IN:.*]] = arith.minsi %[[LO]], %[[C15]] : index
// CHECK-NEXT:      tensor.extract %[[TABLE]][%[[IN]], %[[J]]] : tensor<16x4xf32>
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[IDS]] {{\[}}[0, 1]] : tensor<2x3xi64> into tensor<6xi64>
// CHECK:         %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<i64>)
// CHECK:         %[[STATUS:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["reduction"]}
// CHECK-SAME:      ins(%[[ROWS]] : tensor<6xi64>) outs(%[[ZERO]] : tensor<i64>)
// CHECK-NEXT:    ^bb0(%[[E:.*]]: i64, %[[ACC:.*]]: i64):
// CHECK-NEXT:      %[[P:.*]] = linalg.index 0 : index
// CHECK-NEXT:      %[[KK:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK-NEXT:      %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT:      %[[BAD:.*]] = arith.cmpi uge, %[[KK]], %[[C16]] : index
// CHECK-NEXT:      %[[P64:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK-NEXT:      %[[ONES:.*]] = arith.constant -1 : i64
// CHECK-NEXT:      %[[NOT:.*]] = arith.xori %[[P64]], %[[ONES]] : i64
// CHECK-NEXT:      %[[FINE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[CODE:.*]] = arith.select %[[BAD]], %[[NOT]], %[[FINE]] : i64
// CHECK-NEXT:      %[[MAX:.*]] = arith.maxui %[[CODE]], %[[ACC]] : i64
// CHECK-NEXT:      linalg.yield %[[MAX]] : i64
// CHECK:         return %[[R]], %[[STATUS]] : tensor<2x3x4xf32>, tensor<i64>
#rows = affine_map<(b, t, j) -> (b, t)>
#out = affine_map<(b, t, j) -> (b, t, j)>
func.func @gather(%table: tensor<16x4xf32>, %ids: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [#rows, #out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x3xi64>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%k, %j] : tensor<16x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32> loc("Gather_0")
  return %r : tensor<2x3x4xf32>
}

// -----

// Constant indices whose range, [0, 15], is inside the dimension: no check,
// no clamp, no status.
// CHECK-LABEL: func.func @constant_indices(
// CHECK-SAME:    -> tensor<3x4xf32> {
// CHECK-NOT:     arith.minsi
// CHECK-NOT:     hidet.check
#id2 = affine_map<(i, j) -> (i, j)>
func.func @constant_indices(%table: tensor<16x4xf32>) -> tensor<3x4xf32> {
  %ids = arith.constant dense<[0, 5, 15]> : tensor<3xi64>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(t, j) -> (t)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%k, %j] : tensor<16x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// -----

// Indices from data whose inferred range fits: an i8 widened unsigned is in
// [0, 255], inside 256 rows. Not checked.
// CHECK-LABEL: func.func @narrow_ids(
// CHECK-SAME:    -> tensor<8xf32> {
// CHECK-NOT:     arith.minsi
// CHECK-NOT:     hidet.check
#id1 = affine_map<(i) -> (i)>
func.func @narrow_ids(%table: tensor<256xf32>, %ids: tensor<8xi8>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<8xi8>) outs(%e : tensor<8xf32>) {
  ^bb0(%id: i8, %o: f32):
    %w = arith.extui %id : i8 to i64
    %k = arith.index_cast %w : i64 to index
    %v = tensor.extract %table[%k] : tensor<256xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// The same ids into 255 rows: 255 is out of range, so they are checked.
// CHECK-LABEL: func.func @narrow_ids_one_short(
// CHECK-SAME:    -> (tensor<8xf32>, tensor<i64> {hidet.check = {extent = 255 : i64, input = 1 : i64}})
// CHECK:         arith.minsi
#id1 = affine_map<(i) -> (i)>
func.func @narrow_ids_one_short(%table: tensor<255xf32>, %ids: tensor<8xi8>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<8xi8>) outs(%e : tensor<8xf32>) {
  ^bb0(%id: i8, %o: f32):
    %w = arith.extui %id : i8 to i64
    %k = arith.index_cast %w : i64 to index
    %v = tensor.extract %table[%k] : tensor<255xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// An index computed from the loop position and constants (a reverse, as
// Slice with a negative step imports) does not depend on data: not checked.
// CHECK-LABEL: func.func @from_loops(
// CHECK-SAME:    -> tensor<8xf32> {
// CHECK-NOT:     arith.minsi
// CHECK-NOT:     hidet.check
#id1 = affine_map<(i) -> (i)>
func.func @from_loops(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]}
      outs(%e : tensor<8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %k = arith.subi %c7, %i : index
    %v = tensor.extract %x[%k] : tensor<8xf32>
    linalg.yield %v : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A read at the top level at an index read from an argument: clamped there;
// the status is a 0-d generic that reads the index again.
// CHECK-LABEL: func.func @top_level(
// CHECK-SAME:    %[[TABLE:.*]]: tensor<16xf32>, %[[POS:.*]]: tensor<i32>)
// CHECK-SAME:    -> (tensor<4xf32>, tensor<i64> {hidet.check = {extent = 16 : i64}})
// CHECK:         %[[P:.*]] = tensor.extract %[[POS]][] : tensor<i32>
// CHECK:         %[[K:.*]] = arith.index_cast %[[P]] : i32 to index
// CHECK:         %[[LO:.*]] = arith.maxsi %[[K]], %{{.*}} : index
// CHECK:         %[[IN:.*]] = arith.minsi %[[LO]], %{{.*}} : index
// CHECK:         tensor.extract %[[TABLE]][%[[IN]]] : tensor<16xf32>
// CHECK:         %[[STATUS:.*]] = linalg.generic {indexing_maps = [#{{.*}}], iterator_types = []} outs(%{{.*}} : tensor<i64>)
// CHECK:           %[[PP:.*]] = tensor.extract %[[POS]][] : tensor<i32>
// CHECK:           %[[KK:.*]] = arith.index_cast %[[PP]] : i32 to index
// CHECK:           arith.cmpi uge, %[[KK]], %{{.*}} : index
// CHECK:         return %{{.*}}, %[[STATUS]] : tensor<4xf32>, tensor<i64>
func.func @top_level(%table: tensor<16xf32>, %pos: tensor<i32>) -> tensor<4xf32> {
  %p = tensor.extract %pos[] : tensor<i32>
  %k = arith.index_cast %p : i32 to index
  %v = tensor.extract %table[%k] : tensor<16xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.fill ins(%v : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A dynamic extent is read with tensor.dim and compared with at run time;
// ids read transposed are checked over the reading op's loops (an
// elementwise op of codes, then their reduction), and the status names no
// input: its positions are the op's.
// CHECK-LABEL: func.func @dynamic_extent(
// CHECK-SAME:    -> (tensor<3x2xf32>, tensor<i64> {hidet.check = {}})
// CHECK:         %[[DIM:.*]] = tensor.dim
// CHECK:         linalg.generic
// CHECK:           %[[LAST:.*]] = arith.subi %[[DIM]], %{{.*}} : index
// CHECK:           arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK:         %[[CODES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%{{.*}} : tensor<2x3xi32>) outs(%{{.*}} : tensor<3x2xi64>)
// CHECK:           arith.cmpi uge, %{{.*}}, %[[DIM]] : index
// CHECK:         %[[ROWS:.*]] = tensor.collapse_shape %[[CODES]] {{\[}}[0, 1]] : tensor<3x2xi64> into tensor<6xi64>
// CHECK:         linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[ROWS]] : tensor<6xi64>)
// CHECK:           arith.maxui
#id2 = affine_map<(i, j) -> (i, j)>
func.func @dynamic_extent(%table: tensor<?xf32>, %ids: tensor<2x3xi32>) -> tensor<3x2xf32> {
  %e = tensor.empty() : tensor<3x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2x3xi32>) outs(%e : tensor<3x2xf32>) {
  ^bb0(%id: i32, %o: f32):
    %k = arith.index_cast %id : i32 to index
    %v = tensor.extract %table[%k] : tensor<?xf32>
    linalg.yield %v : f32
  } -> tensor<3x2xf32>
  return %r : tensor<3x2xf32>
}

// -----

// Ids that an argument holds through a widening and a reshape (flat order
// kept): the status names that argument.
// CHECK-LABEL: func.func @through_cast(
// CHECK-SAME:    -> (tensor<6xf32>, tensor<i64> {hidet.check = {extent = 16 : i64, input = 1 : i64, node = "GatherElements_7"}})
#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
func.func @through_cast(%table: tensor<16xf32>, %ids: tensor<2x3xi32>) -> tensor<6xf32> {
  %e64 = tensor.empty() : tensor<2x3xi64>
  %w = linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<2x3xi32>) outs(%e64 : tensor<2x3xi64>) {
  ^bb0(%a: i32, %o: i64):
    %x = arith.extsi %a : i32 to i64
    linalg.yield %x : i64
  } -> tensor<2x3xi64>
  %flat = tensor.collapse_shape %w [[0, 1]] : tensor<2x3xi64> into tensor<6xi64>
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%flat : tensor<6xi64>) outs(%e : tensor<6xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<6xf32> loc("GatherElements_7")
  return %r : tensor<6xf32>
}

// -----

// Constant indices held in a resource blob (as the ONNX importer stores
// them), [0, 5, 15]: in range, not checked; [0, 5, 16]: checked.
// CHECK-LABEL: func.func @resource_indices(
// CHECK-SAME:    -> (tensor<3xf32>, tensor<i64> {hidet.check = {extent = 16 : i64}})
// CHECK:         %[[IN:.*]] = linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<3xi64>)
// CHECK-NOT:       arith.minsi
// CHECK:         } -> tensor<3xf32>
// CHECK:         arith.minsi
#id1 = affine_map<(i) -> (i)>
func.func @resource_indices(%table: tensor<16xf32>) -> tensor<3xf32> {
  %fine = arith.constant dense_resource<fine_ids> : tensor<3xi64>
  %bad = arith.constant dense_resource<bad_ids> : tensor<3xi64>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%fine : tensor<3xi64>) outs(%e : tensor<3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<3xf32>
  %q = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%bad : tensor<3xi64>) outs(%r : tensor<3xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<16xf32>
    %s = arith.addf %o, %v : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %q : tensor<3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      fine_ids: "0x08000000000000000000000005000000000000000F00000000000000",
      bad_ids: "0x08000000000000000000000005000000000000001000000000000000"
    }
  }
#-}

// -----

// Indices in a weight (a constant the exporter computed, which external
// weights pass as an argument: BERT's attention mask gathered at b * s + i)
// are checked like an input's, but the status names no input: a weight is
// not the caller's.
// CHECK-LABEL: func.func @weight_indices(
// CHECK-SAME:    -> (tensor<2x3x4xf32>, tensor<i64> {hidet.check = {extent = 16 : i64, node = "Gather_1"}})
#rowsw = affine_map<(b, t, j) -> (b, t)>
#outw = affine_map<(b, t, j) -> (b, t, j)>
func.func @weight_indices(%table: tensor<16x4xf32>, %ids: tensor<2x3xi64> {hidet.weight = "ids"}) -> tensor<2x3x4xf32> {
  %e = tensor.empty() : tensor<2x3x4xf32>
  %r = linalg.generic {indexing_maps = [#rowsw, #outw], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%ids : tensor<2x3xi64>) outs(%e : tensor<2x3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %j = linalg.index 2 : index
    %v = tensor.extract %table[%k, %j] : tensor<16x4xf32>
    linalg.yield %v : f32
  } -> tensor<2x3x4xf32> loc("Gather_1")
  return %r : tensor<2x3x4xf32>
}
