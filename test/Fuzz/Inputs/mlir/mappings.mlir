
// Round trip of every attribute spelling and every op of the tm dialect. The
// examples of the .td descriptions are cases here, so that a change of the
// syntax breaks this test.

//===----------------------------------------------------------------------===//
// #tm.spatial
//===----------------------------------------------------------------------===//

func.func @spatial_spellings() {
  // Example of SpatialAttr: 8 workers, task shape [2, 4].
  "test.mapping"() {m = #tm.spatial<[2, 4]>} : () -> ()
  // Column-major numbering (Hidet's col_spatial) keeps its ranks.
  "test.mapping"() {m = #tm.spatial<[2, 4], ranks = [1, 0]>} : () -> ()
  // Row-major ranks are the default and are not printed.
  "test.mapping"() {m = #tm.spatial<[4, 8], ranks = [0, 1]>} : () -> ()
  "test.mapping"() {m = #tm.spatial<[2, 4, 8], ranks = [2, 0, 1]>} : () -> ()
  "test.mapping"() {m = #tm.spatial<[32]>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// #tm.repeat
//===----------------------------------------------------------------------===//

func.func @repeat_spellings() {
  // Example of RepeatAttr: 1 worker, task shape [2, 3].
  "test.mapping"() {m = #tm.repeat<[2, 3]>} : () -> ()
  "test.mapping"() {m = #tm.repeat<[2, 3], ranks = [1, 0]>} : () -> ()
  // [none, full] differs from the default [none, none] of [8, 8].
  "test.mapping"() {m = #tm.repeat<[8, 8], unroll = [none, full]>} : () -> ()
  // An unroll factor prints as a number.
  "test.mapping"() {m = #tm.repeat<[16, 4], unroll = [4, full]>} : () -> ()
  // The default hints (full below extent 4, none from 4) are not printed.
  "test.mapping"() {m = #tm.repeat<[2, 8], unroll = [full, none]>} : () -> ()
  "test.mapping"() {m = #tm.repeat<[3, 4], ranks = [0, 1], unroll = [full, none]>} : () -> ()
  // Keys may come in any order; ranks print before unroll.
  "test.mapping"() {m = #tm.repeat<[4, 8], unroll = [none, 2], ranks = [1, 0]>} : () -> ()
  "test.mapping"() {m = #tm.repeat<[2, 2], unroll = [none, none]>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// #tm.compose
//===----------------------------------------------------------------------===//

func.func @compose_spellings() {
  // Example of ComposeAttr: 32 workers, task shape [8, 8].
  "test.mapping"() {m = #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>} : () -> ()
  // The mma.sync m16n8k16 accumulator fragment of the same description.
  "test.mapping"() {m = #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>>} : () -> ()
  // Factors written in full print without the #tm. prefix.
  "test.mapping"() {m = #tm.compose<#tm.spatial<[4, 8]> * spatial<[2, 2]>>} : () -> ()
  "test.mapping"() {m = #tm.compose<#tm.repeat<[2, 2], ranks = [1, 0]> * #tm.spatial<[8, 4]>>} : () -> ()
  // Nested compositions are kept as written (canonicalization flattens them).
  "test.mapping"() {m = #tm.compose<compose<repeat<[2, 1]> * spatial<[4, 8]>> * #tm.compose<spatial<[1, 2]> * repeat<[1, 2], unroll = [full, none]>>>} : () -> ()
  // A composition of one factor stays a composition.
  "test.mapping"() {m = #tm.compose<spatial<[4, 8]>>} : () -> ()
  // A projection as a factor.
  "test.mapping"() {m = #tm.compose<repeat<[2, 1]> * project<spatial<[4, 8]>, dims = [1]>>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// #tm.project
//===----------------------------------------------------------------------===//

func.func @project_spellings() {
  // Example of ProjectAttr: 32 workers, task shape [4, 1].
  "test.mapping"() {m = #tm.project<spatial<[4, 8]>, dims = [1]>} : () -> ()
  "test.mapping"() {m = #tm.project<compose<repeat<[2, 1]> * spatial<[4, 8]>>, dims = [0]>} : () -> ()
  "test.mapping"() {m = #tm.project<#tm.spatial<[2, 4, 8]>, dims = [2, 0]>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// auto_map: a spelling that parses to the composition it denotes
//===----------------------------------------------------------------------===//

// The docstring examples of Hidet's auto_map (hidet-semantics.md 1.6).
func.func @auto_map_parses_to_composition() {
  "test.mapping"() {m = #tm.auto_map<[8, 32], workers = 64>} : () -> ()
  "test.mapping"() {m = #tm.auto_map<[8, 96], workers = 64>} : () -> ()
  "test.mapping"() {m = #tm.auto_map<[8, 96], workers = 64, ranks = [1, 0]>} : () -> ()
  "test.mapping"() {m = #tm.auto_map<[8, 16, 24], workers = 32>} : () -> ()
  "test.mapping"() {m = #tm.auto_map<[128, 2], workers = 128>} : () -> ()
  // auto_map is also a factor spelling inside compose and project.
  "test.mapping"() {m = #tm.compose<spatial<[2, 1]> * auto_map<[8, 32], workers = 64>>} : () -> ()
  "test.mapping"() {m = #tm.project<auto_map<[8, 32], workers = 64>, dims = [0]>} : () -> ()
  return
}

//===----------------------------------------------------------------------===//
// tm.foreach
//===----------------------------------------------------------------------===//

func.func @foreach_on_ssa_worker(%w: index) {
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>> on %w {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  // The implicit terminator may also be written.
  tm.foreach (%k) in #tm.spatial<[32]> on %w {
    "test.use"(%k) : (index) -> ()
    tm.yield
  }
  return
}

func.func @foreach_upper_bound(%w: index) {
  tm.foreach (%i) in #tm.spatial<[64]> on %w upper_bound 128 {
    "test.use"(%i) : (index) -> ()
  }
  tm.foreach (%i, %j) in #tm.spatial<[4, 8]> on %w upper_bound 32 {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// Extra attributes go in an `attributes` dictionary after the worker.
func.func @foreach_with_attributes(%w: index) {
  tm.foreach (%i) in #tm.spatial<[8]> on %w upper_bound 8 attributes {test.tag = "x"} {
    "test.use"(%i) : (index) -> ()
  }
  tm.foreach (%i) in #tm.spatial<[8]> on lane attributes {test.tag} {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// Every GPU worker keyword.
func.func @foreach_on_gpu_workers() {
  tm.foreach (%i) in #tm.spatial<[32]> on thread_x { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[4]> on thread_y { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[2]> on thread_z { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[16]> on block_x { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[8]> on block_y { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[3]> on block_z { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[32]> on lane { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[4]> on warp { "test.use"(%i) : (index) -> () }
  tm.foreach (%i) in #tm.spatial<[1024]> on global_x upper_bound 4096 { "test.use"(%i) : (index) -> () }
  return
}

// Example of ForEachOp.
func.func @foreach_example(%src: memref<8x8xf32>, %dst: memref<8x8xf32>, %w: index) {
  // 32 threads, each performing two tasks of an 8x8 tile:
  // thread 13 visits (1, 5) then (5, 5).
  tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
      on thread_x {
    %v = memref.load %src[%i, %j] : memref<8x8xf32>
    memref.store %v, %dst[%j, %i] : memref<8x8xf32>
  }
  tm.foreach (%i) in #tm.spatial<[64]> on %w upper_bound 128 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// Nested loops: warps of a block, then the lanes of each warp.
func.func @foreach_nested_warps_and_lanes() {
  tm.foreach (%wi) in #tm.spatial<[4]> on warp {
    tm.foreach (%i, %j) in #tm.compose<repeat<[2, 1]> * spatial<[8, 4]> * repeat<[1, 2]>> on lane {
      "test.use"(%wi, %i, %j) : (index, index, index) -> ()
    }
  }
  return
}

//===----------------------------------------------------------------------===//
// tm.repeat, tm.spatial
//===----------------------------------------------------------------------===//

// Example of RepeatOp: [full, none] is the default of [2, 4] and is elided.
func.func @repeat_op_example() {
  tm.repeat (%i, %j) in <[2, 4], unroll = [full, none]> {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  tm.repeat (%i, %j) in <[8, 8], ranks = [1, 0], unroll = [none, 4]> attributes {test.tag} {
    "test.use"(%i, %j) : (index, index) -> ()
  }
  return
}

// Example of SpatialOp: p, q = col_spatial(16, 2).map(lane).
func.func @spatial_op_example() -> (index, index) {
  %lane = gpu.lane_id
  %t:2 = tm.spatial <[16, 2], ranks = [1, 0]> on %lane
  return %t#0, %t#1 : index, index
}

func.func @spatial_op_with_attributes(%w: index) -> index {
  %t = tm.spatial <[64]> on %w {test.tag}
  return %t : index
}

//===----------------------------------------------------------------------===//
// tm.num_workers, tm.task_shape
//===----------------------------------------------------------------------===//

// Examples of NumWorkersOp and TaskShapeOp.
func.func @query_examples() -> (index, index, index) {
  %n = tm.num_workers #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  %m, %k = tm.task_shape #tm.compose<repeat<[2, 1]> * spatial<[4, 8]>>
  return %n, %m, %k : index, index, index
}

func.func @queries_on_every_kind() {
  %0 = tm.num_workers #tm.spatial<[4, 8], ranks = [1, 0]> {test.tag}
  %1 = tm.num_workers #tm.repeat<[16], unroll = [4]>
  %2:3 = tm.task_shape #tm.auto_map<[8, 16, 24], workers = 32>
  %3 = tm.task_shape #tm.project<spatial<[32]>, dims = [0]> {test.tag}
  "test.use"(%0, %1, %2#0, %3) : (index, index, index, index) -> ()
  return
}
