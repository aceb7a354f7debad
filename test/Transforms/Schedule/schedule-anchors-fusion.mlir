// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80},func.func(hidet-select-schedules,hidet-schedule-anchors{split-k-in-kernel=1},canonicalize,cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules,hidet-schedule-anchors,canonicalize,cse))' -verify-diagnostics | FileCheck %s --check-prefix=HOPPER
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_80},func.func(hidet-select-schedules{fuse=0},hidet-schedule-anchors{fuse=0}))' | FileCheck %s --check-prefix=OFF
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(hidet-set-target{chip=sm_90a},func.func(hidet-select-schedules,hidet-schedule-anchors{scatter-max-bytes=0}))' 2>/dev/null | FileCheck %s --check-prefix=NOSCATTER

// Epilogue fusion on buffers: the ops of an anchor's #hidet.fusion group
// that follow it are applied to each result in the anchor's kernel, which
// runs where the chain's last op was and stores only the chain's result.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// Bias (in place) then GELU into the output: one kernel; the truncated
// result goes through the bias load and the GELU to the output; the
// intermediate buffer and the epilogue ops are gone.
// CHECK-LABEL: func.func @bias_gelu(
// CHECK-SAME:      %[[A:.*]]: memref<256x128xf16>, %[[B:.*]]: memref<128x512xf16>, %[[BIAS:.*]]: memref<512xf16>, %[[OUT:.*]]: memref<256x512xf16>)
// CHECK-NOT:     memref.alloc() : memref<256x512xf16>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           scf.if
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:        %[[BV:.*]] = memref.load %[[BIAS]][%[[COL:.*]]] : memref<512xf16>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[T]], %[[BV]] : f16
// CHECK-NEXT:        math.tanh %[[S]] : f16
// CHECK:             %[[G:.*]] = arith.mulf %[[S]], %{{.*}} : f16
// CHECK-NEXT:        memref.store %[[G]], %[[OUT]][%[[ROW:.*]], %[[COL]]] : memref<256x512xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.generic
// CHECK-NOT:     memref.dealloc
// CHECK:         return
// OFF-LABEL: func.func @bias_gelu(
// OFF:         gpu.launch
// OFF:         linalg.generic
// OFF:         linalg.generic
// The Hopper kernel applies it to 8 consecutive results at once: the bias
// in one vector load, the GELU on vectors, one 16-byte store.
// HOPPER-LABEL: func.func @bias_gelu(
// HOPPER-SAME:      %[[A:.*]]: memref<256x128xf16>, %[[B:.*]]: memref<128x512xf16>, %[[BIAS:.*]]: memref<512xf16>, %[[OUT:.*]]: memref<256x512xf16>)
// HOPPER:         gpu.launch
// HOPPER:           nvgpu.warpgroup.mma
// The accumulators start at +0.0, which is the fill: nothing is added.
// HOPPER-NOT:       arith.addf %{{.*}} : f32
// The bias of both 32-column chunks is loaded before the first is staged
// (at a column clamped inside C), once for the lane's two rows.
// HOPPER:           %[[BV0:.*]] = vector.load %[[BIAS]][%{{.*}}] {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// HOPPER:           %[[BV1:.*]] = vector.load %[[BIAS]][%{{.*}}] {alignment = 16 : i64} : memref<512xf16>, vector<8xf16>
// The tiles divide C: no piece is checked against its edges.
// HOPPER:           nvvm.bar.warp.sync
// HOPPER-NEXT:      %[[V:.*]] = vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// HOPPER-NEXT:      %[[S:.*]] = arith.addf %[[V]], %[[BV0]] : vector<8xf16>
// HOPPER-NEXT:      math.tanh %[[S]] : vector<8xf16>
// HOPPER:           vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x512xf16>, vector<8xf16>
// HOPPER-NEXT:      vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// HOPPER-NEXT:      arith.addf %{{.*}}, %[[BV0]] : vector<8xf16>
// HOPPER:           nvvm.bar.warp.sync
// HOPPER:           nvvm.bar.warp.sync
// HOPPER-NEXT:      vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// HOPPER-NEXT:      arith.addf %{{.*}}, %[[BV1]] : vector<8xf16>
// HOPPER:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul
// HOPPER-NOT:     linalg.generic
func.func @bias_gelu(%a: memref<256x128xf16>, %b: memref<128x512xf16>, %bias: memref<512xf16>, %out: memref<256x512xf16>) {
  %z = arith.constant 0.0 : f16
  %half = arith.constant 0.5 : f16
  %one = arith.constant 1.0 : f16
  %c = memref.alloc() : memref<256x512xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<256x512xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>) outs(%c : memref<256x512xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<256x512xf16>, memref<512xf16>) outs(%c : memref<256x512xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<256x512xf16>) outs(%out : memref<256x512xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %t = math.tanh %x : f16
    %u = arith.addf %t, %one : f16
    %w = arith.mulf %u, %half : f16
    %r = arith.mulf %x, %w : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c : memref<256x512xf16>
  return
}

// -----

// The SIMT template (f32) loads the bias of the thread's four columns once,
// before its first store, and adds it to each of its four rows' results (a
// side input that depends on the row would be loaded beside its element).
// K = 32 is too short to split, so the epilogue stays in the GEMM's kernel.
// CHECK-LABEL: func.func @bias_relu_simt(
// CHECK-SAME:      %[[A:.*]]: memref<256x32xf32>, %[[B:.*]]: memref<32x512xf32>, %[[BIAS:.*]]: memref<512xf32>, %[[OUT:.*]]: memref<256x512xf32>)
// CHECK:         gpu.launch
// CHECK:           math.fma
// CHECK:           %[[B0:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<512xf32>
// CHECK:           %[[B1:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<512xf32>
// CHECK:           %[[B2:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<512xf32>
// CHECK:           %[[B3:.*]] = memref.load %[[BIAS]][%{{.*}}] : memref<512xf32>
// CHECK-NOT:       memref.load %[[BIAS]]
// CHECK:           scf.if
// CHECK-NEXT:        %[[V:.*]] = memref.load %{{.*}}[%c0, %c0] : memref<4x4xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[V]], %[[B0]] : f32
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f32
// CHECK-NEXT:        memref.store %[[R]], %[[OUT]][%{{.*}}, %{{.*}}] : memref<256x512xf32>
// CHECK-COUNT-3:   arith.addf %{{.*}}, %[[B3]] : f32
// CHECK-NOT:       memref.load %[[BIAS]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul
// CHECK-NOT:     linalg.generic
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_relu_simt(%a: memref<256x32xf32>, %b: memref<32x512xf32>, %bias: memref<512xf32>, %out: memref<256x512xf32>) {
  %z = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x512xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%c : memref<256x512xf32>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x32xf32>, memref<32x512xf32>) outs(%c : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<256x512xf32>, memref<512xf32>) outs(%out : memref<256x512xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %r = arith.maximumf %s, %z : f32
    linalg.yield %r : f32
  }
  memref.dealloc %c : memref<256x512xf32>
  return
}

// -----

// A residual depends on the row: the first row's are loaded with the bias,
// before the first store; each later row's beside its element.
// CHECK-LABEL: func.func @bias_residual_simt(
// CHECK-SAME:      %[[BIAS:[a-z0-9]+]]: memref<512xf32>, %[[RES:[a-z0-9]+]]: memref<256x512xf32>, %[[OUT:[a-z0-9]+]]: memref<256x512xf32>)
// CHECK:           math.fma
// CHECK-COUNT-4:   memref.load %[[BIAS]]
// CHECK-NOT:       scf.if
// CHECK-COUNT-4:   scf.if
// CHECK:           %[[R:.*]] = memref.load %[[RES]]
// CHECK-NOT:       memref.load %[[BIAS]]
// CHECK:           scf.if
// CHECK:             %[[S:.*]] = arith.addf %{{.*}}, %[[R]] : f32
// CHECK-NEXT:        memref.store %[[S]], %[[OUT]]
// CHECK-NOT:       memref.load %[[BIAS]]
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.simt_matmul
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @bias_residual_simt(%a: memref<256x32xf32>, %b: memref<32x512xf32>, %bias: memref<512xf32>, %res: memref<256x512xf32>, %out: memref<256x512xf32>) {
  %z = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x512xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%c : memref<256x512xf32>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x32xf32>, memref<32x512xf32>) outs(%c : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias, %res : memref<256x512xf32>, memref<512xf32>, memref<256x512xf32>) outs(%out : memref<256x512xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  }
  memref.dealloc %c : memref<256x512xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// f32 results, bias and residual added in f32, then cast to f16. On Hopper
// the results leave the shared chunk as 4 x f32; the residual is loaded as
// a vector at the same position, the sum truncated and stored as 4 x f16.
// CHECK-LABEL: func.func @bias_residual_cast(
// CHECK:           scf.if
// CHECK-NEXT:        %[[BV:.*]] = memref.load %arg2[%[[COL:.*]]] : memref<512xf32>
// CHECK-NEXT:        %[[RV:.*]] = memref.load %arg3[%[[ROW:.*]], %[[COL]]] : memref<256x512xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %{{.*}}, %[[BV]] : f32
// CHECK-NEXT:        %[[T:.*]] = arith.addf %[[S]], %[[RV]] : f32
// CHECK-NEXT:        %[[H:.*]] = arith.truncf %[[T]] : f32 to f16
// CHECK-NEXT:        memref.store %[[H]], %arg4[%[[ROW]], %[[COL]]] : memref<256x512xf16>
// HOPPER-LABEL: func.func @bias_residual_cast(
// The side inputs are loaded before the chunk is staged.
// HOPPER:           %[[BV:.*]] = vector.load %arg2[%[[COL:.*]]] {alignment = 16 : i64} : memref<512xf32>, vector<4xf32>
// HOPPER-NEXT:      %[[RV:.*]] = vector.load %arg3[%[[ROW:.*]], %[[COL]]] {alignment = 16 : i64} : memref<256x512xf32>, vector<4xf32>
// HOPPER:           nvvm.bar.warp.sync
// HOPPER-NEXT:      %[[V:.*]] = vector.load %{{.*}} : memref<64x24xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// HOPPER-NEXT:      %[[S:.*]] = arith.addf %[[V]], %[[BV]] : vector<4xf32>
// HOPPER-NEXT:      %[[T:.*]] = arith.addf %[[S]], %[[RV]] : vector<4xf32>
// HOPPER-NEXT:      %[[H:.*]] = arith.truncf %[[T]] : vector<4xf32> to vector<4xf16>
// HOPPER-NEXT:      vector.store %[[H]], %arg4[%[[ROW]], %[[COL]]] {alignment = 8 : i64} : memref<256x512xf16>, vector<4xf16>
func.func @bias_residual_cast(%a: memref<256x128xf16>, %b: memref<128x512xf16>, %bias: memref<512xf32>, %res: memref<256x512xf32>, %out: memref<256x512xf16>) {
  %z = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<256x512xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f32) outs(%c : memref<256x512xf32>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>) outs(%c : memref<256x512xf32>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias, %res : memref<256x512xf32>, memref<512xf32>, memref<256x512xf32>) outs(%c : memref<256x512xf32>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f32, %y: f32, %r: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.addf %s, %r : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<256x512xf32>) outs(%out : memref<256x512xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f32, %o: f16):
    %h = arith.truncf %x : f32 to f16
    linalg.yield %h : f16
  }
  memref.dealloc %c : memref<256x512xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// A pre-LN residual stream bufferized in place: the epilogue reads the
// stream %x as an input and writes the sum back to %x. Each element is read
// by the thread that writes it, so the add joins the kernel, which loads
// the residual from %x and stores the sum to %x at the same position.
// CHECK-LABEL: func.func @residual_in_place(
// CHECK-SAME:      %{{.*}}: memref<256x128xf16>, %{{.*}}: memref<128x512xf16>, %[[BIAS:.*]]: memref<512xf16>, %[[X:.*]]: memref<256x512xf16>)
// CHECK:           scf.if
// CHECK-NEXT:        %[[T:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK-NEXT:        %[[RV:.*]] = memref.load %[[X]][%[[ROW:.*]], %[[COL:.*]]] : memref<256x512xf16>
// CHECK-NEXT:        %[[BV:.*]] = memref.load %[[BIAS]][%[[COL]]] : memref<512xf16>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[T]], %[[BV]] : f16
// CHECK-NEXT:        %[[R:.*]] = arith.addf %[[RV]], %[[S]] : f16
// CHECK-NEXT:        memref.store %[[R]], %[[X]][%[[ROW]], %[[COL]]] : memref<256x512xf16>
// CHECK:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.mma_matmul
// CHECK-NOT:     linalg.generic
// HOPPER-LABEL: func.func @residual_in_place(
// HOPPER:           nvgpu.warpgroup.mma
// HOPPER:           vector.load %arg3[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x512xf16>, vector<8xf16>
// HOPPER:           vector.store %{{.*}}, %arg3[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<256x512xf16>, vector<8xf16>
// HOPPER:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul
// HOPPER-NOT:     linalg.generic
func.func @residual_in_place(%a: memref<256x128xf16>, %b: memref<128x512xf16>, %bias: memref<512xf16>, %x: memref<256x512xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<256x512xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<256x512xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b : memref<256x128xf16>, memref<128x512xf16>) outs(%c : memref<256x512xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %bias, %c : memref<256x512xf16>, memref<512xf16>, memref<256x512xf16>) outs(%x : memref<256x512xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%r: f16, %y: f16, %v: f16, %o: f16):
    %s = arith.addf %v, %y : f16
    %t = arith.addf %r, %s : f16
    linalg.yield %t : f16
  }
  memref.dealloc %c : memref<256x512xf16>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// With split-K the slices go to the workspace unchanged; with
// split-k-in-kernel=1 the warp that adds a part's slices in the kernel applies the epilogue to each sum, 4
// columns at a time (the bias loaded as a vector too).
// CHECK-LABEL: func.func @split_k(
// CHECK:         %[[WS:.*]] = memref.alloc() : memref<4x1x64x256xf32>
// CHECK:         gpu.launch
// CHECK:           nvgpu.mma.sync
// CHECK:           memref.store %{{.*}}, %[[WS]]
// CHECK:           memref.atomic_rmw addi
// CHECK:           %[[FLAT:.*]] = memref.collapse_shape %[[WS]]
// CHECK-COUNT-4:   vector.load %[[FLAT]]
// CHECK:           %[[T:.*]] = arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:      %[[BV:.*]] = vector.load %arg2[%[[J:.*]]] {alignment = 8 : i64} : memref<256xf16>, vector<4xf16>
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[T]], %[[BV]] : vector<4xf16>
// CHECK-NEXT:      %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : vector<4xf16>
// CHECK-NEXT:      vector.store %[[R]], %arg3[%{{.*}}, %[[J]]] {alignment = 8 : i64} : memref<64x256xf16>, vector<4xf16>
// CHECK-NOT:     gpu.launch
// CHECK:         memref.dealloc %[[WS]]
// CHECK-NOT:     linalg.generic
func.func @split_k(%a: memref<64x4096xf16>, %b: memref<4096x256xf16>, %bias: memref<256xf16>, %out: memref<64x256xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x256xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3, split_k = 4>} ins(%a, %b : memref<64x4096xf16>, memref<4096x256xf16>) outs(%out : memref<64x256xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%out, %bias : memref<64x256xf16>, memref<256xf16>) outs(%out : memref<64x256xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    %r = arith.maximumf %s, %z : f16
    linalg.yield %r : f16
  }
  return
}

// -----

#nhwc = affine_map<(n, h, w, f) -> (n, h, w, f)>
#chan = affine_map<(n, h, w, f) -> (f)>

// Convolution (implicit GEMM) + bias + ReLU: row m of the GEMM is output
// pixel (m / 196, m % 196 / 14, m % 14); the bias is read at the channel,
// the result stored at the pixel.
// CHECK-LABEL: func.func @conv_bias_relu(
// CHECK:           scf.if
// CHECK-DAG:         %[[IMG:.*]] = arith.divui %[[M:.*]], %c196
// CHECK-DAG:         %[[PIX:.*]] = arith.remui %[[M]], %c196
// CHECK-DAG:         %[[Y:.*]] = arith.divui %[[PIX]], %c14
// CHECK-DAG:         %[[X:.*]] = arith.remui %[[PIX]], %c14
// CHECK-DAG:         %[[BV:.*]] = memref.load %arg2[%[[F:.*]]] : memref<64xf16>
// CHECK:             %[[S:.*]] = arith.addf %{{.*}}, %[[BV]] : f16
// CHECK-NEXT:        %[[R:.*]] = arith.maximumf %[[S]], %{{.*}} : f16
// CHECK-NEXT:        memref.store %[[R]], %arg3[%[[IMG]], %[[Y]], %[[X]], %[[F]]] : memref<2x14x14x64xf16>
// CHECK-NOT:     linalg.generic
func.func @conv_bias_relu(%x: memref<2x16x16x32xf16>, %w: memref<3x3x32x64xf16>, %bias: memref<64xf16>, %out: memref<2x14x14x64xf16>) {
  %z = arith.constant 0.0 : f16
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<2x14x14x64xf16>)
  linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<2x16x16x32xf16>, memref<3x3x32x64xf16>) outs(%out : memref<2x14x14x64xf16>)
  linalg.generic {indexing_maps = [#nhwc, #chan, #nhwc], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%out, %bias : memref<2x14x14x64xf16>, memref<64xf16>) outs(%out : memref<2x14x14x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %s = arith.addf %a, %b : f16
    %r = arith.maximumf %s, %z : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// BERT's query projection: the [256, 768] result is viewed as [2, 128, 12,
// 64] and transposed to heads-first [2, 12, 128, 64]. The view keeps the
// offset; the transpose is re-indexed through its inverse map, so each
// result is stored once at its transposed position.
// On sm_80 the heuristic splits K in 2, so (split-k-in-kernel=1) the warps
// that add the slices store them, 4 columns at a time. The view splits the row into batch and
// sequence and the column into head and head dimension; each group is split
// on its own, with unsigned division (no linearized offset, no divisions by
// 768).
// CHECK-LABEL: func.func @heads_transpose(
// CHECK-NOT:     memref.alloc() : memref<256x768xf16>
// CHECK:           memref.atomic_rmw addi
// CHECK:           %[[T:.*]] = arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK-NEXT:      %[[B:.*]] = arith.divui %[[I:.*]], %c128
// CHECK-NEXT:      %[[S:.*]] = arith.remui %[[I]], %c128
// CHECK-NEXT:      %[[H:.*]] = arith.divui %[[J:.*]], %c64
// CHECK-NEXT:      %[[D:.*]] = arith.remui %[[J]], %c64
// CHECK-NEXT:      vector.store %[[T]], %arg2[%[[B]], %[[H]], %[[S]], %[[D]]] {alignment = 8 : i64} : memref<2x12x128x64xf16>, vector<4xf16>
// CHECK-NOT:     linalg.transpose
// On sm_90a the Hopper template stores 16-byte vectors: the transpose
// keeps the head dimension innermost, so 8 consecutive columns of C are 8
// consecutive elements of the output.
// HOPPER-LABEL: func.func @heads_transpose(
// HOPPER:           %[[V:.*]] = vector.load %{{.*}} : memref<64x40xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// HOPPER-NEXT:      %[[B:.*]] = arith.divui %{{.*}}, %c128
// HOPPER-NEXT:      %[[S:.*]] = arith.remui %{{.*}}, %c128
// HOPPER-NEXT:      %[[H:.*]] = arith.divui %{{.*}}, %c64
// HOPPER-NEXT:      %[[D:.*]] = arith.remui %{{.*}}, %c64
// HOPPER-NEXT:      vector.store %[[V]], %arg2[%[[B]], %[[H]], %[[S]], %[[D]]] {alignment = 16 : i64} : memref<2x12x128x64xf16>, vector<8xf16>
func.func @heads_transpose(%x: memref<256x768xf16>, %w: memref<768x768xf16>, %out: memref<2x12x128x64xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<256x768xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<256x768xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<256x768xf16>, memref<768x768xf16>) outs(%c : memref<256x768xf16>)
  %v = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 128, 12, 64] : memref<256x768xf16> into memref<2x128x12x64xf16>
  linalg.transpose ins(%v : memref<2x128x12x64xf16>) outs(%out : memref<2x12x128x64xf16>) permutation = [0, 2, 1, 3] {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
  memref.dealloc %c : memref<256x768xf16>
  return
}

// -----

// BERT's key projection, transposed to [2, 12, 64, 128] for Q K^T: the
// transpose moves the innermost dimension (the head dimension, C's columns)
// outwards, so a fused kernel would store C element by element, 256 bytes
// apart. It stays a transpose kernel of its own, which stores coalesced.
// CHECK-LABEL: func.func @keys_transpose(
// CHECK:         gpu.launch
// CHECK:         linalg.transpose
// HOPPER-LABEL: func.func @keys_transpose(
// HOPPER:        gpu.launch
// HOPPER:        linalg.transpose
func.func @keys_transpose(%x: memref<256x768xf16>, %w: memref<768x768xf16>, %out: memref<2x12x64x128xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<256x768xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<256x768xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<256x768xf16>, memref<768x768xf16>) outs(%c : memref<256x768xf16>)
  %v = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [2, 128, 12, 64] : memref<256x768xf16> into memref<2x128x12x64xf16>
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): it moves the innermost dimension (a separate transpose stores it coalesced)}}
  linalg.transpose ins(%v : memref<2x128x12x64xf16>) outs(%out : memref<2x12x64x128xf16>) permutation = [0, 2, 3, 1] {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
  memref.dealloc %c : memref<256x768xf16>
  return
}

// -----

// The same at batch 1: C holds 192 KiB, no more than scatter-max-bytes
// (256 KiB), so the kernel stores C's elements one by one at their
// transposed positions instead of launching a transpose kernel.
// CHECK-LABEL: func.func @keys_transpose_small(
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %arg2[%{{.*}}] : memref<1x12x64x128xf16>
// CHECK-NOT:     linalg.transpose
// CHECK:         return
// HOPPER-LABEL: func.func @keys_transpose_small(
// HOPPER:        gpu.launch
// HOPPER:          memref.store %{{.*}}, %arg2[%{{.*}}] : memref<1x12x64x128xf16>
// HOPPER-NOT:    gpu.launch
// HOPPER-NOT:    linalg.transpose
// HOPPER:        return
// With scatter-max-bytes=0 it stays a transpose of its own.
// NOSCATTER-LABEL: func.func @keys_transpose_small(
// NOSCATTER:         gpu.launch
// NOSCATTER:         linalg.transpose
func.func @keys_transpose_small(%x: memref<128x768xf16>, %w: memref<768x768xf16>, %out: memref<1x12x64x128xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<128x768xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<128x768xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%x, %w : memref<128x768xf16>, memref<768x768xf16>) outs(%c : memref<128x768xf16>)
  %v = memref.expand_shape %c [[0, 1], [2, 3]] output_shape [1, 128, 12, 64] : memref<128x768xf16> into memref<1x128x12x64xf16>
  linalg.transpose ins(%v : memref<1x128x12x64xf16>) outs(%out : memref<1x12x64x128xf16>) permutation = [0, 2, 3, 1] {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>}
  memref.dealloc %c : memref<128x768xf16>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#bc = affine_map<(i, j, k) -> (i, j)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>

// What the chain cannot take runs as separate kernels, with a remark naming
// the op and the reason; the ops before it are still fused.
// The value before the GELU is read by another op later: the bias is fused
// (it writes that value), the GELU is not.
// CHECK-LABEL: func.func @intermediate_read_later(
// CHECK:         gpu.launch
// CHECK:           memref.store %{{.*}}, %{{.*}} : memref<64x64xf16>
// CHECK:         linalg.generic
// CHECK:         linalg.copy
func.func @intermediate_read_later(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64xf16>, %out: memref<64x64xf16>, %copy: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<64x64xf16>
  %t = memref.alloc() : memref<64x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %bias : memref<64x64xf16>, memref<64xf16>) outs(%t : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): the value before it is also read by 'linalg.copy'}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<64x64xf16>) outs(%out : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  linalg.copy ins(%t : memref<64x64xf16>) outs(%copy : memref<64x64xf16>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// An op between the anchor and its epilogue writes the bias: the fused
// kernel runs where the epilogue was, after it, and is still one kernel.
// Between the two epilogue ops, an op that writes the first one's side
// input (read too late in a fused kernel) stops the chain there.
// CHECK-LABEL: func.func @side_input_written_between(
// CHECK:         linalg.fill
// CHECK:         gpu.launch
// CHECK:           memref.load %arg2
// CHECK:           memref.store %{{.*}}, %arg3
// CHECK:         linalg.fill
// CHECK:         linalg.generic
func.func @side_input_written_between(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %bias: memref<64xf16>, %out: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %one = arith.constant 1.0 : f16
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%out : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%out : memref<64x64xf16>)
  linalg.fill ins(%one : f16) outs(%bias : memref<64xf16>)
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%out, %bias : memref<64x64xf16>, memref<64xf16>) outs(%out : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %y: f16, %o: f16):
    %s = arith.addf %x, %y : f16
    linalg.yield %s : f16
  }
  linalg.fill ins(%z : f16) outs(%bias : memref<64xf16>)
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): 'linalg.fill' between the anchor and it accesses the same buffers}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%out : memref<64x64xf16>) outs(%out : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#bc = affine_map<(i, j, k) -> (i, j)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>

// A broadcast of the result has no inverse index map; the op after it in
// the chain is not fused either.
// CHECK-LABEL: func.func @broadcast_consumer(
// CHECK:         gpu.launch
// CHECK:         linalg.generic
// CHECK:         linalg.generic
func.func @broadcast_consumer(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64x64x4xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<64x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): it reads the previous value through a map that is not a permutation (no inverse index map)}}
  linalg.generic {indexing_maps = [#bc, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%c : memref<64x64xf16>) outs(%out : memref<64x64x4xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  }
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): an earlier op of its chain is not fused}}
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%out : memref<64x64x4xf16>) outs(%out : memref<64x64x4xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#red = affine_map<(i, j) -> (i)>

// An epilogue that writes the anchor's A (other blocks still read it), and
// a reduction marked as an epilogue.
// CHECK-LABEL: func.func @writes_operand(
// CHECK:         gpu.launch
// CHECK:         linalg.generic
func.func @writes_operand(%a: memref<64x64xf16>, %b: memref<64x64xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<64x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  // expected-remark @+1 {{it writes a buffer the anchor's kernel reads}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c : memref<64x64xf16>) outs(%a : memref<64x64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    linalg.yield %x : f16
  }
  return
}

// CHECK-LABEL: func.func @reduction_epilogue(
// CHECK:         gpu.launch
// CHECK:         linalg.generic
func.func @reduction_epilogue(%a: memref<64x64xf16>, %b: memref<64x64xf16>, %out: memref<64xf16>) {
  %z = arith.constant 0.0 : f16
  %c = memref.alloc() : memref<64x64xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<64x64xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>, hidet.schedule = #hidet.mma_matmul<block = [64, 64, 32], warp = [32, 32], mma = [16, 8, 16], stages = 3>} ins(%a, %b : memref<64x64xf16>, memref<64x64xf16>) outs(%c : memref<64x64xf16>)
  // expected-remark @+1 {{it is not an all-parallel op with one output}}
  linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]} ins(%c : memref<64x64xf16>) outs(%out : memref<64xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %s = arith.addf %x, %o : f16
    linalg.yield %s : f16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A causal mask in the epilogue (scale, then select by an i1 side input):
// i1 buffers hold a byte per element while LLVM packs vectors of i1 into
// bits, so the Hopper epilogue loads the mask element by element into a
// vector (never a vector load of i1) and applies the chain to 8 elements
// at a time, stored as one 16-byte vector.
// HOPPER-LABEL: func.func @masked_scores(
// HOPPER-SAME:      %{{.*}}: memref<128x64xf16>, %{{.*}}: memref<64x128xf16>, %[[MASK:.*]]: memref<128x128xi1>, %[[OUT:.*]]: memref<128x128xf16>)
// HOPPER:         gpu.launch
// HOPPER:           nvgpu.warpgroup.mma
// HOPPER-NOT:       vector.load %[[MASK]]
// HOPPER-COUNT-8:   memref.load %[[MASK]][%{{.*}}, %{{.*}}] : memref<128x128xi1>
// HOPPER-NEXT:      %[[M:.*]] = vector.from_elements %{{.*}} : vector<8xi1>
// HOPPER-NOT:       vector.load %[[MASK]]
// HOPPER:           arith.select %[[M]], %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xf16>
// HOPPER-NEXT:      vector.store %{{.*}}, %[[OUT]][%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<128x128xf16>, vector<8xf16>
// HOPPER:         } {hidet.kernel = {{.*}}, hidet.schedule = #hidet.wgmma_matmul
// HOPPER-NOT:     linalg.generic
func.func @masked_scores(%q: memref<128x64xf16>, %k: memref<64x128xf16>, %mask: memref<128x128xi1>, %out: memref<128x128xf16>) {
  %z = arith.constant 0.0 : f16
  %scale = arith.constant 0.125 : f16
  %min = arith.constant -65504.0 : f16
  %c = memref.alloc() : memref<128x128xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c : memref<128x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%q, %k : memref<128x64xf16>, memref<64x128xf16>) outs(%c : memref<128x128xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c, %mask : memref<128x128xf16>, memref<128x128xi1>) outs(%out : memref<128x128xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %m: i1, %o: f16):
    %s = arith.mulf %x, %scale : f16
    %r = arith.select %m, %s, %min : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c : memref<128x128xf16>
  return
}

// -----

// Two anchors, each epilogue after both (the query and value projections of
// GPT-2, sliced from one GEMM): the first group's kernel runs where its
// epilogue was, between the second anchor and its epilogue. That kernel
// reads and writes none of the second group's buffers, so the second
// epilogue fuses too.
// CHECK-LABEL: func.func @interleaved(
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:     linalg.generic
// On Hopper the second group's TMA descriptors are made between the two as
// well.
// HOPPER-LABEL: func.func @interleaved(
// HOPPER:         nvgpu.tma.create.descriptor
// HOPPER:         gpu.launch
// HOPPER:         nvgpu.tma.create.descriptor
// HOPPER:         gpu.launch
// HOPPER-NOT:     linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @interleaved(%a: memref<128x64xf16>, %b1: memref<64x128xf16>, %b2: memref<64x128xf16>, %o1: memref<128x128xf16>, %o2: memref<128x128xf16>) {
  %z = arith.constant 0.0 : f16
  %c1 = memref.alloc() : memref<128x128xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c1 : memref<128x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b1 : memref<128x64xf16>, memref<64x128xf16>) outs(%c1 : memref<128x128xf16>)
  %c2 = memref.alloc() : memref<128x128xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>} ins(%z : f16) outs(%c2 : memref<128x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>} ins(%a, %b2 : memref<128x64xf16>, memref<64x128xf16>) outs(%c2 : memref<128x128xf16>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c1 : memref<128x128xf16>) outs(%o1 : memref<128x128xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c2 : memref<128x128xf16>) outs(%o2 : memref<128x128xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c1 : memref<128x128xf16>
  memref.dealloc %c2 : memref<128x128xf16>
  return
}

// -----

// The same, but the first epilogue reads a buffer that the second one
// writes (a residual): the check of the ops between an anchor and its
// epilogue takes a kernel's buffers from what it captures and what it
// stores, and keeps the second epilogue a kernel of its own.
// CHECK-LABEL: func.func @interleaved_conflict(
// CHECK-COUNT-2: gpu.launch
// CHECK:         linalg.generic {{.*}} outs(%arg4 : memref<128x128xf16>)
// HOPPER-LABEL: func.func @interleaved_conflict(
// HOPPER-COUNT-2: gpu.launch
// HOPPER:         linalg.generic {{.*}} outs(%arg4 : memref<128x128xf16>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @interleaved_conflict(%a: memref<128x64xf16>, %b1: memref<64x128xf16>, %b2: memref<64x128xf16>, %o1: memref<128x128xf16>, %o2: memref<128x128xf16>) {
  %z = arith.constant 0.0 : f16
  %c1 = memref.alloc() : memref<128x128xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%c1 : memref<128x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%a, %b1 : memref<128x64xf16>, memref<64x128xf16>) outs(%c1 : memref<128x128xf16>)
  %c2 = memref.alloc() : memref<128x128xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 1, role = prologue>} ins(%z : f16) outs(%c2 : memref<128x128xf16>)
  linalg.matmul {hidet.fusion = #hidet.fusion<group = 1, role = anchor>} ins(%a, %b2 : memref<128x64xf16>, memref<64x128xf16>) outs(%c2 : memref<128x128xf16>)
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%c1, %o2 : memref<128x128xf16>, memref<128x128xf16>) outs(%o1 : memref<128x128xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%x: f16, %r: f16, %o: f16):
    %s = arith.addf %x, %r : f16
    linalg.yield %s : f16
  }
  // expected-remark @+1 {{not fused into the kernel of linalg.matmul (a separate kernel instead): 'gpu.launch' between the anchor and it accesses the same buffers}}
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%c2 : memref<128x128xf16>) outs(%o2 : memref<128x128xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 1, role = epilogue>} {
  ^bb0(%x: f16, %o: f16):
    %r = arith.maximumf %x, %z : f16
    linalg.yield %r : f16
  }
  memref.dealloc %c1 : memref<128x128xf16>
  memref.dealloc %c2 : memref<128x128xf16>
  return
}
