// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule,canonicalize,cse))' -verify-diagnostics | FileCheck %s
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{fuse=0}))' | FileCheck %s --check-prefix=OFF
// RUN: hidet-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(hidet-rule-based-schedule{serial-unroll-max=8}))' | FileCheck %s --check-prefix=ROLLED

// Window reductions (depthwise convolutions, poolings) are serial
// reductions: a thread per 16 bytes of channels of an output pixel, the
// window unrolled. With fusion, the kernel reads a padded input from the
// padding's source, testing each position against the source's edges (the
// fill and the copy into the padded temporary are gone), starts from the
// constant of the fill of its output (no fill kernel), and applies its
// epilogue to the vector of results.

// CHECK-LABEL: func.func @depthwise_padded(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<2x8x8x16xf16>, %[[W:[a-z0-9]+]]: memref<3x3x16xf16>, %[[B:[a-z0-9]+]]: memref<16xf16>, %[[Y:[a-z0-9]+]]: memref<2x4x4x16xf16>)
// CHECK-DAG:     %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8xf16>
// CHECK-NOT:     memref.alloc(
// CHECK:         gpu.launch
// CHECK:           tm.foreach (%[[N:[a-z0-9]+]], %[[OH:[a-z0-9]+]], %[[OW:[a-z0-9]+]], %[[C:[a-z0-9]+]]) in #tm.spatial<[2, 4, 4, 2]> on global_x {
// CHECK:             %[[C8:.*]] = arith.muli %[[C]], %c8
// CHECK:             %[[ACC:.*]] = memref.alloca() : memref<8xf16>
// CHECK-NEXT:        vector.store %[[ZERO]], %[[ACC]]
// CHECK:             tm.repeat (%[[KH:[a-z0-9]+]], %[[KW:[a-z0-9]+]]) in <[3, 3]> {
// A window of more than serial-unroll-max elements keeps its loops.
// ROLLED-LABEL: func.func @depthwise_padded(
// ROLLED:         tm.repeat ({{.*}}) in <[3, 3], unroll = [none, none]> {
// CHECK:               %[[IH:.*]] = arith.subi %{{.*}}, %c1 : index
// CHECK-NEXT:          %[[INH:.*]] = arith.cmpi ult, %[[IH]], %c8 : index
// CHECK-NEXT:          %[[H:.*]] = arith.select %[[INH]], %[[IH]], %c0 : index
// CHECK-NEXT:          %[[IW:.*]] = arith.subi %{{.*}}, %c1 : index
// CHECK-NEXT:          %[[INW:.*]] = arith.cmpi ult, %[[IW]], %c8 : index
// CHECK-NEXT:          %[[IN:.*]] = arith.andi %[[INH]], %[[INW]] : i1
// CHECK-NEXT:          %[[WW:.*]] = arith.select %[[INW]], %[[IW]], %c0 : index
// CHECK-NEXT:          %[[V:.*]] = vector.load %[[X]][%[[N]], %[[H]], %[[WW]], %[[C8]]] {{.*}} : memref<2x8x8x16xf16>, vector<8xf16>
// CHECK-NEXT:          %[[VP:.*]] = arith.select %[[IN]], %[[V]], %[[ZERO]] : vector<8xf16>
// CHECK-NEXT:          %[[WV:.*]] = vector.load %[[W]][%[[KH]], %[[KW]], %[[C8]]] {{.*}} : memref<3x3x16xf16>, vector<8xf16>
// CHECK:               arith.mulf %[[VP]], %[[WV]] : vector<8xf16>
// CHECK:             }
// CHECK:             %[[R:.*]] = vector.load %[[ACC]]
// CHECK-NEXT:        %[[BV:.*]] = vector.load %[[B]][%[[C8]]] {{.*}} : memref<16xf16>, vector<8xf16>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[R]], %[[BV]] : vector<8xf16>
// CHECK-NEXT:        %[[RELU:.*]] = arith.maximumf %[[S]], %[[ZERO]] : vector<8xf16>
// CHECK-NEXT:        vector.store %[[RELU]], %[[Y]][%[[N]], %[[OH]], %[[OW]], %[[C8]]] {{.*}} : memref<2x4x4x16xf16>, vector<8xf16>
// CHECK-NOT:     gpu.launch
// CHECK-NOT:     linalg.
// Without fusion: the padding's fill and copy, the output's fill, the
// convolution and the epilogue are kernels of their own.
// OFF-LABEL: func.func @depthwise_padded(
// OFF-COUNT-5: gpu.launch
// OFF-NOT:     gpu.launch
// OFF-LABEL: func.func @max_pool_padded(
func.func @depthwise_padded(%x: memref<2x8x8x16xf16>, %w: memref<3x3x16xf16>, %b: memref<16xf16>, %y: memref<2x4x4x16xf16>) {
  %z = arith.constant 0.0 : f16
  %p = memref.alloc() : memref<2x10x10x16xf16>
  linalg.map outs(%p : memref<2x10x10x16xf16>)
    (%init: f16) {
      linalg.yield %z : f16
    }
  %i = memref.subview %p[0, 1, 1, 0] [2, 8, 8, 16] [1, 1, 1, 1] : memref<2x10x10x16xf16> to memref<2x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>
  linalg.copy ins(%x : memref<2x8x8x16xf16>) outs(%i : memref<2x8x8x16xf16, strided<[1600, 160, 16, 1], offset: 176>>)
  %acc = memref.alloc() : memref<2x4x4x16xf16>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%acc : memref<2x4x4x16xf16>)
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%p, %w : memref<2x10x10x16xf16>, memref<3x3x16xf16>) outs(%acc : memref<2x4x4x16xf16>)
  linalg.generic {indexing_maps = [affine_map<(n, h, w, c) -> (n, h, w, c)>, affine_map<(n, h, w, c) -> (c)>, affine_map<(n, h, w, c) -> (n, h, w, c)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%acc, %b : memref<2x4x4x16xf16>, memref<16xf16>) outs(%y : memref<2x4x4x16xf16>) attrs = {hidet.fusion = #hidet.fusion<group = 0, role = epilogue>} {
  ^bb0(%a: f16, %c: f16, %o: f16):
    %s = arith.addf %a, %c : f16
    %r = arith.maximumf %s, %z : f16
    linalg.yield %r : f16
  }
  memref.dealloc %p : memref<2x10x10x16xf16>
  memref.dealloc %acc : memref<2x4x4x16xf16>
  return
}

// -----

// A max pooling padded with -inf: positions past the edges take -inf, the
// maximum starts from the fill's -inf, and the window operand (a shape
// only) is never read.
// CHECK-LABEL: func.func @max_pool_padded(
// CHECK-SAME:    %[[X:[a-z0-9]+]]: memref<4x6x6x32xf32>,
// CHECK-DAG:     %[[NINF:.*]] = arith.constant dense<0xFF800000> : vector<4xf32>
// CHECK:         gpu.launch
// CHECK:           tm.foreach ({{.*}}) in #tm.spatial<[4, 3, 3, 8]> on global_x {
// CHECK:             vector.store %[[NINF]], %[[ACC:.*]][
// CHECK:             tm.repeat
// CHECK:               %[[V:.*]] = vector.load %[[X]][{{.*}}] {{.*}} : memref<4x6x6x32xf32>, vector<4xf32>
// CHECK-NEXT:          %[[VP:.*]] = arith.select %{{.*}}, %[[V]], %[[NINF]] : vector<4xf32>
// CHECK-NOT:           memref<3x3xf32>
// CHECK:               arith.maximumf {{.*}}%[[VP]]
// CHECK-NOT:     gpu.launch
func.func @max_pool_padded(%x: memref<4x6x6x32xf32>, %y: memref<4x3x3x32xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %p = memref.alloc() : memref<4x8x8x32xf32>
  linalg.fill ins(%ninf : f32) outs(%p : memref<4x8x8x32xf32>)
  %i = memref.subview %p[0, 1, 1, 0] [4, 6, 6, 32] [1, 1, 1, 1] : memref<4x8x8x32xf32> to memref<4x6x6x32xf32, strided<[2048, 256, 32, 1], offset: 288>>
  linalg.copy ins(%x : memref<4x6x6x32xf32>) outs(%i : memref<4x6x6x32xf32, strided<[2048, 256, 32, 1], offset: 288>>)
  %win = memref.alloc() : memref<3x3xf32>
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%ninf : f32) outs(%y : memref<4x3x3x32xf32>)
  linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%p, %win : memref<4x8x8x32xf32>, memref<3x3xf32>) outs(%y : memref<4x3x3x32xf32>)
  memref.dealloc %p : memref<4x8x8x32xf32>
  return
}

// -----

// A padding of the channels, which the kernel reads as vectors, stays a
// separate copy, with a remark; the output's fill still folds.
// CHECK-LABEL: func.func @channels_padded(
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT:     gpu.launch
func.func @channels_padded(%x: memref<1x4x4x8xf16>, %w: memref<3x3x16xf16>, %y: memref<1x2x2x16xf16>) {
  %z = arith.constant 0.0 : f16
  %p = memref.alloc() : memref<1x4x4x16xf16>
  linalg.fill ins(%z : f16) outs(%p : memref<1x4x4x16xf16>)
  %i = memref.subview %p[0, 0, 0, 0] [1, 4, 4, 8] [1, 1, 1, 1] : memref<1x4x4x16xf16> to memref<1x4x4x8xf16, strided<[256, 64, 16, 1]>>
  linalg.copy ins(%x : memref<1x4x4x8xf16>) outs(%i : memref<1x4x4x8xf16, strided<[256, 64, 16, 1]>>)
  linalg.fill {hidet.fusion = #hidet.fusion<group = 0, role = prologue>} ins(%z : f16) outs(%y : memref<1x2x2x16xf16>)
  // expected-remark @+1 {{the padding of input 0 stays a separate copy: it pads the dimension the kernel reads as vectors}}
  linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>, hidet.fusion = #hidet.fusion<group = 0, role = anchor>} ins(%p, %w : memref<1x4x4x16xf16>, memref<3x3x16xf16>) outs(%y : memref<1x2x2x16xf16>)
  memref.dealloc %p : memref<1x4x4x16xf16>
  return
}
