// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80},func.func(hidet-select-schedules,hidet-schedule-anchors,canonicalize,cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80},func.func(hidet-select-schedules{fuse=0},hidet-schedule-anchors{fuse=0}))' | FileCheck %s --check-prefix=OFF

// Prologue fusion on buffers: the index-only producers of a contraction's
// inputs in its #hidet.fusion group (transpose, broadcast, copy) are folded
// into the kernel's reads, which address their sources directly; the
// temporaries and the producers are gone. Elementwise producers of one
// input element fold as well, applied to the loaded values in registers.

// A transposed in a prologue: the kernel copies A's tiles from the
// source, 8 consecutive rows of a K row at a time (M is now the contiguous
// dimension), and ldmatrix transposes them.
// CHECK-LABEL: func.func @transpose_a(
// CHECK-SAME:      %[[XT:.*]]: memref<384x256xf16>, %[[W:.*]]: memref<384x256xf16>, %[[OUT:.*]]: memref<256x256xf16>)
// CHECK-NOT:     memref.alloc() : memref<256x384xf16>
// CHECK-NOT:     linalg.transpose
// CHECK:         gpu.launch
// CHECK-DAG:       %[[FA:.*]] = memref.collapse_shape %[[XT]] {{\[\[}}0, 1]] : memref<384x256xf16> into memref<98304xf16>
// CHECK-DAG:       %[[FB:.*]] = memref.collapse_shape %[[W]] {{\[\[}}0, 1]] : memref<384x256xf16> into memref<98304xf16>
// CHECK:           vector.transfer_read %[[FA]][%{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : memref<98304xf16>, vector<8xf16>
// CHECK:           nvgpu.ldmatrix %{{.*}} {numTiles = 4 : i32, transpose = true}
// CHECK:           nvgpu.mma.sync
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.
// CHECK:         return
// OFF-LABEL: func.func @transpose_a(
// OFF:         linalg.transpose
// OFF:         gpu.launch
func.func @transpose_a(%xt: memref<384x256xf16>, %w: memref<384x256xf16>, %out: memref<256x256xf16>) {
  %z = arith.constant 0.0 : f16
  %x = memref.alloc() : memref<256x384xf16>
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%xt : memref<384x256xf16>) outs(%x : memref<256x384xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<256x256xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<256x384xf16>, memref<384x256xf16>) outs(%out : memref<256x256xf16>)
  memref.dealloc %x : memref<256x384xf16>
  return
}

// -----

// A weight broadcast over the batch, then a batch matmul: B is read from
// the 2-D weight, the same for every batch (no batch term in its address).
// CHECK-LABEL: func.func @broadcast_b(
// CHECK-SAME:      %[[A:.*]]: memref<4x64x32xf32>, %[[W:.*]]: memref<32x64xf32>, %[[OUT:.*]]: memref<4x64x64xf32>)
// CHECK-NOT:     memref.alloc() : memref<4x32x64xf32>
// CHECK-NOT:     linalg.broadcast
// CHECK:         gpu.launch
// CHECK-DAG:       memref.collapse_shape %[[A]] {{\[\[}}0, 1, 2]] : memref<4x64x32xf32> into memref<8192xf32>
// CHECK-DAG:       memref.collapse_shape %[[W]] {{\[\[}}0, 1]] : memref<32x64xf32> into memref<2048xf32>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul
// CHECK-NOT:     linalg.
// OFF-LABEL: func.func @broadcast_b(
// OFF:         linalg.broadcast
func.func @broadcast_b(%a: memref<4x64x32xf32>, %w: memref<32x64xf32>, %out: memref<4x64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %wb = memref.alloc() : memref<4x32x64xf32>
  linalg.broadcast {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%w : memref<32x64xf32>) outs(%wb : memref<4x32x64xf32>) dimensions = [0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%out : memref<4x64x64xf32>)
  linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %wb : memref<4x64x32xf32>, memref<4x32x64xf32>) outs(%out : memref<4x64x64xf32>)
  return
}

// -----

// A chain of index-only producers (a copy, then a transpose) folds from
// the anchor outwards: B is read from the source of the copy.
// CHECK-LABEL: func.func @copy_then_transpose_b(
// CHECK-SAME:      %[[A:.*]]: memref<64x64xf16>, %[[WT:.*]]: memref<128x64xf16>, %[[OUT:.*]]: memref<64x128xf16>)
// CHECK-NOT:     memref.alloc() : memref<
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[WT]] {{\[\[}}0, 1]] : memref<128x64xf16> into memref<8192xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.dealloc
func.func @copy_then_transpose_b(%a: memref<64x64xf16>, %wt: memref<128x64xf16>, %out: memref<64x128xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<128x64xf16>
  %w = memref.alloc() : memref<64x128xf16>
  linalg.copy {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%wt : memref<128x64xf16>) outs(%c : memref<128x64xf16>)
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%c : memref<128x64xf16>) outs(%w : memref<64x128xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %w : memref<64x64xf16>, memref<64x128xf16>) outs(%out : memref<64x128xf16>)
  memref.dealloc %c : memref<128x64xf16>
  memref.dealloc %w : memref<64x128xf16>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// An elementwise producer (a cast) folds too: the kernel loads the f32
// source (4 elements, 16 bytes, along M after the transpose) and truncates
// in registers, only where the element exists; cp.async copies raw bytes,
// so the heuristic picks the register-staged schedule (stages = 0).
// CHECK-LABEL: func.func @cast_then_transpose(
// CHECK-SAME:      %[[XT:.*]]: memref<384x256xf32>, %[[W:.*]]: memref<384x256xf16>, %[[OUT:.*]]: memref<256x256xf16>)
// CHECK-NOT:     memref.alloc() : memref<{{384x256|256x384}}xf16>
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch
// CHECK:           %[[FA:.*]] = memref.collapse_shape %[[XT]] {{\[\[}}0, 1]] : memref<384x256xf32> into memref<98304xf32>
// CHECK:           scf.if %{{.*}} -> (vector<4xf16>) {
// CHECK-NEXT:        %[[V:.*]] = vector.load %[[FA]][%{{.*}}] {alignment = 16 : i64} : memref<98304xf32>, vector<4xf32>
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %[[V]] : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:        scf.yield %[[T]] : vector<4xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul<block = [{{.*}}], warp = [{{.*}}], mma = [16, 8, 16], swizzle = 8{{(, split_k = [0-9]+)?}}>}
// CHECK-NOT:     linalg.
// OFF-LABEL: func.func @cast_then_transpose(
// OFF:         linalg.generic
// OFF:         linalg.transpose
func.func @cast_then_transpose(%xt: memref<384x256xf32>, %w: memref<384x256xf16>, %out: memref<256x256xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<384x256xf16>
  %x = memref.alloc() : memref<256x384xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%xt : memref<384x256xf32>) outs(%t : memref<384x256xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%v: f32, %o: f16):
    %c = arith.truncf %v : f32 to f16
    linalg.yield %c : f16
  }
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%t : memref<384x256xf16>) outs(%x : memref<256x384xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<256x256xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<256x384xf16>, memref<384x256xf16>) outs(%out : memref<256x256xf16>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The SIMT template (f32) applies a scaled ReLU to each element it loads.
// CHECK-LABEL: func.func @scale_relu_simt(
// CHECK-SAME:      %[[A:.*]]: memref<64x64xf32>, %[[B:.*]]: memref<64x64xf32>, %[[OUT:.*]]: memref<64x64xf32>)
// CHECK:         gpu.launch
// CHECK:           %[[FB:.*]] = memref.collapse_shape %[[B]]
// CHECK:             %[[V:.*]] = memref.load %[[FB]][%{{.*}}] : memref<4096xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.mulf %[[V]], %{{.*}} : f32
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK-NEXT:        scf.yield %[[R]] : f32
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul
// CHECK-NOT:     linalg.
func.func @scale_relu_simt(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %z = arith.constant 0.0 : f32
  %s = arith.constant 0.125 : f32
  %t = memref.alloc() : memref<64x64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<64x64xf32>) outs(%t : memref<64x64xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%v: f32, %o: f32):
    %m = arith.mulf %v, %s : f32
    %r = arith.maximumf %m, %z : f32
    linalg.yield %r : f32
  }
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%out : memref<64x64xf32>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %t : memref<64x64xf32>, memref<64x64xf32>) outs(%out : memref<64x64xf32>)
  memref.dealloc %t : memref<64x64xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// What cannot be folded runs as a separate kernel, with a remark naming the
// op and the reason. A written schedule with cp.async copies raw bytes: the
// cast stays a kernel (the transpose after it still folds, so the kernel
// reads the cast's result); a producer that adds two inputs is not one
// element of one input.
// CHECK-LABEL: func.func @not_folded_compute(
// CHECK:         %[[T:.*]] = memref.alloc() : memref<64x64xf16>
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[T]] : memref<64x64xf16>)
// CHECK:         linalg.generic
// CHECK-NOT:     linalg.transpose
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[T]]
func.func @not_folded_compute(%xt: memref<64x64xf32>, %w1: memref<64x64xf16>, %w2: memref<64x64xf16>, %out: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<64x64xf16>
  %x = memref.alloc() : memref<64x64xf16>
  %w = memref.alloc() : memref<64x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): it computes new values, which the written schedule's raw byte copies (TMA or cp.async) cannot apply}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%xt : memref<64x64xf32>) outs(%t : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%v: f32, %o: f16):
    %c = arith.truncf %v : f32 to f16
    linalg.yield %c : f16
  }
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): it computes each element from more than one input element, or not elementwise}}
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%w1, %w2 : memref<64x64xf16>, memref<64x64xf16>) outs(%w : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%u: f16, %v: f16, %o: f16):
    %s = arith.addf %u, %v : f16
    linalg.yield %s : f16
  }
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%t : memref<64x64xf16>) outs(%x : memref<64x64xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%x, %w : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf16>)
  return
}

// -----

// A head transpose of a fused QKV projection's output at batch 1: its
// source is a slice (a third of each row), and the batch matmul reads its
// result through a collapse of the leading unit dimension. The kernel reads
// the projection's buffer at head * 64 + 256 + row * 768 + column, the
// unit dimension at 0; no transpose, no temporary.
// CHECK-LABEL: func.func @transpose_behind_reshape(
// CHECK-SAME:      %[[QKV:[^:]*]]: memref<1x128x768xf16>
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     memref.alloc() : memref<1x4x128x64xf16>
// CHECK:         gpu.launch
// CHECK:           tm.foreach (%[[HEAD:.*]], %{{.*}}) in #tm.spatial<[4, 16]>
// CHECK:             %[[H:.*]] = arith.muli %[[HEAD]], %c64
// CHECK:             %[[HO:.*]] = arith.addi %[[H]], %c256
// CHECK:             %[[R:.*]] = arith.muli %{{.*}}, %c768
// CHECK:             %[[HR:.*]] = arith.addi %[[HO]], %[[R]]
// CHECK:             %[[AT:.*]] = arith.addi %[[HR]], %{{.*}}
// CHECK:             vector.transfer_read %[[FLAT:.*]][%[[AT]]]
// CHECK-NOT:     linalg.
// CHECK-NOT:     memref.dealloc
// CHECK:         return
func.func @transpose_behind_reshape(%qkv: memref<1x128x768xf16>, %k: memref<4x64x128xf16>, %out: memref<4x128x128xf16>) {
  %z = arith.constant 0.0 : f16
  %s = memref.subview %qkv[0, 0, 256] [1, 128, 256] [1, 1, 1] : memref<1x128x768xf16> to memref<1x128x256xf16, strided<[98304, 768, 1], offset: 256>>
  %q = memref.expand_shape %s [[0], [1], [2, 3]] output_shape [1, 128, 4, 64] : memref<1x128x256xf16, strided<[98304, 768, 1], offset: 256>> into memref<1x128x4x64xf16, strided<[98304, 768, 64, 1], offset: 256>>
  %t = memref.alloc() : memref<1x4x128x64xf16>
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%q : memref<1x128x4x64xf16, strided<[98304, 768, 64, 1], offset: 256>>) outs(%t : memref<1x4x128x64xf16>) permutation = [0, 2, 1, 3]
  %a = memref.collapse_shape %t [[0, 1], [2], [3]] : memref<1x4x128x64xf16> into memref<4x128x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<4x128x128xf16>)
  linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %k : memref<4x128x64xf16>, memref<4x64x128xf16>) outs(%out : memref<4x128x128xf16>)
  memref.dealloc %t : memref<1x4x128x64xf16>
  return
}

// -----

// A collapse that merges two dimensions of more than one element (batch
// and heads at batch 2) changes the indexing: the transpose stays a
// kernel, and the remark names the reshape.
// CHECK-LABEL: func.func @transpose_behind_merging_reshape(
// CHECK:         linalg.transpose
// CHECK:         gpu.launch
func.func @transpose_behind_merging_reshape(%q: memref<2x128x4x64xf16>, %k: memref<8x64x128xf16>, %out: memref<8x128x128xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<2x4x128x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.batch_matmul (a separate kernel instead): the anchor reads its result through a 'memref.collapse_shape' that merges dimensions of more than one element}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%q : memref<2x128x4x64xf16>) outs(%t : memref<2x4x128x64xf16>) permutation = [0, 2, 1, 3]
  %a = memref.collapse_shape %t [[0, 1], [2], [3]] : memref<2x4x128x64xf16> into memref<8x128x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<8x128x128xf16>)
  linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %k : memref<8x128x64xf16>, memref<8x64x128xf16>) outs(%out : memref<8x128x128xf16>)
  return
}

// -----

// The transposed buffer is also read after the anchor: it must be written.
// CHECK-LABEL: func.func @temporary_read_later(
// CHECK:         linalg.transpose
// CHECK:         gpu.launch
// CHECK:         linalg.copy
func.func @temporary_read_later(%xt: memref<64x64xf16>, %w: memref<64x64xf16>, %out: memref<64x64xf16>, %copy: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %x = memref.alloc() : memref<64x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): its result is also used by 'linalg.copy'}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%xt : memref<64x64xf16>) outs(%x : memref<64x64xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf16>)
  linalg.copy ins(%x : memref<64x64xf16>) outs(%copy : memref<64x64xf16>)
  return
}

// -----

// The source is overwritten between the transpose and the anchor, which
// would read the new values.
// CHECK-LABEL: func.func @source_written_between(
// CHECK:         linalg.transpose
// CHECK:         linalg.fill
// CHECK:         gpu.launch
func.func @source_written_between(%xt: memref<64x64xf16>, %w: memref<64x64xf16>, %out: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %x = memref.alloc() : memref<64x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): 'linalg.fill' between it and the anchor writes its source}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%xt : memref<64x64xf16>) outs(%x : memref<64x64xf16>) permutation = [1, 0]
  linalg.fill ins(%z : f16) outs(%xt : memref<64x64xf16>)
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf16>)
  return
}

// -----

// The anchor's kernel writes the transpose's source (in place, C = X^T W
// into X's storage): reading it there would race with the stores.
// CHECK-LABEL: func.func @source_is_output(
// CHECK:         linalg.transpose
// CHECK:         gpu.launch
func.func @source_is_output(%xt: memref<64x64xf16>, %w: memref<64x64xf16>) {
  %x = memref.alloc() : memref<64x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): the anchor's kernel writes its source}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%xt : memref<64x64xf16>) outs(%x : memref<64x64xf16>) permutation = [1, 0]
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<64x64xf16>, memref<64x64xf16>) outs(%xt : memref<64x64xf16>)
  return
}

// -----

// Convolutions read their input through im2col addressing: a layout
// change before one stays a kernel.
// CHECK-LABEL: func.func @conv_prologue(
// CHECK:         linalg.transpose
// CHECK:         gpu.launch
func.func @conv_prologue(%x: memref<2x32x16x16xf16>, %w: memref<3x3x32x64xf16>, %out: memref<2x14x14x64xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<2x16x16x32xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.conv_2d_nhwc_hwcf (a separate kernel instead): the convolution template reads its input through im2col addressing, which only a zero padding folds into yet}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%x : memref<2x32x16x16xf16>) outs(%t : memref<2x16x16x32xf16>) permutation = [0, 2, 3, 1]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<2x14x14x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%t, %w : memref<2x16x16x32xf16>, memref<3x3x32x64xf16>) outs(%out : memref<2x14x14x64xf16>)
  return
}

// -----

// A zero padding (a bufferized tensor.pad: a zero fill of a temporary and a
// copy of the source into its interior) folds into the convolution's
// im2col reads: the kernel addresses the source, shifted by the padding,
// and reads 0 where the source row or column (unsigned) is outside it.
// CHECK-LABEL: func.func @pad_conv(
// CHECK-SAME:      %[[X:.*]]: memref<2x16x16x32xf16>, %[[W:.*]]: memref<3x3x32x64xf16>, %[[OUT:.*]]: memref<2x16x16x64xf16>)
// CHECK-NOT:     memref.alloc() : memref<2x18x18x32xf16>
// CHECK-NOT:     memref.subview
// CHECK-NOT:     linalg.
// CHECK:         gpu.launch
// CHECK:           %[[FX:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1, 2, 3]] : memref<2x16x16x32xf16> into memref<16384xf16>
// CHECK:           %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %c16 : index
// CHECK:           %[[COL:.*]] = arith.cmpi ult, %{{.*}}, %c16 : index
// CHECK:           %[[IN:.*]] = arith.andi %[[ROW]], %[[COL]] : i1
// CHECK:           arith.select %[[IN]], %{{.*}}, %c0 : index
// CHECK:           vector.transfer_read %[[FX]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.
// OFF-LABEL: func.func @pad_conv(
// OFF:         memref.subview
// OFF:         linalg.copy
func.func @pad_conv(%x: memref<2x16x16x32xf16>, %w: memref<3x3x32x64xf16>, %out: memref<2x16x16x64xf16>) {
  %z = arith.constant 0.0 : f16
  %p = memref.alloc() : memref<2x18x18x32xf16>
  linalg.fill ins(%z : f16) outs(%p : memref<2x18x18x32xf16>)
  %sv = memref.subview %p[0, 1, 1, 0] [2, 16, 16, 32] [1, 1, 1, 1] : memref<2x18x18x32xf16> to memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>
  linalg.copy ins(%x : memref<2x16x16x32xf16>) outs(%sv : memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>)
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<2x16x16x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%p, %w : memref<2x18x18x32xf16>, memref<3x3x32x64xf16>) outs(%out : memref<2x16x16x64xf16>)
  return
}

// -----

// Bufferization reuses the padded source's buffer for the convolution's
// result (it is dead after the copy): the uses from the output's fill on
// get a new buffer, so that the kernel reads the source and writes the new
// one; the later reader follows.
// CHECK-LABEL: func.func @pad_conv_reused(
// CHECK:         %[[T:.*]] = memref.alloc() : memref<2x16x16x32xf16>
// CHECK:         gpu.launch
// CHECK:         %[[NEW:.*]] = memref.alloc() : memref<2x16x16x32xf16>
// CHECK:         gpu.launch
// CHECK-DAG:       memref.collapse_shape %[[T]] {{\[\[}}0, 1, 2, 3]] : memref<2x16x16x32xf16> into memref<16384xf16>
// CHECK-DAG:       memref.collapse_shape %[[NEW]] {{\[\[}}0, 1, 2, 3]] : memref<2x16x16x32xf16> into memref<16384xf16>
// CHECK:           memref.store
// CHECK:         linalg.copy ins(%[[NEW]] : memref<2x16x16x32xf16>)
func.func @pad_conv_reused(%x: memref<2x16x16x32xf16>, %w1: memref<1x1x32x32xf16>, %w: memref<3x3x32x32xf16>, %out: memref<2x16x16x32xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<2x16x16x32xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%t : memref<2x16x16x32xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w1 : memref<2x16x16x32xf16>, memref<1x1x32x32xf16>) outs(%t : memref<2x16x16x32xf16>)
  %p = memref.alloc() : memref<2x18x18x32xf16>
  linalg.fill ins(%z : f16) outs(%p : memref<2x18x18x32xf16>)
  %sv = memref.subview %p[0, 1, 1, 0] [2, 16, 16, 32] [1, 1, 1, 1] : memref<2x18x18x32xf16> to memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>
  linalg.copy ins(%t : memref<2x16x16x32xf16>) outs(%sv : memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>)
  linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>} ins(%z : f16) outs(%t : memref<2x16x16x32xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 1, role = anchor>} ins(%p, %w : memref<2x18x18x32xf16>, memref<3x3x32x32xf16>) outs(%t : memref<2x16x16x32xf16>)
  linalg.copy ins(%t : memref<2x16x16x32xf16>) outs(%out : memref<2x16x16x32xf16>)
  return
}

// -----

// A padding with ones stays a copy: the templates fill zeros past the
// input's edges.
// CHECK-LABEL: func.func @pad_ones(
// CHECK:         linalg.copy
// CHECK:         gpu.launch
func.func @pad_ones(%x: memref<2x16x16x32xf16>, %w: memref<3x3x32x64xf16>, %out: memref<2x16x16x64xf16>) {
  %z = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  %p = memref.alloc() : memref<2x18x18x32xf16>
  linalg.fill ins(%one : f16) outs(%p : memref<2x18x18x32xf16>)
  %sv = memref.subview %p[0, 1, 1, 0] [2, 16, 16, 32] [1, 1, 1, 1] : memref<2x18x18x32xf16> to memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>
  linalg.copy ins(%x : memref<2x16x16x32xf16>) outs(%sv : memref<2x16x16x32xf16, strided<[10368, 576, 32, 1], offset: 608>>)
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<2x16x16x64xf16>)
  // expected-remark @+1 {{the zero padding of the input stays a separate copy: its padding value is not +0.0 (the template fills zeros past the input's edges)}}
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%p, %w : memref<2x18x18x32xf16>, memref<3x3x32x64xf16>) outs(%out : memref<2x16x16x64xf16>)
  return
}

// -----

// A slice of A (a static subview, strided layout): the kernel addresses the
// sliced buffer at the slice's strides from its offset (64 elements, which
// keeps 8-element vectors aligned), with no copy.
// CHECK-LABEL: func.func @slice_a(
// CHECK-SAME:      %[[X:.*]]: memref<256x512xf16>, %[[W:.*]]: memref<384x256xf16>, %[[OUT:.*]]: memref<256x256xf16>)
// CHECK-NOT:     memref.subview
// CHECK:         gpu.launch
// CHECK:           %[[FX:.*]] = memref.collapse_shape %[[X]] {{\[\[}}0, 1]] : memref<256x512xf16> into memref<131072xf16>
// CHECK:           vector.transfer_read %[[FX]][%{{.*}}], %{{.*}}, %{{.*}} {in_bounds = [true]} : memref<131072xf16>, vector<8xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.
func.func @slice_a(%x: memref<256x512xf16>, %w: memref<384x256xf16>, %out: memref<256x256xf16>) {
  %z = arith.constant 0.0 : f16
  %xs = memref.subview %x[0, 64] [256, 384] [1, 1] : memref<256x512xf16> to memref<256x384xf16, strided<[512, 1], offset: 64>>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<256x256xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%xs, %w : memref<256x384xf16, strided<[512, 1], offset: 64>>, memref<384x256xf16>) outs(%out : memref<256x256xf16>)
  return
}

// -----

// One transposed temporary read as both A and B: the transpose folds into
// both reads and is erased once.
// CHECK-LABEL: func.func @same_temporary_twice(
// CHECK-SAME:      %[[XT:.*]]: memref<64x64xf16>, %[[OUT:.*]]: memref<64x64xf16>)
// CHECK-NOT:     linalg.transpose
// CHECK-NOT:     memref.alloc() : memref<64x64xf16>
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[XT]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.
func.func @same_temporary_twice(%xt: memref<64x64xf16>, %out: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %x = memref.alloc() : memref<64x64xf16>
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%xt : memref<64x64xf16>) outs(%x : memref<64x64xf16>) permutation = [1, 0]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %x : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf16>)
  memref.dealloc %x : memref<64x64xf16>
  return
}

// -----

// An elementwise prologue on an A whose K is 1 (found by hidet-random-graph):
// A's elements are loaded as vectors of one element, and the prologue's ops,
// a constant among their operands, are rebuilt on those vectors.
// CHECK-LABEL: func.func @scaled_k1(
// CHECK:         gpu.launch
// CHECK:           %[[V:.*]] = vector.{{load|transfer_read}} {{.*}} vector<1xf16>
// CHECK:           arith.mulf %[[V]], %{{.*}} : vector<1xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule =
// CHECK-NOT:     linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scaled_k1(%x: memref<14x25x1xf16>, %w: memref<14x1x147xf16>, %out: memref<14x25x147xf16>) {
  %z = arith.constant 0.0 : f16
  %a = memref.alloc() : memref<14x25x1xf16>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<14x25x1xf16>) outs(%a : memref<14x25x1xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} {
  ^bb0(%i: f16, %o: f16):
    %c = arith.constant 6.250000e-02 : f16
    %r = arith.mulf %i, %c : f16
    linalg.yield %r : f16
  }
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<14x25x147xf16>)
  linalg.batch_matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %w : memref<14x25x1xf16>, memref<14x1x147xf16>) outs(%out : memref<14x25x147xf16>)
  memref.dealloc %a : memref<14x25x1xf16>
  return
}
