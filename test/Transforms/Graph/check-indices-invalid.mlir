// RUN: hidet-opt %s -split-input-file -hidet-check-indices -verify-diagnostics

// A function that is called cannot return one more result.
#id1 = affine_map<(i) -> (i)>
// expected-error @+1 {{hidet-check-indices: reads at indices that depend on data, which only a public function of one block that nothing calls can check}}
func.func @lookup(%table: tensor<16xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
func.func @caller(%table: tensor<16xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %r = func.call @lookup(%table, %ids) : (tensor<16xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Neither can a private one.
#id1 = affine_map<(i) -> (i)>
// expected-error @+1 {{only a public function of one block that nothing calls can check}}
func.func private @helper(%table: tensor<16xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    %v = tensor.extract %table[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A read inside a region nested in a linalg body.
#id1 = affine_map<(i) -> (i)>
func.func @nested(%table: tensor<16xf32>, %ids: tensor<4xi64>, %flags: tensor<4xi1>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%ids, %flags : tensor<4xi64>, tensor<4xi1>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %f: i1, %o: f32):
    %v = scf.if %f -> f32 {
      %k = arith.index_cast %id : i64 to index
      // expected-error @+1 {{hidet-check-indices: cannot check an index that depends on data inside 'scf.if'}}
      %x = tensor.extract %table[%k] : tensor<16xf32>
      scf.yield %x : f32
    } else {
      %z = arith.constant 0.0 : f32
      scf.yield %z : f32
    }
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// An index computed by an op with a region, which the check cannot clone.
#id1 = affine_map<(i) -> (i)>
func.func @region_index(%table: tensor<16xf32>, %ids: tensor<4xi64>, %flags: tensor<4xi1>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%ids, %flags : tensor<4xi64>, tensor<4xi1>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %f: i1, %o: f32):
    // expected-error @+1 {{hidet-check-indices: cannot check an index computed by 'scf.if'}}
    %k = scf.if %f -> index {
      %a = arith.index_cast %id : i64 to index
      scf.yield %a : index
    } else {
      %z = arith.constant 0 : index
      scf.yield %z : index
    }
    %v = tensor.extract %table[%k] : tensor<16xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// No index is in range of a dimension of extent 0.
#id1 = affine_map<(i) -> (i)>
func.func @empty_table(%table: tensor<0xf32>, %ids: tensor<4xi64>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%ids : tensor<4xi64>) outs(%e : tensor<4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %k = arith.index_cast %id : i64 to index
    // expected-error @+1 {{hidet-check-indices: reads a dimension of extent 0 at an index from data; no index is in range}}
    %v = tensor.extract %table[%k] : tensor<0xf32>
    linalg.yield %v : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// A gather inside a loop: its status could not be returned.
#id1 = affine_map<(i) -> (i)>
func.func @in_loop(%table: tensor<16xf32>, %ids: tensor<4xi64>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %init) -> tensor<4xf32> {
    %g = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
        ins(%ids : tensor<4xi64>) outs(%acc : tensor<4xf32>) {
    ^bb0(%id: i64, %o: f32):
      %k = arith.index_cast %id : i64 to index
      // expected-error @+1 {{hidet-check-indices: cannot check an index that depends on data inside 'scf.for'}}
      %v = tensor.extract %table[%k] : tensor<16xf32>
      %s = arith.addf %o, %v : f32
      linalg.yield %s : f32
    } -> tensor<4xf32>
    scf.yield %g : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
