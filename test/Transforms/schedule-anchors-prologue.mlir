// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-schedule-anchors{chip=sm_80},canonicalize,cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-schedule-anchors{chip=sm_80 fuse=0}))' | FileCheck %s --check-prefix=OFF

// Prologue fusion on buffers: the index-only producers of a contraction's
// inputs in its #hidet.fusion group (transpose, broadcast, copy) are folded
// into the kernel's reads, which address their sources directly; the
// temporaries and the producers are gone.

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
// CHECK:         } {hidet.schedule = #hidet.mma_matmul
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
// CHECK:         } {hidet.schedule = #hidet.simt_matmul
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
// CHECK:         } {hidet.schedule = #hidet.mma_matmul
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

// What cannot be folded runs as a separate kernel, with a remark naming the
// op and the reason. An elementwise producer (a cast) computes values, which
// the async copies cannot; the transpose after it still folds, so the
// kernel reads the cast's result.
// CHECK-LABEL: func.func @cast_then_transpose(
// CHECK:         %[[T:.*]] = memref.alloc() : memref<384x256xf16>
// CHECK:         linalg.generic
// CHECK-SAME:      outs(%[[T]] : memref<384x256xf16>)
// CHECK-NOT:     linalg.transpose
// CHECK:         gpu.launch
// CHECK:           memref.collapse_shape %[[T]] {{\[\[}}0, 1]] : memref<384x256xf16> into memref<98304xf16>
func.func @cast_then_transpose(%xt: memref<384x256xf32>, %w: memref<384x256xf16>, %out: memref<256x256xf16>) {
  %z = arith.constant 0.0 : f16
  %t = memref.alloc() : memref<384x256xf16>
  %x = memref.alloc() : memref<256x384xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): it computes new values; only index-only prologues (transpose, broadcast, copy) fold into the anchor's reads}}
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
  // expected-remark @+1 {{not fused into the kernel of linalg.conv_2d_nhwc_hwcf (a separate kernel instead): the convolution template reads its input through im2col addressing, which no prologue folds into yet}}
  linalg.transpose {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%x : memref<2x32x16x16xf16>) outs(%t : memref<2x16x16x32xf16>) permutation = [0, 2, 3, 1]
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<2x14x14x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%t, %w : memref<2x16x16x32xf16>, memref<3x3x32x64xf16>) outs(%out : memref<2x14x14x64xf16>)
  return
}
