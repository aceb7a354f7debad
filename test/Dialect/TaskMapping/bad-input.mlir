// RUN: hidet-opt %s -split-input-file -verify-diagnostics --allow-unregistered-dialect
// RUN: not hidet-opt %s -split-input-file --allow-unregistered-dialect 2>&1 | FileCheck %s

// Malformed input gives a diagnostic, never a crash. The first RUN pins each
// diagnostic; the second checks that the tool exits with an error (`not`
// fails on a crash) and prints no stack dump.

// CHECK: error:
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump

//===----------------------------------------------------------------------===//
// Overflow
//===----------------------------------------------------------------------===//

// 2^40 * 2^40 tasks would overflow int64.
func.func @extents_product_overflows() {
  // expected-error @+1 {{task shape [1099511627776, 1099511627776] has more than 2^40 tasks}}
  "test.mapping"() {m = #tm.spatial<[1099511627776, 1099511627776]>} : () -> ()
  return
}

// -----

// The largest int64 extents.
func.func @extents_int64_max() {
  // expected-error @+1 {{task shape [9223372036854775807, 9223372036854775807] has more than 2^40 tasks}}
  "test.mapping"() {m = #tm.repeat<[9223372036854775807, 9223372036854775807]>} : () -> ()
  return
}

// -----

// An extent beyond int64.
func.func @extent_beyond_int64() {
  // expected-error @+1 {{integer value too large}}
  "test.mapping"() {m = #tm.spatial<[99999999999999999999, 2]>} : () -> ()
  return
}

// -----

// Factors that are each small but whose product overflows.
func.func @compose_product_overflows() {
  // expected-error @+1 {{composition has more than 2^40 workers or tasks}}
  "test.mapping"() {m = #tm.compose<spatial<[1048576, 1048576]> * spatial<[1048576, 1048576]>>} : () -> ()
  return
}

// -----

// The bound holds through an auto_map factor.
func.func @compose_auto_map_product_overflows() {
  // expected-error @+1 {{composition has more than 2^40 workers or tasks}}
  "test.mapping"() {m = #tm.compose<auto_map<[1048576, 1048576], workers = 1> * spatial<[2, 1]>>} : () -> ()
  return
}

// -----

// auto_map with an overflowing shape.
func.func @auto_map_extents_overflow() {
  // expected-error @+1 {{task shape [1099511627776, 1099511627776] has more than 2^40 tasks}}
  "test.mapping"() {m = #tm.auto_map<[1099511627776, 1099511627776], workers = 64>} : () -> ()
  return
}

// -----

// A worker count that divides nothing.
func.func @auto_map_int64_max_workers() {
  // expected-error @+1 {{auto_map cannot distribute the 256 tasks of shape [8, 32] over 9223372036854775807 workers}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 9223372036854775807>} : () -> ()
  return
}

// -----

// An unroll factor beyond int64.
func.func @unroll_factor_beyond_int64() {
  // expected-error @+1 {{integer value too large}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [99999999999999999999, none]>} : () -> ()
  return
}

// -----

// An upper bound beyond int64.
func.func @upper_bound_beyond_int64(%w: index) {
  // expected-error @+1 {{integer value too large}}
  tm.foreach (%i) in #tm.spatial<[4]> on %w upper_bound 99999999999999999999 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

//===----------------------------------------------------------------------===//
// Negative numbers
//===----------------------------------------------------------------------===//

// -----

// A negative extent.
func.func @negative_extent() {
  // expected-error @+1 {{extent of dimension 1 must be positive, got -8}}
  "test.mapping"() {m = #tm.spatial<[4, -8]>} : () -> ()
  return
}

// -----

// A negative unroll factor.
func.func @negative_unroll_factor() {
  // expected-error @+1 {{unroll factor must be at least 2, got -3 (write 'none' or 'full')}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [-3, none]>} : () -> ()
  return
}

// -----

// A negative number of auto_map workers.
func.func @negative_auto_map_workers() {
  // expected-error @+1 {{number of workers must be positive, got -4}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = -4>} : () -> ()
  return
}

// -----

// A negative upper bound.
func.func @negative_upper_bound(%w: index) {
  // expected-error @+1 {{'tm.foreach' op attribute 'upper_bound' failed to satisfy constraint: 64-bit signless integer attribute whose value is positive}}
  tm.foreach (%i) in #tm.spatial<[4]> on %w upper_bound -3 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

//===----------------------------------------------------------------------===//
// Empty lists
//===----------------------------------------------------------------------===//

// -----

// An empty shape of a spatial mapping.
func.func @empty_spatial_shape() {
  // expected-error @+1 {{task shape must have at least one dimension}}
  "test.mapping"() {m = #tm.spatial<[]>} : () -> ()
  return
}

// -----

// An empty shape of a repeat mapping.
func.func @empty_repeat_shape() {
  // expected-error @+1 {{task shape must have at least one dimension}}
  "test.mapping"() {m = #tm.repeat<[]>} : () -> ()
  return
}

// -----

// An empty shape of auto_map, with empty ranks.
func.func @empty_auto_map_shape() {
  // expected-error @+1 {{task shape must have at least one dimension}}
  "test.mapping"() {m = #tm.auto_map<[], workers = 4, ranks = []>} : () -> ()
  return
}

// -----

// A composition of zero factors.
func.func @compose_of_zero_factors() {
  // expected-error @+1 {{expected attribute value}}
  "test.mapping"() {m = #tm.compose<>} : () -> ()
  return
}

// -----

// A nested composition of zero factors.
func.func @nested_compose_of_zero_factors() {
  // expected-error @+1 {{expected attribute value}}
  "test.mapping"() {m = #tm.compose<spatial<[4]> * compose<>>} : () -> ()
  return
}

// -----

// A dangling `*`.
func.func @compose_trailing_star() {
  // expected-error @+1 {{expected attribute value}}
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]> *>} : () -> ()
  return
}

// -----

// Factors without `*`.
func.func @compose_missing_star() {
  // expected-error @+1 {{expected '>'}}
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]> spatial<[2, 2]>>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// Truncated or misspelled text
//===----------------------------------------------------------------------===//

// -----

// A missing `>`.
func.func @truncated_missing_angle() {
  // expected-error @+1 {{unbalanced '<' character in pretty dialect name}}
  "test.mapping"() {m = #tm.spatial<[4, 8]} : () -> ()
  return
}

// -----

// A missing `]`.
func.func @truncated_missing_bracket() {
  // expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
  "test.mapping"() {m = #tm.spatial<[4, 8} : () -> ()
  return
}

// -----

// No parameters at all.
func.func @attribute_without_parameters() {
  // expected-error @+1 {{expected '<'}}
  "test.mapping"() {m = #tm.spatial} : () -> ()
  return
}

// -----

// Empty parameters.
func.func @attribute_empty_parameters() {
  // expected-error @+1 {{expected '['}}
  "test.mapping"() {m = #tm.spatial<>} : () -> ()
  return
}

// -----

// Extents without brackets.
func.func @extents_without_brackets() {
  // expected-error @+1 {{expected '['}}
  "test.mapping"() {m = #tm.spatial<4, 8>} : () -> ()
  return
}

// -----

// A key without a value.
func.func @key_without_value() {
  // expected-error @+1 {{expected '='}}
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks>} : () -> ()
  return
}

// -----

// An empty unroll value.
func.func @unroll_without_list() {
  // expected-error @+1 {{expected '['}}
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = >} : () -> ()
  return
}

// -----

// A non-integer extent.
func.func @float_extent() {
  // expected-error @+1 {{expected integer value}}
  "test.mapping"() {m = #tm.spatial<[4.5, 8]>} : () -> ()
  return
}

// -----

// auto_map without a worker count.
func.func @auto_map_workers_without_value() {
  // expected-error @+1 {{expected integer value}}
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = >} : () -> ()
  return
}

// -----

// A projection without its dims.
func.func @project_without_dims() {
  // expected-error @+1 {{expected ','}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>>} : () -> ()
  return
}

// -----

// A projection with a misspelled key.
func.func @project_misspelled_dims() {
  // expected-error @+1 {{expected 'dims'}}
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dim = [0]>} : () -> ()
  return
}

// -----

// An unknown GPU worker in the attribute syntax.
func.func @unknown_gpu_worker_attribute() {
  // expected-error @+2 {{failed to parse TaskMapping_GPUWorkerAttr parameter 'value'}}
  // expected-error @+1 {{expected ::hidet::tm::GPUWorker to be one of: thread_x, thread_y, thread_z, block_x, block_y, block_z, lane, warp, global_x}}
  "test.mapping"() {m = #tm<gpu_worker banana>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// Malformed ops
//===----------------------------------------------------------------------===//

// -----

// tm.foreach without a body.
func.func @foreach_missing_region(%w: index) {
  tm.foreach (%i) in #tm.spatial<[4]> on %w
  // expected-error @-1 {{expected '{' to begin a region}}
  return
}

// -----

// tm.foreach without `in`.
func.func @foreach_missing_in(%w: index) {
  // expected-error @+1 {{custom op 'tm.foreach' expected 'in'}}
  tm.foreach (%i) #tm.spatial<[4]> on %w {
  }
  return
}

// -----

// tm.foreach without `on`.
func.func @foreach_missing_on(%w: index) {
  // expected-error @+1 {{custom op 'tm.foreach' expected 'on'}}
  tm.foreach (%i) in #tm.spatial<[4]> %w {
  }
  return
}

// -----

// tm.foreach without a worker.
func.func @foreach_missing_worker() {
  // expected-error @+1 {{custom op 'tm.foreach' expected valid keyword}}
  tm.foreach (%i) in #tm.spatial<[4]> on {
  }
  return
}

// -----

// upper_bound without a value.
func.func @foreach_upper_bound_without_value(%w: index) {
  // expected-error @+1 {{custom op 'tm.foreach' expected integer value}}
  tm.foreach (%i) in #tm.spatial<[4]> on %w upper_bound {
  }
  return
}

// -----

// An unclosed list of task indices.
func.func @foreach_unclosed_indices(%w: index) {
  // expected-error @+1 {{expected ')' in argument list}}
  tm.foreach (%i in #tm.spatial<[4]> on %w {
  }
  return
}

// -----

// tm.foreach without a region in the generic form.
func.func @foreach_generic_without_region(%w: index) {
  // expected-error @+1 {{'tm.foreach' op requires one region}}
  "tm.foreach"(%w) <{mapping = #tm.spatial<[4]>}> : (index) -> ()
  return
}

// -----

// tm.foreach with an empty region in the generic form.
func.func @foreach_generic_empty_region(%w: index) {
  // expected-error @+1 {{'tm.foreach' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  "tm.foreach"(%w) <{mapping = #tm.spatial<[4]>}> ({
  }) : (index) -> ()
  return
}

// -----

// tm.foreach with two blocks.
func.func @foreach_generic_two_blocks(%w: index) {
  // expected-error @+1 {{'tm.foreach' op expects region #0 to have 0 or 1 blocks}}
  "tm.foreach"(%w) <{mapping = #tm.spatial<[4]>}> ({
  ^bb0(%i: index):
    cf.br ^bb1
  ^bb1:
    "tm.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// tm.foreach without its mapping in the generic form.
func.func @foreach_generic_without_mapping(%w: index) {
  // expected-error @+1 {{'tm.foreach' op requires attribute 'mapping'}}
  "tm.foreach"(%w) ({
  ^bb0(%i: index):
    "tm.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// tm.yield outside a task loop.
func.func @yield_outside_task_loop() {
  // expected-error @+1 {{'tm.yield' op expects parent op to be one of 'tm.foreach, tm.repeat'}}
  "tm.yield"() : () -> ()
  return
}

// -----

// tm.repeat with a projection: its mapping is a repeat.
func.func @repeat_with_project() {
  // expected-error @+1 {{expected '<'}}
  tm.repeat (%i, %j) in project<repeat<[4, 8]>, dims = [1]> {
  }
  return
}

// -----

// tm.repeat with a projection in the generic form.
func.func @repeat_generic_with_project() {
  // expected-error @+1 {{Invalid attribute `mapping` in property conversion: #tm.project<repeat<[4, 8]>, dims = [1]>}}
  "tm.repeat"() <{mapping = #tm.project<repeat<[4, 8]>, dims = [1]>}> ({
  ^bb0(%i: index, %j: index):
    "tm.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// tm.repeat spells its mapping without `#tm.repeat`.
func.func @repeat_with_full_attribute() {
  // expected-error @+1 {{expected '<'}}
  tm.repeat (%i) in #tm.repeat<[4]> {
  }
  return
}

// -----

// tm.repeat with an empty body block in the generic form.
func.func @repeat_generic_without_terminator() {
  // expected-error @+1 {{'tm.repeat' op expects a non-empty block}}
  "tm.repeat"() <{mapping = #tm.repeat<[4]>}> ({
  ^bb0(%i: index):
  }) : () -> ()
  return
}

// -----

// tm.spatial with a mapping of another kind.
func.func @spatial_op_with_repeat(%w: index) {
  // expected-error @+1 {{expected '<'}}
  %t = tm.spatial repeat<[4]> on %w
  return
}

// -----

// tm.spatial with a composition in the generic form.
func.func @spatial_op_generic_with_compose(%w: index) {
  // expected-error @+1 {{Invalid attribute `mapping` in property conversion: #tm.compose<spatial<[4, 8]> * spatial<[2, 2]>>}}
  %t:2 = "tm.spatial"(%w) <{mapping = #tm.compose<spatial<[4, 8]> * spatial<[2, 2]>>}> : (index) -> (index, index)
  return
}

// -----

// tm.spatial without `on`.
func.func @spatial_op_missing_on(%w: index) {
  // expected-error @+1 {{custom op 'tm.spatial' expected 'on'}}
  %t = tm.spatial <[4]> %w
  return
}

// -----

// tm.spatial on a worker that is not an index.
func.func @spatial_op_f32_worker(%w: f32) {
  // expected-error @+1 {{'tm.spatial' op operand #0 must be index, but got 'f32'}}
  %t = "tm.spatial"(%w) <{mapping = #tm.spatial<[4]>}> : (f32) -> index
  return
}

// -----

// tm.num_workers without a mapping.
func.func @num_workers_missing_mapping() {
  // expected-error @+1 {{expected attribute value}}
  %n = tm.num_workers
  return
}

// -----

// tm.num_workers with an attribute that is not a mapping.
func.func @num_workers_non_mapping() {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %n = tm.num_workers 42
  return
}
