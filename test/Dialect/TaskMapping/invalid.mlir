// RUN: hidet-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect

// One split per diagnostic of the tm attribute parsers and verifiers and of
// the tm op parsers and verifiers.

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

// The factors of a composition must have the same rank.
func.func @compose_rank_mismatch() {
  // expected-error @+1 {{rank mismatch in composition: factor 1 has rank 1 but factor 0 has rank 2}}
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]> * repeat<[4]>>} : () -> ()
  return
}

// -----

// The rank mismatch is reported for the first offending factor.
func.func @compose_rank_mismatch_third_factor() {
  // expected-error @+1 {{rank mismatch in composition: factor 2 has rank 3 but factor 0 has rank 2}}
  "test.mapping"() {m = #tm.compose<repeat<[2, 1]> * spatial<[4, 8]> * repeat<[1, 2, 1]>>} : () -> ()
  return
}

// -----

// ranks must be a permutation: an entry beyond the rank.
func.func @ranks_out_of_range() {
  // expected-error @+1 {{ranks [0, 2] is not a permutation of [0, 2): 2 is out of range}}
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks = [0, 2]>} : () -> ()
  return
}

// -----

// ranks must be a permutation: a negative entry.
func.func @ranks_negative() {
  // expected-error @+1 {{ranks [-1, 0] is not a permutation of [0, 2): -1 is out of range}}
  "test.mapping"() {m = #tm.repeat<[4, 8], ranks = [-1, 0]>} : () -> ()
  return
}

// -----

// ranks must be a permutation: a repeated entry.
func.func @ranks_duplicate() {
  // expected-error @+1 {{ranks [1, 1] is not a permutation: 1 appears twice}}
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks = [1, 1]>} : () -> ()
  return
}

// -----

// ranks needs one entry per dimension.
func.func @ranks_wrong_length() {
  // expected-error @+1 {{ranks has 1 entries but the task shape has rank 2}}
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks = [0]>} : () -> ()
  return
}

// -----

// An explicit empty ranks list is an error, not a request for the default
// (row-major) order.
func.func @ranks_empty() {
  // expected-error @+1 {{ranks has 0 entries but the task shape has rank 2}}
  "test.mapping"() {m = #tm.repeat<[4, 8], ranks = []>} : () -> ()
  return
}

// -----

// An explicit empty ranks list of auto_map is wrong too.
func.func @auto_map_ranks_empty() {
  // expected-error @+1 {{ranks has 0 entries but the task shape has rank 2}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 64, ranks = []>} : () -> ()
  return
}

// -----

// Extents must be positive.
func.func @extent_negative() {
  // expected-error @+1 {{extent of dimension 0 must be positive, got -4}}
  "test.mapping"() {m = #tm.spatial<[-4, 8]>} : () -> ()
  return
}

// -----

// A zero extent is rejected.
func.func @extent_zero() {
  // expected-error @+1 {{extent of dimension 1 must be positive, got 0}}
  "test.mapping"() {m = #tm.repeat<[4, 0]>} : () -> ()
  return
}

// -----

// A task shape has at least one dimension.
func.func @shape_empty() {
  // expected-error @+1 {{task shape must have at least one dimension}}
  "test.mapping"() {m = #tm.spatial<[]>} : () -> ()
  return
}

// -----

// The number of tasks is bounded (this guards the products against overflow).
func.func @shape_too_large() {
  // expected-error @+1 {{task shape [1099511627776, 2] has more than 2^40 tasks}}
  "test.mapping"() {m = #tm.repeat<[1099511627776, 2]>} : () -> ()
  return
}

// -----

// The product over the factors of a composition is bounded too.
func.func @compose_too_large() {
  // expected-error @+1 {{composition has more than 2^40 workers or tasks}}
  "test.mapping"() {m = #tm.compose<spatial<[1048576]> * spatial<[1048576]> * spatial<[2]>>} : () -> ()
  return
}

// -----

// An unroll factor spelled as a number must be at least 2.
func.func @unroll_factor_one() {
  // expected-error @+1 {{unroll factor must be at least 2, got 1 (write 'none' or 'full')}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [1, none]>} : () -> ()
  return
}

// -----

// 0 is not a factor either.
func.func @unroll_factor_zero() {
  // expected-error @+1 {{unroll factor must be at least 2, got 0 (write 'none' or 'full')}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [none, 0]>} : () -> ()
  return
}

// -----

// Only none, full and factors are unroll hints.
func.func @unroll_unknown_keyword() {
  // expected-error @+1 {{expected 'none', 'full' or an unroll factor, got 'sometimes'}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [none, sometimes]>} : () -> ()
  return
}

// -----

// unroll needs one hint per dimension.
func.func @unroll_wrong_length() {
  // expected-error @+1 {{unroll has 1 entries but the task shape has rank 2}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [none]>} : () -> ()
  return
}

// -----

// A spatial mapping has no loops to unroll.
func.func @spatial_with_unroll() {
  // expected-error @+1 {{unknown key 'unroll'}}
  "test.mapping"() {m = #tm.spatial<[4, 8], unroll = [none, none]>} : () -> ()
  return
}

// -----

// Unknown keys are rejected.
func.func @unknown_key() {
  // expected-error @+1 {{unknown key 'order'}}
  "test.mapping"() {m = #tm.repeat<[4, 8], order = [1, 0]>} : () -> ()
  return
}

// -----

// A key may appear once; a repeated key is reported as such, not as a list
// of the wrong length (the two lists concatenated: "ranks has 4 entries").
func.func @duplicate_key() {
  // expected-error @+1 {{duplicate key 'ranks'}}
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks = [1, 0], ranks = [0, 1]>} : () -> ()
  return
}

// -----

// unroll may appear once.
func.func @duplicate_unroll() {
  // expected-error @+1 {{duplicate key 'unroll'}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [none, full], unroll = [full, full]>} : () -> ()
  return
}

// -----

// auto_map fails when the task count is not a multiple of the worker count
// (Hidet's auto_map(8, 41, workers=64)).
func.func @auto_map_cannot_divide() {
  // expected-error @+1 {{auto_map cannot distribute the 328 tasks of shape [8, 41] over 64 workers: the task count is not a multiple of the worker count}}
  "test.mapping"() {m = #tm.auto_map<[8, 41], workers = 64>} : () -> ()
  return
}

// -----

// auto_map needs the number of workers.
func.func @auto_map_missing_workers() {
  // expected-error @+1 {{auto_map needs 'workers = N'}}
  "test.mapping"() {m = #tm.auto_map<[8, 32]>} : () -> ()
  return
}

// -----

// The number of workers of auto_map must be positive.
func.func @auto_map_zero_workers() {
  // expected-error @+1 {{number of workers must be positive, got 0}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 0>} : () -> ()
  return
}

// -----

// auto_map checks its ranks like a leaf mapping.
func.func @auto_map_bad_ranks() {
  // expected-error @+1 {{ranks [0, 0] is not a permutation: 0 appears twice}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 64, ranks = [0, 0]>} : () -> ()
  return
}

// -----

// auto_map has no other keys.
func.func @auto_map_unknown_key() {
  // expected-error @+1 {{unknown key 'unroll'}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 64, unroll = [none, none]>} : () -> ()
  return
}

// -----

// workers may appear once.
func.func @auto_map_duplicate_workers() {
  // expected-error @+1 {{duplicate key 'workers'}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 64, workers = 32>} : () -> ()
  return
}

// -----

// A projected dimension must exist.
func.func @project_dim_out_of_range() {
  // expected-error @+1 {{projected dimension 2 is out of range for a task shape of rank 2}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dims = [2]>} : () -> ()
  return
}

// -----

// A negative dimension does not exist either.
func.func @project_dim_negative() {
  // expected-error @+1 {{projected dimension -1 is out of range for a task shape of rank 2}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dims = [-1]>} : () -> ()
  return
}

// -----

// A dimension is projected once.
func.func @project_dim_duplicate() {
  // expected-error @+1 {{projected dimension 1 appears twice}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dims = [1, 1]>} : () -> ()
  return
}

// -----

// A projection projects something.
func.func @project_no_dims() {
  // expected-error @+1 {{projection needs at least one dimension}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dims = []>} : () -> ()
  return
}

// -----

// Factors are spatial, repeat, compose, project or auto_map.
func.func @compose_unknown_mapping_keyword() {
  // expected-error @+1 {{unknown task mapping 'banana'; expected spatial, repeat, compose, project or auto_map}}
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]> * banana<[2, 2]>>} : () -> ()
  return
}

// -----

// A factor written as an attribute must be a task mapping.
func.func @compose_non_mapping_factor() {
  // expected-error @+1 {{expected a task mapping, got 42 : i64}}
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]> * 42>} : () -> ()
  return
}

// -----

// The base of a projection must be a task mapping.
func.func @project_non_mapping_base() {
  // expected-error @+1 {{expected a task mapping, got "x"}}
  "test.mapping"() {m = #tm.project<"x", dims = [0]>} : () -> ()
  return
}

// -----

// Unknown attribute mnemonics of the dialect.
func.func @unknown_attribute() {
  // expected-error @+1 {{unknown attribute '#tm.banana'}}
  "test.mapping"() {m = #tm.banana<[4]>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// tm.foreach
//===----------------------------------------------------------------------===//

// -----

// The body takes one index per task dimension.
func.func @foreach_wrong_index_count(%w: index) {
  // expected-error @+1 {{'tm.foreach' op body has 1 task indices but the mapping's task shape has rank 2}}
  tm.foreach (%i) in #tm.spatial<[4, 8]> on %w {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// The task indices have type index.
func.func @foreach_index_not_index(%w: index) {
  // expected-error @+1 {{'tm.foreach' op task index #1 must have type 'index', got 'i32'}}
  "tm.foreach"(%w) <{mapping = #tm.spatial<[4, 8]>}> ({
  ^bb0(%i: index, %j: i32):
    "tm.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// upper_bound 32 cannot run the 64 workers of the mapping.
func.func @foreach_more_workers_than_upper_bound(%w: index) {
  // expected-error @+1 {{'tm.foreach' op mapping needs 64 workers but the worker range has only 32; the tasks of workers 32..63 would never run}}
  tm.foreach (%i) in #tm.spatial<[64]> on %w upper_bound 32 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// upper_bound must be positive.
func.func @foreach_upper_bound_zero(%w: index) {
  // expected-error @+1 {{'tm.foreach' op attribute 'upper_bound' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  tm.foreach (%i) in #tm.spatial<[64]> on %w upper_bound 0 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// gpu.thread_id in a gpu.func with a known block size of 16 threads.
gpu.module @kernels {
  gpu.func @foreach_thread_id_known_block_size_too_small() kernel
      attributes {known_block_size = array<i32: 16, 1, 1>} {
    %tid = gpu.thread_id x
    // expected-error @+1 {{'tm.foreach' op mapping needs 32 workers but the worker range has only 16; the tasks of workers 16..31 would never run}}
    tm.foreach (%i) in #tm.spatial<[32]> on %tid {
      "test.use"(%i) : (index) -> ()
    }
    gpu.return
  }
}

// -----

// The thread_x keyword sees the known block size of its gpu.func.
gpu.module @kernels {
  gpu.func @foreach_thread_x_known_block_size_too_small() kernel
      attributes {known_block_size = array<i32: 64, 2, 1>} {
    // expected-error @+1 {{'tm.foreach' op mapping needs 4 workers but the worker range has only 2; the tasks of workers 2..3 would never run}}
    tm.foreach (%i) in #tm.spatial<[4]> on thread_y {
      "test.use"(%i) : (index) -> ()
    }
    gpu.return
  }
}

// -----

// warp is thread_x / 32: 64 threads are 2 warps.
gpu.module @kernels {
  gpu.func @foreach_warp_known_block_size_too_small() kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    // expected-error @+1 {{'tm.foreach' op mapping needs 4 workers but the worker range has only 2; the tasks of workers 2..3 would never run}}
    tm.foreach (%i) in #tm.spatial<[4]> on warp {
      "test.use"(%i) : (index) -> ()
    }
    gpu.return
  }
}

// -----

// A warp has 32 lanes.
func.func @foreach_lane_more_than_32_workers() {
  // expected-error @+1 {{'tm.foreach' op mapping needs 64 workers but the worker range has only 32; the tasks of workers 32..63 would never run}}
  tm.foreach (%i) in #tm.spatial<[64]> on lane {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// thread_x inside a gpu.launch with a constant block size of 16.
func.func @foreach_thread_x_in_launch_too_small() {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'tm.foreach' op mapping needs 32 workers but the worker range has only 16; the tasks of workers 16..31 would never run}}
    tm.foreach (%i) in #tm.spatial<[32]> on thread_x {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// global_x inside a gpu.launch of 2 blocks of 16 threads.
func.func @foreach_global_x_in_launch_too_small() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    // expected-error @+1 {{'tm.foreach' op mapping needs 64 workers but the worker range has only 32; the tasks of workers 32..63 would never run}}
    tm.foreach (%i) in #tm.spatial<[64]> on global_x {
      "test.use"(%i) : (index) -> ()
    }
    gpu.terminator
  }
  return
}

// -----

// The generic form must name a worker.
func.func @foreach_without_worker() {
  // expected-error @+1 {{'tm.foreach' op needs exactly one worker: an SSA value or a GPU worker}}
  "tm.foreach"() <{mapping = #tm.spatial<[4]>}> ({
  ^bb0(%i: index):
    "tm.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// ... and only one.
func.func @foreach_with_two_workers(%w: index) {
  // expected-error @+1 {{'tm.foreach' op needs exactly one worker: an SSA value or a GPU worker}}
  "tm.foreach"(%w) <{mapping = #tm.spatial<[4]>, gpu_worker = #tm<gpu_worker lane>}> ({
  ^bb0(%i: index):
    "tm.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// The GPU worker keywords are those of #tm.gpu_worker.
func.func @foreach_unknown_gpu_worker() {
  // expected-error @+1 {{expected an SSA worker or a GPU worker (thread_x, thread_y, thread_z, block_x, block_y, block_z, lane, warp, global_x), got 'thread_w'}}
  tm.foreach (%i) in #tm.spatial<[4]> on thread_w {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// The mapping of tm.foreach must be a task mapping.
func.func @foreach_non_mapping_attribute(%w: index) {
  // expected-error @+1 {{expected a task mapping attribute, got 42 : i64}}
  tm.foreach (%i) in 42 on %w {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// A GPU worker attribute is not a mapping.
func.func @foreach_gpu_worker_as_mapping(%w: index) {
  // expected-error @+1 {{expected a task mapping attribute, got #tm<gpu_worker lane>}}
  tm.foreach (%i) in #tm<gpu_worker lane> on %w {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// The generic form checks the attribute kind too.
func.func @foreach_generic_non_mapping(%w: index) {
  // expected-error @+1 {{Invalid attribute `mapping` in property conversion: 42 : i64}}
  "tm.foreach"(%w) <{mapping = 42 : i64}> ({
  ^bb0(%i: index):
    "tm.yield"() : () -> ()
  }) : (index) -> ()
  return
}

//===----------------------------------------------------------------------===//
// tm.repeat, tm.spatial, tm.task_shape, tm.num_workers
//===----------------------------------------------------------------------===//

// -----

// tm.repeat takes one index per task dimension.
func.func @repeat_wrong_index_count() {
  // expected-error @+1 {{'tm.repeat' op body has 2 task indices but the mapping's task shape has rank 1}}
  tm.repeat (%i, %j) in <[4]> {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// -----

// tm.repeat holds a #tm.repeat, not another mapping.
func.func @repeat_op_with_spatial_mapping() {
  // expected-error @+1 {{Invalid attribute `mapping` in property conversion: #tm.spatial<[4]>}}
  "tm.repeat"() <{mapping = #tm.spatial<[4]>}> ({
  ^bb0(%i: index):
    "tm.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// tm.spatial has one result per task dimension.
func.func @spatial_op_wrong_result_count(%w: index) {
  // expected-error @+1 {{'tm.spatial' op has 3 results but the mapping's task shape has rank 2}}
  %a:3 = "tm.spatial"(%w) <{mapping = #tm.spatial<[4, 8]>}> : (index) -> (index, index, index)
  return
}

// -----

// tm.task_shape has one result per task dimension.
func.func @task_shape_wrong_result_count() {
  // expected-error @+1 {{'tm.task_shape' op has 1 results but the mapping's task shape has rank 2}}
  %a = "tm.task_shape"() <{mapping = #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>}> : () -> index
  return
}

// -----

// tm.task_shape needs a task mapping.
func.func @task_shape_non_mapping() {
  // expected-error @+1 {{expected a task mapping attribute, got 42 : i64}}
  %a = tm.task_shape 42
  return
}
