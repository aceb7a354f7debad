// RUN: hidet-opt %s -split-input-file --hidet-bufferize --hidet-schedule-kernels -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --hidet-bufferize "--hidet-schedule-kernels=attention-skip-masked=1" -verify-diagnostics | FileCheck %s --check-prefix=SKIP

// The fused attention kernel: one launch (the schedule on it) where three
// kernels were. Q's tile and double-buffered tiles of K and V come by
// cp.async; per key tile, S = Q K^T with mma.sync (K's fragments by
// ldmatrix), the scores' epilogue (the scale), the running row maximum
// across the 4 lanes of a row (xor shuffles 1 and 2), exp, and P V with
// V's fragments by ldmatrix.trans; the output goes out after the loop.
// The default schedule's blocks take 64 query rows (4 warps): 24 x 4 blocks.
// With attention-skip-masked, a scale alone masks nothing: no test.
// SKIP-LABEL: func.func @scaled(
// SKIP:         scf.for
// SKIP-NOT:       gpu.shuffle  xor %{{.*}}, %c16_i32
// SKIP:           nvgpu.mma.sync
// CHECK-LABEL: func.func @scaled(
// CHECK-NOT:     linalg.batch_matmul
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %c96, {{.*}} threads({{.*}}) in (%{{.*}} = %c128, {{.*}} function(@scaled_attention)
// CHECK-COUNT-8:   nvgpu.device_async_copy
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:           nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK:           scf.for %[[KV:.*]] = %c0 to %c197 step %c32 {
// CHECK:             nvgpu.device_async_copy
// CHECK:             nvgpu.device_async_wait %{{.*}} {numGroups = 1 : i32}
// CHECK:             gpu.barrier
// CHECK:             nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = false} : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:             nvgpu.mma.sync
// CHECK:             arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK:             gpu.shuffle  xor %{{.*}}, %c1
// CHECK:             gpu.shuffle  xor %{{.*}}, %c2
// CHECK:             math.exp
// CHECK:             nvgpu.ldmatrix {{.*}} {numTiles = 4 : i32, transpose = true} : memref<2x32x64xf16, #gpu.address_space<workgroup>>
// CHECK:             nvgpu.mma.sync
// CHECK:             gpu.barrier
// CHECK:           }
// CHECK:           nvgpu.device_async_wait %{{.*}} {numGroups = 0 : i32}
// CHECK:           arith.divf
// CHECK:         } {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>, hidet.kernel = {{.*}}}
// CHECK-NOT:     gpu.launch
// CHECK:         return
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @scaled(%q: tensor<24x197x64xf16>, %k: tensor<24x197x64xf16>, %v: tensor<24x197x64xf16>) -> tensor<24x197x64xf16> {
  %z = arith.constant 0.0 : f16
  %c = arith.constant 0.125 : f16
  %ekt = tensor.empty() : tensor<24x64x197xf16>
  %kt = linalg.transpose ins(%k : tensor<24x197x64xf16>) outs(%ekt : tensor<24x64x197xf16>) permutation = [0, 2, 1]
  %e = tensor.empty() : tensor<24x197x197xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<24x197x64xf16>, tensor<24x64x197xf16>) outs(%f : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) {
  ^bb0(%a: f16, %o: f16):
    %m = arith.mulf %a, %c : f16
    linalg.yield %m : f16
  } -> tensor<24x197x197xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<24x197x197xf16>) outs(%e : tensor<24x197x197xf16>) -> tensor<24x197x197xf16>
  %eo = tensor.empty() : tensor<24x197x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<24x197x197xf16>, tensor<24x197x64xf16>) outs(%fo : tensor<24x197x64xf16>) -> tensor<24x197x64xf16>
  return %o : tensor<24x197x64xf16>
}

// -----

// Queries converted from f32 in the kernel's reads (an elementwise
// prologue), and keys stored K^T ([head][key]: the tile's head elements
// are not contiguous), cannot be copied as raw bytes: the tiles are loaded through
// registers and stored to one stage each, between barriers. A written
// schedule (here 16 query rows, one warp) is built as written.
// CHECK-LABEL: func.func @converted(
// CHECK:         gpu.launch {{.*}} threads({{.*}}) in (%{{.*}} = %c32, {{.*}} function(@converted_attention)
// CHECK-NOT:       nvgpu.device_async_copy
// CHECK:           arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK:           scf.for %{{.*}} = %c0 to %c40 step %c16 {
// CHECK:             gpu.barrier
// CHECK:             nvgpu.ldmatrix {{.*}} : memref<16x32xf16, #gpu.address_space<workgroup>>
// CHECK:         } {hidet.attention = #hidet.attention<block_q = 16, block_kv = 16>, hidet.kernel = {{.*}}}
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @converted(%q32: tensor<4x40x32xf32>, %kt: tensor<4x32x40xf16>, %v: tensor<4x40x32xf16>) -> tensor<4x40x32xf16> {
  %z = arith.constant 0.0 : f16
  %eq = tensor.empty() : tensor<4x40x32xf16>
  %q = linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%q32 : tensor<4x40x32xf32>) outs(%eq : tensor<4x40x32xf16>) {
  ^bb0(%a: f32, %o: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  } -> tensor<4x40x32xf16>
  %e = tensor.empty() : tensor<4x40x40xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x40x40xf16>) -> tensor<4x40x40xf16>
  %s = linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 16, block_kv = 16>} ins(%q, %kt : tensor<4x40x32xf16>, tensor<4x32x40xf16>) outs(%f : tensor<4x40x40xf16>) -> tensor<4x40x40xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x40x40xf16>) outs(%e : tensor<4x40x40xf16>) -> tensor<4x40x40xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eq : tensor<4x40x32xf16>) -> tensor<4x40x32xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x40x40xf16>, tensor<4x40x32xf16>) outs(%fo : tensor<4x40x32xf16>) -> tensor<4x40x32xf16>
  return %o : tensor<4x40x32xf16>
}

// -----

// A written #hidet.attention on a batch matmul that is not an attention's
// Q K^T is an error that says what is missing.
func.func @not_attention(%q: tensor<4x32x64xf16>, %kt: tensor<4x64x32xf16>) -> tensor<4x32x32xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  // expected-error @+1 {{hidet-select-schedules: 'hidet.attention' on a batch matmul that is not an attention's Q K^T: the scores are not followed by the six ops of a softmax}}
  %s = linalg.batch_matmul {hidet.attention = #hidet.attention<block_q = 64, block_kv = 32>} ins(%q, %kt : tensor<4x32x64xf16>, tensor<4x64x32xf16>) outs(%f : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  return %s : tensor<4x32x32xf16>
}

// -----

// A schedule written on the Q K^T keeps the three kernels.
// CHECK-LABEL: func.func @written(
// CHECK-NOT:     hidet.attention
// CHECK:         function(@written_mma)
// CHECK:         function(@written_row_group)
// CHECK:         function(@written_mma)
func.func @written(%q: tensor<4x32x64xf16>, %kt: tensor<4x64x32xf16>, %v: tensor<4x32x64xf16>) -> tensor<4x32x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<4x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %s = linalg.batch_matmul {hidet.schedule = #hidet.mma_matmul<block = [32, 32, 32], warp = [16, 16], mma = [16, 8, 16]>} ins(%q, %kt : tensor<4x32x64xf16>, tensor<4x64x32xf16>) outs(%f : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %p = linalg.softmax dimension(2) ins(%s : tensor<4x32x32xf16>) outs(%e : tensor<4x32x32xf16>) -> tensor<4x32x32xf16>
  %eo = tensor.empty() : tensor<4x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<4x32x32xf16>, tensor<4x32x64xf16>) outs(%fo : tensor<4x32x64xf16>) -> tensor<4x32x64xf16>
  return %o : tensor<4x32x64xf16>
}

// -----

// A causal mask (a select of -inf above the diagonal). With
// attention-skip-masked, each key tile first evaluates the epilogue on a
// zero score at the warp's positions; unless one of them is above -1e4 (the
// OR of the lanes by xor shuffles), the warp skips the tile's scores,
// softmax step and product with V. By default every warp computes every
// tile.
// CHECK-LABEL: func.func @causal(
// CHECK:         scf.for %{{.*}} = %c0 to %c100 step %c32 {
// CHECK-NOT:       arith.cmpf ogt
// CHECK-NOT:       scf.if %{{[^ ]*}} {
// CHECK:           nvgpu.mma.sync
// SKIP-LABEL: func.func @causal(
// SKIP:         %[[BOUND:.*]] = arith.constant -1.000000e+04 : f32
// SKIP:         scf.for %{{.*}} = %c0 to %c100 step %c32 {
// SKIP:           gpu.barrier
// SKIP:           gpu.barrier
// SKIP-NOT:       nvgpu.mma.sync
// SKIP:           arith.cmpi ule
// SKIP:           arith.select %{{.*}}, %{{.*}}, %{{.*}} : f16
// SKIP:           arith.cmpf ogt, %{{.*}}, %[[BOUND]] : f32
// SKIP:           gpu.shuffle  xor %{{.*}}, %c16_i32, %c32_i32 : i32
// SKIP:           %[[LIVE:.*]] = arith.cmpi ne, %{{.*}}, %c0_i32 : i32
// SKIP-NEXT:      scf.if %[[LIVE]] {
// SKIP:             nvgpu.mma.sync
// SKIP:             math.exp
// SKIP:             nvgpu.mma.sync
// SKIP:           }
// SKIP-NOT:       gpu.barrier
// SKIP:         }
func.func @causal(%q: tensor<6x100x64xf16>, %kt: tensor<6x64x100xf16>, %v: tensor<6x100x64xf16>) -> tensor<6x100x64xf16> {
  %z = arith.constant 0.0 : f16
  %e = tensor.empty() : tensor<6x100x100xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<6x100x64xf16>, tensor<6x64x100xf16>) outs(%f : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) {
  ^bb0(%a: f16, %o: f16):
    %c = arith.constant 0.125 : f16
    %y = arith.mulf %a, %c : f16
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %keep = arith.cmpi ule, %j, %i : index
    %ninf = arith.constant 0xFC00 : f16
    %w = arith.select %keep, %y, %ninf : f16
    linalg.yield %w : f16
  } -> tensor<6x100x100xf16>
  %p = linalg.softmax dimension(2) ins(%x : tensor<6x100x100xf16>) outs(%e : tensor<6x100x100xf16>) -> tensor<6x100x100xf16>
  %eo = tensor.empty() : tensor<6x100x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<6x100x100xf16>, tensor<6x100x64xf16>) outs(%fo : tensor<6x100x64xf16>) -> tensor<6x100x64xf16>
  return %o : tensor<6x100x64xf16>
}

// -----

// where(isnan(p), 0, p) after the softmax (PyTorch's export of
// scaled_dot_product_attention): one kernel, which writes 0 for a row whose
// sum of exponentials is not positive (all keys masked, or NaN), and says
// so in its description. The boolean mask's bias, computed between Q K^T
// and the scores' epilogue, is computed in the epilogue.
// CHECK-LABEL: func.func @nan_guard(
// CHECK-NOT:     gpu.launch
// CHECK:         gpu.launch {{.*}} function(@nan_guard_attention)
// CHECK:           %[[INV:.*]] = arith.divf %{{.*}}, %[[L:.*]] : f32
// CHECK:           %[[LIVE:.*]] = arith.cmpf ogt, %[[L]], %{{.*}} : f32
// CHECK:           %[[O:.*]] = arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK:           arith.select %[[LIVE]], %[[O]], %{{.*}} : f32
// CHECK:         } {hidet.attention = #hidet.attention<{{.*}}>, hidet.kernel = {{{.*}}softmax = ["zero_nan_rows"]{{.*}}}}
// CHECK-NOT:     gpu.launch
// CHECK:         return
// SKIP-LABEL: func.func @nan_guard(
// SKIP:         function(@nan_guard_attention)
#id4g = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#rowg = affine_map<(d0, d1, d2, d3) -> (d0, d3)>
func.func @nan_guard(%q: tensor<8x32x64xf16>, %kt: tensor<8x64x32xf16>, %v: tensor<8x32x64xf16>, %keep: tensor<2x32xi1>) -> tensor<8x32x64xf16> {
  %z = arith.constant 0.0 : f16
  %ninf = arith.constant 0xFC00 : f16
  %e = tensor.empty() : tensor<8x32x32xf16>
  %f = linalg.fill ins(%z : f16) outs(%e : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  // expected-remark @+1 {{fused attention}}
  %s = linalg.batch_matmul ins(%q, %kt : tensor<8x32x64xf16>, tensor<8x64x32xf16>) outs(%f : tensor<8x32x32xf16>) -> tensor<8x32x32xf16>
  %eb = tensor.empty() : tensor<2x32xf16>
  %bias = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%keep : tensor<2x32xi1>) outs(%eb : tensor<2x32xf16>) {
  ^bb0(%k: i1, %o: f16):
    %b = arith.select %k, %z, %ninf : f16
    linalg.yield %b : f16
  } -> tensor<2x32xf16>
  %s4 = tensor.expand_shape %s [[0, 1], [2], [3]] output_shape [2, 4, 32, 32] : tensor<8x32x32xf16> into tensor<2x4x32x32xf16>
  %e4 = tensor.empty() : tensor<2x4x32x32xf16>
  %x = linalg.generic {indexing_maps = [#id4g, #rowg, #id4g], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%s4, %bias : tensor<2x4x32x32xf16>, tensor<2x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) {
  ^bb0(%a: f16, %m: f16, %o: f16):
    %y = arith.addf %a, %m : f16
    linalg.yield %y : f16
  } -> tensor<2x4x32x32xf16>
  %p4 = linalg.softmax dimension(3) ins(%x : tensor<2x4x32x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) -> tensor<2x4x32x32xf16>
  %g4 = linalg.generic {indexing_maps = [#id4g, #id4g], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%p4 : tensor<2x4x32x32xf16>) outs(%e4 : tensor<2x4x32x32xf16>) {
  ^bb0(%a: f16, %o: f16):
    %u = arith.cmpf uno, %a, %a : f16
    %y = arith.select %u, %z, %a : f16
    linalg.yield %y : f16
  } -> tensor<2x4x32x32xf16>
  %p = tensor.collapse_shape %g4 [[0, 1], [2], [3]] : tensor<2x4x32x32xf16> into tensor<8x32x32xf16>
  %eo = tensor.empty() : tensor<8x32x64xf16>
  %fo = linalg.fill ins(%z : f16) outs(%eo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  %o = linalg.batch_matmul ins(%p, %v : tensor<8x32x32xf16>, tensor<8x32x64xf16>) outs(%fo : tensor<8x32x64xf16>) -> tensor<8x32x64xf16>
  return %o : tensor<8x32x64xf16>
}
