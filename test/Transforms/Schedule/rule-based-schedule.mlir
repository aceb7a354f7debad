// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule))' | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{vector-bytes=1 block-size=128 transpose-tile=32}))' | FileCheck %s --check-prefix=SCALAR
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{row-register-elements=4}))' | FileCheck %s --check-prefix=MEMROW

// An elementwise op with a broadcast operand: one task per 16-byte vector,
// the grid derived from the mapping, contiguous operands loaded as vectors
// and the broadcast one along the vector.
// CHECK-LABEL: func.func @bias_add(
// CHECK-SAME:    %[[A:.*]]: memref<64x512xf32>, %[[B:.*]]: memref<512xf32>, %[[O:.*]]: memref<64x512xf32>)
// CHECK:         %[[N:.*]] = tm.num_workers #tm.spatial<[64, 128]>
// CHECK:         %[[GRID:.*]] = arith.ceildivui %[[N]], %[[BS:.*]] : index
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %[[GRID]], {{.*}}) threads({{.*}}) in ({{.*}} = %[[BS]],
// CHECK:           tm.foreach (%[[I:.*]], %[[J:.*]]) in #tm.spatial<[64, 128]> on global_x {
// CHECK:             %[[J4:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:             %[[X:.*]] = vector.load %[[A]][%[[I]], %[[J4]]] {alignment = 16 : i64} : memref<64x512xf32>, vector<4xf32>
// CHECK:             %[[Y:.*]] = vector.load %[[B]][%[[J4]]] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// CHECK:             %[[S:.*]] = arith.addf %[[X]], %[[Y]] : vector<4xf32>
// CHECK:             vector.store %[[S]], %[[O]][%[[I]], %[[J4]]] {alignment = 16 : i64}
// SCALAR-LABEL: func.func @bias_add(
// SCALAR:         tm.num_workers #tm.spatial<[64, 512]>
// SCALAR:         tm.foreach (%[[I:.*]], %[[J:.*]]) in #tm.spatial<[64, 512]> on global_x {
// SCALAR:           memref.load %{{.*}}[%[[J]]] : memref<512xf32>
// SCALAR-NOT:       vector.
// SCALAR:           memref.store
#id = affine_map<(i, j) -> (i, j)>
func.func @bias_add(%a: memref<64x512xf32>, %b: memref<512xf32>, %o: memref<64x512xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (j)>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<64x512xf32>, memref<512xf32>) outs(%o : memref<64x512xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transpose reads its input along another dimension than it writes the
// output: each block stages a 64x64 tile (rows padded to 65) through shared
// memory, reading along the input's contiguous dimension and writing along
// the output's; a ragged shape (333x445) is guarded in both phases.
// CHECK-LABEL: func.func @transpose_ragged(
// CHECK-SAME:    %[[IN:.*]]: memref<333x445xf16>, %[[OUT:.*]]: memref<445x333xf16>)
// CHECK:         tm.num_workers #tm.spatial<[7, 6]>
// CHECK:         gpu.launch {{.*}} workgroup(%[[TILE:.*]] : memref<64x65xf16, #gpu.address_space<workgroup>>)
// CHECK:           tm.foreach (%[[BI:.*]], %[[BJ:.*]]) in #tm.spatial<[7, 6]> on block_x {
// CHECK:             tm.foreach (%[[R:.*]], %[[C:.*]]) in #tm.compose<repeat<[16, 1]> * spatial<[4, 64]>> on thread_x {
// CHECK:               %[[P:.*]] = arith.addi %{{.*}}, %[[C]] : index
// CHECK:               %[[L:.*]] = arith.addi %{{.*}}, %[[R]] : index
// CHECK:               scf.if
// CHECK:                 %[[V:.*]] = memref.load %[[IN]][%[[L]], %[[P]]] : memref<333x445xf16>
// CHECK:                 memref.store %[[V]], %[[TILE]][%[[R]], %[[C]]]
// CHECK:             gpu.barrier
// CHECK:             tm.foreach (%[[R2:.*]], %[[C2:.*]]) in #tm.compose<repeat<[16, 1]> * spatial<[4, 64]>> on thread_x {
// CHECK:               %[[P2:.*]] = arith.addi %{{.*}}, %[[R2]] : index
// CHECK:               %[[L2:.*]] = arith.addi %{{.*}}, %[[C2]] : index
// CHECK:               scf.if
// CHECK:                 %[[W:.*]] = memref.load %[[TILE]][%[[C2]], %[[R2]]]
// CHECK:                 memref.store %[[W]], %[[OUT]][%[[P2]], %[[L2]]] : memref<445x333xf16>
// SCALAR-LABEL: func.func @transpose_ragged(
// SCALAR:         workgroup(%{{.*}} : memref<32x33xf16
// SCALAR:         tm.foreach {{.*}} in #tm.compose<repeat<[8, 1]> * spatial<[4, 32]>> on thread_x
func.func @transpose_ragged(%a: memref<333x445xf16>, %o: memref<445x333xf16>) {
  linalg.transpose ins(%a : memref<333x445xf16>) outs(%o : memref<445x333xf16>) permutation = [1, 0]
  return
}

// -----

// When both tiled extents divide into 16-byte vectors, the tile is read with
// vector loads along the input's contiguous dimension and written with
// vector stores along the output's.
// CHECK-LABEL: func.func @transpose_vectorized(
// CHECK:         workgroup(%[[TILE:.*]] : memref<64x65xf32, #gpu.address_space<workgroup>>)
// CHECK:           tm.foreach {{.*}} in #tm.compose<repeat<[4, 1]> * spatial<[16, 16]>> on thread_x {
// CHECK:             %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<64x128xf32>, vector<4xf32>
// CHECK-COUNT-4:     memref.store %{{.*}}, %[[TILE]]
// CHECK:           gpu.barrier
// CHECK-COUNT-4:     memref.load %[[TILE]]
// CHECK:             %[[W:.*]] = vector.from_elements
// CHECK:             vector.store %[[W]], %{{.*}} {alignment = 16 : i64} : memref<128x64xf32>, vector<4xf32>
func.func @transpose_vectorized(%a: memref<64x128xf32>, %o: memref<128x64xf32>) {
  linalg.transpose ins(%a : memref<64x128xf32>) outs(%o : memref<128x64xf32>) permutation = [1, 0]
  return
}

// -----

// A last-axis sum: one warp per row (workers = rows, 8 warps per block),
// lanes strided over the row by repeat * spatial<[32]>, a guard for the
// ragged tail (333 = 10 * 32 + 13), the combiner's neutral element as the
// lane's start value, a 5-step xor butterfly, and lane 0 combining with the
// initial output value.
// CHECK-LABEL: func.func @row_sum(
// CHECK:         %[[N:.*]] = tm.num_workers #tm.spatial<[100]>
// CHECK:         arith.ceildivui %[[N]], %[[WPB:.*]] : index
// CHECK:         gpu.launch
// CHECK:           tm.foreach (%[[ROW:.*]]) in #tm.spatial<[100]> on %{{.*}} {
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK:             memref.store %{{.*}}, %[[ACC]][]
// CHECK:             tm.foreach (%[[K:.*]]) in #tm.compose<repeat<[11]> * spatial<[32]>> on %{{.*}} upper_bound 32 {
// CHECK:               arith.cmpi ult, %[[K]], %{{.*}} : index
// CHECK:               scf.if
// CHECK:                 memref.load %{{.*}}[%[[ROW]], %[[K]]] : memref<100x333xf32>
// CHECK:                 arith.addf
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             arith.cmpi eq
// CHECK:             scf.if
// CHECK:               memref.load %{{.*}}[%[[ROW]]] : memref<100xf32>
// CHECK:               arith.addf
// CHECK:               memref.store
func.func @row_sum(%a: memref<100x333xf32>, %o: memref<100xf32>) {
  linalg.reduce ins(%a : memref<100x333xf32>) outs(%o : memref<100xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// When the reduced extent divides into 16-byte vectors, each lane loads a
// vector (8 x f16) per step and runs the payload on its elements in order:
// 768 = 3 steps x 32 lanes x 8, no tail guard.
// CHECK-LABEL: func.func @row_sum_vectorized(
// CHECK:         tm.foreach (%[[K:.*]]) in #tm.compose<repeat<[3]> * spatial<[32]>> on %{{.*}} upper_bound 32 {
// CHECK-NOT:       scf.if
// CHECK:           %[[V:.*]] = vector.load %{{.*}} {alignment = 16 : i64} : memref<64x768xf16>, vector<8xf16>
// CHECK-COUNT-8:   arith.extf
// CHECK:         gpu.shuffle  xor
#rowsum = {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (i)>],
           iterator_types = ["parallel", "reduction"]}
func.func @row_sum_vectorized(%a: memref<64x768xf16>, %o: memref<64xf32>) {
  linalg.generic #rowsum ins(%a : memref<64x768xf16>) outs(%o : memref<64xf32>) {
  ^bb0(%x: f16, %acc: f32):
    %xf = arith.extf %x : f16 to f32
    %s = arith.addf %xf, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Long rows (>= block-reduce-min elements) are reduced by a whole block: the
// 256 threads stride the row, each warp reduces with a butterfly, lane 0 of
// each warp publishes its partial in shared memory, and after a barrier
// every warp reduces the 8 partials; thread 0 stores.
// CHECK-LABEL: func.func @long_rows(
// CHECK:         tm.num_workers #tm.spatial<[4]>
// CHECK:         gpu.launch {{.*}} workgroup(%[[PARTIALS:.*]] : memref<8xf32, #gpu.address_space<workgroup>>)
// CHECK:           tm.foreach (%[[ROW:.*]]) in #tm.spatial<[4]> on block_x {
// CHECK:             tm.foreach (%{{.*}}) in #tm.compose<repeat<[20]> * spatial<[256]>> on %{{.*}} upper_bound 256 {
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             memref.store %{{.*}}, %[[PARTIALS]]
// CHECK:             gpu.barrier
// CHECK:             memref.load %[[PARTIALS]]
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<4xf32>
func.func @long_rows(%a: memref<4x20000xf32>, %o: memref<4xf32>) {
  linalg.reduce ins(%a : memref<4x20000xf32>) outs(%o : memref<4xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.addf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A middle-axis reduction: lanes of a warp would stride over non-contiguous
// rows, so each thread owns one output and walks the reduction in a
// rolled tm.repeat loop, starting from the output's initial value.
// CHECK-LABEL: func.func @middle_max(
// CHECK:         tm.foreach (%[[B:.*]], %[[N:.*]]) in #tm.spatial<[64, 48]> on global_x {
// CHECK:           %[[ACC:.*]] = memref.alloca() : memref<f32>
// CHECK:           memref.load %{{.*}}[%[[B]], %[[N]]] : memref<64x48xf32>
// CHECK:           tm.repeat (%[[K:.*]]) in <[333]> {
// CHECK:           memref.load %{{.*}}[%[[B]], %[[K]], %[[N]]] : memref<64x333x48xf32>
// CHECK:           arith.maximumf
// CHECK-NOT:     gpu.shuffle
func.func @middle_max(%a: memref<64x333x48xf32>, %o: memref<64x48xf32>) {
  linalg.reduce ins(%a : memref<64x333x48xf32>) outs(%o : memref<64x48xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %s = arith.maximumf %x, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// A matmul has no template yet: a thread per four outputs of a row, a
// serial K loop (unrolled: at most 64 steps) reading a vector of B's row.
// CHECK-LABEL: func.func @matmul_fallback(
// CHECK:         tm.foreach (%[[M:.*]], %[[N:.*]]) in #tm.spatial<[16, 6]> on global_x {
// CHECK:           %[[N4:.*]] = arith.muli %[[N]], %c4
// CHECK:           tm.repeat (%[[K:.*]]) in <[40], unroll = [full]> {
// CHECK:             memref.load %{{.*}}[%[[M]], %[[K]]] : memref<16x40xf32>
// CHECK:             vector.load %{{.*}}[%[[K]], %[[N4]]] {{.*}} : memref<40x24xf32>, vector<4xf32>
// SCALAR-LABEL: func.func @matmul_fallback(
// SCALAR:         tm.foreach (%[[M:.*]], %[[N:.*]]) in #tm.spatial<[16, 24]> on global_x {
func.func @matmul_fallback(%a: memref<16x40xf32>, %b: memref<40x24xf32>, %c: memref<16x24xf32>) {
  linalg.matmul ins(%a, %b : memref<16x40xf32>, memref<40x24xf32>) outs(%c : memref<16x24xf32>)
  return
}

// -----

// A depthwise convolution iterates (n, oh, ow, c) over an NCHW output: the
// threads take the outputs in the output's order (n, c, oh, ow), so that
// neighbouring threads write neighbouring elements.
// CHECK-LABEL: func.func @depthwise_nchw(
// CHECK:         tm.foreach (%[[N:[a-z0-9]+]], %[[C:[a-z0-9]+]], %[[OH:[a-z0-9]+]], %[[OW:[a-z0-9]+]]) in #tm.spatial<[2, 16, 6, 10]> on global_x {
// CHECK:           memref.load %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[OW]]] : memref<2x16x6x10xf16>
// CHECK:           tm.repeat (%[[KH:[a-z0-9]+]], %[[KW:[a-z0-9]+]]) in <[3, 3]{{.*}}> {
// CHECK:             memref.load %{{.*}}[%[[C]], %[[KH]], %[[KW]]] : memref<16x3x3xf16>
// CHECK:           memref.store %{{.*}}, %{{.*}}[%[[N]], %[[C]], %[[OH]], %[[OW]]] : memref<2x16x6x10xf16>
func.func @depthwise_nchw(%x: memref<2x16x8x12xf16>, %w: memref<16x3x3xf16>, %y: memref<2x16x6x10xf16>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%x, %w : memref<2x16x8x12xf16>, memref<16x3x3xf16>) outs(%y : memref<2x16x6x10xf16>)
  return
}

// -----

// A buffer copy becomes a kernel too.
// CHECK-LABEL: func.func @copy(
// CHECK:         tm.foreach {{.*}} in #tm.spatial<[8, 2]> on global_x
// CHECK-NOT:     memref.copy
func.func @copy(%a: memref<8x8xf32>, %o: memref<8x8xf32>) {
  memref.copy %a, %o : memref<8x8xf32> to memref<8x8xf32>
  return
}

// -----

// Dynamic shapes are left alone with a remark.
func.func @dynamic(%a: memref<?xf32>, %o: memref<?xf32>) {
  // expected-remark @+1 {{dynamic shapes are not supported yet}}
  linalg.copy ins(%a : memref<?xf32>) outs(%o : memref<?xf32>)
  return
}

// -----

// A row group: exp, a row sum and a division by it (a softmax without the
// max) become one kernel, a warp per row. The exp temporary lives in
// per-lane registers (a private array indexed by the step, fully unrolled
// by default for 2 steps, 256
// columns = 2 steps x 32 lanes x 4), the row sum is reduced with a butterfly
// and stored by every lane, and the temporary's allocation disappears.
// With row-register-elements=4 (fewer than the 8 elements per lane), the
// temporary stays in memory and the steps are not unrolled.
// MEMROW-LABEL: func.func @row_group(
// MEMROW:         %[[TMP:.*]] = memref.alloc() : memref<64x256xf32>
// MEMROW:         gpu.launch
// MEMROW-NOT:       memref.alloca() : memref<2x4xf32>
// MEMROW:             vector.store %{{.*}}, %[[TMP]]
// CHECK-LABEL: func.func @row_group(
// CHECK-NOT:     memref.alloc()
// CHECK:         gpu.launch
// CHECK:           tm.foreach (%[[ROW:.*]]) in #tm.spatial<[64]> on
// CHECK:             %[[PRIV:.*]] = memref.alloca() : memref<2x4xf32>
// CHECK:             tm.repeat (%[[S:.*]]) in <[2]> {
// CHECK:               math.exp %{{.*}} : vector<4xf32>
// CHECK:               vector.store %{{.*}}, %[[PRIV]][%[[S]], %{{.*}}]
// CHECK-COUNT-5:     gpu.shuffle  xor
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[ROW]]] : memref<64xf32>
// CHECK:             tm.repeat
// CHECK:               vector.load %[[PRIV]]
// CHECK:               arith.divf %{{.*}} : vector<4xf32>
// CHECK-NOT:     gpu.launch
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @row_group(%x: memref<64x256xf32>, %sum: memref<64xf32>, %y: memref<64x256xf32>) {
  %e = memref.alloc() : memref<64x256xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x256xf32>) outs(%e : memref<64x256xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = math.exp %v : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%e : memref<64x256xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%e, %sum : memref<64x256xf32>, memref<64xf32>) outs(%y : memref<64x256xf32>) {
  ^bb0(%v: f32, %s: f32, %o: f32):
    %d = arith.divf %v, %s : f32
    linalg.yield %d : f32
  }
  memref.dealloc %e : memref<64x256xf32>
  return
}

// -----

// A decomposed softmax over rows of 197 (no vectors: 197 is odd): the
// maximum, exp(x - max) into the output, its sum, the output divided in
// place. The input, read by two ops, and the output, written twice and
// read between, stay in per-lane registers (7 steps of 1): the input is
// loaded once, the exponentials are never stored, and only the quotients
// reach memory. With row-register-elements=4 both go through memory.
// CHECK-LABEL: func.func @softmax_rows(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<8x197xf16>, %[[M:[a-z0-9]+]]: memref<8xf16>, %[[S:[a-z0-9]+]]: memref<8xf16>, %[[Y:[a-z0-9]+]]: memref<8x197xf16>)
// CHECK:         gpu.launch
// CHECK:           %[[XR:.*]] = memref.alloca() : memref<7x1xf16>
// CHECK:           %[[YR:.*]] = memref.alloca() : memref<7x1xf16>
// CHECK:           tm.repeat (%[[S1:.*]]) in <[7]{{.*}}> {
// CHECK:             %[[XV:.*]] = memref.load %[[X]][
// CHECK-NEXT:        memref.store %[[XV]], %[[XR]][%[[S1]],
// CHECK:             arith.maximumf
// CHECK:           tm.repeat (%[[S2:.*]]) in <[7]{{.*}}> {
// CHECK-NOT:         memref.load %[[X]]
// CHECK:             memref.load %[[XR]][%[[S2]],
// CHECK:             math.exp
// CHECK-NOT:         memref.store {{.*}}, %[[Y]]
// CHECK:             memref.store %{{.*}}, %[[YR]][%[[S2]],
// CHECK:           tm.repeat (%[[S3:.*]]) in <[7]{{.*}}> {
// CHECK:             memref.load %[[YR]][%[[S3]],
// CHECK:           tm.repeat (%[[S4:.*]]) in <[7]{{.*}}> {
// CHECK:             memref.load %[[YR]][%[[S4]],
// CHECK:             arith.divf
// CHECK:             memref.store %{{.*}}, %[[YR]][%[[S4]],
// CHECK-NEXT:        memref.store %{{.*}}, %[[Y]][
// CHECK-NOT:     gpu.launch
// MEMROW-LABEL: func.func @softmax_rows(
// MEMROW-COUNT-2: memref.load %arg0[
// MEMROW-COUNT-2: memref.store %{{.*}}, %arg3[
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @softmax_rows(%x: memref<8x197xf16>, %max: memref<8xf16>, %sum: memref<8xf16>, %y: memref<8x197xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%ninf : f16) outs(%max : memref<8xf16>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<8x197xf16>) outs(%max : memref<8xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %m = arith.maximumf %v, %acc : f16
    linalg.yield %m : f16
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %max : memref<8x197xf16>, memref<8xf16>) outs(%y : memref<8x197xf16>) {
  ^bb0(%v: f16, %m: f16, %o: f16):
    %d = arith.subf %v, %m : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  }
  linalg.fill ins(%zero : f16) outs(%sum : memref<8xf16>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<8x197xf16>) outs(%sum : memref<8xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %s = arith.addf %v, %acc : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %sum : memref<8x197xf16>, memref<8xf16>) outs(%y : memref<8x197xf16>) {
  ^bb0(%v: f16, %s: f16, %o: f16):
    %q = arith.divf %v, %s : f16
    linalg.yield %q : f16
  }
  return
}

// -----

// Attention's softmax over [batch, heads, rows, columns]: the fill of the
// maxima, [1, 4, 16], looks like a row op over rows [1, 4] of 16 columns
// until the reduction over [1, 4, 16, 64] comes; it opens that group all
// the same, so the whole softmax (both fills included) is one kernel.
// CHECK-LABEL: func.func @softmax_heads(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<1x4x16x64xf16>, %[[M:[a-z0-9]+]]: memref<1x4x16xf16>, %[[Y:[a-z0-9]+]]: memref<1x4x16x64xf16>)
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch {{.*}} function(@softmax_heads_row_group)
// CHECK:           memref.store %cst{{.*}}, %[[M]][
// CHECK:           arith.maximumf
// CHECK:           math.exp
// CHECK:           arith.divf
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.
// CHECK:         return
#x4 = affine_map<(b, h, i, j) -> (b, h, i, j)>
#r4 = affine_map<(b, h, i, j) -> (b, h, i)>
func.func @softmax_heads(%x: memref<1x4x16x64xf16>, %m: memref<1x4x16xf16>, %y: memref<1x4x16x64xf16>) {
  %ninf = arith.constant 0xFC00 : f16
  %zero = arith.constant 0.0 : f16
  linalg.fill ins(%ninf : f16) outs(%m : memref<1x4x16xf16>)
  linalg.generic {indexing_maps = [#x4, #r4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x : memref<1x4x16x64xf16>) outs(%m : memref<1x4x16xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %r = arith.maximumf %v, %acc : f16
    linalg.yield %r : f16
  }
  linalg.generic {indexing_maps = [#x4, #r4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %m : memref<1x4x16x64xf16>, memref<1x4x16xf16>) outs(%y : memref<1x4x16x64xf16>) {
  ^bb0(%v: f16, %mx: f16, %o: f16):
    %d = arith.subf %v, %mx : f16
    %e = math.exp %d : f16
    linalg.yield %e : f16
  }
  linalg.fill ins(%zero : f16) outs(%m : memref<1x4x16xf16>)
  linalg.generic {indexing_maps = [#x4, #r4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%y : memref<1x4x16x64xf16>) outs(%m : memref<1x4x16xf16>) {
  ^bb0(%v: f16, %acc: f16):
    %s = arith.addf %v, %acc : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [#x4, #r4, #x4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %m : memref<1x4x16x64xf16>, memref<1x4x16xf16>) outs(%y : memref<1x4x16x64xf16>) {
  ^bb0(%v: f16, %s: f16, %o: f16):
    %q = arith.divf %v, %s : f16
    linalg.yield %q : f16
  }
  return
}
